// Rank ordering and plan selection: models::plan_group_collective on the system's topology.
#include "hw/collectives/collective_planner.h"

#include "hw/collectives/plan_quotient.h"
#include "models/collectives/selection.h"

namespace trn::hw {
namespace {
constexpr double kLatencyBoundShare = 0.1;
}  // namespace

PlannedCollective plan_collective(const System& sys, models::CollectiveOp op, double bytes,
                                  const std::vector<int>& ranks, const models::Algorithm* force,
                                  const models::PlanOptions& opt) {
  if (op != models::CollectiveOp::SendRecv)
    for (int r : ranks) sys.placement(r);  // range check (std::out_of_range), as before the move to models/
  const models::CollectiveSpec& cc = sys.spec().chip.collectives;
  return models::plan_group_collective(sys.topology(), sys.ranks_per_chip(), models::large_message_algorithm(cc), op,
                                       bytes, ranks, force, models::with_runtime_release(cc, opt));
}

PlannedCollective plan_collective_quotient(const System& sys, models::CollectiveOp op, double bytes,
                                           const std::vector<int>& ranks, const models::Algorithm* force,
                                           const models::PlanOptions& opt) {
  if (!sys.symmetry().active() || ranks.empty()) return plan_collective(sys, op, bytes, ranks, force, opt);
  const models::PlanSymmetry sym = plan_symmetry(sys, ranks);
  models::PlanOptions o = opt;
  o.quotient = &sym;
  // A step over EFA is latency-bound when its chunk crosses a NIC in under a tenth of the EFA
  // latency: such ring steps over the instances may be merged (PlanOptions::max_chain_chunk_bytes).
  const models::EfaSpec& efa = sys.spec().efa;
  o.max_chain_chunk_bytes = kLatencyBoundShare * efa.latency.v * efa.bandwidth_per_nic.v;
  return plan_collective(sys, op, bytes, ranks, force, o);
}

}  // namespace trn::hw
