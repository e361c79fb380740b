// The analysis of a simulated step, without the simulator: what a step's result holds
// (breakdown, engines, roofline, memory, steady-state extrapolation), the breakdown from
// the busy intervals of rank 0, the roofline against the chip's peaks, the throughput, MFU and
// verdict, and the extrapolation of a step from two shorter runs. Pure C++17 (trn_analysis);
// the simulation that produces the inputs is sim/app/simulation/step_simulation.h.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "models/ir/program.h"
#include "workloads/memory/memory_model.h"
#include "workloads/scenario/scenario_spec.h"

namespace trn::app {

/// One point of the roofline: rank 0's compute ops with FLOPs, grouped by name (op kind).
struct RooflinePoint {
  std::string name, engine;
  int64_t ops = 0;
  double flops = 0, hbm_bytes = 0, busy_s = 0;  // summed over the group
  double intensity = 0;                         // FLOP per HBM byte (0 when no HBM bytes)
  double flop_rate = 0;                         // achieved FLOP/s: flops / busy_s
};

/// The roofline of rank 0 (one logical NeuronCore of `lnc` physical cores): its share of
/// the chip's published dense BF16 peak and HBM bandwidth, and its ops.
struct Roofline {
  int lnc = 1;
  double peak_flop_rate = 0;          // FLOP/s per logical core
  double hbm_bandwidth = 0;           // B/s per logical core
  std::vector<RooflinePoint> points;  // largest busy time first, at most kRooflinePoints
};
constexpr int kRooflinePoints = 30;

/// How the micro-batches and layers of a step were simulated (docs/workloads.md 1.6.2, 1.6.5):
/// at most one of the two is extrapolated.
struct SteadyState {
  std::vector<int> microbatches;  // the micro-batch counts simulated (one entry: the step itself)
  int target = 0;                 // the step's micro-batches
  std::vector<int> layers;        // the layer counts simulated (one entry or none: every layer)
  int layer_target = 0;           // the model's layers
  double period_s = 0;            // step time added per micro-batch (or per layer) in the steady state
  double drift = 0;               // error bound of the extrapolation, share of the step
  bool extrapolated() const { return microbatches.size() > 1 || layers_extrapolated(); }
  bool layers_extrapolated() const { return layers.size() > 1; }
};

/// Where rank 0's step time goes, in report order (docs/model.md, "Step breakdown").
enum class StepCategory { Compute, MemoryBound, ExposedCommunication, HostDispatch, PipelineBubble, Idle };
inline const std::vector<std::string>& enum_words(StepCategory) {
  static const std::vector<std::string> w{"compute",       "memory_bound",    "exposed_communication",
                                          "host_dispatch", "pipeline_bubble", "idle"};
  return w;
}
constexpr size_t kStepCategories = 6;

/// Seconds per StepCategory of one step; they add up to the step time.
struct StepBreakdown {
  std::array<double, kStepCategories> seconds{};
  double& operator[](StepCategory c) { return seconds[static_cast<size_t>(c)]; }
  double operator[](StepCategory c) const { return seconds[static_cast<size_t>(c)]; }
  /// (word, seconds) in category order: the text and JSON form.
  std::vector<std::pair<std::string, double>> named() const;
  /// From the named form; throws std::invalid_argument on a word that is no category.
  static StepBreakdown from_named(const std::vector<std::pair<std::string, double>>& named);
  /// The category with the most seconds (the first of equals).
  StepCategory largest() const;
};

struct StepResult {
  double step_time_s = 0, tokens_per_s = 0, mfu = 0;
  double model_flops = 0;                                  // per step, whole job
  StepBreakdown breakdown;                                 // seconds per category
  std::vector<std::pair<std::string, double>> engines;     // busy seconds per engine (rank 0)
  std::vector<std::pair<std::string, double>> engine_ops;  // ops per engine (rank 0)
  workloads::MemoryReport memory;
  uint64_t events = 0;
  double wall_s = 0;
  int simulated_ranks = 0, world = 0;
  int64_t ops = 0;            // ops of the step on the simulated ranks (extrapolated)
  int64_t simulated_ops = 0;  // ops actually simulated (summed over the runs)
  uint64_t sibling_collectives = 0;
  bool per_orbit = false;  // one simulated rank per orbit of the symmetry, not per stage (docs/workloads.md 1.6.1)
  std::string verdict;
  Roofline roofline;
  std::vector<RooflinePoint> roofline_groups;  // every group, before the top-N cut
  SteadyState steady;
  /// With TraceOptions::stats: one entry per simulation the step ran, {"microbatches": M,
  /// "tree": snapshot of its statistics tree (sim/base/stats.h)}; empty otherwise.
  nlohmann::json stats = nlohmann::json::array();
};

using Interval = std::pair<double, double>;  // [start, end) in seconds

/// Total length covered by the intervals (overlaps counted once).
double union_length(std::vector<Interval> v);
/// Length of `a` not covered by `b`.
double exposed(std::vector<Interval> a, const std::vector<Interval>& b);

/// An op's name without layer indices: drops '.'-separated segments such as "12", "L12",
/// "layer12" (the roofline groups ops by it).
std::string name_stem(const std::string& name);

/// The breakdown of a step of `step_time` seconds on one core from its busy intervals: compute
/// (less the `memory_bound` seconds compute ops spent beyond their compute), memory_bound,
/// exposed_communication, host_dispatch, pipeline_bubble and idle, which add up to the step.
/// Waits are charged in this order: communication, then the neighbouring stage (`pipe`),
/// then the host.
StepBreakdown step_breakdown(std::vector<Interval> compute, const std::vector<Interval>& coll,
                             const std::vector<Interval>& pipe, const std::vector<Interval>& host, double memory_bound,
                             double step_time);

/// The engines' busy seconds (compute engines) and op counts (every engine) of rank 0, in the
/// report's order.
void set_engine_figures(const std::map<models::Engine, double>& busy, const std::map<models::Engine, int64_t>& count,
                        StepResult& r);

/// The roofline of one logical core (`lnc` physical cores) against its share of the chip's
/// peaks: the largest groups by busy time, the rest as one "other" point.
Roofline build_roofline(const workloads::ScenarioSpec& s, int lnc, std::vector<RooflinePoint> pts);

/// Model FLOPs of one step (6 x active params x tokens + attention), as used for MFU.
double model_flops_per_step(const workloads::ScenarioSpec& s);

/// Throughput, MFU, memory, verdict and roofline of `r` from its simulated quantities.
void finish_result(const workloads::ScenarioSpec& s, StepResult& r);

/// The step's one serializer (nlohmann's ADL hooks: `nlohmann::json(r)`, `j.get<StepResult>()`),
/// what a forked run sends back to its parent in fork_pool's envelope: the simulated quantities
/// of `r` (the rest is derived in the parent) and its statistics, and back.
void to_json(nlohmann::json& j, const StepResult& r);
void from_json(const nlohmann::json& j, StepResult& r);

/// The step of `m` micro-batches from runs `a` at m2 and `b` at m3 micro-batches (m2 < m3):
/// every additive quantity is linear in the micro-batches once the pipeline is in its steady state.
/// The same for layers: m2, m3 and m are then layer counts (docs/workloads.md 1.6.5).
StepResult combine_steady(const StepResult& a, const StepResult& b, int m2, int m3, int m);

}  // namespace trn::app
