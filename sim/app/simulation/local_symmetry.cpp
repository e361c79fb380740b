// The local symmetry of a job on a switched fabric (local_symmetry.h).
#include "sim/app/simulation/local_symmetry.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "hw/collectives/collective_planner.h"
#include "models/collectives/plan_symmetry.h"

namespace trn::app {
namespace {

using Perm = std::vector<int>;  // local rank (inside an instance) -> its image

// The image of global rank `r` under `p`, which acts alike inside every instance of `per` ranks.
int apply_perm(int per, const Perm& p, int r) { return r - r % per + p[static_cast<size_t>(r % per)]; }

Perm identity_perm(int per) {
  Perm id(static_cast<size_t>(per));
  std::iota(id.begin(), id.end(), 0);
  return id;
}
constexpr size_t kMaxElements = 256;

// Message sizes that reach every algorithm band (mesh, rdh, the large-message ring).
const double kBytes[] = {256.0 * 1024, 16.0 * 1048576, 256.0 * 1048576};

struct Job {
  const hw::System& sys;
  const workloads::Layout& layout;
  int per = 0, rpc = 0;
  std::vector<workloads::GroupKind> kinds;
  std::vector<std::vector<int>> gid;  // per kind, per rank: the least rank of its group
  std::vector<int> probe;             // ranks whose groups stand for every group (plans_ok)
  std::vector<int> group_image;       // element_ok's work space, per group (least rank)
  std::map<Perm, std::vector<int32_t>> links;
  // (op, bytes, a hash of the ranks) -> the plans of that key (their ranks tell them apart):
  // a DP group of a million-chip job has 62,496 ranks, kept once, in its plan.
  std::map<std::tuple<int, double, uint64_t>, std::vector<std::unique_ptr<hw::PlannedCollective>>> plans;

  const hw::PlannedCollective& plan(models::CollectiveOp op, double bytes, const std::vector<int>& x) {
    uint64_t h = 14695981039346656037ULL;  // FNV-1a over the ranks
    for (int r : x) h = (h ^ static_cast<uint32_t>(r)) * 1099511628211ULL;
    auto& list = plans[std::make_tuple(static_cast<int>(op), bytes, h)];
    for (const auto& p : list)
      if (p->ranks == x) return *p;
    list.push_back(std::make_unique<hw::PlannedCollective>(hw::plan_collective_quotient(sys, op, bytes, x)));
    return *list.back();
  }

  int apply(const Perm& p, int r) const { return apply_perm(per, p, r); }
  std::vector<int> image(const Perm& p, const std::vector<int>& g) const {
    std::vector<int> out;
    for (int r : g) out.push_back(apply(p, r));
    std::sort(out.begin(), out.end());
    return out;
  }
};

Perm compose(const Perm& a, const Perm& b) {  // a after b
  Perm c(b.size());
  for (size_t i = 0; i < b.size(); ++i) c[i] = a[static_cast<size_t>(b[i])];
  return c;
}

// Per chip of an instance: the chip its ranks go to.
std::vector<int> chip_perm(int rpc, const Perm& p) {
  std::vector<int> c(p.size() / static_cast<size_t>(rpc));
  for (size_t i = 0; i < c.size(); ++i) c[i] = p[i * static_cast<size_t>(rpc)] / rpc;
  return c;
}

// An element other than the identity: fixes no rank and maps the topology onto itself (and,
// with pipeline stages, every rank into its stage).
bool element_fits(Job& j, const Perm& p) {
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] == static_cast<int>(i)) return false;
  // Every rank stays in its pipeline stage: the stages run different programs, and one rank
  // per stage is simulated (with one stage, trivially).
  for (int r = 0; r < j.layout.world() && j.layout.stages() > 1; ++r)
    if (j.layout.coord(j.apply(p, r)).p != j.layout.coord(r).p) return false;
  std::vector<int32_t> links = j.sys.topology().local_automorphism(chip_perm(j.rpc, p));
  if (links.empty()) return false;
  j.links[p] = std::move(links);
  return true;
}

