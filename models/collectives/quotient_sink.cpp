// The quotient of a plan as it is built (see quotient_sink.h).
#include "models/collectives/quotient_sink.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace trn::models {
namespace {

// The k-th plan transfer between the pairs of plan ranks that `keys` lists (CSR by pair id):
// one scan of the plan, a look-up per transfer in a table of the few pairs wanted.
struct WantedPairs {
  std::vector<int32_t> start, by_pair;

  WantedPairs(const PairIds& keys, const std::vector<Transfer>& xs) : start(keys.size() + 1, 0) {
    std::vector<int32_t> pair_of(xs.size(), -1);
    for (size_t i = 0; i < xs.size(); ++i) {
      const int32_t p = keys.find(PairIds::key(xs[i].src, xs[i].dst));
      pair_of[i] = p;
      if (p >= 0) ++start[static_cast<size_t>(p) + 1];
    }
    for (size_t p = 0; p < keys.size(); ++p) start[p + 1] += start[p];
    by_pair.resize(static_cast<size_t>(start.back()));
    std::vector<int32_t> fill(start.begin(), start.end() - 1);
    for (size_t i = 0; i < xs.size(); ++i)
      if (pair_of[i] >= 0)
        by_pair[static_cast<size_t>(fill[static_cast<size_t>(pair_of[i])]++)] = static_cast<int32_t>(i);
  }
  int32_t kth(int32_t p, int32_t k) const {
    const size_t b = static_cast<size_t>(start[static_cast<size_t>(p)]);
    const size_t e = static_cast<size_t>(start[static_cast<size_t>(p) + 1]);
    return k >= 0 && b + static_cast<size_t>(k) < e ? by_pair[b + static_cast<size_t>(k)] : -1;
  }
};

}  // namespace

bool QuotientSink::outside(const std::vector<int>& ranks) const {
  for (int q : ranks)
    if (sym_.in_rep[static_cast<size_t>(q)]) return false;
  return true;
}

int32_t QuotientSink::drop(int32_t src, int32_t dst, double bytes, bool reduce, bool barrier, uint32_t ndeps) {
  const int32_t p = pairs_.insert(PairIds::key(src, dst));
  if (static_cast<size_t>(p) >= pair_count_.size()) pair_count_.push_back(0);
  // The phantom barriers of src come before this one among its transfers to itself.
  const int32_t before =
      src == dst && static_cast<size_t>(src) < phantoms_.size() ? phantoms_[static_cast<size_t>(src)] : 0;
  dropped_.push_back(Dropped{src, dst, before + pair_count_[static_cast<size_t>(p)]++, ndeps, bytes, reduce, barrier});
  ids_.push_back(-static_cast<int32_t>(dropped_.size()));
  return static_cast<int32_t>(ids_.size()) - 1;
}

int32_t QuotientSink::phantom(int32_t rank) {
  if (phantom_id_ < 0) {
    ids_.push_back(INT32_MIN);
    phantom_id_ = static_cast<int32_t>(ids_.size()) - 1;
  }
  if (static_cast<size_t>(rank) >= phantoms_.size()) phantoms_.resize(static_cast<size_t>(rank) + 1, 0);
  ++phantoms_[static_cast<size_t>(rank)];
  return phantom_id_;
}

bool QuotientSink::map_dropped(const CollectivePlan& plan, bool use_xor, std::vector<int32_t>& rep) const {
  if (use_xor && !sym_.xor_possible()) return false;
  // The images' pairs, then their transfers in plan order.
  std::vector<int32_t> want(dropped_.size(), -1);
  PairIds keys(64);
  for (size_t i = 0; i < dropped_.size(); ++i) {
    int32_t is = 0, id = 0;
    if (!sym_.image_of(dropped_[i].src, dropped_[i].dst, use_xor, is, id)) return false;
    want[i] = keys.insert(PairIds::key(is, id));
  }
  const WantedPairs index(keys, plan.transfers);
  for (size_t i = 0; i < dropped_.size(); ++i) {
    const Dropped& t = dropped_[i];
    const int32_t j = index.kth(want[i], t.occurrence);
    if (j < 0) return false;
    const Transfer& x = plan.transfers[static_cast<size_t>(j)];
    if (x.bytes != t.bytes || x.reduce != t.reduce || x.barrier != t.barrier ||
        (t.ndeps != kUnknownDeps && x.deps.size() != t.ndeps))
      return false;
    rep[i] = j;
  }
  return true;
}

void QuotientSink::finish(CollectivePlan& plan) {
  if (dropped_.empty() && !skipped_ && phantom_id_ < 0) return;  // every id is its plan index already
  // The first of the two symmetries that maps every dropped transfer is used.
  std::vector<int32_t> rep(dropped_.size(), -1);
  if (!map_dropped(plan, false, rep) && !map_dropped(plan, true, rep))
    throw SymmetryError("symmetry: collective " + plan.algorithm + " is not invariant under the instance symmetry");
  for (auto& t : plan.transfers) {
    for (auto& d : t.deps) {
      const int32_t v = ids_[static_cast<size_t>(d)];
      if (v == INT32_MIN)
        throw SymmetryError("symmetry: collective " + plan.algorithm + " has a kept transfer after a phantom barrier");
      d = v >= 0 ? v : rep[static_cast<size_t>(-1 - v)];
    }
    std::sort(t.deps.begin(), t.deps.end());
    t.deps.erase(std::unique(t.deps.begin(), t.deps.end()), t.deps.end());
  }
  ids_ = {};
  dropped_ = {};
}

}  // namespace trn::models
