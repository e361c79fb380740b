// The local symmetry of a job on a switched fabric (docs/workloads.md 1.6.1): permutations of
// the ranks inside an instance, applied alike in every instance, that are exact symmetries of
// the hardware (Topology::local_automorphism: links, switches, NICs and routes) and of the job
// (every group of every kind goes to a group of its kind, and its collective plans to the
// image group's plans).
#pragma once

#include <vector>

#include "hw/collectives/collective_planner.h"
#include "hw/system/system.h"
#include "models/collectives/collective_plan.h"
#include "workloads/parallel/layout.h"
#include "workloads/scenario/scenario_spec.h"

namespace trn::app {

/// Candidates, kept greedily while the group they generate passes every check: exchanges of
/// the ranks of a chip (XOR of their index), XOR of the chip index inside an instance, and the
/// reversal of the chips (alone and with an XOR); with pipeline stages, only those that keep
/// every rank in its stage (one rank per stage is simulated, and the stages' programs differ).
/// Identity only (inactive) unless the topology is switched and the job fills the system.
/// The collective plans are checked as quotients under the instance symmetry already set on
/// `sys` (its local part empty), on the groups of its representative instances only.
hw::LocalSymmetry local_job_symmetry(const hw::System& sys, const workloads::Layout& layout,
                                     const workloads::ParallelSpec& par);

/// The local symmetry of one collective over whole instances of a torus (`bench collective`):
/// the rotations of the instance's ring order that are automorphisms of the torus (a shift and
/// perhaps a reflection per dimension), kept while the group they generate moves every rank,
/// maps the links and the routes between the plans' chips onto themselves, and maps the plan
/// of every size, as a quotient under the instance symmetry already set on `sys`, onto itself
/// transfer for transfer (plan_maps, as for jobs). Identity only (inactive) otherwise:
/// switched fabrics, or ranks that are not whole instances from rank 0. When plans were checked
/// and `plans_out` is given, they go there, one per size: the quotients under the instance
/// symmetry, which hw::quotient_plan takes on to the quotient under the whole symmetry once it
/// is set.
hw::LocalSymmetry local_collective_symmetry(const hw::System& sys, models::CollectiveOp op,
                                            const std::vector<double>& sizes, const std::vector<int>& ranks,
                                            const models::Algorithm* force,
                                            std::vector<hw::PlannedCollective>* plans_out = nullptr);

}  // namespace trn::app
