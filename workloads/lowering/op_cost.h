// Costs of one graph op on one NeuronCore, for the lowering (lower_program.cpp and its launch
// policy, launch_policy.h, decide the order and dependencies; this file only times ops).
// Durations come from the cost models (matmul tiling, streaming engines), split over the LNC
// physical cores of a logical core and divided by the runtime's kernel efficiency for tensor
// work; HBM bytes stream alongside each op. Eager runs fuse nothing (each elementwise op reads
// and writes HBM).
#pragma once

#include <vector>

#include "models/cost/dtype.h"
#include "models/ir/program.h"
#include "workloads/graph/training_graph.h"
#include "workloads/scenario/scenario_spec.h"

namespace trn::workloads {

/// What the cost of an op depends on: the scenario, the chip, the physical cores per logical
/// core and whether the run is eager.
struct OpCostContext {
  const ScenarioSpec& s;
  const models::ChipSpec& chip;
  int lnc;
  bool eager;
};

/// The tensor engine's input dtype for op `g`'s matmuls (a GEMM or attention): FP8 / MXFP8 for
/// the FP8 GEMMs; for an FP32 model BF16 with auto-cast and FP32 (at the tiling model's
/// fp32_slowdown) without; BF16 otherwise.
models::DType gemm_dtype(const OpCostContext& c, const GraphOp& g);
/// The timed op of compute graph op `g` (not a collective: those are timed by the fabric).
models::Op compute_op(const OpCostContext& c, const GraphOp& g);
/// The casts that run before op `g`, in order: the FP8 casts and scales of an FP8 GEMM, or the
/// BF16 auto-cast of an FP32 model's GEMM or attention (none for other ops).
std::vector<models::Op> cast_ops(const OpCostContext& c, const GraphOp& g);

}  // namespace trn::workloads
