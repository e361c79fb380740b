// Hierarchical plans (S23): intra-instance phase(s) and an inter-instance phase, composed with
// per-rank barriers (all-reduce = intra RS -> inter AR -> intra AG), each phase by the
// algorithm selection.h picks for its size; large messages pipelined in pieces.
#include <algorithm>
#include <string>

#include "models/collectives/algorithm.h"
#include "models/collectives/selection.h"
#include "sim/base/shared_helpers.h"

namespace trn::models {

namespace {

using sim::max_rank;

// One intra-instance phase of algorithm `a` over every group; its steps. Building a quotient,
// the groups of other instances than the representatives' are left out (PlanBuilder::skip):
// their transfers are images of a built group's, all groups being alike.
int intra_groups(PlanBuilder& b, Algorithm a, const std::vector<std::vector<int>>& groups, double bytes, PhaseKind k,
                 const PlanOptions& opt) {
  int steps = 0;
  uint64_t group_transfers = 0;
  std::vector<const std::vector<int>*> skipped;
  for (const auto& g : groups) {
    if (b.skippable(g)) {
      skipped.push_back(&g);
      continue;
    }
    const uint64_t before = b.plan.full_transfers;
    steps = std::max(steps, build_phase(b, a, g, bytes, k, opt));
    group_transfers = b.plan.full_transfers - before;
  }
  for (const auto* g : skipped) b.skip(*g, group_transfers);
  return steps;
}

// One piece of a hierarchical plan, appended to `b`. Its first phase starts after the
// barriers in b (the previous piece's first phase); returns this piece's first-phase
// barriers so that the next piece's first phase queues behind it.
std::vector<int32_t> hierarchical_piece(PlanBuilder& b, CollectiveOp op, double bytes,
                                        const std::vector<std::vector<int>>& groups, Algorithm large_algorithm,
                                        const PlanOptions& opt, const Algorithm* force_intra) {
  std::vector<int32_t> first_phase_end;
  const size_t local = groups.empty() ? 0 : groups[0].size();
  const int inst = static_cast<int>(groups.size());
  auto intra_algo = [&](double sz, PhaseKind k) {
    if (force_intra) return *force_intra;
    return choose_intra(k == PhaseKind::AllToAll ? CollectiveOp::AllToAll : CollectiveOp::AllReduce, sz,
                        static_cast<int>(local), large_algorithm);
  };
  auto intra = [&](double sz, PhaseKind k) {
    Algorithm a = intra_algo(sz, k);
    const int steps = intra_groups(b, a, groups, sz, k, opt);
    b.new_phase();
    if (first_phase_end.empty()) first_phase_end = b.barriers();
    return std::make_pair(steps, a);
  };
  auto inter = [&](double sz, PhaseKind k) {
    Algorithm a = choose_inter(CollectiveOp::AllReduce, sz, inst);
    int steps = 0;
    for (size_t j = 0; j < local; ++j) {
      std::vector<int> ranks;
      for (const auto& g : groups) ranks.push_back(g[j]);
      steps = std::max(steps, build_phase(b, a, ranks, sz, k, opt));
    }
    b.new_phase();
    if (first_phase_end.empty()) first_phase_end = b.barriers();
    return std::make_pair(steps, a);
  };
  std::string name;
  auto label = [&](const char* what, Algorithm a) {
    name += (name.empty() ? "" : "+") + std::string(what) + ":" + algorithm(a).name();
  };
  const double per_local = bytes / static_cast<double>(local ? local : 1);
  switch (op) {
    case CollectiveOp::AllReduce: {
      auto p1 = intra(bytes, PhaseKind::ReduceScatter);
      auto p2 = inter(per_local, PhaseKind::AllReduce);
      auto p3 = intra(bytes, PhaseKind::AllGather);
      b.plan.steps = p1.first + p2.first + p3.first;
      label("intra-rs", p1.second);
      label("inter-ar", p2.second);
      label("intra-ag", p3.second);
      break;
    }
    case CollectiveOp::AllGather: {
      auto p1 = inter(per_local, PhaseKind::AllGather);
      auto p2 = intra(bytes, PhaseKind::AllGather);
      b.plan.steps = p1.first + p2.first;
      label("inter-ag", p1.second);
      label("intra-ag", p2.second);
      break;
    }
    case CollectiveOp::ReduceScatter: {
      auto p1 = intra(bytes, PhaseKind::ReduceScatter);
      auto p2 = inter(per_local, PhaseKind::ReduceScatter);
      b.plan.steps = p1.first + p2.first;
      label("intra-rs", p1.second);
      label("inter-rs", p2.second);
      break;
    }
    case CollectiveOp::SendRecv:
    case CollectiveOp::AllToAll: {
      std::vector<int> all;
      for (const auto& g : groups) all.insert(all.end(), g.begin(), g.end());
      b.plan.steps = build_phase(b, Algorithm::Mesh, all, bytes, PhaseKind::AllToAll, opt);
      b.new_phase();
      name = "mesh";
      break;
    }
  }
  b.plan.algorithm = "hier(" + name + ")";
  return first_phase_end;
}
}  // namespace

CollectivePlan plan_hierarchical(CollectiveOp op, double bytes, const std::vector<std::vector<int>>& groups,
                                 Algorithm large_algorithm, const PlanOptions& opt, const Algorithm* force_intra) {
  int total = 0;
  for (const auto& g : groups) total = std::max(total, max_rank(g) + 1);
  PlanBuilder b(total, opt.quotient);
  int pieces = 1;
  if (op != CollectiveOp::AllToAll && opt.min_piece_bytes > 0)
    pieces = std::clamp(static_cast<int>(bytes / opt.min_piece_bytes), 1, std::max(1, opt.pipeline_pieces));
  std::vector<int32_t> start(static_cast<size_t>(total), -1);
  for (int p = 0; p < pieces; ++p) {
    b.set_barriers(start);
    start = hierarchical_piece(b, op, bytes / pieces, groups, large_algorithm, opt, force_intra);
    // Every piece has the first one's transfers (the same phases over the same groups).
    if (p == 0 && pieces > 1) b.plan.transfers.reserve(b.plan.transfers.size() * static_cast<size_t>(pieces));
  }
  if (pieces > 1) b.plan.algorithm += " x" + std::to_string(pieces) + " pipelined";
  return b.finish();
}

}  // namespace trn::models
