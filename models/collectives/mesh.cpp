// Mesh (S22): every rank exchanges directly with every peer, one step per half; all-to-all
// always runs as mesh.
#include "models/collectives/algorithm.h"

namespace trn::models {
namespace {

int mesh_phase(PlanBuilder& b, const std::vector<int>& ranks, double bytes, PhaseKind kind) {
  const int n = static_cast<int>(ranks.size());
  if (n <= 1) return 0;
  const int r0 = b.shift_representative(ranks);
  const bool none = b.none_kept(ranks);
  auto one = [&](bool reduce) {
    if (none) {  // a quotient keeps none of it
      b.skip(ranks, static_cast<uint64_t>(n) * static_cast<uint64_t>(n - 1));
      return;
    }
    if (r0 >= 0) {
      // A quotient over symmetric instances: the kept rank's transfers only, O(n) instead of
      // O(n^2). What it receives from the rank `off` before it is the image of its own transfer
      // `off` ahead (the shift taking the sender to it), for its barrier.
      const int src = ranks[static_cast<size_t>(r0)];
      for (int off = 1; off < n; ++off)
        b.receive_image(src, b.add(src, ranks[static_cast<size_t>((r0 + off) % n)], bytes / n, reduce, {}));
      b.by_images(ranks, r0, static_cast<uint64_t>(n - 1));
      return;
    }
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
