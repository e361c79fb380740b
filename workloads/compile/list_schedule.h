// The compiler's order of a segment's ops (docs/model.md 11.1): which graph ops a 1F1B segment
// holds, their program order with the compiler's collective prefetch (compiled mode), and the
// list schedule of a whole graph (the xla frontend). The lowering (workloads/lowering) emits
// the ops in the order chosen here; this file sees only the graph and, for the list schedule,
// each op's estimated duration on its in-order lane.
#pragma once

#include <vector>

#include "models/ir/program.h"
#include "workloads/graph/training_graph.h"

namespace trn::workloads {

/// A kind of 1F1B segment: a micro-batch's forward or its backward (every op not of phase
/// Forward: the backward, the recomputation, the update), of the last micro-batch or not (only
/// the last holds the once-per-step ops).
struct SegmentKind {
  bool backward = false;
  bool last_micro = false;
  /// 0 .. kSegmentKinds - 1, for tables with one entry per kind.
  int index() const { return (backward ? 1 : 0) | (last_micro ? 2 : 0); }
};
constexpr int kSegmentKinds = 4;

/// Whether a segment of kind `k` holds graph op `g`.
bool in_segment(const GraphOp& g, SegmentKind k);

/// The ops of a segment of kind `k` in the graph's program order. With `prefetch` (compiled
/// mode) each prefetchable collective (an FSDP gather) moves up to just after the previous one
/// of the same phase, so that it runs during the previous layer's compute (the compiler's
/// prefetch).
std::vector<Vertex> program_order(const TrainingGraph& t, SegmentKind k, bool prefetch);

/// The compiler's estimate of an op for the list schedule: its in-order lane (an engine's
/// queue, as models::Op::engine and models::Op::queue name it) and its duration there.
struct LaneEstimate {
  models::Engine engine = models::Engine::Tensor;
  int queue = 0;
  double duration_s = 0;
};

/// The compiler's list schedule of one whole graph (docs/model.md 11.1): the engines and
/// collective streams run their instructions in order, so the order is the schedule. Ops are
/// placed one at a time, each time the one that can start earliest (its inputs done and its
/// lane free, by the estimates), ties in program order. Independent work (a weight gradient,
/// the recomputed forward of the next layer down) thus fills the time an engine would wait for
/// a collective, and a collective waits for its inputs only. Sequence edges do not order the
/// ops of one graph (GraphEdge). `order` must be a topological order of the graph's ops and
/// `estimates[i]` the estimate of `order[i]`; the result is a topological order too.
std::vector<Vertex> list_schedule(const Graph& g, const std::vector<Vertex>& order,
                                  const std::vector<LaneEstimate>& estimates);

}  // namespace trn::workloads
