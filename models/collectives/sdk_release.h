// Neuron SDK releases (collectives.sdk); which algorithm a release runs is selection.h's
// legacy_allreduce (docs/model.md 8.7).
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

}  // namespace trn::models
