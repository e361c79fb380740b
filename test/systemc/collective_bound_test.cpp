// models::collective_time_lower_bound (the collective term of `trnsim plan`'s schedule bound,
// docs/plan.md section 2) never exceeds the simulated time of the same plan, alone on the
// fabric, for every op, small and large messages, flat and hierarchical plans, contiguous and
// strided groups, every registered algorithm forced; and it is not vacuous (within a factor of
// the simulated time).
#include <catch2/catch.hpp>

#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "models/collectives/algorithm.h"
#include "models/collectives/collective_bound.h"
#include "sim_helpers.h"

using namespace trn;
using models::CollectiveOp;

using test::MiB;

namespace {

// A fresh system and collective engine (one kernel per process, main.cpp: the modules of the
// previous case are replaced, not destroyed while the kernel holds them).
struct Fabric {
  models::SystemSpec spec;
  hw::System* sys;
  hw::CollectiveEngine* eng;
};
Fabric make_fabric(const char* system, int instances, const std::vector<std::string>& sets = {}) {
  static std::unique_ptr<hw::System> sys;
  static std::unique_ptr<hw::CollectiveEngine> eng;
  Fabric f{models::load_system(system, sets, instances), nullptr, nullptr};
  sys = std::make_unique<hw::System>("system", f.spec, 0);
  eng = std::make_unique<hw::CollectiveEngine>("collectives", *sys);
  f.sys = sys.get();
  f.eng = eng.get();
  return f;
}

// Runs each (op, size) on `ranks` of `system` one after another and checks the bound of each.
// With `algorithms`, each (op, size) once per algorithm, forced (nullptr: the runtime's choice).
void check_bounds(const char* system, int instances, const std::vector<int>& ranks, const std::vector<double>& sizes,
                  double min_ratio, const std::vector<std::string>& sets = {},
                  const std::vector<const models::Algorithm*>& algorithms = {nullptr}) {
  Fabric f = make_fabric(system, instances, sets);
  const models::SystemSpec& spec = f.spec;
  hw::System* sys = f.sys;
  hw::CollectiveEngine* eng = f.eng;
  const std::vector<CollectiveOp> ops = {CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::ReduceScatter,
                                         CollectiveOp::AllToAll};
  struct Case {
    CollectiveOp op;
    const models::Algorithm* force;
    double bytes, bound, time = 0;
  };
  std::vector<Case> cases;
  for (const models::Algorithm* a : algorithms)
    for (CollectiveOp op : ops)
      for (double b : sizes) cases.push_back({op, a, b, 0});
  std::function<void(size_t)> next = [&](size_t i) {
    if (i >= cases.size()) return;
    hw::PlannedCollective pc = hw::plan_collective(*sys, cases[i].op, cases[i].bytes, ranks, cases[i].force);
    cases[i].bound = models::collective_time_lower_bound(pc, sys->topology(), spec.chip, sys->lnc());
    eng->run(std::move(pc.plan), pc.ranks, 0.0, [&, i](const hw::CollectiveResult& r) {
      cases[i].time = r.time();
      next(i + 1);
    });
  };
  next(0);
  sim::run_to_completion();
  for (const Case& c : cases) {
    INFO(system << " x" << instances << ", " << ranks.size() << " ranks, " << models::collective_op_name(c.op) << " "
                << c.bytes << " B, " << (c.force ? models::algorithm_name(*c.force) : "auto") << ": bound " << c.bound
                << " s, simulated " << c.time << " s");
    CHECK(c.time > 0);
    // Where the bound is exact (one transfer per step) the kernel's 1 ps event rounding shows.
    CHECK(c.bound <= c.time * (1 + 1e-12) + 1e-10);
    CHECK(c.bound >= min_ratio * c.time);
  }
}

std::vector<int> strided(int first, int count, int stride) {
  std::vector<int> v;
  for (int i = 0; i < count; ++i) v.push_back(first + i * stride);
  return v;
}

const std::vector<double> kSizes = {4096, 2 * MiB, 64 * MiB, 512 * MiB};

}  // namespace

