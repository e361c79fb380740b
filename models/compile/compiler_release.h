// The compile-time changes of neuronx-cc releases that the Neuron compiler release notes
// quantify as a change of the total compile time (C4, docs/startup.md 1.5): each a documented
// factor from the release on, never a fitted constant. The compile parameters describe the
// compiler before SDK 2.25; a job at a later release (its scenario's `sdk:`; "" is the current
// one) compiles at the product of the factors of every change up to it.
#pragma once

#include <vector>

#include "models/collectives/sdk_release.h"

namespace trn::models {

struct CompilerChange {
  int major = 2, minor = 0;  // the first SDK release with the change
  double factor = 1;         // compile time afterwards / before
  bool xla_training_only = false;
  const char* what = "";  // the release note's words
};

/// The quantified changes, oldest first.
const std::vector<CompilerChange>& compiler_changes();

/// The compile-time factor of release `r` for a graph of an xla-frontend training job
/// (`xla_training`) or any other.
double compiler_release_factor(const SdkRelease& r, bool xla_training);

/// Whether release `r`'s neuronx-cc compiles a whole-step training graph one layer at a time
/// (modular flow) at its default optimisation level. neuronx-cc 2.10 (SDK 2.14, 2023-09-15)
/// introduced the -O levels, the default -O2 short of the "whole-model optimization" of -O3;
/// before it a graph was one module (C4, C19; docs/startup.md 1.4).
bool layer_modular_training(const SdkRelease& r);

}  // namespace trn::models
