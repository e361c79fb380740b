// The graphs a job compiles before its first step, by mechanism (docs/startup.md section 1.2):
//   eager               : one kernel per unique op signature (kind, shapes), compiled once
//                         when first reached and reused by every layer that repeats it;
//   compiled (torchneuron): regional torch.compile: a forward and a backward graph per
//                         unique block signature, plus an eager remainder (embedding, head,
//                         loss, optimizer, FSDP/DP collectives);
//   compiled (xla)      : torch-xla lazy-tensor graphs cut at every mark_step, as NxD
//                         Training's loop cuts them (F39-F41): initialisation and mesh
//                         set-up graphs; per pipeline stage its forward and backward (or a
//                         micro-batch's forward and backward in one graph), the first
//                         backward apart (it creates the gradient accumulators), the
//                         pipeline transfers; the optimizer's first, steady and last steps;
//                         the loss and logging graphs; and the TP-rank variants of graphs
//                         that bake a rank's vocabulary offset in;
//   inference (NxD Inference): the context-encoding and token-generation graphs of a
//                         model at one batch and sequence (the compile observations of
//                         workloads/calibration/compile_observations.yaml).
// A graph's size is what it holds: tiles (a matmul's 128 x 128 stationary blocks of its
// weights times its 512-token moving chunks; attention per head; elementwise work per
// 128 x 512 tile), ops, and MoE token rows (models::instruction_units weighs them).
#pragma once

#include <string>
#include <vector>

#include "models/compile/compile_model.h"
#include "workloads/graph/training_graph.h"
#include "workloads/scenario/scenario_spec.h"

namespace trn::workloads {

/// The compile size of one graph op.
struct OpSize {
  double tiles = 0, ops = 0, rows = 0;
  OpSize& operator+=(const OpSize& o) {
    tiles += o.tiles;
    ops += o.ops;
    rows += o.rows;
    return *this;
  }
};

/// The elementwise passes an unfused attention makes over its whole score square, forward and
/// backward: the scale and the mask, the softmax (five steps eager, one fused) and attention
/// dropout (random numbers, compare, select and scale forward; mask and scale backward). Zero
/// for a flash kernel. docs/startup.md 1.3.
struct ScorePasses {
  double forward = 0, backward = 0;
};
ScorePasses score_passes(const CompileSpec& c);

/// Tiles, ops and routed rows of graph op `o`. `optimizer_passes`: the optimizer's vector
/// passes per element; `element_bytes` (PrecisionSpec::element_bytes) turns an MoE exchange's
/// bytes into token rows; `expert_loop`: the framework runs the experts in a Python loop, so
/// each expert's matmul is an op of its own that the compiler unrolls (TorchTitan's MoE on
/// Neuron, C12), not one batched op over the experts (NxD's ExpertMLPs). `unfused`: the score
/// passes of an unfused attention (score_passes); by default the attention is a flash kernel.
OpSize op_size(const GraphOp& o, double optimizer_passes = 12, double element_bytes = 2, bool expert_loop = false,
               const ScorePasses& unfused = {});

/// What a first step compiles: one kernel per distinct op (eager), one graph per distinct layer
/// region (regional torch.compile), whole-step graphs (the xla frontend) or inference graphs.
enum class InventoryKind { EagerKernels, Regional, WholeStep, Inference };

/// The jobs one host server compiles (its ranks' stages), and how many hosts compile that set.
struct HostSet {
  std::vector<size_t> jobs;  // indexes into Inventory::jobs
  int hosts = 1;
};

struct Inventory {
  InventoryKind kind = InventoryKind::EagerKernels;
  std::vector<models::CompileJob> jobs;  // the job's distinct graphs (a variant counted by its copies)
  models::Schedule schedule = models::Schedule::Sequential;
  double traced_ops = 0;       // ops captured into graphs by the framework
  double step_traced_ops = 0;  // whole-step: ops a rank of the busiest stage traces in a step
  std::vector<HostSet> hosts;  // empty: every host compiles every job
  /// Graphs compiled in all: the sum of the jobs' copies (eager kernels count once each).
  int graphs() const;
};

/// The inventory of `s` in `mode`.
Inventory build_inventory(const ScenarioSpec& s, ExecMode mode);

/// An NxD Inference model's graphs (the profiled compiles of its contributed models): for each
/// context-encoding bucket b, the context encoding of `batch` x b tokens, and for each
/// token-generation bucket, the generation of `batch` tokens against a KV cache of that many
/// tokens; every layer unrolled, TP `tp`. Without bucketing both lists hold the sequence length
/// alone; with it, every power of two from 128 up to it (NxD Inference's default buckets).
/// `cte_modular`: the context encoding compiles as one module per layer (NxD Inference's default
/// -O1 with --modular-flow-mac-threshold=10; a model that overrides its compiler arguments loses
/// it), `tkg_modular` the same for token generation (never by default: -O2). The token-generation
/// graph of the smallest bucket comes first (the priority model).
Inventory inference_inventory(const ModelSpec& m, int tp, int batch, const std::vector<int>& cte_buckets,
                              const std::vector<int>& tkg_buckets, bool cte_modular, bool tkg_modular);

/// Bytes of an element of NxD Inference's graphs: the contributed models run in bf16.
inline constexpr double kInferenceBytes = 2.0;

/// One NxD Inference graph of `m` at TP `tp`, as one rank holds it: the context encoding of
/// `batch` x `len` tokens, or (`tkg`) the generation of `batch` tokens against a KV cache of
/// `len` positions (of the sliding window when every layer slides, as NxD Inference sizes it).
TrainingGraph inference_graph(const ModelSpec& m, int tp, int batch, bool tkg, int len);

/// What one rank of `inference_graph(m, tp, batch, true, len)` touches in a token-generation step,
/// bytes: every weight of its shard (each expert's included) and the LM head, the KV cache (its
/// keys and values at every slot, for each sequence) and the embedding rows of its tokens.
/// `read()` is what neuron-profile reports as the NEFF's "HBM Read" (docs/startup.md 3.2): a check
/// of the architecture a graph is built from; `kv_cache` is also what the cache holds in HBM.
struct TokenGenerationBytes {
  double weights = 0, kv_cache = 0, rows = 0;
  double read() const { return weights + kv_cache + rows; }
};
TokenGenerationBytes token_generation_bytes(const ModelSpec& m, int tp, int batch, int len);

/// NxD Inference's buckets for sequence length `seq`: {seq} without bucketing, else every power of
/// two from 128 below it, and `seq`.
std::vector<int> inference_buckets(int seq, bool bucketing);

}  // namespace trn::workloads
