// The words of a scenario that select behaviour, as enums: the scenario loader reads them once
// (sim/base/config_reader.h: an enum field accepts exactly the words below, in enum order, with
// the same message as a string field with one_of), and the code compares enums from then on.
#pragma once

#include <string>
#include <vector>

namespace trn::workloads {

/// Execution mode: eager (one kernel per op, dispatched by the host) or compiled (graphs).
enum class ExecMode { Eager, Compiled };
/// Activation checkpointing, lightest first (plan sorts by it): none, selective (the backward
/// recomputes attention), selective_mlp (attention and the whole MLP block: NxD's Llama
/// scripts at 8,192 tokens, NxD Training's activations_checkpoint_recompute_mlp) or full (the
/// whole forward of each layer).
enum class Checkpointing { None, Selective, SelectiveMlp, Full };
/// Compile frontend: torchneuron (eager kernels / regional torch.compile) or xla.
enum class Frontend { TorchNeuron, Xla };
/// Attention kernel: flash (fused, no score tensor in HBM) or unfused (scores through HBM).
enum class AttentionKernel { Flash, Unfused };
/// The softmax of an unfused attention (compile.softmax): eager (the framework's ops: max,
/// subtract, exponential, sum, divide) or fused (one custom op: NEURON_FUSE_SOFTMAX=1, set by
/// the NxD and NeMo training scripts).
enum class Softmax { Eager, Fused };
/// Where an xla-frontend framework cuts the lazy graph (compile.graph_cut; docs/model.md 11.9):
/// at every segment (a micro-batch's forward, then its backward: NeMo's fork, NxD's pipeline
/// engine) or once per micro-batch (forward and backward in one graph: the Megatron-LM
/// reference and the BERT and NxD scripts without pipeline parallelism, whose data loader marks
/// the step), or once per optimizer step (the Hugging Face Trainer: its data loader marks the
/// step per micro-batch, and the optimizer step is traced into the graph of the step's last
/// micro-batch, so with no gradient accumulation every step is one graph of forward, backward
/// and update).
enum class GraphCut { Segment, MicroBatch, Step };
/// The compiler's automatic cast of an FP32 model (neuronx-cc --auto-cast; docs/model.md 11.11,
/// F29): matmult (the default) casts every FP32 matrix multiplication to BF16, none leaves it FP32.
enum class AutoCast { Matmult, None };
/// The model's dtype (precision.compute; docs/model.md 11.10, 11.11): 16-bit tensors with BF16
/// or FP16 GEMMs, FP32 tensors, or 16-bit tensors with the blocks' GEMMs in FP8 / MXFP8.
enum class ComputeDType { BF16, FP16, FP32, FP8, MXFP8 };
/// The master copy of the weights in the optimizer state (precision.master_weights).
enum class MasterWeights { FP32, BF16 };
/// The optimizer (precision.optimizer): AdamW or LAMB.
enum class Optimizer { AdamW, Lamb };
/// The persistent compile cache at the first step (compile.cache): cold (empty), warm (every
/// graph cached) or partial (each graph a hit with probability compile.cache_hit_rate).
enum class CompileCache { Cold, Warm, Partial };

inline const std::vector<std::string>& enum_words(ExecMode) {
  static const std::vector<std::string> w{"eager", "compiled"};
  return w;
}
inline const std::vector<std::string>& enum_words(Checkpointing) {
  static const std::vector<std::string> w{"none", "selective", "selective_mlp", "full"};
  return w;
}
/// True if the backward recomputes attention (selective and selective_mlp).
inline bool recomputes_attention(Checkpointing c) {
  return c == Checkpointing::Selective || c == Checkpointing::SelectiveMlp;
}
inline const std::vector<std::string>& enum_words(Frontend) {
  static const std::vector<std::string> w{"torchneuron", "xla"};
  return w;
}
inline const std::vector<std::string>& enum_words(AttentionKernel) {
  static const std::vector<std::string> w{"flash", "unfused"};
  return w;
}
inline const std::vector<std::string>& enum_words(Softmax) {
  static const std::vector<std::string> w{"eager", "fused"};
  return w;
}
inline const std::vector<std::string>& enum_words(GraphCut) {
  static const std::vector<std::string> w{"segment", "microbatch", "step"};
  return w;
}
inline const std::vector<std::string>& enum_words(AutoCast) {
  static const std::vector<std::string> w{"matmult", "none"};
  return w;
}
inline const std::vector<std::string>& enum_words(ComputeDType) {
  static const std::vector<std::string> w{"bf16", "fp16", "fp32", "fp8", "mxfp8"};
  return w;
}
inline const std::vector<std::string>& enum_words(MasterWeights) {
  static const std::vector<std::string> w{"fp32", "bf16"};
  return w;
}
inline const std::vector<std::string>& enum_words(Optimizer) {
  static const std::vector<std::string> w{"adamw", "lamb"};
  return w;
}
inline const std::vector<std::string>& enum_words(CompileCache) {
  static const std::vector<std::string> w{"cold", "warm", "partial"};
  return w;
}

/// The configuration word of an enum value ("full" for Checkpointing::Full).
template <class E>
const std::string& enum_word(E e) {
  return enum_words(e)[static_cast<size_t>(e)];
}

}  // namespace trn::workloads
