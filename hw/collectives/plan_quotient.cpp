// Plan quotient implementation.
#include "hw/collectives/plan_quotient.h"

#include <algorithm>
#include <stdexcept>

namespace trn::hw {

namespace {

// (src, dst) pairs of plan indices -> dense ids: open addressing, linear probing. Plans of
// large collectives have millions of transfers over a few thousand pairs.
class PairIds {
 public:
  explicit PairIds(size_t expected) {
    size_t cap = 16;
    while (cap < 2 * expected) cap *= 2;
    keys_.assign(cap, kEmpty);
    ids_.assign(cap, -1);
  }
  static uint64_t key(int32_t a, int32_t b) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b);
  }
  int32_t find(uint64_t k) const {
    for (size_t i = slot(k);; i = (i + 1) & (keys_.size() - 1)) {
      if (keys_[i] == k) return ids_[i];
      if (keys_[i] == kEmpty) return -1;
    }
  }
  int32_t insert(uint64_t k) {  // the id of k, a new one if absent
    for (size_t i = slot(k);; i = (i + 1) & (keys_.size() - 1)) {
      if (keys_[i] == k) return ids_[i];
      if (keys_[i] == kEmpty) {
        if (2 * (count_ + 1) > keys_.size()) {
          rehash();
          return insert(k);
        }
        keys_[i] = k;
        ids_[i] = static_cast<int32_t>(count_++);
        return ids_[i];
      }
    }
  }
  size_t size() const { return count_; }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  size_t slot(uint64_t k) const {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return static_cast<size_t>(k) & (keys_.size() - 1);
  }
  void rehash() {
    std::vector<uint64_t> keys = std::move(keys_);
    std::vector<int32_t> ids = std::move(ids_);
    keys_.assign(keys.size() * 2, kEmpty);
    ids_.assign(keys.size() * 2, -1);
    for (size_t i = 0; i < keys.size(); ++i)
      if (keys[i] != kEmpty)
        for (size_t j = slot(keys[i]);; j = (j + 1) & (keys_.size() - 1))
          if (keys_[j] == kEmpty) {
            keys_[j] = keys[i];
            ids_[j] = ids[i];
            break;
          }
  }
  std::vector<uint64_t> keys_;
  std::vector<int32_t> ids_;
  size_t count_ = 0;
};

// The k-th transfer between two ranks, per (src, dst) pair, in plan order: pair ids, the
// occurrence of each transfer in its pair's list, and the lists (CSR by pair id).
struct PairIndex {
  PairIds pairs{1024};
  std::vector<int32_t> pair_of, occurrence, count, by_pair;
  std::vector<size_t> pair_start;

  explicit PairIndex(const std::vector<models::Transfer>& xs) : pair_of(xs.size()), occurrence(xs.size()) {
    const size_t n = xs.size();
    for (size_t i = 0; i < n; ++i) {
      const int32_t id = pairs.insert(PairIds::key(xs[i].src, xs[i].dst));
      if (static_cast<size_t>(id) >= count.size()) count.push_back(0);
      pair_of[i] = id;
      occurrence[i] = count[static_cast<size_t>(id)]++;
    }
    pair_start.assign(count.size() + 1, 0);
    for (size_t p = 0; p < count.size(); ++p) pair_start[p + 1] = pair_start[p] + static_cast<size_t>(count[p]);
    by_pair.resize(n);
    for (size_t i = 0; i < n; ++i)
      by_pair[pair_start[static_cast<size_t>(pair_of[i])] + static_cast<size_t>(occurrence[i])] =
          static_cast<int32_t>(i);
  }
  /// The k-th transfer from plan rank a to plan rank b, or -1.
  int32_t kth(int32_t a, int32_t b, size_t k) const {
    const int32_t p = pairs.find(PairIds::key(a, b));
    if (p < 0 || k >= static_cast<size_t>(count[static_cast<size_t>(p)])) return -1;
    return by_pair[pair_start[static_cast<size_t>(p)] + k];
  }
};

