// ScenarioSpec: everything about one training job in one YAML file: the system (name, path
// or inline), the model (zoo name, Hugging Face config.json, YAML path or inline), the
// parallel layout, the batch, precision, activation checkpointing, LNC and execution mode.
// The runtime parameters (eager dispatch cost, compiled-kernel efficiency, ...) come from
// workloads/calibration/runtime.yaml, merged under every scenario; `--set` overrides any key.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/spec/system_spec.h"
#include "sim/base/config_loader.h"
#include "workloads/scenario/job_modes.h"
#include "workloads/model/model_spec.h"

namespace trn::workloads {

using sim::F;

struct ParallelSpec {
  int tp = 1;                      // tensor parallel
  bool sequence_parallel = false;  // TP with reduce-scatter / all-gather instead of all-reduce
  int pp = 1;                      // pipeline stages
  int microbatches = 1;            // per step, per pipeline
  std::string schedule = "1f1b";
  int dp = 1;    // data-parallel replicas (gradient all-reduce)
  int fsdp = 1;  // fully sharded data parallel (ZeRO-3) degree
  int zero = 0;  // ZeRO stage for dp (0-3); fsdp > 1 is stage 3 on its own group
  int ep = 1;    // expert parallel (within the data-parallel ranks)
  template <class V>
  void visit(V& v) {
    v.field("tp", tp, F("tensor-parallel degree").ge(1).le(1024));
    v.field("sequence_parallel", sequence_parallel, F("sequence parallelism with TP").optional());
    v.field("pp", pp, F("pipeline-parallel stages").ge(1).le(1024));
    v.field("microbatches", microbatches, F("micro-batches per step").ge(1).le(65536));
    v.field("schedule", schedule, F("pipeline schedule").one_of({"1f1b"}).optional());
    v.field("dp", dp, F("data-parallel replicas").ge(1).le(65536));
    v.field("fsdp", fsdp, F("FSDP (ZeRO-3) sharding degree").ge(1).le(65536));
    v.field("zero", zero, F("ZeRO stage for dp").ge(0).le(3).optional());
    v.field("ep", ep, F("expert-parallel degree").ge(1).le(65536).optional());
  }
  int64_t world() const { return int64_t{tp} * pp * dp * fsdp; }
};

struct BatchSpec {
  int64_t global_batch = 0;     // sequences per step (0: use tokens_per_step)
  int64_t seq_len = 0;          // tokens per sequence
  int64_t tokens_per_step = 0;  // alternative to global_batch
  template <class V>
  void visit(V& v) {
    v.field("global_batch", global_batch, F("sequences per step (or 0 with tokens_per_step)").ge(0).le(1e9).optional());
    v.field("seq_len", seq_len, F("sequence length, tokens").ge(1).le(1e7));
    v.field("tokens_per_step", tokens_per_step,
            F("tokens per step (or 0 with global_batch)").ge(0).le(1e12).optional());
  }
  int64_t sequences() const { return global_batch > 0 ? global_batch : tokens_per_step / seq_len; }
  int64_t tokens() const { return sequences() * seq_len; }
};

/// Per-parameter cost of one optimizer update on the vector engine (lowering and compile units).
struct OptimizerCost {
  double vector_passes = 12;  // streaming passes over the rank's parameter shard
  double bytes = 28;          // HBM bytes moved per parameter
};

struct PrecisionSpec {
  ComputeDType compute = ComputeDType::BF16;
  MasterWeights master_weights = MasterWeights::FP32;
  Optimizer optimizer = Optimizer::AdamW;
  template <class V>
  void visit(V& v) {
    v.field("compute", compute,
            F("model dtype: fp32 keeps every tensor in FP32 (4 B; the GEMMs' rate follows compile.auto_cast); fp8 "
              "(per-tensor scales) and mxfp8 (32-element block scales) cast the blocks' GEMMs and need the chip's "
              "published rate (system.chip.peak)"));
    v.field("master_weights", master_weights,
            F("master weight dtype; with compute fp32 the FP32 weights are the master copy (no separate master, "
              "whatever this says)"));
    v.field("optimizer", optimizer, F("optimizer (both keep fp32 m and v)"));
  }
  /// An FP32 model (docs/model.md, "FP32 and the compiler's auto-cast").
  bool fp32() const { return compute == ComputeDType::FP32; }
  /// Bytes per element of the model's tensors: weights, activations, gradients, elementwise
  /// traffic, attention operands, every collective and the memory model. 4 for fp32, 2 otherwise
  /// (bf16, fp16, and fp8 / mxfp8, whose activations, weights and collectives stay BF16).
  double element_bytes() const { return fp32() ? 4.0 : 2.0; }
  /// A separate FP32 master copy of the weights: master_weights fp32 with 16-bit weights. With
  /// compute fp32 the weights are the master.
  bool fp32_master_copy() const { return !fp32() && master_weights == MasterWeights::FP32; }
  /// FP8 or MXFP8 GEMMs (docs/model.md, "FP8 and MXFP8").
  bool fp8() const { return compute == ComputeDType::FP8 || compute == ComputeDType::MXFP8; }
  bool mxfp8() const { return compute == ComputeDType::MXFP8; }
  /// Per parameter and update, bytes read + written (m and v are FP32 in every case):
  /// AdamW with 16-bit weights: reads master, m, v (fp32) and the bf16 gradient, writes master,
  /// m, v and the bf16 weights: (4 + 4 + 4 + 2) + (4 + 4 + 4 + 2) = 28 bytes, ~12 vector passes.
  /// LAMB (You et al. 2019, arXiv:1904.00962, Algorithm 2) is the Adam update r followed by a
  /// per-layer trust ratio ||x|| / ||r|| and x -= lr * ratio * r. Assumed as two streaming
  /// passes: the first is AdamW's but writes r (fp32) instead of the weights and accumulates the
  /// two squared norms (+2 vector passes); the second reads master and r and writes master and
  /// bf16 weights (+1 pass for the scaled update). That is 15 passes and 14 + 12 + 8 + 6 = 40
  /// bytes per parameter. The all-reduce of the per-layer norms across shards is not modelled
  /// (its bytes are per layer, not per parameter).
  /// FP32 compute: the FP32 weights are the master and the gradient is FP32. AdamW reads w, m,
  /// v, g (4 B each) and writes w, m, v: 16 + 12 = 28 bytes; LAMB: first pass reads w, m, v, g
  /// and writes m, v, r (16 + 12), second reads w, r and writes w (8 + 4): 40 bytes. The FP32
  /// gradient (+2 B) cancels the BF16 weight copy that is no longer written (-2 B). The passes
  /// (an assumption) stay 12 and 15: none of them is attributed to the BF16 copy.
  OptimizerCost optimizer_cost() const {
    const double w = 4.0;                    // the fp32 master (fp32 weights with compute fp32), read / written
    const double copy = fp32() ? 0.0 : 2.0;  // the bf16 weights written after the update (16-bit compute)
    const double g = element_bytes();        // the gradient, read
    const double mv = 8.0;                   // m and v (fp32), read / written
    const double r = 4.0;                    // LAMB: the fp32 update r, written then read
    if (optimizer == Optimizer::Lamb) return OptimizerCost{15, (w + mv + g) + (mv + r) + (w + r) + (w + copy)};
    return OptimizerCost{12, (w + mv + g) + (mv + w + copy)};
  }
};

/// Runtime parameters with physical meaning; values and provenance in
/// workloads/calibration/runtime.yaml (fitted by `trnsim calibrate-runtime`).
struct RuntimeSpec {
  sim::Time eager_dispatch{0};       // host cost to dispatch one eager op
  sim::Time compiled_launch{0};      // host cost to launch one compiled graph region
  double kernel_efficiency = 1.0;    // achieved / tiling-model tensor throughput of generated kernels
  double xla_kernel_efficiency = 0;  // the same for graphs compiled through the xla frontend (0: as above)
  sim::Time lazy_trace{0};           // xla frontend: host time to trace one graph op, every step
  sim::Time lazy_trace_tensor{0};    // xla frontend: host time to trace one parameter tensor's update, every step
  sim::Bytes workspace{0};           // per-rank runtime workspace in HBM
  /// The tensor-engine efficiency that applies to a job in `mode` compiled through `frontend`
  /// (eager runs use the eager library's kernels whatever the frontend).
  double efficiency(ExecMode mode, Frontend frontend) const {
    return mode == ExecMode::Compiled && frontend == Frontend::Xla && xla_kernel_efficiency > 0 ? xla_kernel_efficiency
                                                                                                : kernel_efficiency;
  }
  /// The calibrated parameters (runtime.yaml) that act on a job in `mode` through `frontend`:
  /// the rows the runtime fit lets each one move, and what an interval perturbs (one fact).
  static std::vector<std::string> acting(ExecMode mode, Frontend frontend) {
    if (mode == ExecMode::Eager) return {"kernel_efficiency", "eager_dispatch"};
    if (frontend == Frontend::Xla) return {"xla_kernel_efficiency", "lazy_trace", "lazy_trace_tensor"};
    return {"kernel_efficiency"};
  }
  /// A calibrated parameter by name (times in seconds); nullptr for another name.
  double* calibrated(const std::string& name) {
    if (name == "kernel_efficiency") return &kernel_efficiency;
    if (name == "xla_kernel_efficiency") return &xla_kernel_efficiency;
    if (name == "eager_dispatch") return &eager_dispatch.v;
    if (name == "lazy_trace") return &lazy_trace.v;
    if (name == "lazy_trace_tensor") return &lazy_trace_tensor.v;
    return nullptr;
  }
  template <class V>
  void visit(V& v) {
    v.field("eager_dispatch", eager_dispatch, F("host time to dispatch one eager op (calibrated)").ge(0));
    v.field("compiled_launch", compiled_launch, F("host time to launch one compiled region").ge(0));
    v.field("kernel_efficiency", kernel_efficiency,
            F("tensor-engine efficiency of generated kernels (calibrated)").gt(0).le(1));
    v.field(
        "xla_kernel_efficiency", xla_kernel_efficiency,
        F("tensor-engine efficiency of kernels compiled through the xla frontend; 0: kernel_efficiency (calibrated)")
            .ge(0)
            .le(1)
            .optional());
    v.field("lazy_trace", lazy_trace,
            F("xla frontend: host time to trace one graph op each micro-batch (calibrated)").ge(0).optional());
    v.field(
        "lazy_trace_tensor", lazy_trace_tensor,
        F("xla frontend: host time to trace the optimizer step of one parameter tensor (the update, gradient "
          "clipping and zeroing the framework runs tensor by tensor), every step (an assumption, docs/model.md 11.9)")
            .ge(0)
            .optional());
    v.field("workspace", workspace, F("per-rank runtime workspace in HBM").ge(0));
  }
};

/// How the job compiles (docs/startup.md section 1; C3, C11, C13).
struct CompileSpec {
  Frontend frontend = Frontend::TorchNeuron;           // torchneuron (eager kernels / regional torch.compile) | xla
  AttentionKernel attention = AttentionKernel::Flash;  // flash (fused kernel) | unfused (scores through HBM)
  Softmax softmax = Softmax::Eager;                    // unfused: the softmax as the framework's ops or one fused op
  bool attention_dropout = false;                      // unfused: dropout on the attention probabilities
  GraphCut graph_cut = GraphCut::Segment;              // xla: a graph per forward and backward, micro-batch or step
  bool parallel_compile = false;                       // xla: neuron_parallel_compile (AOT on parallel workers)
  int trial_steps = 10;                                // its trial run: training steps traced to extract the graphs
  CompileCache cache = CompileCache::Cold;             // cold | warm | partial
  double cache_hit_rate = 0.5;                         // for partial
  bool shared_cache = true;                            // one compile per graph per host (file locks) or per rank
  sim::Time budget{0};                                 // per-graph compile budget (0 = none)
  double speedup = 1.0;                                // a compiler this many times faster
  AutoCast auto_cast = AutoCast::Matmult;              // neuronx-cc --auto-cast: FP32 matmuls to BF16 (F29)
  template <class V>
  void visit(V& v) {
    v.field("frontend", frontend, F("compile frontend").optional());
    v.field("attention", attention,
            F("attention kernel: flash (fused, no score tensor in HBM) or unfused (softmax(QK^T)V as separate ops, "
              "full square, scores through HBM)")
                .optional());
    v.field("softmax", softmax,
            F("unfused attention: eager (the framework's five softmax ops over the score square) or fused (one "
              "op: NEURON_FUSE_SOFTMAX=1); sets the passes the compiler sees (docs/startup.md 1.3)")
                .optional());
    v.field("attention_dropout", attention_dropout,
            F("unfused attention: the training recipe drops out attention probabilities (Hugging Face "
              "attention_probs_dropout_prob or attn_pdrop, Megatron attention_dropout above 0): four more passes "
              "over the score square forward, two backward (docs/startup.md 1.3)")
                .optional());
    v.field("graph_cut", graph_cut,
            F("xla frontend: where the framework cuts the lazy graph: segment (a graph for each micro-batch's "
              "forward and another for its backward), microbatch (forward and backward in one graph) or step "
              "(the Hugging Face Trainer: the optimizer step joins the last micro-batch's graph)")
                .optional());
    v.field("auto_cast", auto_cast,
            F("the compiler's cast of FP32 matmuls (precision.compute fp32; no effect otherwise): matmult runs "
              "every GEMM at the BF16 rate on BF16 casts of its FP32 operands (the compiler's default), none in "
              "FP32 (F29)")
                .optional());
    v.field("parallel_compile", parallel_compile, F("ahead-of-time parallel compilation").optional());
    v.field("trial_steps", trial_steps,
            F("parallel_compile: training steps of neuron_parallel_compile's trial run, which traces every "
              "micro-batch to extract the graphs before compiling them (NxD's examples run 10)")
                .ge(0)
                .le(1000000)
                .optional());
    v.field("cache", cache, F("persistent cache state").optional());
    v.field("cache_hit_rate", cache_hit_rate, F("hit probability of a partial cache").ge(0).le(1).optional());
    v.field("shared_cache", shared_cache, F("cache shared by the ranks of a host server").optional());
    v.field("budget", budget, F("per-graph compile budget (0 s = none)").ge(0).optional());
    v.field("speedup", speedup, F("compiler speed-up factor").gt(0).optional());
  }
};

struct ScenarioSpec {
  std::string name;
  models::SystemSpec system;
  ModelSpec model;
  int lnc = 0;  // as configured; 0 = chip default (effective_lnc() is the one that applies)
  /// The logical-core size that applies: `lnc`, or the chip's default when it is 0. The one
  /// place this is decided (the configured 0 stays in resolved output and input hashes).
  int effective_lnc() const { return lnc > 0 ? lnc : system.chip.cores.default_lnc; }
  ExecMode mode = ExecMode::Compiled;
  ParallelSpec parallel;
  BatchSpec batch;
  PrecisionSpec precision;
  Checkpointing checkpointing = Checkpointing::None;
  RuntimeSpec runtime;
  CompileSpec compile;
  template <class V>
  void visit(V& v) {
    v.field("name", name, F("scenario name"));
    v.section("system", system, F("system: name, path or inline"));
    v.section("model", model, F("model: zoo name, config.json, YAML path or inline"));
    v.field("lnc", lnc, F("logical NeuronCore size (0 = chip default)").ge(0).le(8).optional());
    v.field("mode", mode, F("execution mode"));
    v.section("parallel", parallel, F("parallel layout"));
    v.section("batch", batch, F("batch"));
    v.section("precision", precision, F("precision"));
    v.field("checkpointing", checkpointing, F("activation checkpointing"));
    v.section("runtime", runtime, F("runtime parameters (calibrated)"));
    v.section("compile", compile, F("compilation: frontend, cache, budget").optional());
  }
};

/// Loads a scenario by name (workloads/scenarios/NAME.yaml) or path, resolving system and
/// model references, merging the runtime calibration underneath, applying `--set`, reading
/// strictly and checking the layout (divisibility, ranks vs chips, sequence length).
/// `model_override` (a zoo name, YAML or Hugging Face config.json path) replaces `model:`.
ScenarioSpec load_scenario(const std::string& name_or_path, const std::vector<std::string>& sets,
                           const std::string& model_override = "");

/// The runtime parameters every scenario starts from (workloads/calibration/runtime.yaml).
RuntimeSpec load_runtime_calibration();

/// Checks assignments against the scenario's schema without the cross-field and layout checks:
/// every key exists, every value has the right type, unit, range or word, and a `system` or
/// `model` value names something that loads. For a sweep's axes, before anything runs: errors
/// are reported where each assignment says (its key's or its value's location).
void check_scenario_sets(const std::string& name_or_path, const std::vector<sim::SetAssignment>& sets);

/// The fully resolved scenario (system, chip and model inline); loading it reproduces the run.
std::string resolved_yaml(const ScenarioSpec& s, const std::string& header);

}  // namespace trn::workloads
