// Recursive halving-doubling (S22): log2 n steps per half. With the ranks' chips known
// (PlanOptions::rank_chip), S22's two stages: inside each chip, then between hypercube
// neighbours (one hop of the torus). Groups that are not a power of two run the ring instead.
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "models/collectives/algorithm.h"
#include "sim/base/shared_helpers.h"

namespace trn::models {
namespace {

using sim::is_pow2;

int rdh_phase(PlanBuilder& b, const std::vector<int>& ranks, double bytes, PhaseKind kind) {
  const int n = static_cast<int>(ranks.size());
  if (n <= 1) return 0;
  int lg = 0;
  while ((1 << lg) < n) ++lg;
  const bool rs = kind == PhaseKind::ReduceScatter || kind == PhaseKind::AllReduce;
  const bool ag = kind == PhaseKind::AllGather || kind == PhaseKind::AllReduce;
  const int total = lg * (int{rs} + int{ag});
  if (b.none_kept(ranks)) {  // a quotient keeps none of it
    b.skip(ranks, static_cast<uint64_t>(total) * static_cast<uint64_t>(n));
    return total;
  }
  // A quotient over symmetric instances (XOR of their positions): the kept rank's transfers only,
  // O(log n) instead of O(n log n). What reaches it from partner p ^ d in a step is the image of
  // its own transfer to p ^ d then (XOR by d), so each step waits for its own previous one and its
  // barrier for its own transfers: the dependencies QuotientSink would give.
  if (const int r0 = b.xor_representative(ranks); r0 >= 0) {
    const int src = ranks[static_cast<size_t>(r0)];
    int32_t prev = -1;
    auto own = [&](int d, double sz, bool reduce) {
      DepList deps;
      if (prev >= 0) deps.push_back(prev);
      prev = b.add(src, ranks[static_cast<size_t>(r0 ^ d)], sz, reduce, std::move(deps));
      b.receive_image(src, prev);
    };
    if (rs)
      for (int i = 0; i < lg; ++i) own(n >> (i + 1), bytes / std::pow(2.0, i + 1), true);
    if (ag)
      for (int i = 0; i < lg; ++i) own(1 << i, bytes / n * std::pow(2.0, i), false);
    b.by_images(ranks, r0, static_cast<uint64_t>(total));
    return total;
  }
  std::vector<int32_t> last_in(static_cast<size_t>(n), -1), next(static_cast<size_t>(n), -1);
  int steps = 0;
  auto step = [&](int d, double sz, bool reduce) {
    for (int p = 0; p < n; ++p) {
      int q = p ^ d;
      DepList deps;
      if (last_in[static_cast<size_t>(p)] >= 0) deps.push_back(last_in[static_cast<size_t>(p)]);
      next[static_cast<size_t>(q)] =
          b.add(ranks[static_cast<size_t>(p)], ranks[static_cast<size_t>(q)], sz, reduce, deps);
    }
    last_in = next;
    ++steps;
  };
  if (rs)
    for (int i = 0; i < lg; ++i) step(n >> (i + 1), bytes / std::pow(2.0, i + 1), true);
  if (ag)
    for (int i = 0; i < lg; ++i) step(1 << i, bytes / n * std::pow(2.0, i), false);
  return steps;
}

// The ranks of an RDH group by chip, when they form S22's shape: C chips (a power of two) whose
// hypercube labels span a sub-cube, each holding the same power-of-two number L of the ranks.
// chip[c][j] is the j-th rank (plan-local) of the chip at sub-cube index c.
struct CubeShape {
  std::vector<std::vector<int>> chip;
};

bool cube_shape(const std::vector<int>& ranks, const PlanOptions& opt, CubeShape& out) {
  if (opt.rank_chip.empty() || opt.rank_cube.empty()) return false;
  std::map<int, std::vector<int>> by_chip;  // global chip -> its ranks, in plan order
  for (int r : ranks) {
    const size_t i = static_cast<size_t>(r);
    if (i >= opt.rank_chip.size() || i >= opt.rank_cube.size() || opt.rank_cube[i] < 0) return false;
    by_chip[opt.rank_chip[i]].push_back(r);
  }
  auto label_of = [&](const std::vector<int>& rs) { return opt.rank_cube[static_cast<size_t>(rs[0])]; };
  const int chips = static_cast<int>(by_chip.size());
  const size_t local = by_chip.begin()->second.size();
  if (!is_pow2(chips) || !is_pow2(static_cast<int>(local))) return false;
  const int l0 = label_of(by_chip.begin()->second);
  int mask = 0;
  std::map<int, int> chip_at;  // sub-cube index -> global chip
  for (const auto& [chip, rs] : by_chip) {
    if (rs.size() != local) return false;
    mask |= label_of(rs) ^ l0;
  }
  int bits = 0;
  for (int m = mask; m; m &= m - 1) ++bits;
  if ((1 << bits) != chips) return false;
  for (const auto& [chip, rs] : by_chip) {
    int idx = 0, out_bit = 0;  // the label's bits under the mask, packed
    for (int bit = 0; (mask >> bit) != 0; ++bit)
      if (mask & (1 << bit)) idx |= (((label_of(rs) ^ l0) >> bit) & 1) << out_bit++;
    if (!chip_at.emplace(idx, chip).second) return false;  // two chips with one label
  }
  out.chip.clear();
  for (const auto& [idx, chip] : chip_at) out.chip.push_back(by_chip[chip]);
  return true;
}

// S22's RDH on chips: reduce-scatter = a reduction inside each chip (each of its L ranks keeps
// the 1/L of the buffer for its inter-chip group) then recursive halving between chips, one
// torus axis a step; all-gather = recursive doubling between chips then a broadcast inside
// each chip; all-reduce = both. Per rank it moves what the flat form moves, (n-1)/n of the
// buffer each way, but every inter-chip step is one hop.
int rdh_cube_phase(PlanBuilder& b, const CubeShape& cube, double bytes, PhaseKind kind) {
  const int C = static_cast<int>(cube.chip.size()), L = static_cast<int>(cube.chip[0].size());
  int lg = 0, top = 0;
  while ((1 << lg) < C) ++lg;
  for (const auto& rs : cube.chip)
    for (int r : rs) top = std::max(top, r);
  // Everything each rank has received so far: a send waits for all of it (a step's data is
  // complete only when every earlier step's share has arrived).
  std::vector<DepList> in(static_cast<size_t>(top) + 1);
  int steps = 0;
  auto step = [&](const std::vector<std::pair<int, int>>& pairs, double sz, bool reduce) {
    std::vector<std::pair<int, int32_t>> got;  // (receiver, transfer), added after the step
    for (const auto& [src, dst] : pairs)
      got.emplace_back(dst, b.add(src, dst, sz, reduce, in[static_cast<size_t>(src)]));
    for (const auto& [dst, t] : got) in[static_cast<size_t>(dst)].push_back(t);
    ++steps;
  };
  auto local = [&](double sz, bool reduce) {  // every rank of a chip to each other one
    if (L < 2) return;
    std::vector<std::pair<int, int>> pairs;
    for (const auto& rs : cube.chip)
      for (int a = 0; a < L; ++a)
        for (int o = 1; o < L; ++o)
          pairs.emplace_back(rs[static_cast<size_t>(a)], rs[static_cast<size_t>((a + o) % L)]);
    step(pairs, sz, reduce);
  };
  // Step i of group j (the chips' j-th ranks) crosses axis (i + j lg / L) mod lg: the groups
  // start on different axes, so the L ranks of a chip do not all load the same link in a step
  // (S22: the contention "only happens in some of the cases").
  auto between = [&](int i, bool halving, double sz, bool reduce) {
    std::vector<std::pair<int, int>> pairs;
    for (int c = 0; c < C; ++c)
      for (int j = 0; j < L; ++j) {
        const int axis = (i + j * lg / L) % lg;
        const int d = 1 << (halving ? lg - 1 - axis : axis);
        pairs.emplace_back(cube.chip[static_cast<size_t>(c)][static_cast<size_t>(j)],
                           cube.chip[static_cast<size_t>(c ^ d)][static_cast<size_t>(j)]);
      }
    step(pairs, sz, reduce);
  };
  if (kind == PhaseKind::ReduceScatter || kind == PhaseKind::AllReduce) {
    local(bytes / L, true);
    for (int i = 0; i < lg; ++i) between(i, true, bytes / L / std::pow(2.0, i + 1), true);
  }
  if (kind == PhaseKind::AllGather || kind == PhaseKind::AllReduce) {
    for (int i = 0; i < lg; ++i) between(i, false, bytes / (double(L) * C) * std::pow(2.0, i), false);
    local(bytes / L, false);
  }
  return steps;
}

class Rdh final : public CollectiveAlgorithm {
 public:
  const char* name() const override { return "rdh"; }
  int build(PlanBuilder& b, const std::vector<int>& ranks, double bytes, PhaseKind kind,
            const PlanOptions& opt) const override {
    CubeShape cube;
    if (cube_shape(ranks, opt, cube)) return rdh_cube_phase(b, cube, bytes, kind);
    if (is_pow2(static_cast<int>(ranks.size()))) return rdh_phase(b, ranks, bytes, kind);
    return ring_phase(b, ranks, bytes, kind, opt, opt.channels);
  }
  std::string label(int ranks) const override {
    return is_pow2(ranks) ? name() : "kangaring (rdh needs a power-of-two group)";
  }
  double estimate(CollectiveOp op, int ranks, double bytes, const LinkTier& tier) const override {
    if (!is_pow2(ranks)) return ring_estimate(op, ranks, bytes, tier);
    int lg = 0;
    while ((1 << lg) < ranks) ++lg;
    const int steps = op == CollectiveOp::AllReduce ? 2 * lg : lg;
    return tier.latency * steps + per_rank_share(op, ranks) * bytes / tier.bandwidth;
  }
};

}  // namespace

const CollectiveAlgorithm& rdh_algorithm() {
  static const Rdh a;
  return a;
}

}  // namespace trn::models
