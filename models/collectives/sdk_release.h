// The all-reduce of older Neuron runtimes, by Neuron SDK release (docs/model.md 8.7).
#pragma once

#include <string>

namespace trn::models {

/// A Neuron SDK release, major.minor (a patch number is accepted and ignored). {0, 0}: the
/// current runtime, whose algorithms S22 documents.
struct SdkRelease {
  int major = 0, minor = 0;
  bool current() const { return major == 0; }
  bool before(int ma, int mi) const { return !current() && (major < ma || (major == ma && minor < mi)); }
};

/// "" -> current; "2.6", "2.18", "2.15.2" -> the release. False for anything else.
bool parse_sdk_release(const std::string& s, SdkRelease* out);

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
