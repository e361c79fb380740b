// Per-rank HBM accounting: weights, gradients, optimizer state (sharding-aware),
// activations (checkpointing-aware, in-flight micro-batches of the 1F1B schedule) and
// workspace. Activations are counted tensor by tensor for the model's block, in the style
// of Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large Transformer
// Models") but without dropout masks and with flash attention (no score matrix): per token
// and layer, copies of the norm and matmul inputs (4h, replicated; split by tp with
// sequence parallelism) and of q/k/v, the attention output and the MLP intermediates
// (split by tp). Selective checkpointing drops the attention output (recomputed),
// selective_mlp also the MLP intermediates; full checkpointing keeps only each layer's input.
// Weights, gradients and activations take PrecisionSpec::element_bytes() per element (bf16:
// 2; an FP32 model: 4, with no separate master).
#pragma once

#include <string>
#include <vector>

#include "workloads/scenario/scenario_spec.h"

namespace trn::workloads {

/// The categories of a MemoryReport, in order.
enum class MemoryKind { Weights, Gradients, Optimizer, Activations, Workspace };
inline const std::vector<std::string>& enum_words(MemoryKind) {
  static const std::vector<std::string> w{"weights", "gradients", "optimizer", "activations", "workspace"};
  return w;
}

struct MemoryCategory {
  std::string name;
  double bytes = 0;
};

struct MemoryReport {
  std::vector<MemoryCategory> categories;  // one per MemoryKind in its order, named by its word
  double total = 0;
  double capacity = 0;  // HBM per rank
  int rank = 0;         // the rank with the largest total
  bool fits() const { return total <= capacity; }
  double bytes(MemoryKind k) const { return categories[static_cast<size_t>(k)].bytes; }
};

/// The most loaded rank's memory (stage 0 holds the most in-flight micro-batches).
MemoryReport memory_per_rank(const ScenarioSpec& s);

}  // namespace trn::workloads
