// The instance symmetry of a system (hw::System::symmetry, docs/workloads.md 1.6) restricted to
// the ranks of one collective plan, as plain data: which transfers the plan's quotient keeps
// (one per orbit, the one that starts in its orbit's representative) and where the image of any
// other transfer lies. hw::plan_symmetry makes it from a System; hw::quotient_plan quotients a
// whole plan with it, and a PlanBuilder given one (PlanOptions::quotient) builds the quotient
// directly, never storing the other transfers (quotient_sink.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace trn::models {

/// A plan that is not invariant under the symmetry it is quotiented by (some transfer it drops
/// has no image of the same size, kind and dependency count): the symmetry does not hold for it.
struct SymmetryError : std::logic_error {
  using std::logic_error::logic_error;
};

/// (src, dst) pairs of plan ranks -> dense ids: open addressing, linear probing. Plans of large
/// collectives have millions of transfers over a few thousand pairs.
class PairIds {
 public:
  explicit PairIds(size_t expected = 1024) {
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

struct PlanSymmetry {
  /// Instance part. The instances the plan spans, by position: a plan is symmetric under cyclic
  /// shifts of these positions (rings) or under XOR of them (recursive doubling/halving,
  /// power-of-two counts). Per plan rank: its instance's position, the position of its
  /// representative's instance (ni when that instance is not spanned), its place inside the
  /// instance, and whether it lies in a representative instance; system rank -> plan rank
  /// (index_of: a hash of the plan's ranks, O(plan ranks) however far apart they lie).
  int per = 0, ni = 0;
  std::vector<int> inst, pos_q, to_q, local_q;
  std::vector<char> in_rep;
  PairIds plan_index{16};
  /// Local part: the elements of the local symmetry that map the plan's ranks onto themselves
  /// (its stabiliser; [0] the identity) and, per plan rank, the one of them that takes it to
  /// the least rank of its orbit (h[q]; 0 for a representative).
  std::vector<int> h;
  std::vector<std::vector<int32_t>> local_image;  // [k][q]: plan rank of element k's image of q
  bool local = false;                             // the system has a local symmetry

  /// A transfer from plan rank q is kept: q lies in a representative instance and represents
  /// its local orbit.
  bool kept(size_t q) const { return in_rep[q] && h[q] == 0; }
  /// The image of plan rank q under the shift (or XOR) taking position `from` to `to`; -1 when
  /// outside the plan.
  int32_t image(size_t q, int from, int to, bool use_xor) const {
    const int pq = pos_q[q];
    const int np = use_xor ? (pq ^ from ^ to) : ((pq - from + to) % ni + ni) % ni;
    return index_of(inst[static_cast<size_t>(np)] * per + local_q[q]);
  }
  /// The plan rank of system rank r, or -1.
  int32_t index_of(int r) const { return plan_index.find(PairIds::key(r, 0)); }
  /// The image of a transfer from plan rank s to d in its orbit's representative: the local
  /// part first, then the instance shift (or XOR). False when it leaves the plan.
  bool image_of(int32_t s, int32_t d, bool use_xor, int32_t& is, int32_t& id) const {
    const auto& img = local_image[static_cast<size_t>(h[static_cast<size_t>(s)])];
    const size_t ls = static_cast<size_t>(img[static_cast<size_t>(s)]);
    const size_t ld = static_cast<size_t>(img[static_cast<size_t>(d)]);
    const int from = pos_q[ls], to = to_q[ls];
    if (to >= ni) return false;
    is = image(ls, from, to, use_xor);
    id = image(ld, from, to, use_xor);
    return is >= 0 && id >= 0;
  }
  /// XOR of positions is a symmetry only for a power-of-two count of instances.
  bool xor_possible() const { return (ni & (ni - 1)) == 0; }
};

/// The k-th transfer between two plan ranks, in plan order, over a list of (src, dst) pairs:
/// pair ids, the occurrence of each transfer in its pair's list, and the lists (CSR by pair id).
struct PairIndex {
  PairIds pairs{1024};
  std::vector<int32_t> pair_of, occurrence, count, by_pair;
  std::vector<size_t> pair_start;

  /// `src(i)`, `dst(i)` for i in [0, n).
  template <class Src, class Dst>
  PairIndex(size_t n, Src src, Dst dst) : pair_of(n), occurrence(n) {
    for (size_t i = 0; i < n; ++i) {
      const int32_t id = pairs.insert(PairIds::key(src(i), dst(i)));
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

}  // namespace trn::models
