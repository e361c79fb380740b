// Collective ops and flat plans (see collective_plan.h); the algorithms are in their own
// files behind algorithm.h.
#include "models/collectives/collective_plan.h"

#include <algorithm>
#include <map>

#include "models/collectives/algorithm.h"
#include "sim/base/shared_helpers.h"

namespace trn::models {
namespace {

using sim::max_rank;

PhaseKind kind_of(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::AllReduce: return PhaseKind::AllReduce;
    case CollectiveOp::AllGather: return PhaseKind::AllGather;
    case CollectiveOp::ReduceScatter: return PhaseKind::ReduceScatter;
    case CollectiveOp::AllToAll: return PhaseKind::AllToAll;
    case CollectiveOp::SendRecv: return PhaseKind::AllGather;
  }
  return PhaseKind::AllReduce;
}

}  // namespace

bool parse_collective_op(const std::string& s, CollectiveOp* out) {
  static const std::map<std::string, CollectiveOp> m = {{"all-reduce", CollectiveOp::AllReduce},
                                                        {"allreduce", CollectiveOp::AllReduce},
                                                        {"allr", CollectiveOp::AllReduce},
                                                        {"all-gather", CollectiveOp::AllGather},
                                                        {"allgather", CollectiveOp::AllGather},
                                                        {"allg", CollectiveOp::AllGather},
                                                        {"reduce-scatter", CollectiveOp::ReduceScatter},
                                                        {"reducescatter", CollectiveOp::ReduceScatter},
                                                        {"redsct", CollectiveOp::ReduceScatter},
                                                        {"all-to-all", CollectiveOp::AllToAll},
                                                        {"alltoall", CollectiveOp::AllToAll},
                                                        {"alltoall2", CollectiveOp::AllToAll}};
  auto it = m.find(s);
  if (it == m.end()) return false;
  *out = it->second;
  return true;
}

const char* collective_op_name(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::AllReduce: return "all-reduce";
    case CollectiveOp::AllGather: return "all-gather";
    case CollectiveOp::ReduceScatter: return "reduce-scatter";
    case CollectiveOp::AllToAll: return "all-to-all";
    case CollectiveOp::SendRecv: return "send-recv";
  }
  return "?";
}

std::string collective_op_names() { return "all-reduce, all-gather, reduce-scatter, all-to-all"; }

double busbw_factor(CollectiveOp op, int ranks) {
  double n = ranks;
  if (ranks <= 1 || op == CollectiveOp::SendRecv) return 1.0;
  return op == CollectiveOp::AllReduce ? 2.0 * (n - 1) / n : (n - 1) / n;
}

double CollectivePlan::bytes_moved() const {
  double b = 0;
  for (const auto& t : transfers) b += t.bytes * t.repeat;
  return b;
}

CollectivePlan plan_flat(CollectiveOp op, Algorithm algo, double bytes, const std::vector<int>& order,
                         const PlanOptions& opt) {
  PlanBuilder b(max_rank(order) + 1, opt.quotient);
  if (op == CollectiveOp::SendRecv) {
    if (order.size() >= 2) b.add(0, 1, bytes, false, {});
    b.plan.steps = 1;
    b.plan.algorithm = "p2p";
    return b.finish();
  }
  b.plan.steps = build_phase(b, algo, order, bytes, kind_of(op), opt);
  b.plan.algorithm = op == CollectiveOp::AllToAll ? "mesh" : algorithm(algo).label(static_cast<int>(order.size()));
  return b.finish();
}

}  // namespace trn::models
