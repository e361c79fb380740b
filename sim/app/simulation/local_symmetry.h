// The local symmetry of a job on a switched fabric (docs/workloads.md 1.6.1): permutations of
// the ranks inside an instance, applied alike in every instance, that are exact symmetries of
// the hardware (Topology::local_automorphism: links, switches, NICs and routes) and of the job
// (every group of every kind goes to a group of its kind, and its collective plans to the
// image group's plans).
#pragma once

#include "hw/system/system.h"
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

}  // namespace trn::app