// The element maps every group of every kind onto a group of its kind: O(ranks) per kind.
bool groups_map(Job& j, const Perm& p) {
  const int world = j.layout.world();
  // Per group (its least rank): the group its ranks go to (-1: none seen yet).
  std::vector<int>& to = j.group_image;
  if (to.size() != static_cast<size_t>(world)) to.assign(static_cast<size_t>(world), -1);
  for (const auto& gid : j.gid) {
    std::vector<int> seen;
    bool ok = true;
    for (int r = 0; r < world && ok; ++r) {
      const int img = gid[static_cast<size_t>(j.apply(p, r))];
      int& t = to[static_cast<size_t>(gid[static_cast<size_t>(r)])];
      if (t < 0) {
        t = img;
        seen.push_back(gid[static_cast<size_t>(r)]);
      }
      ok = t == img;
    }
    for (int g : seen) to[static_cast<size_t>(g)] = -1;  // clean for the next call
    if (!ok) return false;
  }
  return true;
}

// Whether plan `b` is the image of plan `a` under p: transfer for transfer (the k-th between
// two ranks to the k-th between their images), with the same size, kind and dependencies, and
// a rank's transfers between chips in the order of its image's. A rank issues its ready
// transfers one after another in plan order (CollectiveEngine::ready), so a permutation that
// reorders them, such as a ring's reflection (its two directions trade places), changes when
// they start: it is not a symmetry of the timing.
models::PairIndex pair_index(const hw::PlannedCollective& a) {
  const auto& x = a.plan.transfers;
  return models::PairIndex(
      x.size(), [&](size_t i) { return x[i].src; }, [&](size_t i) { return x[i].dst; });
}

// `pa`: pair_index(a), built once for all the elements `a` is checked under.
// `per`, `rpc`: ranks per instance and per chip.
bool plan_maps(int per, int rpc, const hw::PlannedCollective& a, const models::PairIndex& pa,
               const hw::PlannedCollective& b, const Perm& p) {
  const auto &xa = a.plan.transfers, &xb = b.plan.transfers;
  if (xa.size() != xb.size() || a.ranks.size() != b.ranks.size()) return false;
  // Per plan rank of a: the plan rank of b of its image (-1: not in b).
  std::unordered_map<int, int32_t> index_b;
  for (size_t q = 0; q < b.ranks.size(); ++q) index_b.emplace(b.ranks[q], static_cast<int32_t>(q));
  std::vector<int32_t> to_b(a.ranks.size(), -1);
  for (size_t q = 0; q < a.ranks.size(); ++q) {
    auto it = index_b.find(apply_perm(per, p, a.ranks[q]));
    if (it != index_b.end()) to_b[q] = it->second;
  }
  std::unique_ptr<models::PairIndex> own_b;  // b's index: a's when b is a
  if (&b != &a) own_b = std::make_unique<models::PairIndex>(pair_index(b));
  const models::PairIndex& pb = own_b ? *own_b : pa;
  std::vector<int32_t> img(xa.size());
  for (size_t i = 0; i < xa.size(); ++i) {
    const int32_t s = to_b[static_cast<size_t>(xa[i].src)], d = to_b[static_cast<size_t>(xa[i].dst)];
    if (s < 0 || d < 0) return false;
    img[i] = pb.kth(s, d, static_cast<size_t>(pa.occurrence[i]));
    if (img[i] < 0) return false;
    const auto& x = xb[static_cast<size_t>(img[i])];
    if (x.bytes != xa[i].bytes || x.repeat != xa[i].repeat || x.reduce != xa[i].reduce || x.barrier != xa[i].barrier)
      return false;
  }
  std::vector<int32_t> last(a.ranks.size(), -1);  // per source: the image of its last transfer between chips
  for (size_t i = 0; i < xa.size(); ++i) {
    const int src = a.ranks[static_cast<size_t>(xa[i].src)], dst = a.ranks[static_cast<size_t>(xa[i].dst)];
    if (src / rpc == dst / rpc) continue;
    int32_t& l = last[static_cast<size_t>(xa[i].src)];
    if (img[i] < l) return false;
    l = img[i];
  }
  std::vector<int32_t> da, db;
  for (size_t i = 0; i < xa.size(); ++i) {
    const auto& deps_b = xb[static_cast<size_t>(img[i])].deps;
    if (deps_b.size() != xa[i].deps.size()) return false;
    da.clear();
    db.assign(deps_b.begin(), deps_b.end());
    for (int32_t d : xa[i].deps) da.push_back(img[static_cast<size_t>(d)]);
    std::sort(da.begin(), da.end());
    std::sort(db.begin(), db.end());
    if (da != db) return false;
  }
  return true;
}

