// Mesh (S22): every rank exchanges directly with every peer, one step per half; all-to-all
// always runs as mesh.
#include "models/collectives/algorithm.h"

namespace trn::models {
namespace {

int mesh_phase(PlanBuilder& b, const std::vector<int>& ranks, double bytes, PhaseKind kind) {
  const int n = static_cast<int>(ranks.size());
  if (n <= 1) return 0;
  auto one = [&](bool reduce) {
    for (int i = 0; i < n; ++i)
      for (int off = 1; off < n; ++off)
        b.add(ranks[static_cast<size_t>(i)], ranks[static_cast<size_t>((i + off) % n)], bytes / n, reduce, {});
  };
  if (kind == PhaseKind::AllReduce) {
    one(true);
    b.new_phase();
    one(false);
    return 2;
  }
  one(kind == PhaseKind::ReduceScatter);
  return 1;
}

class Mesh final : public CollectiveAlgorithm {
 public:
  const char* name() const override { return "mesh"; }
  int build(PlanBuilder& b, const std::vector<int>& ranks, double bytes, PhaseKind kind,
            const PlanOptions&) const override {
    return mesh_phase(b, ranks, bytes, kind);
  }
  double estimate(CollectiveOp op, int ranks, double bytes, const LinkTier& tier) const override {
    if (ranks <= 1) return 0;
    const int steps = op == CollectiveOp::AllReduce ? 2 : 1;
    return tier.latency * steps + per_rank_share(op, ranks) * bytes / tier.bandwidth;
  }
};

}  // namespace

const CollectiveAlgorithm& mesh_algorithm() {
  static const Mesh a;
  return a;
}

}  // namespace trn::models
