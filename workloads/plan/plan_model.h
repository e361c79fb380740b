// The pure parts of `trnsim plan` (docs/plan.md): the layout search space, the lower bound
// on a step used to prune before any simulation, the checkpoint size, and the restart and
// checkpoint model (Young/Daly) that turns a failure-free time to train into the expected
// one. No simulation here: sim/app/plan/ runs the survivors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "workloads/scenario/scenario_spec.h"

namespace trn::workloads::plan {

/// One parallel layout of a job (the `parallel` section, checkpointing and LNC of a scenario).
struct PlanLayout {
  int tp = 1, pp = 1, microbatches = 1, dp = 1, fsdp = 1, zero = 0, ep = 1, lnc = 1;
  Checkpointing checkpointing = Checkpointing::None;
  /// "tp4 pp1 mb1 fsdp16 dp1 zero0 ep1 ckpt=full lnc2": a stable, readable key; without the
  /// checkpointing mode when `with_checkpointing` is false (the layouts it is a mode of).
  std::string text(bool with_checkpointing = true) const;
};

/// One point of the search: a system, how many of its instances, a global batch and a layout.
struct PlanPoint {
  std::string system;        // hw/configs/systems name
  int instances = 1;         // instances (or UltraServers) joined by EFA
  int chips = 0;             // total chips
  int64_t global_batch = 0;  // sequences per step
  int64_t seq_len = 0;
  PlanLayout layout;
  /// The `--set` overrides that turn the plan's base scenario into this point.
  std::vector<std::string> sets() const;
};

/// The shape of the search (docs/plan.md section 2).
struct SearchSpace {
  std::vector<int> tp = {1, 2, 4, 8, 16, 32};      // kept when they divide heads and fit an instance
  std::vector<int> pp = {1, 2, 4, 8, 16};          // kept when they divide the layers
  int max_fsdp = 64;                               // FSDP degrees: powers of two up to this
  std::vector<int> microbatch_sequences = {1, 2};  // sequences per micro-batch per replica
  std::vector<Checkpointing> checkpointing = {Checkpointing::None, Checkpointing::Selective, Checkpointing::Full};
};

/// Every layout of `ranks` ranks (`ranks_per_instance` per instance) for `sequences` per step:
/// tp x pp x fsdp x dp = ranks, micro-batches from the micro-batch sizes (at least pp with
/// pp > 1), ZeRO 0/1 for dp > 1, EP = the largest power of two dividing the experts and
/// dp x fsdp (MoE only), every checkpointing mode. Ordered deterministically.
std::vector<PlanLayout> enumerate_layouts(const ModelSpec& m, const SearchSpace& space, int ranks,
                                          int ranks_per_instance, int64_t sequences, int lnc);
/// When `enumerate_layouts` gives nothing for `sequences`: the smallest global batch above it,
/// up to 4 x `sequences`, that has a layout on the same ranks, or -1 (e.g. 144 chips: the data-
/// parallel degree keeps the factor 9, which no power-of-two batch divides).
int64_t next_batch_with_layouts(const ModelSpec& m, const SearchSpace& space, int ranks, int ranks_per_instance,
                                int64_t sequences, int lnc);

/// The nearest global batch to `sequences` that has a layout on the same ranks, at most
/// `tolerance` x `sequences` away (up or down; at equal distance the smaller), or -1. `sequences`
/// itself when it has one.
int64_t nearest_batch_with_layouts(const ModelSpec& m, const SearchSpace& space, int ranks, int ranks_per_instance,
                                   int64_t sequences, int lnc, double tolerance);

/// Chip counts to consider for a system of `chips_per_instance` chips: whole instances from
/// min_chips to max_chips, every count, or only the powers of two of them (`powers_of_two`).
/// Returns instance counts, ascending.
std::vector<int> instance_counts(int chips_per_instance, int min_chips, int max_chips, bool powers_of_two = true);

/// A lower bound on the steady step time of `s` (docs/plan.md section 3): the model FLOPs of
/// the step (plus the recomputed forward with full checkpointing) at the chips' published
/// dense BF16 peak times the kernel efficiency, stretched by the 1F1B bubble (m + pp - 1) / m,
/// times kBoundSlack. `model_flops`: model_flops_per_step(s).
double step_time_lower_bound(const ScenarioSpec& s, double model_flops);
constexpr double kBoundSlack = 0.8;

/// Bytes of one full checkpoint (weights, master weights and the optimizer's m and v), with the
/// memory model's per-parameter sizes (workloads/memory): 2 (bf16 weights; 4 for an FP32 model)
/// + 4 (fp32 master; 0 with bf16 master weights or an FP32 model, whose weights are the master)
/// + 8 (m and v in fp32) per parameter.
double checkpoint_bytes(const ScenarioSpec& s);

/// Restart and checkpoint parameters (defaults and sources in docs/plan.md section 4).
struct RestartParams {
  double interruptions_per_chip_hour =
      419.0 / (54.0 * 24.0 * 16384.0);  // F25: 419 unexpected in 54 days on 16,384 accelerators
  double write_bandwidth = 2.9e9;       // checkpoint write, bytes/s per host (assumption: the read figure of C7)
  double read_bandwidth = 2.9e9;        // checkpoint read, bytes/s per host (C7: 1.37 TB in 7.8 min)
  double interval_s = 0;                // checkpoint interval; 0: Young/Daly optimum sqrt(2 delta MTBF)
};

struct RestartInput {
  double work_s = 0;  // failure-free steady training time
  int chips = 1, hosts = 1;
  double checkpoint_bytes = 0;
  double restart_startup_s = 0;  // start-up of a restart (warm compile cache), without loading weights
};

struct RestartResult {
  double mtbf_s = 0;                         // mean time between interruptions of the job
  double write_s = 0;                        // one checkpoint write (delta)
  double read_s = 0;                         // one checkpoint read on restart
  double interval_s = 0;                     // checkpoint interval (tau)
  double restart_s = 0;                      // one restart: start-up + read
  double checkpoints = 0, checkpoint_s = 0;  // expected count and time of checkpoint writes
  double failures = 0;                       // expected interruptions
  double restarts_s = 0;                     // failures x restart_s
  double lost_s = 0;                         // failures x (tau + delta) / 2: work redone
  double total_s = 0;                        // expected wall time for work_s of training (inf when it never finishes)
  double goodput = 0;                        // work_s / total_s
  bool finishes = true;                      // false when interruptions come faster than progress
};

/// First-order expected-time model: checkpoints every tau cost delta each; interruptions
/// arrive at rate 1/MTBF (MTBF = 1 / (rate x chips)); each costs a restart R plus on average
/// half a segment (tau + delta) / 2 of lost work. Useful share of wall time:
///   u = tau / (tau + delta) x (1 - (R + (tau + delta) / 2) / MTBF),  total = work / u.
RestartResult restart_model(const RestartInput& in, const RestartParams& p);

/// Young's optimum checkpoint interval sqrt(2 delta MTBF) (F26; Daly F27 to first order).
double young_daly_interval(double write_s, double mtbf_s);

/// Indices of the points not dominated in (time, cost) (both smaller is better), sorted by time.
std::vector<size_t> pareto_front(const std::vector<std::pair<double, double>>& time_cost);

}  // namespace trn::workloads::plan
