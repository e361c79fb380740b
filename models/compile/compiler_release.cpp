// neuronx-cc releases' compile-time changes (see compiler_release.h).
#include "models/compile/compiler_release.h"

namespace trn::models {

const std::vector<CompilerChange>& compiler_changes() {
  // C4: aws-neuron-sdk release-notes/components/compiler.rst.
  static const std::vector<CompilerChange> c = {
      // 2.25 (neuronx-cc 2.20), known issue: "The Llama3 70B test has a compile time increase of
      // 16% and 18%, for 16 and 32 nodes respectively": NxD Training's job, so xla training
      // graphs; no later note withdraws it.
      {2, 25, 1.17, true, "Llama3 70B training test: compile time +16 % / +18 % (16 / 32 nodes)"},
      // 2.30 (neuronx-cc 2.25): the liveness rewrite, "a mean -1.4% total compile time
      // improvement across Neuron internal benchmarks".
      {2, 30, 0.986, false, "per-tensor liveness analysis: mean -1.4 % total compile time"},
      // Not factors: 2.29's interval-tree DMA coalescing gives "~20% median reduction in compile
      // time improvements for DMA optimization passes": the passes' time, whose share of the total
      // no note gives (Solar-Open-100B's contrib README times the same compile 7 % slower at 2.29
      // than at 2.28, C14). 2.32's one-hot-to-gather rewrite ("up to 64%") changes graphs with
      // one-hot embedding lookups; the modelled frameworks' embeddings are gathers already.
  };
  return c;
}

double compiler_release_factor(const SdkRelease& r, bool xla_training) {
  double f = 1;
  for (const auto& c : compiler_changes()) {
    if (c.xla_training_only && !xla_training) continue;
    if (r.current() || !r.before(c.major, c.minor)) f *= c.factor;
  }
  return f;
}

bool layer_modular_training(const SdkRelease& r) { return !r.before(2, 14); }

}  // namespace trn::models
