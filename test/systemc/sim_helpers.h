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

// Sizes in bytes (binary units), shared by the tests (one unity translation unit).
inline constexpr double KiB = 1024.0, MiB = 1024.0 * 1024, GiB = 1024.0 * 1024 * 1024;

struct SweepResult {
  std::vector<double> times;
  std::vector<std::string> algorithms;
  uint64_t flow_events = 0;
};

/// The simulation's system and collective engine (one kernel per process, so they live until
/// process exit) and the ranks 0..ranks-1.
struct Engine {
  hw::System* sys;
  hw::CollectiveEngine* eng;
  std::vector<int> ranks;
};

inline Engine fresh_engine(const std::string& system, int instances, int ranks,
                           const std::vector<std::string>& sets = {}) {
  models::SystemSpec spec = models::load_system(system, sets, instances);
  static std::unique_ptr<hw::System> sys;
  static std::unique_ptr<hw::CollectiveEngine> eng;
  sys = std::make_unique<hw::System>("system", spec, 0);
  eng = std::make_unique<hw::CollectiveEngine>("collectives", *sys);
  Engine e{sys.get(), eng.get(), std::vector<int>(static_cast<size_t>(ranks))};
  std::iota(e.ranks.begin(), e.ranks.end(), 0);
  return e;
}

/// Runs `op` for each size back to back on ranks 0..ranks-1 of `system` (instances as given).
inline SweepResult run_collective(const std::string& system, int instances, models::CollectiveOp op, int ranks,
                                  const std::vector<double>& sizes, const models::Algorithm* force = nullptr,
                                  std::vector<std::string> sets = {}) {
  Engine e = fresh_engine(system, instances, ranks, std::move(sets));
  hw::System* sys = e.sys;
  hw::CollectiveEngine* eng = e.eng;
  const std::vector<int>& list = e.ranks;
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

/// One collective of a back-to-back run: its op, size and (optionally) forced algorithm.
struct CollectiveJob {
  models::CollectiveOp op;
  double bytes;
  models::Algorithm algo;
  bool force = false;
};

/// Runs `jobs` one after another on ranks 0..ranks-1 of `system` (with `sets` applied) in one
/// simulation; their times.
inline std::vector<double> run_collectives(const std::string& system, int instances, int ranks,
                                           const std::vector<CollectiveJob>& jobs, std::vector<std::string> sets = {}) {
  Engine e = fresh_engine(system, instances, ranks, std::move(sets));
  hw::System* sys = e.sys;
  hw::CollectiveEngine* eng = e.eng;
  const std::vector<int>& list = e.ranks;
  std::vector<double> times(jobs.size(), 0);
  std::function<void(size_t)> next = [&](size_t i) {
    if (i >= jobs.size()) return;
    const auto& j = jobs[i];
    auto pc = hw::plan_collective(*sys, j.op, j.bytes, list, j.force ? &j.algo : nullptr);
    eng->run(std::move(pc.plan), pc.ranks, 0.0, [&, i](const hw::CollectiveResult& r) {
      times[i] = r.time();
      next(i + 1);
    });
  };
  next(0);
  sim::run_to_completion();
  return times;
}

}  // namespace trn::test
