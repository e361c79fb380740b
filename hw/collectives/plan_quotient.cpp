// Plan quotient implementation.
#include "hw/collectives/plan_quotient.h"

#include <algorithm>
#include <stdexcept>

namespace trn::hw {

namespace {

// The instance part of the symmetry on the plan's ranks (PlanSymmetry's first fields).
void instance_part(const System& sys, const std::vector<int>& ranks, models::PlanSymmetry& s) {
  s.per = sys.ranks_per_instance();
  const size_t nr = ranks.size();
  std::vector<char> spanned(static_cast<size_t>(sys.topology().num_chips() / sys.topology().chips_per_instance()), 0);
  for (int r : ranks) spanned[static_cast<size_t>(sys.instance_of_rank(r))] = 1;
  for (size_t i = 0; i < spanned.size(); ++i)
    if (spanned[i]) s.inst.push_back(static_cast<int>(i));
  s.ni = static_cast<int>(s.inst.size());
  std::vector<int> pos_of(static_cast<size_t>(s.inst.back() + 1), s.ni);
  for (int k = 0; k < s.ni; ++k) pos_of[static_cast<size_t>(s.inst[static_cast<size_t>(k)])] = k;
  auto pos = [&](int i) { return i < static_cast<int>(pos_of.size()) ? pos_of[static_cast<size_t>(i)] : s.ni; };
  s.pos_q.resize(nr);
  s.to_q.resize(nr);
  s.local_q.resize(nr);
  s.in_rep.resize(nr);
  for (size_t q = 0; q < nr; ++q) {
    const int r = ranks[q];
    s.pos_q[q] = pos(sys.instance_of_rank(r));
    const int ri = sys.instance_of_rank(sys.rep_rank(r));
    const int to = pos(ri);
    s.to_q[q] = to < s.ni && s.inst[static_cast<size_t>(to)] == ri ? to : s.ni;
    s.local_q[q] = r % s.per;
    s.in_rep[q] = sys.in_rep_instance(r) ? 1 : 0;
  }
  s.plan_index = models::PairIds(nr);
  for (size_t q = 0; q < nr; ++q)
    if (s.plan_index.insert(models::PairIds::key(ranks[q], 0)) != static_cast<int32_t>(q))
      throw std::logic_error("plan_symmetry: a rank appears twice in a collective's ranks");
}

// The local part: the elements of the local symmetry that map the plan's ranks onto themselves
// and, per plan rank, the one of them that takes it to the least rank of its orbit (h[q]; 0,
// the identity, for a representative). The identity only without a local symmetry.
void local_part(const System& sys, const std::vector<int>& ranks, models::PlanSymmetry& s) {
  s.local = sys.symmetry().local.active();
  s.h.assign(ranks.size(), 0);
  const size_t g_count = std::max<size_t>(1, sys.symmetry().local.rank_perms.size());
  for (size_t g = 0; g < g_count; ++g) {
    std::vector<int32_t> img(ranks.size());
    bool stable = true;
    for (size_t q = 0; q < ranks.size() && stable; ++q) {
      const int r = g == 0 ? ranks[q] : sys.local_image(static_cast<int>(g), ranks[q]);
      img[q] = s.index_of(r);
      stable = img[q] >= 0;
    }
    if (stable) s.local_image.push_back(std::move(img));
  }
  const auto& image = s.local_image;
  for (size_t q = 0; q < ranks.size(); ++q)
    for (size_t k = 1; k < image.size(); ++k)
      if (ranks[static_cast<size_t>(image[k][q])] < ranks[static_cast<size_t>(image[static_cast<size_t>(s.h[q])][q])])
        s.h[q] = static_cast<int>(k);
}

// Maps every dropped transfer onto a transfer of the same size, kind and dependency count in
// the representative instance, from a representative of the local symmetry (rep[i]; kept
// transfers map onto themselves). False when the symmetry (shift or XOR) does not hold.
bool map_dropped(const std::vector<models::Transfer>& xs, const std::vector<char>& keep, const models::PairIndex& pi,
                 const models::PlanSymmetry& sym, bool use_xor, std::vector<int32_t>& rep) {
  if (use_xor && !sym.xor_possible()) return false;
  for (size_t i = 0; i < xs.size(); ++i) {
    rep[i] = static_cast<int32_t>(i);
    if (keep[i]) continue;
    int32_t is = 0, id = 0;
    if (!sym.image_of(xs[i].src, xs[i].dst, use_xor, is, id)) return false;
    const int32_t j = pi.kth(is, id, static_cast<size_t>(pi.occurrence[i]));
    if (j < 0) return false;
    const auto& x = xs[static_cast<size_t>(j)];
    if (x.bytes != xs[i].bytes || x.repeat != xs[i].repeat || x.reduce != xs[i].reduce || x.barrier != xs[i].barrier ||
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

models::PlanSymmetry plan_symmetry(const System& sys, const std::vector<int>& ranks) {
  models::PlanSymmetry s;
  if (ranks.empty()) return s;
  instance_part(sys, ranks, s);
  local_part(sys, ranks, s);
  return s;
}

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
  const models::PlanSymmetry sym = plan_symmetry(sys, ranks);
  for (size_t i = 0; i < n && local; ++i)
    if (keep[i] && !sym.kept(static_cast<size_t>(xs[i].src))) {
      keep[i] = 0;
      ++dropped;
    }
  if (dropped == 0) return 0;
  const models::PairIndex pi(
      n, [&](size_t i) { return xs[i].src; }, [&](size_t i) { return xs[i].dst; });
  // The first of the two symmetries that maps every dropped transfer is used.
  std::vector<int32_t> rep(n);
  if (!map_dropped(xs, keep, pi, sym, false, rep) && !map_dropped(xs, keep, pi, sym, true, rep))
    throw models::SymmetryError("symmetry: collective " + plan.algorithm +
                                " is not invariant under the instance symmetry");
  keep_renumbered(xs, keep, rep, dropped);
  return dropped;
}

}  // namespace trn::hw
