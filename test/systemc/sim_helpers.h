// Helpers for SystemC tests: run one collective sweep or one set of core programs in a
// fresh simulation (each test case runs in its own process, see main.cpp).
#pragma once

#include <functional>
#include <memory>
#include <numeric>
#include <vector>

#include "hw/collectives/collective_engine.h"
#include "hw/collectives/collective_planner.h"
#include "sim/kernel/event_queue.h"

namespace trn::test {

struct SweepResult {
  std::vector<double> times;
  std::vector<std::string> algorithms;
  uint64_t flow_events = 0;
};

/// Runs `op` for each size back to back on ranks 0..ranks-1 of `system` (instances as given).
inline SweepResult run_collective(const std::string& system, int instances, models::CollectiveOp op, int ranks,
                                  const std::vector<double>& sizes, const models::Algorithm* force = nullptr,
                                  std::vector<std::string> sets = {}) {
  models::SystemSpec spec = models::load_system(system, sets, instances);
  static std::unique_ptr<hw::System> sys;  // lives until process exit (one kernel per process)
  static std::unique_ptr<hw::CollectiveEngine> eng;
  sys = std::make_unique<hw::System>("system", spec, 0);
  eng = std::make_unique<hw::CollectiveEngine>("collectives", *sys);
  std::vector<int> list(static_cast<size_t>(ranks));
  std::iota(list.begin(), list.end(), 0);
  SweepResult out;
  out.times.resize(sizes.size());
  out.algorithms.resize(sizes.size());
  std::function<void(size_t)> next = [&](size_t i) {
    if (i >= sizes.size()) return;
    auto pc = hw::plan_collective(*sys, op, sizes[i], list, force);
    out.algorithms[i] = pc.plan.algorithm;
    eng->run(std::move(pc.plan), pc.ranks, 0.0, [&, i](const hw::CollectiveResult& r) {
      out.times[i] = r.time();
      next(i + 1);
    });
  };
  next(0);
  sim::run_to_completion();
  out.flow_events = sys->net().events();
  return out;
}

}  // namespace trn::test