TEST_CASE("collective bound: trn2.48xlarge, 16 contiguous ranks (a TP group over 4 chips)", "[collective][bound]") {
  check_bounds("trn2.48xlarge", 1, strided(0, 16, 1), kSizes, 0.5);
}

TEST_CASE("collective bound: every registered algorithm, forced, on 16 trn2 ranks", "[collective][bound]") {
  const std::vector<models::Algorithm> all = models::registered_algorithms();
  std::vector<const models::Algorithm*> forced;
  for (const models::Algorithm& a : all) forced.push_back(&a);
  check_bounds("trn2.48xlarge", 1, strided(0, 16, 1), {4096, 2 * MiB, 64 * MiB}, 0.5, {}, forced);
}

TEST_CASE("collective bound: every registered algorithm, forced, on 12 trn2 ranks", "[collective][bound]") {
  const std::vector<models::Algorithm> all = models::registered_algorithms();
  std::vector<const models::Algorithm*> forced;
  for (const models::Algorithm& a : all) forced.push_back(&a);
  check_bounds("trn2.48xlarge", 1, strided(0, 12, 1), {4096, 2 * MiB, 64 * MiB}, 0.5, {}, forced);
}

TEST_CASE("collective bound: trn2.48xlarge, 16 ranks one per chip (an FSDP group)", "[collective][bound]") {
  check_bounds("trn2.48xlarge", 1, strided(0, 16, 4), kSizes, 0.5);
}

TEST_CASE("collective bound: trn2-ultraserver, 64 ranks of 64 chips", "[collective][bound]") {
  check_bounds("trn2-ultraserver", 1, strided(1, 64, 4), kSizes, 0.5);
}

TEST_CASE("collective bound: two trn1.32xlarge over EFA, hierarchical", "[collective][bound]") {
  check_bounds("trn1.32xlarge", 2, strided(0, 64, 1), kSizes, 0.5);
}

TEST_CASE("collective bound: the SDK 2.6 runtime's all-reduce ring, 8 trn1 ranks", "[collective][bound][sdk]") {
  check_bounds("trn1.32xlarge", 1, strided(0, 8, 1), kSizes, 0.5, {"chip.collectives.sdk=2.6"});
}

TEST_CASE("collective bound: the SDK 2.6 runtime's all-reduce ring, two trn1.32xlarge", "[collective][bound][sdk]") {
  check_bounds("trn1.32xlarge", 2, strided(0, 64, 1), kSizes, 0.5, {"chip.collectives.sdk=2.6"});
}

TEST_CASE("collective bound: four trn2.48xlarge, a DP group of one rank per instance", "[collective][bound]") {
  check_bounds("trn2.48xlarge", 4, strided(3, 4, 64), kSizes, 0.5);
}

TEST_CASE("collective bound: trn3-gen2-ultraserver, 36 ranks", "[collective][bound]") {
  check_bounds("trn3-gen2-ultraserver", 1, strided(0, 36, 2), kSizes, 0.5);
}

TEST_CASE("collective bound: a send-recv pair between instances", "[collective][bound]") {
  Fabric f = make_fabric("trn2.48xlarge", 2);
  hw::PlannedCollective pc = hw::plan_collective(*f.sys, CollectiveOp::SendRecv, 64 * MiB, {5, 64 + 5});
  const double bound = models::collective_time_lower_bound(pc, f.sys->topology(), f.spec.chip, f.sys->lnc());
  double time = 0;
  f.eng->run(std::move(pc.plan), pc.ranks, 0.0, [&](const hw::CollectiveResult& r) { time = r.time(); });
  sim::run_to_completion();
  CHECK(bound <= time);
  CHECK(bound >= 0.5 * time);
}
