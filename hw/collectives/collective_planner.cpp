// Rank ordering and plan selection: models::plan_group_collective on the system's topology.
#include "hw/collectives/collective_planner.h"

#include "models/collectives/collective_bound.h"

namespace trn::hw {

PlannedCollective plan_collective(const System& sys, models::CollectiveOp op, double bytes,
                                  const std::vector<int>& ranks, const models::Algorithm* force,
                                  const models::PlanOptions& opt) {
  if (op != models::CollectiveOp::SendRecv)
    for (int r : ranks) sys.placement(r);  // range check (std::out_of_range), as before the move to models/
  models::Algorithm large =
      sys.spec().chip.collectives.large_message_algorithm == models::LargeMessageAlgorithm::KangaRing
          ? models::Algorithm::KangaRing
          : models::Algorithm::Ring;
  models::GroupPlan gp =
      models::plan_group_collective(sys.topology(), sys.ranks_per_chip(), large, op, bytes, ranks, force,
                                    models::with_runtime_release(sys.spec().chip.collectives, opt));
  PlannedCollective out;
  out.plan = std::move(gp.plan);
  out.ranks = std::move(gp.ranks);
  return out;
}

}  // namespace trn::hw
