// Named operators of Chakra compute nodes (docs/interop.md, "Running Chakra traces on Trainium").
//
// A compute node that names an operator trnsim knows, with its operand shapes, is timed by the
// NeuronCore model (workloads/lowering/op_cost.h) as trnsim times its own ops: the matmul tiling
// on the tensor engine, the flash-attention kernel, the streaming engines for element-wise work
// and norms. The operator is the node's `trn_operator` attribute when it has one (trnsim's
// exports), else its name; the shapes and dtypes are its `inputs` (IOInfo), written as Chakra's
// PyTorch converter writes them: the Python text of one list entry per argument.
//
//   matmul      aten::mm [M,K] [K,N]; addmm (bias, [M,K], [K,N]); bmm and baddbmm [B,M,K] [B,K,N];
//               matmul [...,M,K] [K,N] or [...,M,K] [...,K,N]; linear [...,K] [N,K]
//   attention   aten::scaled_dot_product_attention, _scaled_dot_product_flash_attention (Q [B,H,S,D],
//               K and V [B,Hkv,S,D]; is_causal the first Bool argument) and
//               _scaled_dot_product_flash_attention_backward (grad_out first, then Q, K, V)
//   norm        aten::layer_norm, native_layer_norm, rms_norm, _fused_rms_norm, group_norm (VectorE,
//               one input) and their _backward forms (two)
//   elementwise binary arithmetic on VectorE (add, sub, mul, div, where, ...), unary copies on
//               VectorE (neg, clone, _to_copy, ...), transcendental and activation functions on
//               ScalarE (exp, silu, gelu, softmax, ...), trn::vector / trn::scalar / trn::gpsimd
//               (trnsim's exports: as many inputs as shapes); elements: the largest operand
//   embedding   aten::embedding (weight [V,H], indices): GpSimdE gathers
// The namespace (`aten::`), an overload (`.Tensor`) and an in-place `_` are ignored.
#pragma once

#include <string>
#include <vector>

#include "models/cost/dtype.h"
#include "workloads/graph/training_graph.h"

namespace trn::app {

/// A compute node read as one of trnsim's graph ops.
struct NamedOperator {
  std::string family;  // matmul, attention, norm, elementwise, embedding
  workloads::GraphOp op;
  models::DType dtype = models::DType::BF16;  // of its tensor inputs (BF16 when the types do not say)
};

/// The families `named_operator` sorts operators into, in the order the output lists them.
const std::vector<std::string>& operator_families();

/// The graph op of a node that names operator `name` with operands `shapes`, `types` and
/// `values` (IOInfo texts). False, with the reason in `why`, when the name is not a known
/// operator or the shapes do not fit it.
bool named_operator(const std::string& name, const std::string& shapes, const std::string& types,
                    const std::string& values, NamedOperator* out, std::string* why);

/// The Python text of a list of shapes, as Chakra's converter writes IOInfo.shapes.
std::string shapes_text(const std::vector<std::vector<int64_t>>& shapes);

}  // namespace trn::app