// Every collective the job may run on a group of each kind, at every size band, goes to the
// same collective on the image group under every element of `fresh` (the elements of `group`
// not checked before: one group per orbit of `group` suffices, by composition). Only the
// groups of the probe ranks are checked (see local_job_symmetry). In two passes: `pass` 0
// checks the first group of each kind, 1 the others; an element that fails mostly fails on the
// first group of some kind, before the plans of every other group are built.
bool plans_ok(Job& j, const std::vector<Perm>& group, const std::vector<Perm>& fresh, int pass) {
  for (size_t k = 0; k < j.kinds.size(); ++k) {
    const bool ep = j.kinds[k] == workloads::GroupKind::Ep;
    std::set<std::vector<int>> orbits;
    std::set<int> leaders;
    for (int probe : j.probe) {
      const int r = j.gid[k][static_cast<size_t>(probe)];
      if (!leaders.insert(r).second) continue;
      const std::vector<int> x = j.image(group[0], j.layout.group(j.kinds[k], r));
      std::vector<int> canon = x;
      for (const Perm& p : group) canon = std::min(canon, j.image(p, x));
      if (!orbits.insert(canon).second) continue;
      if (pass == 1 && orbits.size() == 1) continue;  // checked in pass 0
      for (auto op : {models::CollectiveOp::AllGather, models::CollectiveOp::ReduceScatter,
                      models::CollectiveOp::AllReduce, models::CollectiveOp::AllToAll}) {
        if ((op == models::CollectiveOp::AllToAll) != ep) continue;
        for (double bytes : kBytes) {
          const hw::PlannedCollective& a = j.plan(op, bytes, x);
          const models::PairIndex pa = pair_index(a);
          for (const Perm& g : fresh)
            if (!plan_maps(j.per, j.rpc, a, pa, j.plan(op, bytes, j.image(g, x)), g)) return false;
        }
      }
      if (pass == 0) break;
    }
  }
  return true;
}

// The group generated by `group` and `g` (closed under composition), or empty when larger
// than kMaxElements.
std::vector<Perm> closure(std::vector<Perm> gens, const Perm& g) {
  gens.push_back(g);
  std::set<Perm> seen(gens.begin(), gens.end());
  std::vector<Perm> out(seen.begin(), seen.end());
  for (size_t i = 0; i < out.size(); ++i)
    for (const Perm& h : gens) {
      Perm c = compose(h, out[i]);
      if (seen.insert(c).second) out.push_back(std::move(c));
      if (out.size() > kMaxElements) return {};
    }
  return out;
}

// The candidate elements: XOR of the rank index inside a chip, XOR of the chip index, the
// reversal of the chips, and the reversal after each XOR.
std::vector<Perm> candidates(const Job& j) {
  const int chips = j.per / j.rpc;
  std::vector<Perm> out;
  auto add = [&](auto chip_of, int in_chip) {
    Perm p(static_cast<size_t>(j.per));
    for (int r = 0; r < j.per; ++r) p[static_cast<size_t>(r)] = chip_of(r / j.rpc) * j.rpc + ((r % j.rpc) ^ in_chip);
    out.push_back(std::move(p));
  };
  if ((j.rpc & (j.rpc - 1)) == 0)
    for (int m = 1; m < j.rpc; ++m) add([](int c) { return c; }, m);
  int top = 1;  // XOR masks that keep every chip index below `chips`
  while (top * 2 <= chips && chips % (top * 2) == 0) top *= 2;
  for (int m = 1; m < top; ++m) add([m](int c) { return c ^ m; }, 0);
  for (int m = 0; m < top; ++m) add([m, chips](int c) { return chips - 1 - (c ^ m); }, 0);
  return out;
}