// The instances the plan spans, by position. A plan is symmetric under cyclic shifts of
// these positions (rings) or under XOR of them (recursive doubling/halving, power-of-two
// counts). Per plan rank: its instance's position, the position of its representative's
// instance (ni when that instance is not spanned), and its place inside the instance; system
// rank -> plan rank.
struct InstanceMap {
  int per = 0, ni = 0, max_rank = 0;
  std::vector<int> inst, pos_q, to_q, local_q;
  std::vector<int32_t> plan_index;

  InstanceMap(const System& sys, const std::vector<int>& ranks) : per(sys.ranks_per_instance()) {
    const size_t nr = ranks.size();
    for (int r : ranks) inst.push_back(sys.instance_of_rank(r));
    std::sort(inst.begin(), inst.end());
    inst.erase(std::unique(inst.begin(), inst.end()), inst.end());
    ni = static_cast<int>(inst.size());
    std::vector<int> pos_of(static_cast<size_t>(inst.back() + 1), ni);
    for (int k = 0; k < ni; ++k) pos_of[static_cast<size_t>(inst[static_cast<size_t>(k)])] = k;
    auto pos = [&](int i) { return i < static_cast<int>(pos_of.size()) ? pos_of[static_cast<size_t>(i)] : ni; };
    pos_q.resize(nr);
    to_q.resize(nr);
    local_q.resize(nr);
    for (size_t q = 0; q < nr; ++q) {
      const int r = ranks[q];
      max_rank = std::max(max_rank, r);
      pos_q[q] = pos(sys.instance_of_rank(r));
      const int ri = sys.instance_of_rank(sys.rep_rank(r));
      const int to = pos(ri);
      to_q[q] = to < ni && inst[static_cast<size_t>(to)] == ri ? to : ni;
      local_q[q] = r % per;
    }
    plan_index.assign(static_cast<size_t>(max_rank) + 1, -1);
    for (size_t q = 0; q < nr; ++q) plan_index[static_cast<size_t>(ranks[q])] = static_cast<int32_t>(q);
  }
  /// The image of plan rank q under the shift (or XOR) taking position `from` to `to`; -1
  /// when outside the plan.
  int32_t image(size_t q, int from, int to, bool use_xor) const {
    const int pq = pos_q[q];
    const int np = use_xor ? (pq ^ from ^ to) : ((pq - from + to) % ni + ni) % ni;
    const int r = inst[static_cast<size_t>(np)] * per + local_q[q];
    return r <= max_rank ? plan_index[static_cast<size_t>(r)] : -1;
  }
};

// The local symmetry restricted to a plan: the elements that map its ranks onto themselves
// (its stabiliser) and, per plan rank, the one of them that takes it to the least rank of its
// orbit (h[q]; 0, the identity, for a representative). A transfer is kept when its source is
// such a representative; the others are images of kept ones under the stabiliser.
struct LocalMap {
  std::vector<int> elements, h;
  std::vector<std::vector<int32_t>> image;  // [k][q]: plan rank of elements[k]'s image of q

  LocalMap(const System& sys, const std::vector<int>& ranks, const InstanceMap& im) : h(ranks.size(), 0) {
    const size_t g_count = std::max<size_t>(1, sys.symmetry().local.rank_perms.size());
    for (size_t g = 0; g < g_count; ++g) {
      std::vector<int32_t> img(ranks.size());
      bool stable = true;
      for (size_t q = 0; q < ranks.size() && stable; ++q) {
        const int r = g == 0 ? ranks[q] : sys.local_image(static_cast<int>(g), ranks[q]);
        img[q] = r <= im.max_rank ? im.plan_index[static_cast<size_t>(r)] : -1;
        stable = img[q] >= 0;
      }
      if (!stable) continue;
      elements.push_back(static_cast<int>(g));
      image.push_back(std::move(img));
    }
    for (size_t q = 0; q < ranks.size(); ++q)
      for (size_t k = 1; k < image.size(); ++k)
        if (ranks[static_cast<size_t>(image[k][q])] < ranks[static_cast<size_t>(image[static_cast<size_t>(h[q])][q])])
          h[q] = static_cast<int>(k);
  }
  bool rep(size_t q) const { return h[q] == 0; }
};

