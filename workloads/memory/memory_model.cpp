// Per-rank memory accounting.
#include "workloads/memory/memory_model.h"

#include <algorithm>

namespace trn::workloads {

MemoryReport memory_per_rank(const ScenarioSpec& s) {
  const auto& m = s.model;
  const auto& p = s.parallel;
  const int lnc = s.effective_lnc();
  const int ranks = s.system.chip.cores.physical / lnc;  // lnc divides the physical cores
  const double ranks_per_chip = ranks;
  MemoryReport r;
  r.capacity = s.system.chip.hbm.capacity.v / ranks_per_chip;
  // Parameters this rank holds (stage share, tp shard; experts also split by ep).
  const double total = m.parameters();
  const double stage = total / p.pp;
  const double per_tp = stage / p.tp;
  const double fsdp_shard = per_tp / p.fsdp;
  const double zero_div = p.zero >= 1 ? p.dp : 1;
  // Bytes per element of weights, gradients and activations: 2 (bf16), 4 for an FP32 model.
  const double eb = s.precision.element_bytes();
  // The master copy in the optimizer state: 4 B (fp32) or 2 B (bf16 master_weights); none for an
  // FP32 model, whose weights are the master whatever master_weights says.
  const double master = s.precision.fp32() ? 0.0 : s.precision.master_weights == MasterWeights::FP32 ? 4.0 : 2.0;
  // Weights: the shard + (FSDP) the gathered weights of two layers (current + prefetch).
  const double layer = per_tp / std::max(1, m.num_layers / p.pp);
  double weights = (p.fsdp > 1 || p.zero >= 3 ? fsdp_shard / (p.zero >= 3 ? p.dp : 1) : per_tp) * eb;
  if (p.fsdp > 1) weights += 2 * layer * eb;
  // FP8 / MXFP8: the weights stay BF16 (and FP32 master); the GEMMs read FP8 copies of the
  // current layer's weights and of their transposes (forward and data gradient), cast from BF16
  // every micro-batch: 2 x 1 byte per parameter, + an E8M0 scale per 32 elements for MX (F23).
  if (s.precision.fp8()) weights += 2 * layer * (s.precision.mxfp8() ? 1.0 + 1.0 / 32 : 1.0);
  double grads = (p.fsdp > 1 || p.zero >= 2 ? fsdp_shard / (p.zero >= 2 ? p.dp : 1) : per_tp) * eb;
  if (p.fsdp > 1) grads += layer * eb;  // one layer's full gradient before its reduce-scatter
  const double optimizer = fsdp_shard / zero_div * (master + 8.0);  // master + m, v (fp32; AdamW and LAMB alike)
  // Activations (elements per token and layer, of eb bytes each).
  const double seqs_per_micro = double(s.batch.sequences()) / (double(p.dp) * p.fsdp * p.microbatches);
  const double tokens = seqs_per_micro * s.batch.seq_len;
  const double layers_here = double(m.num_layers) / p.pp;
  const double h = m.hidden_size, q = double(m.num_heads) * m.head_dim, kv = double(m.num_kv_heads) * m.head_dim;
  const int up = m.mlp == MlpKind::SwiGLU ? 2 : 1;
  const double f = m.is_moe() ? double(m.moe_intermediate_size) * m.experts_per_token : m.intermediate_size;
  double per_layer;
  if (s.checkpointing == Checkpointing::Full) {
    per_layer = tokens * h * eb / (p.sequence_parallel ? p.tp : 1);
  } else {
    const double replicated = 4.0 * h / (p.sequence_parallel ? p.tp : 1);
    // Selective drops the attention output (recomputed); selective_mlp also the MLP's
    // activations (its input, the second norm's output, is among the replicated 4h).
    double split = (q + 2 * kv) + (recomputes_attention(s.checkpointing) ? 0.0 : q) +
                   (s.checkpointing == Checkpointing::SelectiveMlp ? 0.0 : up * f + f);
    if (m.is_moe()) split += m.num_experts;  // router logits
    per_layer = tokens * (replicated + split / p.tp) * eb;
  }
  const double in_flight = std::min<double>(p.pp, p.microbatches);  // stage 0 under 1F1B
  double activations = per_layer * layers_here * in_flight;
  // Logits of the last stage: fp32 [tokens x vocab / tp], live during the loss.
  activations += tokens * double(m.vocab_size) / p.tp * 4.0;
  r.categories = {{enum_word(MemoryKind::Weights), weights},
                  {enum_word(MemoryKind::Gradients), grads},
                  {enum_word(MemoryKind::Optimizer), optimizer},
                  {enum_word(MemoryKind::Activations), activations},
                  {enum_word(MemoryKind::Workspace), s.runtime.workspace.v}};
  for (const auto& c : r.categories) r.total += c.bytes;
  return r;
}

}  // namespace trn::workloads