// The group kinds of the job (groups of 2 or more) with, per rank, the least rank of its group;
// by group size, smallest first: an element that fails is found out on the cheapest plans
// (plans_ok checks the kinds in this order; a DP group of a million-chip job has 62,496 ranks,
// and its plans take seconds).
void add_group_kinds(Job& j) {
  const workloads::Layout& layout = j.layout;
  std::vector<std::pair<size_t, workloads::GroupKind>> by_size;
  for (auto k : {workloads::GroupKind::Tp, workloads::GroupKind::Fsdp, workloads::GroupKind::Dp,
                 workloads::GroupKind::Pp, workloads::GroupKind::Ep})
    if (const size_t n = layout.group(k, 0).size(); n >= 2) by_size.emplace_back(n, k);
  std::stable_sort(by_size.begin(), by_size.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& size_kind : by_size) {
    const workloads::GroupKind k = size_kind.second;
    // The least rank of each rank's group: its leader where the groups partition the ranks
    // (O(ranks), no member lists), else from the members.
    std::vector<int> gid(static_cast<size_t>(layout.world()));
    for (int r = 0; r < layout.world(); ++r) {
      int& x = gid[static_cast<size_t>(r)];
      x = layout.group_leader(k, r);
      if (x < 0) {
        const std::vector<int> g = layout.group(k, r);
        x = *std::min_element(g.begin(), g.end());
      }
    }
    j.kinds.push_back(k);
    j.gid.push_back(std::move(gid));
  }
}

// The LocalSymmetry of a group of permutations (group[0] the identity), with the link image of
// each other element.
hw::LocalSymmetry local_symmetry_of(const std::vector<Perm>& group, const std::map<Perm, std::vector<int32_t>>& links,
                                    int per) {
  const Perm& id = group[0];
  hw::LocalSymmetry k;
  k.rank_perms = group;
  const size_t nl = links.at(group[1]).size();
  for (const Perm& p : group) {
    if (p == id) {
      std::vector<int32_t> idl(nl);
      for (size_t l = 0; l < nl; ++l) idl[l] = static_cast<int32_t>(l);
      k.link_perms.push_back(std::move(idl));
    } else {
      k.link_perms.push_back(links.at(p));
    }
  }
  k.to_rep.assign(static_cast<size_t>(per), 0);
  for (int r = 0; r < per; ++r)
    for (size_t g = 1; g < group.size(); ++g)
      if (group[g][static_cast<size_t>(r)] <
          group[static_cast<size_t>(k.to_rep[static_cast<size_t>(r)])][static_cast<size_t>(r)])
        k.to_rep[static_cast<size_t>(r)] = static_cast<int>(g);
  k.link_rep.assign(nl, 0);
  k.link_weight.assign(nl, 0);
  for (size_t l = 0; l < nl; ++l) {
    k.link_rep[l] = static_cast<int32_t>(l);
    for (const auto& lp : k.link_perms) {
      k.link_rep[l] = std::min(k.link_rep[l], lp[l]);
      k.link_weight[l] += lp[l] == static_cast<int32_t>(l) ? 1 : 0;
    }
  }
  return k;
}

