// Parallelism passes over a TrainingGraph (one pass per concern, applied in this order):
//   expert_parallel: shards experts by ep (the all-to-alls are placed by the builder);
//   tensor_parallel: shard matmuls, heads and widths by tp; all-reduce after row-split
//     matmuls (or reduce-scatter + all-gather with sequence parallelism); a backward
//     reduction runs beside the weight-gradient GEMM that follows its dgrad;
//   fsdp: all-gather each layer's weights before its forward and its backward, and
//     reduce-scatter its gradients after the backward (ZeRO-3 over the fsdp group);
//   data_parallel: all-reduce (or reduce-scatter with ZeRO >= 1) each layer's gradients
//     over the dp group, once per step;
//   pipeline: send activations to the next stage / gradients to the previous one (1/tp of
//     the activation per rank with sequence parallelism).
#pragma once

#include "workloads/graph/training_graph.h"
#include "workloads/scenario/scenario_spec.h"

namespace trn::workloads {

// `elem_bytes`: bytes per element of the activations, weights and gradients the collectives
// move (PrecisionSpec::element_bytes: 2, or 4 for an fp32 model).
void tensor_parallel_pass(TrainingGraph& g, int tp, bool sequence_parallel, double elem_bytes,
                          bool sp_backward_gather = false);
void fsdp_pass(TrainingGraph& g, int tp, int fsdp, int ep, double elem_bytes);
/// `after_backward`: every gradient reduction waits for the stage's whole backward (the xla
/// frontend's frameworks reduce in a graph after it) instead of its own layer's backward only.
void data_parallel_pass(TrainingGraph& g, int tp, int fsdp, int dp, int zero, int ep, double elem_bytes,
                        bool after_backward = false);
void pipeline_pass(TrainingGraph& g, int stage, int stages, double hidden, int tp, bool sp, double elem_bytes);
void expert_parallel_pass(TrainingGraph& g, int ep);

/// Applies all passes for one stage of a scenario.
void apply_parallel_passes(TrainingGraph& g, const ScenarioSpec& s, int stage);

/// The graph of pipeline stage `p` of `s` after the parallel passes (the same for every rank of
/// the stage): its layers, one micro-batch's sequences per replica, then apply_parallel_passes.
TrainingGraph stage_training_graph(const ScenarioSpec& s, int p);

}  // namespace trn::workloads
