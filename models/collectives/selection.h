// Which algorithm runs, as the Neuron runtime chooses (S22, S23): by message size band and
// group size, by the chip's large-message algorithm, and by Neuron SDK release (docs/model.md
// 8.7). group_plan.cpp and hierarchical.cpp ask here; nothing else chooses.
#pragma once

#include "models/collectives/collective_plan.h"
#include "models/collectives/sdk_release.h"
#include "models/spec/chip_spec.h"

namespace trn::models {

/// The chip's algorithm above the rdh band (collectives.large_message_algorithm).
Algorithm large_message_algorithm(const CollectiveSpec& cc);

/// Per-size algorithm choice inside one instance, as the Neuron runtime does (S22):
/// mesh below 1 MB, rdh from 1 MB to 56 MB (power-of-two groups), the large-message
/// algorithm above (kangaring on Trn2/Trn3, ring on Trn1). All-to-all is always mesh.
Algorithm choose_intra(CollectiveOp op, double bytes, int ranks, Algorithm large_algorithm);
/// Across instances (S23): mesh below 1 MB, rdh to 56 MB (power of two), ring above.
Algorithm choose_inter(CollectiveOp op, double bytes, int ranks);

/// Whether an all-reduce whose groups hold `local_ranks` ranks inside each instance runs the
/// legacy ring of release `r` (the runtime release notes, S34 and S35): the runtime of SDK 2.3-2.10 ran every
/// all-reduce as a ring; runtime 2.14.8 (SDK 2.11) added the all-to-all all-reduce, "expected to
/// improve All-Reduce performance by 3-7x in most cases", and runtime 2.15.11 (SDK 2.12) enabled
/// it "for 16 ranks ... within the instance". We read 2.11's as the whole instance (32 ranks),
/// since 2.12 then enables 16 (an assumption). The notes name no other group size until SDK
/// 2.21 (the first with Trainium2, whose runtime S22 describes), so the model keeps the ring for
/// groups of other sizes until then: 32 ranks from 2.11, 16 from 2.12, every size from 2.21.
/// Reduce-scatter, all-gather and all-to-all are the current runtime's at every release.
/// Groups with one rank per instance (across instances only) never do.
bool legacy_allreduce(const SdkRelease& r, int local_ranks);

}  // namespace trn::models