// The torus's automorphisms that turn the instance's ring order (Topology::ring_order_local) by
// a rotation in the same direction: per dimension a shift and perhaps a reflection. Ring and
// KangaRing plans follow that order, so these are the candidates under which they can be
// invariant (on a 4 x 4 x 4 torus, the rotation by a quarter of the snake: the next layer,
// mirrored). As permutations of an instance's ranks (a chip's ranks go to its image's, in
// order), by the rotation's length.
std::vector<Perm> torus_ring_rotations(const hw::System& sys) {
  const auto& ring = sys.topology().ring_order_local();
  const int chips = sys.topology().chips_per_instance(), rpc = sys.ranks_per_chip();
  if (static_cast<int>(ring.size()) != chips) return {};
  std::vector<int> pos(static_cast<size_t>(chips));
  for (int i = 0; i < chips; ++i) pos[static_cast<size_t>(ring[static_cast<size_t>(i)])] = i;
  std::vector<int> sizes;
  int64_t total = 1;
  for (const auto& d : sys.spec().topology.dims) {
    sizes.push_back(d.size);
    total *= 2 * d.size;
  }
  if (total > 4096) return {};
  std::vector<std::pair<int, Perm>> found;
  for (int64_t m = 0; m < total; ++m) {
    // Element m in mixed radix (2 x size per dimension): the shift and the reflection bit.
    std::vector<int> chip(static_cast<size_t>(chips));
    for (int c = 0; c < chips; ++c) {
      int rem = c, out = 0, stride = 1;
      int64_t code = m;
      for (int size : sizes) {
        const int x = rem % size, t = static_cast<int>((code / 2) % size), refl = static_cast<int>(code % 2);
        rem /= size;
        code /= 2 * size;
        out += (((refl ? -x : x) + t) % size + size) % size * stride;
        stride *= size;
      }
      chip[static_cast<size_t>(c)] = out;
    }
    const int shift = pos[static_cast<size_t>(chip[static_cast<size_t>(ring[0])])];
    bool rotation = shift != 0;
    for (int i = 0; i < chips && rotation; ++i)
      rotation =
          pos[static_cast<size_t>(chip[static_cast<size_t>(ring[static_cast<size_t>(i)])])] == (i + shift) % chips;
    if (!rotation) continue;
    Perm p(static_cast<size_t>(chips * rpc));
    for (int r = 0; r < chips * rpc; ++r)
      p[static_cast<size_t>(r)] = chip[static_cast<size_t>(r / rpc)] * rpc + r % rpc;
    found.emplace_back(shift, std::move(p));
  }
  std::sort(found.begin(), found.end());
  std::vector<Perm> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

}  // namespace

hw::LocalSymmetry local_job_symmetry(const hw::System& sys, const workloads::Layout& layout,
                                     const workloads::ParallelSpec& par) {
  hw::LocalSymmetry none;
  if (sys.spec().topology.impl != "switched" || layout.world() != sys.total_ranks()) return none;
  Job j{sys, layout, sys.ranks_per_instance(), sys.ranks_per_chip(), {}, {}, {}, {}, {}, {}};
  // The groups whose plans are checked: those of the ranks of the representative instances.
  // An instance element s maps every group onto a group of its kind and its plans onto the
  // image group's (the instance symmetry's premise), and commutes with every candidate (both
  // act alike on the rank inside an instance), so a group G passes under p exactly when s(G)
  // does; every group has an image that meets a representative instance. Without an instance
  // symmetry, every rank (every instance is its own representative).
  for (int r = 0; r < layout.world(); ++r)
    if (sys.in_rep_instance(r)) j.probe.push_back(r);
  add_group_kinds(j);
  const Perm id = identity_perm(j.per);
  std::vector<Perm> group = {id}, gens;
  for (const Perm& c : candidates(j)) {
    if (std::find(group.begin(), group.end(), c) != group.end()) continue;
    std::vector<Perm> next = closure(gens, c);
    if (next.empty()) continue;
    bool ok = true;
    std::vector<Perm> fresh;
    for (const Perm& p : next)
      if (ok && p != id && std::find(group.begin(), group.end(), p) == group.end()) {
        ok = element_fits(j, p);
        fresh.push_back(p);
      }
    std::sort(next.begin(), next.end(), [&](const Perm& a, const Perm& b) { return (a == id) > (b == id); });
    // The cheap checks first: the plans of the first group of each kind, then the groups'
    // images (O(ranks) per element), then the plans of the other groups.
    ok = ok && plans_ok(j, next, fresh, 0);
    for (const Perm& p : fresh) ok = ok && groups_map(j, p);
    if (!ok || !plans_ok(j, next, fresh, 1)) continue;
    group = std::move(next);
    gens.push_back(c);
  }
  if (group.size() < 2) return none;
  return local_symmetry_of(group, j.links, j.per);
}

