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

}  // namespace trn::hw
