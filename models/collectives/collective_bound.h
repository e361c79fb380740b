// A lower bound on the time the fabric simulation takes to run a group's collective plan
// (group_plan.h): `trnsim plan` bounds a step from below with it before simulating
// (docs/plan.md section 2). It reads only the plan's transfers, so it holds for every
// algorithm (algorithm.h) without knowing which built the plan.
#pragma once

#include "models/collectives/group_plan.h"
#include "models/spec/chip_spec.h"
#include "models/topology/topology.h"

namespace trn::models {

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
