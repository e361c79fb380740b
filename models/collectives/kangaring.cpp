// KangaRing (S22): Trn2's large-message ring, modelled as a bidirectional ring of at least two
// rings (PlanOptions::channels); its 1R2W duplication (fewer HBM touches) is not modelled.
// Where it differs from ring.cpp: the number of rings only.
#include <algorithm>

#include "models/collectives/algorithm.h"

namespace trn::models {
namespace {
class KangaRing final : public CollectiveAlgorithm {
 public:
  const char* name() const override { return "kangaring"; }
  int build(PlanBuilder& b, const std::vector<int>& ranks, double bytes, PhaseKind kind,
            const PlanOptions& opt) const override {
    return ring_phase(b, ranks, bytes, kind, opt, std::max(2, opt.channels));
  }
  double estimate(CollectiveOp op, int ranks, double bytes, const LinkTier& tier) const override {
    return ring_estimate(op, ranks, bytes, tier);
  }
};
}  // namespace

const CollectiveAlgorithm& kangaring_algorithm() {
  static const KangaRing a;
  return a;
}

}  // namespace trn::models
