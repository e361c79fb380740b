// The ring (S22): n-1 steps per half, the data split into segments and pipelined chunks, over
// one ring here; kangaring.cpp and rdh's fallback run the same phase with more rings.
#include <algorithm>
#include <cmath>

#include "models/collectives/algorithm.h"

namespace trn::models {

int ring_phase(PlanBuilder& b, const std::vector<int>& ranks, double bytes, PhaseKind kind, const PlanOptions& opt,
               int rings) {
  const int n = static_cast<int>(ranks.size());
  if (n <= 1) return 0;
  const int channels = std::max(1, rings);
  const double per_channel = bytes / channels;
  const double segment = per_channel / n;
  int k = static_cast<int>(std::ceil(segment / opt.max_chunk_bytes));
  k = std::clamp(k, 1, std::max(1, opt.max_chunks));
  const double chunk = segment / k;
  const int rs_steps = (kind == PhaseKind::AllGather) ? 0 : n - 1;
  const int total = (kind == PhaseKind::AllReduce) ? 2 * (n - 1) : n - 1;
  if (b.none_kept(ranks)) {  // a quotient keeps none of it
    b.skip(ranks, static_cast<uint64_t>(total) * static_cast<uint64_t>(channels * n * k));
    return total;
  }
  // A quotient of a ring over symmetric instances: the kept rank's transfers only, O(n) instead
  // of O(n^2). Each of its steps waits for the transfer that reached it in the step before,
  // which is the image of its own transfer then (the shift taking the sender to it), and its
  // barrier for the images of what it received: the dependencies QuotientSink would give.
  if (const int r0 = b.shift_representative(ranks); r0 >= 0) {
    std::vector<int32_t> last(static_cast<size_t>(channels * k), -1);
    const int src = ranks[static_cast<size_t>(r0)];
    // The steps in segments: one each, or for latency-bound chunks above max_chain_segments
    // steps at most that many runs of consecutive steps of one kind (reduce-scatter, all-gather).
    std::vector<std::pair<int, int>> segments;  // (first step, steps)
    const int seg = opt.max_chain_segments > 0 && total > opt.max_chain_segments && chunk <= opt.max_chain_chunk_bytes
                        ? (total + opt.max_chain_segments - 1) / opt.max_chain_segments
                        : 1;
    for (int s = 0; s < total;) {
      const int end = std::min({s + seg, total, s < rs_steps ? rs_steps : total});
      segments.emplace_back(s, end - s);
      s = end;
    }
    for (const auto& [s, steps] : segments)
      for (int ch = 0; ch < channels; ++ch) {
        const int to = ranks[static_cast<size_t>((r0 + ((ch % 2 == 0) ? 1 : -1) + n) % n)];
        for (int c = 0; c < k; ++c) {
          int32_t& prev = last[static_cast<size_t>(ch) * static_cast<size_t>(k) + static_cast<size_t>(c)];
          DepList deps;
          if (s > 0) deps.push_back(prev);
          prev = b.add(src, to, chunk, s < rs_steps, std::move(deps), static_cast<uint32_t>(steps));
          b.receive_image(src, prev);
        }
      }
    b.by_images(ranks, r0, static_cast<uint64_t>(total) * static_cast<uint64_t>(channels * k));
    return total;
  }
  // prev[ch][i][c]: transfer sent by position i in the previous step.
  std::vector<int32_t> prev(static_cast<size_t>(channels * n * k), -1), cur(prev.size(), -1);
  b.reserve(static_cast<size_t>(total) * prev.size());
  auto at = [&](int ch, int i, int c) {
    using Z = size_t;  // widened before multiplying
    return (Z(ch) * Z(n) + Z(i)) * Z(k) + Z(c);
  };
  for (int s = 0; s < total; ++s) {
    for (int ch = 0; ch < channels; ++ch) {
      int dir = (ch % 2 == 0) ? 1 : -1;
      for (int i = 0; i < n; ++i) {
        int to = (i + dir + n) % n, from = (i - dir + n) % n;
        for (int c = 0; c < k; ++c) {
          DepList deps;
          if (s > 0) deps.push_back(prev[at(ch, from, c)]);
          cur[at(ch, i, c)] = b.add(ranks[static_cast<size_t>(i)], ranks[static_cast<size_t>(to)], chunk, s < rs_steps,
                                    std::move(deps));
        }
      }
    }
    std::swap(prev, cur);
  }
  return total;
}

double per_rank_share(CollectiveOp op, int ranks) {
  const double n = static_cast<double>(ranks);
  double share = (n - 1) / n;  // all-gather, reduce-scatter, all-to-all
  if (op == CollectiveOp::AllReduce) share *= 2;
  if (op == CollectiveOp::SendRecv) share = 1;
  return share;
}

double ring_estimate(CollectiveOp op, int ranks, double bytes, const LinkTier& tier) {
  if (ranks <= 1) return 0;
  const double n = static_cast<double>(ranks);
  return tier.latency * (n - 1) + per_rank_share(op, ranks) * bytes / tier.bandwidth;
}

namespace {
class Ring final : public CollectiveAlgorithm {
 public:
  const char* name() const override { return "ring"; }
  int build(PlanBuilder& b, const std::vector<int>& ranks, double bytes, PhaseKind kind,
            const PlanOptions& opt) const override {
    return ring_phase(b, ranks, bytes, kind, opt, 1);
  }
  double estimate(CollectiveOp op, int ranks, double bytes, const LinkTier& tier) const override {
    return ring_estimate(op, ranks, bytes, tier);
  }
};
}  // namespace

const CollectiveAlgorithm& ring_algorithm() {
  static const Ring a;
  return a;
}

}  // namespace trn::models
