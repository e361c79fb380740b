// One steady training step of a scenario, simulated: builds the stage graphs, applies the
// parallel passes, lowers the representative ranks' programs, runs them on the SystemC
// system and derives step time, throughput, MFU, a breakdown and memory per rank.
// Shared by `trnsim run` and the calibration of the runtime parameters.
#pragma once

#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/ir/program.h"
#include "sim/app/analysis/step_analysis.h"
#include "workloads/memory/memory_model.h"
#include "workloads/scenario/scenario_spec.h"

namespace trn::app {

/// Where and what to trace (Chrome / Perfetto JSON, streamed during the run).
struct TraceOptions {
  std::string path;             // empty: no trace
  std::string format = "json";  // json (Chrome JSON) or perfetto (Perfetto's protobuf trace)
  std::set<std::string>
      categories;             // empty: all (tensor, vector, scalar, gpsimd, dma, collective, host, counters, links)
  double t0 = 0, t1 = 1e300;  // simulated-time window, seconds
  bool stats = false;         // keep each simulation's statistics (StepResult::stats, run --stats)
  /// Called for every op of every simulated rank as it retires, in program order (the k-th call
  /// for a rank is its op k), with the op's start and end: `trnsim export chakra`. Only in the
  /// process that simulates (simulate() with all_microbatches).
  std::function<void(int rank, const models::Op& op, double start, double end)> on_retire;
};

/// Which ranks get a simulated NeuronCore (docs/workloads.md 1.6):
///   Stages (default): one rank per pipeline stage; the collectives of the other ranks' groups
///     run alongside (sibling groups) and their HBM/DMA traffic is mirrored where it shares a
///     resource with a simulated rank, so the fabric carries every rank's load;
///   All: every rank (`run --all-ranks` / `--exact`, the reference the reductions are tested
///     against).
enum class RankSelection { Stages, All };

/// Runs the step in this process (SystemC elaborates once: call once per process), every
/// micro-batch.
/// `progress`: a label; when not empty and stderr is a terminal, a run that takes more than
/// kProgressAfter seconds of wall time shows its progress there (simulated time, share of ops
/// done, ETA), on one line that it clears at the end.
/// `max_memory` (bytes; 0: none), with `concurrent` simulations at a time: with one simulated rank
/// per orbit, whose count is known only here, throws MemoryGuardError when their ops held at
/// once are estimated above it (check_memory_guard counted one per stage).
StepResult simulate_step(const workloads::ScenarioSpec& s, const TraceOptions& trace = {},
                         RankSelection ranks = RankSelection::Stages, const std::string& progress = "",
                         double max_memory = 0, int concurrent = 1);
constexpr double kProgressAfter = 2.0;

struct StepOptions {
  TraceOptions trace;
  RankSelection ranks = RankSelection::Stages;
  bool all_microbatches = false;  // no steady-state extrapolation over micro-batches
  bool all_layers = false;        // no steady-state extrapolation over layers
  bool progress = false;          // progress on stderr when it is a terminal
  double max_memory = 0;          // bytes; > 0: refuse runs estimated above it (MemoryGuardError)
};

/// What a run is estimated to hold at its peak: the ops its largest simulation holds at once
/// (lowered a segment at a time and released as they retire: about pp + 2 micro-batches per
/// rank; the whole step with compiled FSDP, whose gathers run ahead) and their memory
/// (kBytesPerOp each, measured, docs/performance.md), for the `--max-memory` guard.
struct RunEstimate {
  int64_t ops = 0;     // ops held at once by the largest simulation (all its simulated ranks)
  int concurrent = 1;  // simulations running at once (steady-state runs: 2)
  double bytes = 0;    // peak memory estimate of the run
};
RunEstimate estimate_run(const workloads::ScenarioSpec& s, const StepOptions& opt);
constexpr double kBytesPerOp = 1536;  // program, schedule, times and flow state per op (measured)
constexpr double kBaseBytes = 64e6;   // the process without a program

/// Throws MemoryGuardError when the run's estimate exceeds opt.max_memory (what simulate()
/// checks first; `run` checks it before forking its interval's simulations).
void check_memory_guard(const workloads::ScenarioSpec& s, const StepOptions& opt);

/// Thrown by simulate() when the estimate exceeds StepOptions::max_memory.
struct MemoryGuardError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The micro-batch counts the steady-state reduction simulates for a step of `m` micro-batches
/// and `pp` stages: {w, w + k, w + 2k} with warm-up w = max(8, pp + 2) and span k (default w / 2),
/// or {m} when those runs would cost as much as the step.
std::vector<int> steady_state_points(int m, int pp, int k = 0);

/// One step, with the steady-state reduction unless `all_microbatches`: with many micro-batches
/// the step is simulated at three smaller counts M1 < M2 < M3 (forked children, two at a time),
/// every additive result is extrapolated along the line through M1 and M3 to the step's count,
/// and the error bound (m - M3) x |period(M1,M2) - period(M2,M3)| / 2 must be within
/// kSteadyTolerance of the step (else the span k doubles, up to the full step). Without the
/// micro-batch reduction, the same over the model's layers (layer_points) unless `all_layers`,
/// with the line through M2 and M3, the bound (m - M3) x |p1 - p2| and kLayerTolerance.
/// Without a reduction it runs in this process.
StepResult simulate(const workloads::ScenarioSpec& s, const StepOptions& opt);
constexpr double kSteadyTolerance = 3e-3;
/// The same for layers, whose bound is (L - L3) x |p1 - p2| (docs/workloads.md 1.6.5).
constexpr double kLayerTolerance = 5e-3;

/// The layer counts the layers' steady-state reduction simulates for `s` (docs/workloads.md
/// 1.6.5): {8, 16, 24} (steady_state_points with w = 8, k = 8); {L} (the model's layers: every
/// layer simulated) with pipeline stages or several micro-batches, with a trace or per-op times
/// asked for, with StepOptions::all_layers, when the runs would cost as much as the step, or for
/// k > 0 (no wider span).
std::vector<int> layer_points(const workloads::ScenarioSpec& s, const StepOptions& opt, int k = 0);

/// The scenario with `layers` transformer blocks (the rest unchanged).
workloads::ScenarioSpec with_layers(const workloads::ScenarioSpec& s, int layers);

/// The scenario with `m` micro-batches of the same size (global batch scaled to match).
workloads::ScenarioSpec with_microbatches(const workloads::ScenarioSpec& s, int m);

}  // namespace trn::app
