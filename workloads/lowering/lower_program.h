// Lowering: a sharded TrainingGraph -> the per-rank Program of timed ops (models/ir).
//
// Three parts, each in its own file:
//   emission      (lower_program.cpp): walks the rank's 1F1B segments and appends each graph
//                 op as timed ops (its casts first) with its graph inputs as dependencies, the
//                 collective groups and their siblings;
//   launch policy (launch_policy.h): chosen once per rank from the execution mode, the order
//                 in which a segment's ops are emitted and the host ops they wait for (eager
//                 dispatch, regional launch, whole graphs);
//   op costs      (op_cost.h): durations from the cost models (matmul tiling, streaming
//                 engines), divided over the LNC physical cores of a logical core and by the
//                 runtime's kernel efficiency for tensor work; HBM bytes stream alongside each op.
// The compiler's part of the order (the collective prefetch, the list schedule of a whole
// graph) is workloads/compile/list_schedule.h. Execution modes differ by mechanisms:
//   eager    : every op is dispatched from the host (runtime.eager_dispatch each, in order),
//              nothing is fused (each elementwise op reads and writes HBM), and each op waits
//              for the previous one (no cross-op scheduling, so no comm/compute overlap);
//   compiled : one host launch per region (a layer's forward or backward), elementwise ops
//              fuse into their neighbours (no HBM round trip), and collectives run as soon
//              as their inputs allow: FSDP gathers are prefetched during earlier compute.
// Micro-batches follow the 1F1B schedule of the rank's pipeline stage.
#pragma once

#include <memory>
#include <vector>

#include "models/ir/program.h"
#include "workloads/graph/training_graph.h"
#include "workloads/parallel/layout.h"
#include "workloads/scenario/scenario_spec.h"

namespace trn::workloads {

/// The in-order collective streams of a core (models::Op::queue of Engine::Collective ops):
/// one per kind of group, and pipeline receives on a stream of their own so that a blocked
/// send never holds up the receive its peer is waiting for.
enum class CollectiveStream : int { None, Tp, Fsdp, Dp, Pp, Ep, PpRecv };
/// The stream of collective graph op `g`.
CollectiveStream collective_stream(const GraphOp& g);
/// The members of collective graph op `g` as seen from `rank` (a pipeline transfer: the sender
/// first).
std::vector<int> collective_members(const Layout& layout, int rank, const GraphOp& g);
/// Whether `queue` (of an Engine::Collective op) is a pipeline stream (send or receive).
inline bool is_pipeline_stream(int queue) {
  return queue == static_cast<int>(CollectiveStream::Pp) || queue == static_cast<int>(CollectiveStream::PpRecv);
}

struct LoweringStats {
  double model_flops = 0;  // FLOPs of the ops (incl. recomputation), per rank per step
  int64_t ops = 0;
};

/// Program of `rank` for one training step. `stage_graph` is the graph of the rank's stage
/// after the parallel passes.
/// `simulated` (one flag per rank, or empty): the ranks that get a program; every collective
/// group then also lists its sibling groups (Program::siblings): the groups of the ranks of the
/// same stage, none of whose members is simulated.
models::Program lower_rank(const ScenarioSpec& s, const Layout& layout, const TrainingGraph& stage_graph, int rank,
                           LoweringStats* stats = nullptr, const std::vector<char>& simulated = {});

/// What the emission of a graph op makes the same for every micro-batch and every rank of a
/// stage (its device ops without dependencies, collectives without their group), made once per
/// graph op. A stream makes its own unless given one; the ranks of a stage may share one: the
/// same scenario and stage graph (checked: std::logic_error otherwise).
class OpTemplates;
std::shared_ptr<OpTemplates> make_op_templates();

/// The same program lowered on demand, one 1F1B segment at a time (NeuronCore::load), with
/// compiled mode's host ops handed out ahead of the device ops. `ops`: the graph ops of the
/// step (LoweringStats::ops). `simulated` must outlive the stream.
std::unique_ptr<models::ProgramSource> stream_rank(const ScenarioSpec& s, const Layout& layout,
                                                   const TrainingGraph& stage_graph, int rank, int64_t* ops,
                                                   const std::vector<char>& simulated,
                                                   std::shared_ptr<OpTemplates> templates = nullptr);

/// The 1F1B order of (micro-batch, is_backward) for `stage` of `stages` with `m` micro-batches.
std::vector<std::pair<int, bool>> one_f_one_b(int stage, int stages, int m);

}  // namespace trn::workloads
