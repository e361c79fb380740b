// Google Benchmark: simulator speed (wall time per simulated run, events per second).
// SystemC elaborates once per process, so every iteration forks a child that builds and
// runs one simulation and reports its event counts through a pipe; the parent times it.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>

#include "hw/collectives/collective_engine.h"
#include "hw/collectives/collective_planner.h"
#include "models/kernels/matmul_kernel.h"
#include "sim/base/fork_pool.h"
#include "sim/kernel/event_queue.h"

using namespace trn;

namespace {

struct Counts {
  double flow_events = 0, queue_events = 0, sim_time = 0;
};

Counts in_child(const std::function<Counts()>& body) {
  Counts c;
  sim::run_forked(
      1,
      [&](size_t) {
        Counts r = body();
        return std::string(reinterpret_cast<const char*>(&r), sizeof r);
      },
      1,
      [&](size_t, sim::ChildOutcome&& out) {
        if (out.output.size() == sizeof c) std::memcpy(&c, out.output.data(), sizeof c);
      },
      "benchmark run");
  return c;
}

Counts collective(const char* system, int instances, int ranks, double bytes) {
  auto spec = models::load_system(system, {}, instances);
  auto sys = std::make_unique<hw::System>("system", spec, 0);
  hw::CollectiveEngine eng("collectives", *sys);
  std::vector<int> list(static_cast<size_t>(ranks));
  std::iota(list.begin(), list.end(), 0);
  auto pc = hw::plan_collective(*sys, models::CollectiveOp::AllReduce, bytes, list);
  eng.run(std::move(pc.plan), pc.ranks, 0.0, [](const hw::CollectiveResult&) {});
  Counts c;
  c.sim_time = sim::run_to_completion();
  c.flow_events = static_cast<double>(sys->net().events());
  c.queue_events = static_cast<double>(sys->events().events());
  return c;
}

void report(benchmark::State& state, const Counts& c, double wall) {
  state.counters["flow_events"] = c.flow_events;
  state.counters["queue_events"] = c.queue_events;
  state.counters["events_per_s"] = (c.flow_events + c.queue_events) / wall;
  state.counters["simulated_s"] = c.sim_time;
}

void run(benchmark::State& state, const std::function<Counts()>& body) {
  Counts c;
  double total = 0;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    c = in_child(body);
    double w = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(w);
    total += w;
  }
  report(state, c, total / static_cast<double>(state.iterations()));
}

void BM_AllReduce64_trn2_512MiB(benchmark::State& s) {
  run(s, [] { return collective("trn2.48xlarge", 1, 64, 512.0 * 1024 * 1024); });
}
void BM_AllReduce64_trn1x2_1GiB(benchmark::State& s) {
  run(s, [] { return collective("trn1.32xlarge", 2, 64, 1024.0 * 1024 * 1024); });
}
void BM_AllReduce256_trn2us_256MiB(benchmark::State& s) {
  run(s, [] { return collective("trn2-ultraserver", 1, 256, 256.0 * 1024 * 1024); });
}
void BM_Matmul4096_trn2(benchmark::State& s) {
  run(s, [] {
    auto chip = models::load_chip("trn2", {});
    auto sys = std::make_unique<hw::System>("system", models::single_chip_system(chip), 1);
    auto k = models::lower_matmul(chip, {4096, 4096, 4096, models::DType::BF16});
    sys->add_core(0, 0, k.program);
    Counts c;
    c.sim_time = sim::run_to_completion();
    c.flow_events = static_cast<double>(sys->net().events());
    c.queue_events = static_cast<double>(sys->events().events());
    return c;
  });
}
void BM_Hbm8Cores_trn2_1GiB(benchmark::State& s) {
  run(s, [] {
    auto chip = models::load_chip("trn2", {});
    auto sys = std::make_unique<hw::System>("system", models::single_chip_system(chip), 1);
    for (int i = 0; i < 8; ++i) sys->add_core(0, i, models::lower_hbm_stream(chip, 1024.0 * 1024 * 1024));
    Counts c;
    c.sim_time = sim::run_to_completion();
    c.flow_events = static_cast<double>(sys->net().events());
    c.queue_events = static_cast<double>(sys->events().events());
    return c;
  });
}

}  // namespace

BENCHMARK(BM_AllReduce64_trn2_512MiB)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_AllReduce64_trn1x2_1GiB)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_AllReduce256_trn2us_256MiB)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Matmul4096_trn2)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Hbm8Cores_trn2_1GiB)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

// SystemC needs an sc_main symbol; this program drives the kernel from main() directly.
int sc_main(int, char**) { return 0; }

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