hw::LocalSymmetry local_collective_symmetry(const hw::System& sys, models::CollectiveOp op,
                                            const std::vector<double>& sizes, const std::vector<int>& ranks,
                                            const models::Algorithm* force,
                                            std::vector<hw::PlannedCollective>* plans_out) {
  hw::LocalSymmetry none;
  const int per = sys.ranks_per_instance(), rpc = sys.ranks_per_chip();
  if (sys.spec().topology.impl != "torus" || ranks.empty() || ranks.size() % static_cast<size_t>(per) != 0) return none;
  for (size_t q = 0; q < ranks.size(); ++q)
    if (ranks[q] != static_cast<int>(q)) return none;  // whole instances from rank 0
  const std::vector<Perm> cands = torus_ring_rotations(sys);
  if (cands.empty()) return none;
  // The plans the simulation runs, as quotients under the instance symmetry set on `sys`, and
  // the routes between their chips (the collective is the only traffic there is).
  std::vector<hw::PlannedCollective> plans;
  std::vector<models::PairIndex> index;
  std::set<std::pair<int, int>> pair_set;
  for (double bytes : sizes) {
    plans.push_back(hw::plan_collective_quotient(sys, op, bytes, ranks, force));
    const hw::PlannedCollective& pc = plans.back();
    index.push_back(pair_index(pc));
    const models::PairIndex& pi = index.back();
    for (size_t p = 0; p < pi.count.size(); ++p) {  // the first transfer between each two ranks
      const auto& x = pc.plan.transfers[static_cast<size_t>(pi.by_pair[pi.pair_start[p]])];
      if (!x.barrier)
        pair_set.emplace(pc.ranks[static_cast<size_t>(x.src)] / rpc, pc.ranks[static_cast<size_t>(x.dst)] / rpc);
    }
  }
  const std::vector<std::pair<int, int>> pairs(pair_set.begin(), pair_set.end());
  const Perm id = identity_perm(per);
  std::vector<Perm> group = {id}, gens;
  std::map<Perm, std::vector<int32_t>> links;
  for (const Perm& c : cands) {
    if (std::find(group.begin(), group.end(), c) != group.end()) continue;
    std::vector<Perm> next = closure(gens, c);
    if (next.empty()) continue;
    // Every new element moves every rank and maps the links and the plans' routes onto their
    // images. The plans are checked under `c` alone: the other new elements are products of `c`
    // and elements checked before, and a product of a plan's automorphisms is one.
    bool ok = true;
    std::map<Perm, std::vector<int32_t>> fresh;
    for (const Perm& p : next) {
      if (!ok || p == id || std::find(group.begin(), group.end(), p) != group.end()) continue;
      for (int r = 0; r < per && ok; ++r) ok = p[static_cast<size_t>(r)] != r;
      if (ok) fresh[p] = sys.topology().local_automorphism(chip_perm(rpc, p), &pairs);
      ok = ok && !fresh[p].empty();
    }
    for (size_t i = 0; i < plans.size() && ok; ++i) ok = plan_maps(per, rpc, plans[i], index[i], plans[i], c);
    if (!ok) continue;
    links.insert(fresh.begin(), fresh.end());
    std::sort(next.begin(), next.end(), [&](const Perm& a, const Perm& b) { return (a == id) > (b == id); });
    group = std::move(next);
    gens.push_back(c);
  }
  if (plans_out) *plans_out = std::move(plans);
  if (group.size() < 2) return none;
  return local_symmetry_of(group, links, per);
}

}  // namespace trn::app
