// Compile-latency model: closed forms, scheduling, cache, host limits, failure predicates,
// the mechanisms of issue 4 and the validation points that need no steady-step simulation.
#include <catch2/catch.hpp>

#include "models/compile/compile_model.h"
#include "workloads/compile/first_step.h"
#include "workloads/compile/flex_suite.h"

using namespace trn;
using models::CompileJob;
using models::CompileParams;

namespace {
double part(const workloads::FirstStep& f, const std::string& name) {
  for (const auto& [k, v] : f.parts)
    if (k == name) return v;
  FAIL("no part " << name);
  return 0;
}
}  // namespace

TEST_CASE("compile cost: fixed, linear and super-linear parts", "[compile]") {
  CompileParams p;
  p.c0 = sim::Time(10);
  p.a = sim::Time(1e-3);
  p.b = sim::Time(2e-3);
  p.alpha = 1.5;
  p.i_ref = 1e6;
  CompileJob j;
  j.units = 1e6;
  CHECK(models::compile_seconds(p, j) == Approx(10 + 1000 + 2000));
  j.units = 4e6;  // super-linear part grows as I^1.5: 4^1.5 = 8
  CHECK(models::compile_seconds(p, j) == Approx(10 + 4000 + 2e-3 * 4e6 * 2));
  j.hit = 1;
  CHECK(models::compile_seconds(p, j) == 0);
  CompileJob k;
  k.kernel = true;
  k.units = 1000;
  CHECK(models::compile_seconds(p, k) == Approx(p.c0_op.v + p.a_op.v * 1000));
}

TEST_CASE("LPT makespan and worker limits", "[compile]") {
  CHECK(models::lpt_makespan({5, 4, 3, 3, 3}, 2) == Approx(10));  // LPT: {5,3,3} {4,3,3}... = 10 (optimum 9)
  CHECK(models::lpt_makespan({5, 4, 3}, 10) == Approx(5));
  CHECK(models::lpt_makespan({5, 4, 3}, 1) == Approx(12));
  CompileParams p;
  std::vector<CompileJob> jobs(6);
  for (auto& j : jobs) j.units = 1e5;
  models::HostLimits h;
  h.vcpus = 16;
  h.memory = 1e12;
  CHECK(models::compile_phase(p, jobs, models::Schedule::Parallel, h, 1, 0).workers == 2);  // 16 / 8 cores per job
  h.vcpus = 1024;
  h.memory = 3 * (p.mu0.v + p.mu1.v * 1e5);
  CHECK(models::compile_phase(p, jobs, models::Schedule::Parallel, h, 1, 0).workers == 3);  // memory-bound
}

TEST_CASE("failure predicates: budget, host memory, instruction limit", "[compile]") {
  CompileParams p;
  models::HostLimits h;
  h.vcpus = 64;
  h.memory = 1e12;
  CompileJob big;
  big.name = "big";
  big.units = 5e6;
  auto r = models::compile_phase(p, {big}, models::Schedule::Sequential, h, 1, 1.0);
  REQUIRE(r.failures.size() == 1);
  CHECK(r.failures[0] == "big: timeout");
  h.memory = 1e9;
  CHECK(models::compile_phase(p, {big}, models::Schedule::Sequential, h, 1, 0).failures[0] == "big: host-oom");
  p.i_max = 1e6;
  CHECK(models::compile_phase(p, {big}, models::Schedule::Sequential, h, 1, 0).failures[0] == "big: instruction-limit");
}

TEST_CASE("a warm cache removes compile time but not load and initialisation", "[compile][mechanism]") {
  CompileParams p = workloads::load_compile_params();
  auto cold =
      workloads::first_step(workloads::load_scenario("qwen3-32b-trn2", {}), p, workloads::ExecMode::Compiled, 4.6);
  auto warm = workloads::first_step(workloads::load_scenario("qwen3-32b-trn2", {"compile.cache=warm"}), p,
                                    workloads::ExecMode::Compiled, 4.6);
  CHECK(part(warm, "compile") <= warm.inventory.jobs.size() * p.t_hit.v * (1 + 1e-9));  // a lookup per graph or kernel
  CHECK(part(warm, "compile") < 0.2 * part(cold, "compile"));
  CHECK(part(warm, "neff_load") == Approx(part(cold, "neff_load")));
  CHECK(part(warm, "weight_init") == Approx(part(cold, "weight_init")));
  CHECK(part(warm, "process_start") == Approx(part(cold, "process_start")));
  CHECK(warm.total < cold.total);
}

