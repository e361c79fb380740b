// One steady training step of a scenario, simulated: builds the stage graphs, applies the
// parallel passes, lowers the representative ranks' programs, runs them on the SystemC
// system and derives step time, throughput, MFU, a breakdown and memory per rank.
// Shared by `trnsim run` and the calibration of the runtime parameters.
#pragma once

#include <set>
#include <string>
#include <vector>

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
  double peak_flop_rate = 0;    // FLOP/s per logical core
  double hbm_bandwidth = 0;     // B/s per logical core
  std::vector<RooflinePoint> points;  // largest busy time first, at most kRooflinePoints
};
constexpr int kRooflinePoints = 30;

struct StepResult {
  double step_time_s = 0, tokens_per_s = 0, mfu = 0;
  double model_flops = 0;                                  // per step, whole job
  std::vector<std::pair<std::string, double>> breakdown;   // seconds per category
  std::vector<std::pair<std::string, double>> engines;     // busy seconds per engine (rank 0)
  workloads::MemoryReport memory;
  uint64_t events = 0;
  double wall_s = 0;
  int simulated_ranks = 0, world = 0;
  int64_t ops = 0;
  std::string verdict;
  Roofline roofline;
};

/// Where and what to trace (Chrome / Perfetto JSON, streamed during the run).
struct TraceOptions {
  std::string path;                    // empty: no trace
  std::set<std::string> categories;    // empty: all (tensor, vector, scalar, gpsimd, dma, collective, host, counters, links)
  double t0 = 0, t1 = 1e300;           // simulated-time window, seconds
};

/// Which ranks get a simulated NeuronCore: one representative per class of identical ranks
/// (the default; docs/workloads.md, "Representative ranks") or every rank (`run --all-ranks`,
/// the reference the reduced simulation is tested against).
enum class RankSelection { Representatives, All };

/// Runs the step in this process (SystemC elaborates once: call once per process).
StepResult simulate_step(const workloads::ScenarioSpec& s, const TraceOptions& trace = {},
                         RankSelection ranks = RankSelection::Representatives);

/// Model FLOPs of one step (6 x active params x tokens + attention), as used for MFU.
double model_flops_per_step(const workloads::ScenarioSpec& s);

}  // namespace trn::app
