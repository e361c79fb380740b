// Chooses and builds the collective plan for a set of system ranks: flat within one
// instance (algorithm by message size, S22), hierarchical across instances (S23). Ranks
// are put in ring order following the topology (snake through the torus), so ring
// neighbours are link neighbours.
#pragma once

#include <vector>

#include "hw/system/system.h"
#include "models/collectives/group_plan.h"

namespace trn::hw {

/// The plan and its ranks (plan index -> system rank): models::GroupPlan, the type
/// `trnsim plan`'s step bound plans with.
using PlannedCollective = models::GroupPlan;

/// `ranks`: system ranks taking part (distinct). `force`: algorithm override (flat only,
/// or the intra-instance phases of a hierarchical plan).
PlannedCollective plan_collective(const System& sys, models::CollectiveOp op, double bytes,
                                  const std::vector<int>& ranks, const models::Algorithm* force = nullptr,
                                  const models::PlanOptions& opt = {});

/// plan_collective's plan quotiented by the system's instance symmetry (quotient_plan), built
/// as such: the transfers it drops are never stored, and the intra-instance phases of other
/// instances than the representatives' are not built at all (models/collectives/quotient_sink.h).
/// The plan's full_transfers counts the whole plan's. Without an active symmetry, the whole
/// plan. Throws models::SymmetryError as quotient_plan does.
PlannedCollective plan_collective_quotient(const System& sys, models::CollectiveOp op, double bytes,
                                           const std::vector<int>& ranks, const models::Algorithm* force = nullptr,
                                           const models::PlanOptions& opt = {});

}  // namespace trn::hw
