// The quotient of a collective plan under the system's instance symmetry (System::symmetry):
// one transfer per orbit, the one that starts in its orbit's representative instance; a
// dependency on a transfer that starts elsewhere becomes a dependency on its image there
// (which, by symmetry, finishes at the same moment).
#pragma once

#include <vector>

#include "hw/system/system.h"
#include "models/collectives/collective_plan.h"
#include "models/collectives/plan_symmetry.h"

namespace trn::hw {

/// Rewrites `plan` (over system ranks `ranks`) to its quotient. Returns the number of
/// transfers dropped (0 when no symmetry is set or every transfer starts in a representative
/// instance). Throws models::SymmetryError (a std::logic_error) when the plan is not invariant
/// under the symmetry (a transfer has no image of the same size and kind): the symmetry does not
/// hold for this job. hw::plan_collective_quotient builds the same quotient without the whole
/// plan.
size_t quotient_plan(const System& sys, models::CollectivePlan& plan, const std::vector<int>& ranks);

/// The system's symmetry restricted to a plan over system ranks `ranks` (plan rank i = system
/// rank ranks[i]): what quotient_plan drops and where the images lie, for a plan built as its
/// quotient (PlanOptions::quotient). Meaningful when the symmetry is active.
models::PlanSymmetry plan_symmetry(const System& sys, const std::vector<int>& ranks);

}  // namespace trn::hw
