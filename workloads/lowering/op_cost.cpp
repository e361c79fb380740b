// Costs of one graph op on one NeuronCore (see op_cost.h).
#include "workloads/lowering/op_cost.h"

#include <algorithm>
#include <cmath>

#include "models/cost/engine_cost.h"
#include "models/cost/tensor_cost.h"
#include "models/kernels/matmul_kernel.h"

namespace trn::workloads {
namespace {

using models::Engine;
using models::Op;

// One streaming-engine instruction covers 128 partitions x up to 2,048 free elements.
constexpr double kInstructionElements = 128.0 * 2048.0;

// The logical core's physical cores split the token (M) dimension.
models::MatmulShape per_core_shape(const OpCostContext& c, double m, double n, double k,
                                   models::DType dtype = models::DType::BF16) {
  return models::MatmulShape{static_cast<int64_t>(std::ceil(m / c.lnc)), static_cast<int64_t>(std::ceil(n)),
                             static_cast<int64_t>(std::ceil(k)), dtype};
}

double matmul_time(const OpCostContext& c, double m, double n, double k, models::DType dtype = models::DType::BF16) {
  if (m <= 0 || n <= 0 || k <= 0) return 0;
  models::MatmulShape sh = per_core_shape(c, m, n, k, dtype);
  return models::matmul_cost(c.chip.tensor, c.chip.psum.banks, sh, false).time_s /
         c.s.runtime.efficiency(c.s.mode, c.s.compile.frontend);
}

// FP8 training (docs/model.md, "FP8 and MXFP8"; F22, F23, F24): the linear layers' GEMMs of
// the transformer blocks run in FP8 (precision.compute fp8) or MXFP8 (mxfp8), forward and
// backward; attention's matmuls, the router and the LM head stay in BF16.
bool fp8_gemm(const OpCostContext& c, const GraphOp& g) {
  return c.s.precision.fp8() && g.kind == OpKind::Matmul && g.layer >= 0 && g.role != OpRole::Router;
}

// An FP32 model compiled with neuronx-cc's default auto-cast (compile.auto_cast matmult, F29):
// every tensor-engine GEMM (linear layers, router, LM head, attention's matmuls) runs on BF16
// casts of its FP32 operands; everything else stays FP32 (docs/model.md, "FP32 and the
// compiler's auto-cast").
bool auto_cast_gemms(const OpCostContext& c) {
  return c.s.precision.fp32() && c.s.compile.auto_cast == AutoCast::Matmult;
}

}  // namespace

models::DType gemm_dtype(const OpCostContext& c, const GraphOp& g) {
  if (c.s.precision.fp32()) return auto_cast_gemms(c) ? models::DType::BF16 : models::DType::FP32;
  if (!fp8_gemm(c, g)) return models::DType::BF16;
  return c.s.precision.mxfp8() ? models::DType::MXFP8 : models::DType::FP8;
}

namespace {

// The dtype the model's tensors are stored in (HBM and the kernels' SBUF tiles): FP32 for an
// FP32 model, BF16 otherwise (the FP8 path keeps BF16 tensors and casts copies).
models::DType storage_dtype(const OpCostContext& c) {
  return c.s.precision.fp32() ? models::DType::FP32 : models::DType::BF16;
}

// Elements an FP8 GEMM casts from BF16 before it runs: a forward GEMM (and its recomputation)
// casts its input activation [tokens x k] and its weight [k x n]; a data-gradient GEMM casts
// the output gradient [tokens x k] and reuses the weight's FP8 copy; a weight-gradient GEMM
// reuses the FP8 activation and output gradient (F24).
double fp8_cast_elements(const GraphOp& g) {
  const double e = std::max(1, g.experts);
  if (g.role == OpRole::WeightGrad) return 0;
  if (g.phase == Phase::Backward && !g.recompute) return g.tokens * g.k * e;  // a data gradient
  return (g.tokens * g.k + g.k * g.n) * e;
}

// Bytes per element of an FP8 operand: one, plus one E8M0 scale per 32-element block for MX
// (F23). Per-tensor scales are one number per tensor.
double fp8_operand_bytes(const OpCostContext& c) { return c.s.precision.mxfp8() ? 1.0 + 1.0 / 32 : 1.0; }

// SBUF working set of a matmul on the logical core: the tiled kernel's (resident B block and
// double-buffered A tile, of `dtype` elements) on each of its physical cores.
double matmul_sbuf(const OpCostContext& c, double m, double n, double k, models::DType dtype = models::DType::BF16) {
  if (m <= 0 || n <= 0 || k <= 0) return 0;
  return std::ceil(c.lnc * models::matmul_sbuf_bytes(c.chip, per_core_shape(c, m, n, k, dtype)));
}

// SBUF working set of a streaming op on the logical core: each physical core double-buffers
// one instruction's tile (at most kInstructionElements of its share of the elements) of every
// tensor it reads and writes, `bytes_per_element` in all.
double stream_sbuf(const OpCostContext& c, double elements, double bytes_per_element) {
  if (elements <= 0) return 0;
  return std::ceil(c.lnc * 2.0 * std::min(elements / c.lnc, kInstructionElements) * bytes_per_element);
}

double stream_time(const OpCostContext& c, const models::StreamEngineSpec& e, double elements, int inputs) {
  if (elements <= 0) return 0;
  double per_core = elements / c.lnc;
  double instructions = std::ceil(per_core / kInstructionElements);
  return (per_core * std::max(1, inputs) / e.elems_per_cycle + instructions * e.fixed_overhead_cycles) / e.clock.v;
}

// As stream_time at `per_cycle` elements per cycle (one input).
double stream_time_at(const OpCostContext& c, const models::StreamEngineSpec& e, double elements, double per_cycle) {
  if (elements <= 0) return 0;
  double per_core = elements / c.lnc;
  double instructions = std::ceil(per_core / kInstructionElements);
  return (per_core / per_cycle + instructions * e.fixed_overhead_cycles) / e.clock.v;
}

// The casts before an FP8 GEMM, in the order they run (each waits for the previous one):
// per-tensor FP8: the amax reduction that sets the scale (VectorE reads the BF16 tensor), then
// the scaled cast (ScalarE, func(in * scale): reads BF16, writes FP8); MXFP8: one quantise
// instruction on VectorE (QuantizeMX, S12) writing the FP8 data and a scale per 32 elements.
std::vector<Op> fp8_cast_ops(const OpCostContext& c, const GraphOp& g) {
  std::vector<Op> ops;
  const double n = fp8_cast_elements(g);
  if (!fp8_gemm(c, g) || n <= 0) return ops;
  const double b = c.s.precision.element_bytes();  // the bf16 source (2 B)
  if (c.s.precision.mxfp8()) {
    Op q;
    q.engine = Engine::Vector;
    q.name = "mx_quantize_" + g.name;
    q.duration_s = stream_time_at(c, c.chip.vector, n, c.chip.vector.mx_quantize_elems_per_cycle);
    q.bytes = n * (b + fp8_operand_bytes(c));
    q.sbuf_bytes = stream_sbuf(c, n, b + fp8_operand_bytes(c));
    ops.push_back(std::move(q));
    return ops;
  }
  Op amax;
  amax.engine = Engine::Vector;
  amax.name = "fp8_amax_" + g.name;
  amax.duration_s = stream_time(c, c.chip.vector, n, 1);
  amax.bytes = n * b;
  amax.sbuf_bytes = stream_sbuf(c, n, b);
  ops.push_back(std::move(amax));
  Op cast;
  cast.engine = Engine::Scalar;
  cast.name = "fp8_cast_" + g.name;
  cast.duration_s = stream_time(c, c.chip.scalar, n, 1);
  cast.bytes = n * (b + 1.0);
  cast.sbuf_bytes = stream_sbuf(c, n, b + 1.0);
  ops.push_back(std::move(cast));
  return ops;
}

// Keys per query of an attention op: `useful` are not masked (the model FLOPs), `computed` are
// what the kernel computes. A flash kernel skips the masked half of a causal square; unfused
// attention computes the full square and masks it.
struct AttentionKeys {
  double useful, computed;
};
AttentionKeys attention_keys(const OpCostContext& c, const GraphOp& g) {
  const double s = g.seq;
  const bool unfused = c.s.compile.attention == AttentionKernel::Unfused;
  auto windowed = [&](double keys) { return g.window > 0 ? std::min(keys, g.window) : keys; };
  const double useful = windowed(g.causal ? (s + 1) / 2 : s);
  return AttentionKeys{useful, unfused ? windowed(s) : useful};
}

// Elements the auto-cast converts from FP32 to BF16 before tensor-engine op `g`: each operand
// its matmuls read, once per op. A GEMM casts both inputs, [tokens x k] and [k x n] per expert
// (no BF16 copy is kept between ops: the weight-gradient GEMM casts again). Attention casts Q,
// K and V (forward) or Q, K, V and dO (backward), and, when unfused, the probabilities P
// (forward) or P and dS (backward) that come back from HBM; a flash kernel makes P and dS on
// chip, where the engine that computes them writes BF16 directly.
double auto_cast_elements(const OpCostContext& c, const GraphOp& g) {
  if (g.kind == OpKind::Matmul) return (g.tokens * g.k + g.k * g.n) * std::max(1, g.experts);
  if (g.kind != OpKind::Attention) return 0;
  const bool bwd = g.phase == Phase::Backward && !g.recompute;
  const double q = double(g.heads) * g.head_dim, kv = double(g.kv_heads) * g.head_dim;
  const double scores = g.seq * attention_keys(c, g).computed * g.heads * g.sequences;
  const bool unfused = c.s.compile.attention == AttentionKernel::Unfused;
  return g.tokens * ((bwd ? 2 : 1) * q + 2 * kv) + (unfused ? (bwd ? 2 : 1) * scores : 0.0);
}

// The auto-cast of an FP32 model's tensor-engine op (fp32 + matmult): one ScalarE pass
// (ACTIVATE with a BF16 output, as the FP8 path's cast) over the operand tiles the op loads, in
// SBUF: it reads 4 B and writes 2 B per element there and adds no HBM bytes (the op itself
// streams the FP32 operands). The op waits for it.
std::vector<Op> auto_cast_ops(const OpCostContext& c, const GraphOp& g) {
  std::vector<Op> ops;
  const double n = auto_cast_gemms(c) ? auto_cast_elements(c, g) : 0.0;
  if (n <= 0) return ops;
  Op cast;
  cast.engine = Engine::Scalar;
  cast.name = "auto_cast_" + g.name;
  cast.duration_s = stream_time(c, c.chip.scalar, n, 1);
  cast.sbuf_bytes = stream_sbuf(c, n, c.s.precision.element_bytes() + 2.0);
  ops.push_back(std::move(cast));
  return ops;
}

}  // namespace

std::vector<Op> cast_ops(const OpCostContext& c, const GraphOp& g) {
  if (g.kind == OpKind::Collective) return {};
  if (c.s.precision.fp32()) return auto_cast_ops(c, g);
  return fp8_cast_ops(c, g);
}

namespace {

const models::StreamEngineSpec& engine_spec(const OpCostContext& c, Engine e) {
  if (e == Engine::Scalar) return c.chip.scalar;
  if (e == Engine::GpSimd) return c.chip.gpsimd;
  return c.chip.vector;
}

// Fills duration, bytes and flops of an attention op (one kernel over heads and sequences).
void attention_op(const OpCostContext& c, const GraphOp& g, Op& op) {
  const double b = c.s.precision.element_bytes();  // bf16, or fp32 for an FP32 model
  op.engine = Engine::Tensor;
  op.tensor_busy = true;
  const double s = g.seq;
  const bool unfused = c.s.compile.attention == AttentionKernel::Unfused;
  const AttentionKeys keys = attention_keys(c, g);
  const double s_useful = keys.useful;  // keys per query not masked
  const double s_eff = keys.computed;   // keys per query computed
  const bool bwd = g.phase == Phase::Backward && !g.recompute;
  const double mult = bwd ? 2.5 : 1.0;  // dQ, dK, dV, dP + recomputed P
  // Per head and sequence: S = Q K^T (s x s_eff, contracting head_dim), then O = P V
  // (s x head_dim, contracting s_eff).
  const models::DType dt = gemm_dtype(c, g);
  const double mm = (matmul_time(c, s, s_eff, g.head_dim, dt) + matmul_time(c, s, g.head_dim, s_eff, dt)) * g.heads *
                    g.sequences * mult;
  const double exps = s * s_eff * g.heads * g.sequences;
  const double scalar = stream_time(c, c.chip.scalar, exps, 1);
  const double vector = stream_time(c, c.chip.vector, exps, 1);
  // A flash kernel pipelines the engines over tiles; unfused attention runs the matmuls, the
  // exponentials and the softmax's vector work as separate ops, one after another.
  op.duration_s = unfused ? mm + scalar + vector : std::max({mm, scalar, vector});
  op.flops = 4.0 * s * s_useful * g.head_dim * g.heads * g.sequences * mult;
  const double q = double(g.heads) * g.head_dim, kv = double(g.kv_heads) * g.head_dim;
  op.bytes = g.tokens * (2 * q + 2 * kv) * b * (bwd ? 2 : 1);
  // Unfused: the score tensor goes through HBM. Forward: S written, read and P written by
  // the softmax (masking and scaling fused into it), P read by PV: 4 passes. Backward: P
  // read for dV, dP written, P and dP read and dS written by the softmax backward, dS read
  // for dQ and for dK: 7 passes. Elements of the model's dtype.
  if (unfused) op.bytes += exps * b * (bwd ? 7 : 4);
  op.sbuf_bytes = matmul_sbuf(c, s, s_eff, g.head_dim, storage_dtype(c));  // one head's QK^T tiles
}

// Fills duration, bytes and flops of a compute op from a graph op.
}  // namespace

Op compute_op(const OpCostContext& c, const GraphOp& g) {
  Op op;
  op.name = g.name;
  const double b = c.s.precision.element_bytes();  // bf16, or fp32 for an FP32 model
  switch (g.kind) {
    case OpKind::Matmul: {
      op.engine = Engine::Tensor;
      op.tensor_busy = true;
      const double e = std::max(1, g.experts);
      const models::DType dt = gemm_dtype(c, g);
      op.duration_s = matmul_time(c, g.tokens, g.n, g.k, dt) * e;
      op.flops = 2.0 * g.tokens * g.n * g.k * e;
      if (dt == models::DType::BF16 || dt == models::DType::FP32) {
        // Operands and output in the model's dtype (an FP32 model's GEMM streams FP32 whether
        // the tensor engine runs it in FP32 or on BF16 casts; PSUM accumulates in FP32 either way).
        op.bytes = (g.tokens * g.k + g.k * g.n + g.tokens * g.n) * b * e;
        op.sbuf_bytes = matmul_sbuf(c, g.tokens, g.n, g.k, storage_dtype(c));  // experts run one after another
      } else {                                                                 // FP8 operands, BF16 output
        op.bytes = ((g.tokens * g.k + g.k * g.n) * fp8_operand_bytes(c) + g.tokens * g.n * b) * e;
        op.sbuf_bytes = std::ceil(c.lnc * models::matmul_sbuf_bytes(c.chip, per_core_shape(c, g.tokens, g.n, g.k, dt)));
      }
      break;
    }
    case OpKind::Attention: attention_op(c, g, op); break;
    case OpKind::Embedding: {
      op.engine = Engine::GpSimd;
      op.duration_s = stream_time(c, c.chip.gpsimd, g.tokens * g.width, 1);
      op.bytes = 2 * g.tokens * g.width * b;
      op.sbuf_bytes = stream_sbuf(c, g.tokens * g.width, 2 * b);
      break;
    }
    case OpKind::Loss: {
      op.engine = Engine::Scalar;  // exp over the (vocab-sharded) logits, then reductions
      op.duration_s = stream_time(c, c.chip.scalar, g.tokens * g.width, 2);
      op.bytes = g.tokens * g.width * 4 * 2;  // fp32 logits read and written
      op.sbuf_bytes = stream_sbuf(c, g.tokens * g.width, 4 * 2);
      break;
    }
    case OpKind::Optimizer: {
      op.engine = Engine::Vector;
      const double shard = g.width;                             // already divided by the parallel passes
      const OptimizerCost oc = c.s.precision.optimizer_cost();  // AdamW: 12 passes, 28 B/param; LAMB: 15, 40
      op.name = enum_word(c.s.precision.optimizer);
      op.duration_s = stream_time(c, c.chip.vector, shard * oc.vector_passes, 1);
      op.bytes = shard * oc.bytes;
      op.sbuf_bytes = stream_sbuf(c, shard, oc.bytes);
      break;
    }
    case OpKind::Elementwise: {
      op.engine = g.engine;
      const double elements = g.tokens * g.width;
      op.duration_s = stream_time(c, engine_spec(c, g.engine), elements, g.inputs);
      const bool fused = !c.eager && g.fusable;
      op.bytes = fused ? 0.0 : elements * b * (g.inputs + 1);
      op.sbuf_bytes = stream_sbuf(c, elements, b * (g.inputs + 1));  // fused: the tiles stay in SBUF
      break;
    }
    case OpKind::Collective: break;
  }
  return op;
}

}  // namespace trn::workloads
