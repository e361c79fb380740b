// The collective plan of a group of system ranks (the rank order and algorithm choice of
// hw/collectives/collective_planner, which calls this), and a lower bound on the time the
// fabric simulation takes to run it: `trnsim plan` bounds a step from below with it before
// simulating (docs/plan.md section 2).
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

/// A lower bound on the fabric simulation's time for `gp` alone (hw/collectives/collective_engine:
/// launch overhead, then each transfer issued by its source after the previous issue, a flow over
/// the source rank's collective DMA engines and the route's links, max-min shared). With `lnc`
/// physical cores per rank:
///   launch_overhead + max(critical path, heaviest resource, longest issue queue), where
/// - critical path: the longest dependency chain, each transfer taking its issue cost (DMA fixed +
///   descriptor latency + 2 x route latency), its route latency and bytes x weight / capacity of
///   its tightest resource (a flow's rate never exceeds capacity / weight of any resource it uses);
/// - heaviest resource: sum over the transfers using a resource of bytes x weight / capacity
///   (the flows through a resource never carry more than its capacity together);
/// - longest issue queue: the issue costs of one source rank's transfers, which it issues one
///   after the other.
/// Every term ignores other traffic, so the bound holds whatever else the fabric carries.
/// Zero for a group of one rank (nothing moves).
double collective_time_lower_bound(const GroupPlan& gp, const Topology& topo, const ChipSpec& chip, int lnc);

}  // namespace trn::models
