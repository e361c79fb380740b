// The collective plan of a group of system ranks: the ranks put in ring order on the topology,
// grouped by instance, and the plan chosen (selection.h) and built flat or hierarchical.
// hw::plan_collective (the fabric simulation) and `trnsim plan`'s step bound both call it.
#pragma once

#include <vector>

#include "models/collectives/collective_plan.h"
#include "models/spec/chip_spec.h"
#include "models/topology/topology.h"

namespace trn::models {

struct GroupPlan {
  CollectivePlan plan;
  std::vector<int> ranks;  // plan index -> system rank
};

/// `opt` with the runtime release of `cc` (collectives.sdk, validated when the chip is loaded)
/// and its legacy ring's DMA share: what plan_group_collective needs for docs/model.md 8.7.
PlanOptions with_runtime_release(const CollectiveSpec& cc, PlanOptions opt = {});

/// The plan of `op` over the system ranks `ranks` (rank r on chip r / ranks_per_chip): ranks
/// sorted by (instance, ring position of their chip, rank); flat within one instance (or over
/// unequal instances), hierarchical across equal instances; send-recv keeps the group's order.
GroupPlan plan_group_collective(const Topology& topo, int ranks_per_chip, Algorithm large, CollectiveOp op,
                                double bytes, const std::vector<int>& ranks, const Algorithm* force = nullptr,
                                const PlanOptions& opt = {});

}  // namespace trn::models