// Maps every dropped transfer onto a transfer of the same size, kind and dependency count in
// the representative instance, from a representative of the local symmetry (rep[i]; kept
// transfers map onto themselves). False when the symmetry (shift or XOR) does not hold.
bool map_dropped(const std::vector<models::Transfer>& xs, const std::vector<char>& keep, const PairIndex& pi,
                 const InstanceMap& im, const LocalMap& lm, bool use_xor, std::vector<int32_t>& rep) {
  if (use_xor && (im.ni & (im.ni - 1)) != 0) return false;
  for (size_t i = 0; i < xs.size(); ++i) {
    rep[i] = static_cast<int32_t>(i);
    if (keep[i]) continue;
    size_t s = static_cast<size_t>(xs[i].src), d = static_cast<size_t>(xs[i].dst);
    const auto& img = lm.image[static_cast<size_t>(lm.h[s])];  // the local part first
    s = static_cast<size_t>(img[s]);
    d = static_cast<size_t>(img[d]);
    const int from = im.pos_q[s], to = im.to_q[s];
    if (to >= im.ni) return false;
    const int32_t is = im.image(s, from, to, use_xor), id = im.image(d, from, to, use_xor);
    if (is < 0 || id < 0) return false;
    const int32_t j = pi.kth(is, id, static_cast<size_t>(pi.occurrence[i]));
    if (j < 0) return false;
    const auto& x = xs[static_cast<size_t>(j)];
    if (x.bytes != xs[i].bytes || x.reduce != xs[i].reduce || x.barrier != xs[i].barrier ||
        x.deps.size() != xs[i].deps.size())
      return false;
    rep[i] = j;
  }
  return true;
}

// Keeps the transfers marked in `keep`, renumbered; dependencies go to the images.
void keep_renumbered(std::vector<models::Transfer>& xs, const std::vector<char>& keep, const std::vector<int32_t>& rep,
                     size_t dropped) {
  const size_t n = xs.size();
  std::vector<int32_t> index(n, -1);
  std::vector<models::Transfer> out;
  out.reserve(n - dropped);
  for (size_t i = 0; i < n; ++i)
    if (keep[i]) {
      index[i] = static_cast<int32_t>(out.size());
      out.push_back(std::move(xs[i]));
    }
  for (auto& t : out) {
    for (auto& d : t.deps) d = index[static_cast<size_t>(rep[static_cast<size_t>(d)])];
    std::sort(t.deps.begin(), t.deps.end());
    t.deps.erase(std::unique(t.deps.begin(), t.deps.end()), t.deps.end());
  }
  xs = std::move(out);
}

}  // namespace

size_t quotient_plan(const System& sys, models::CollectivePlan& plan, const std::vector<int>& ranks) {
  if (!sys.symmetry().active()) return 0;
  auto& xs = plan.transfers;
  const size_t n = xs.size();
  // Per plan rank: whether it lies in a representative instance; transfers from the others go.
  std::vector<char> rank_in_rep(ranks.size());
  for (size_t q = 0; q < ranks.size(); ++q) rank_in_rep[q] = sys.in_rep_instance(ranks[q]) ? 1 : 0;
  std::vector<char> keep(n, 1);
  size_t dropped = 0;
  for (size_t i = 0; i < n; ++i)
    if (!rank_in_rep[static_cast<size_t>(xs[i].src)]) {
      keep[i] = 0;
      ++dropped;
    }
  const bool local = sys.symmetry().local.active();
  if (dropped == 0 && !local) return 0;
  const InstanceMap im(sys, ranks);
  const LocalMap lm(sys, ranks, im);  // the identity only without a local symmetry
  for (size_t i = 0; i < n && local; ++i)
    if (keep[i] && !lm.rep(static_cast<size_t>(xs[i].src))) {
      keep[i] = 0;
      ++dropped;
    }
  if (dropped == 0) return 0;
  const PairIndex pi(xs);
  // The first of the two symmetries that maps every dropped transfer is used.
  std::vector<int32_t> rep(n);
  if (!map_dropped(xs, keep, pi, im, lm, false, rep) && !map_dropped(xs, keep, pi, im, lm, true, rep))
    throw std::logic_error("symmetry: collective " + plan.algorithm + " is not invariant under the instance symmetry");
  keep_renumbered(xs, keep, rep, dropped);
  return dropped;
}

}  // namespace trn::hw
