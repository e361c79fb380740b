// Plan quotient implementation.
#include "hw/collectives/plan_quotient.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace trn::hw {

size_t quotient_plan(const System& sys, models::CollectivePlan& plan, const std::vector<int>& ranks) {
  if (!sys.symmetry().active()) return 0;
  auto& xs = plan.transfers;
  const size_t n = xs.size();
  std::vector<char> keep(n, 1);
  size_t dropped = 0;
  for (size_t i = 0; i < n; ++i)
    if (!sys.in_rep_instance(ranks[static_cast<size_t>(xs[i].src)])) {
      keep[i] = 0;
      ++dropped;
    }
  if (dropped == 0) return 0;
  // The k-th transfer between two system ranks, per (src, dst) pair, in plan order.
  auto key = [](int a, int b) { return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b); };
  std::unordered_map<uint64_t, std::vector<int32_t>> by_pair;
  by_pair.reserve(n);
  std::vector<int32_t> occurrence(n, 0);
  for (size_t i = 0; i < n; ++i) {
    auto& list = by_pair[key(ranks[static_cast<size_t>(xs[i].src)], ranks[static_cast<size_t>(xs[i].dst)])];
    occurrence[i] = static_cast<int32_t>(list.size());
    list.push_back(static_cast<int32_t>(i));
  }
  // The instances the plan spans, by position. A plan is symmetric under cyclic shifts of
  // these positions (rings) or under XOR of them (recursive doubling/halving, power-of-two
  // counts); the first of the two that maps every dropped transfer onto a transfer of the same
  // size, kind and dependency count in the representative instance is used.
  const int per = sys.ranks_per_instance();
  std::vector<int> inst;
  for (int r : ranks) inst.push_back(sys.instance_of_rank(r));
  std::sort(inst.begin(), inst.end());
  inst.erase(std::unique(inst.begin(), inst.end()), inst.end());
  const int ni = static_cast<int>(inst.size());
  std::vector<int> pos_of(static_cast<size_t>(inst.back() + 1), ni);
  for (int k = 0; k < ni; ++k) pos_of[static_cast<size_t>(inst[static_cast<size_t>(k)])] = k;
  auto pos = [&](int i) { return i < static_cast<int>(pos_of.size()) ? pos_of[static_cast<size_t>(i)] : ni; };
  std::vector<int32_t> rep(n);
  auto try_map = [&](bool use_xor) {
    if (use_xor && (ni & (ni - 1)) != 0) return false;
    for (size_t i = 0; i < n; ++i) {
      rep[i] = static_cast<int32_t>(i);
      if (keep[i]) continue;
      const int s = ranks[static_cast<size_t>(xs[i].src)], d = ranks[static_cast<size_t>(xs[i].dst)];
      const int from = pos(sys.instance_of_rank(s)), to = pos(sys.instance_of_rank(sys.rep_rank(s)));
      if (to >= ni || inst[static_cast<size_t>(to)] != sys.instance_of_rank(sys.rep_rank(s))) return false;
      auto image = [&](int q) {
        const int pq = pos(sys.instance_of_rank(q));
        const int np = use_xor ? (pq ^ from ^ to) : ((pq - from + to) % ni + ni) % ni;
        return inst[static_cast<size_t>(np)] * per + q % per;
      };
      auto it = by_pair.find(key(image(s), image(d)));
      const size_t k = static_cast<size_t>(occurrence[i]);
      if (it == by_pair.end() || k >= it->second.size()) return false;
      const auto& img = xs[static_cast<size_t>(it->second[k])];
      if (img.bytes != xs[i].bytes || img.reduce != xs[i].reduce || img.barrier != xs[i].barrier ||
          img.deps.size() != xs[i].deps.size())
        return false;
      rep[i] = it->second[k];
    }
    return true;
  };
  if (!try_map(false) && !try_map(true))
    throw std::logic_error("symmetry: collective " + plan.algorithm + " is not invariant under the instance symmetry");
  // Renumber the kept transfers; dependencies go to the images.
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
  return dropped;
}

}  // namespace trn::hw
