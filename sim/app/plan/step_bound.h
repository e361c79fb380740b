// A lower bound on the simulated steady step of a scenario, without the fabric simulation
// (docs/plan.md section 2, rule 6): `trnsim plan` prunes with it before simulating.
//
// The step simulation (sim/app/simulation) runs the programs of one rank per pipeline stage:
// each engine and queue is in order, an op starts when its dependencies and its lane are done
// and, for a collective, when every simulated member of its group has reached it. Every time in
// that schedule is a maximum of sums of op durations, so it can only fall when durations fall.
// The bound runs the same programs through the same rules with each duration replaced by a
// lower bound of what the simulation can give it:
//   compute op : its engine time (the simulation adds the throttle penalty and waits for its
//                HBM stream), or the HBM stream alone at the DMA path's capacity;
//   DMA op     : fixed + descriptor latency + bytes at the DMA path's capacity;
//   host op    : its duration;
//   collective : models::collective_time_lower_bound of its plan (no other traffic).
// No contention, no throttle, no sibling traffic: a schedule no slower than the simulation's.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "models/topology/topology.h"
#include "workloads/scenario/scenario_spec.h"

namespace trn::app {

/// Margin for a step the simulation extrapolates from three shorter runs (steady_state_points,
/// docs/workloads.md 1.6.2) instead of simulating every micro-batch: the bound of the full step
/// is multiplied by (1 - kExtrapolationMargin) for such steps.
constexpr double kExtrapolationMargin = 0.01;

/// Margin for the simulation's rounding: event times are whole picoseconds (SystemC's default
/// resolution) and a flow ends once 1e-9 of its bytes are left (hw::FlowNetwork), so a simulated
/// chain of ops can end a little before the exact sum of its durations. 1e-5 of the step is
/// 10 ns per ms: the rounding of a chain of 10^4 events per millisecond of step.
constexpr double kRoundingMargin = 1e-5;

class StepBounder {
 public:
  StepBounder();
  ~StepBounder();
  StepBounder(const StepBounder&) = delete;
  StepBounder& operator=(const StepBounder&) = delete;
  /// The bound on simulate(s).step_time_s (seconds). Collective bounds are cached per system
  /// and (op, bytes, group) across calls.
  double step_lower_bound(const workloads::ScenarioSpec& s);
  /// Builds the system's topology now (before forked children bound steps on it).
  void prepare(const workloads::ScenarioSpec& s) { system(s); }

  struct SystemCache;  // a system's topology and collective bounds (step_bound.cpp)

 private:
  SystemCache& system(const workloads::ScenarioSpec& s);
  std::map<std::string, std::unique_ptr<SystemCache>> systems_;
};

}  // namespace trn::app