TEST_CASE("doubling host vCPUs shortens parallel compilation until the longest graph dominates",
          "[compile][mechanism]") {
  CompileParams p = workloads::load_compile_params();
  double prev = 1e30, longest = 0;
  for (int vcpus : {8, 16, 32, 64, 128, 256}) {
    auto s = workloads::load_scenario("bert-large-trn1",
                                      {"compile.parallel_compile=true", "system.host.vcpus=" + std::to_string(vcpus)});
    auto f = workloads::first_step(s, p, workloads::ExecMode::Compiled, 1.0);
    for (const auto& j : f.compile.jobs) longest = std::max(longest, j.seconds);
    CHECK(f.compile.wall_s <= prev * (1 + 1e-12));
    CHECK(f.compile.wall_s >= longest * (1 - 1e-12));
    prev = f.compile.wall_s;
  }
  CHECK(prev == Approx(longest));  // enough workers: the longest graph sets the pace
}

TEST_CASE("more layers: regional compile unchanged, whole-step compile grows super-linearly", "[compile][mechanism]") {
  CompileParams p = workloads::load_compile_params();
  auto compile_of = [&](int layers, const std::string& frontend) {
    auto s = workloads::load_scenario("qwen3-32b-trn2",
                                      {"model.num_layers=" + std::to_string(layers), "compile.frontend=" + frontend});
    return workloads::first_step(s, p, workloads::ExecMode::Compiled, 1.0).compile.wall_s;
  };
  auto regional_graphs = [&](int layers) {  // the block graphs (the eager remainder's optimizer grows)
    auto s = workloads::load_scenario("qwen3-32b-trn2", {"model.num_layers=" + std::to_string(layers)});
    double t = 0;
    for (const auto& j : workloads::first_step(s, p, workloads::ExecMode::Compiled, 1.0).compile.jobs)
      if (j.name.rfind("block", 0) == 0) t += j.seconds;
    return t;
  };
  CHECK(regional_graphs(32) > 0);
  CHECK(regional_graphs(32) == Approx(regional_graphs(64)));
  CHECK(compile_of(64, "torchneuron") < 1.1 * compile_of(32, "torchneuron"));
  double x32 = compile_of(32, "xla"), x64 = compile_of(64, "xla");
  CHECK(x64 > 2.0 * x32);
}

TEST_CASE("validation: gpt-oss-20B recipe compile ~1,637 s within 15%", "[compile][validation]") {
  auto f = workloads::first_step(workloads::load_scenario("gpt-oss-20b-trn2", {}), workloads::load_compile_params(),
                                 workloads::ExecMode::Compiled, 1.0);
  CHECK(f.compile.wall_s == Approx(1637).epsilon(0.15));
}

TEST_CASE("validation: BERT-Large ~13 min parallel vs ~40 min sequential within 25%", "[compile][validation]") {
  CompileParams p = workloads::load_compile_params();
  auto seq =
      workloads::first_step(workloads::load_scenario("bert-large-trn1", {}), p, workloads::ExecMode::Compiled, 1.0);
  auto par = workloads::first_step(workloads::load_scenario("bert-large-trn1", {"compile.parallel_compile=true"}), p,
                                   workloads::ExecMode::Compiled, 1.0);
  CHECK(seq.compile.wall_s == Approx(40 * 60).epsilon(0.25));
  CHECK(par.compile.wall_s == Approx(13 * 60).epsilon(0.25));
}

TEST_CASE("validation: FlexAttention suite, exactly 7 of 96 fail, all at batch 4 and seq 8192",
          "[compile][validation]") {
  CompileParams p = workloads::load_compile_params();
  auto rs = workloads::run_flex_suite(p, 600, 1.0);
  REQUIRE(rs.size() == 96);
  int fail = 0;
  for (const auto& r : rs) {
    if (!r.pass) {
      ++fail;
      CHECK(r.c.batch == 4);
      CHECK(r.c.seq == 8192);
    }
  }
  CHECK(fail == 7);
  int fast = 0, long_budget = 0;
  for (const auto& r : workloads::run_flex_suite(p, 600, 2.0)) fast += !r.pass;
  for (const auto& r : workloads::run_flex_suite(p, 1200, 1.0)) long_budget += !r.pass;
  CHECK(fast < 7);
  CHECK(long_budget < 7);
}
