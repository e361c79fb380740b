// Rank ordering and plan selection.
#include "hw/collectives/collective_planner.h"

#include <algorithm>
#include <map>

namespace trn::hw {

PlannedCollective plan_collective(const System& sys, models::CollectiveOp op, double bytes,
                                  const std::vector<int>& ranks, const models::Algorithm* force,
                                  const models::PlanOptions& opt) {
  const auto& topo = sys.topology();
  // Position of each local chip in the ring order.
  std::vector<int> pos(static_cast<size_t>(topo.chips_per_instance()), 0);
  const auto& ring = topo.ring_order_local();
  for (size_t i = 0; i < ring.size(); ++i) pos[static_cast<size_t>(ring[i])] = static_cast<int>(i);
  PlannedCollective out;
  out.ranks = ranks;
  if (op == models::CollectiveOp::SendRecv) {  // keep the group's order: ranks[0] sends to ranks[1]
    out.plan = models::plan_flat(op, models::Algorithm::Ring, bytes, {0, 1}, opt);
    return out;
  }
  // Sort plan indices by (instance, ring position of chip, rank).
  std::vector<int> idx(ranks.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int>(i);
  auto key = [&](int i) {
    RankPlacement p = sys.placement(ranks[static_cast<size_t>(i)]);
    int inst = topo.instance_of(p.chip);
    int local = p.chip % topo.chips_per_instance();
    return std::make_tuple(inst, pos[static_cast<size_t>(local)], ranks[static_cast<size_t>(i)]);
  };
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return key(a) < key(b); });
  std::map<int, std::vector<int>> by_inst;
  for (int i : idx) by_inst[topo.instance_of(sys.placement(ranks[static_cast<size_t>(i)]).chip)].push_back(i);

  models::Algorithm large =
      sys.spec().chip.collectives.large_message_algorithm == models::LargeMessageAlgorithm::KangaRing
          ? models::Algorithm::KangaRing
          : models::Algorithm::Ring;
  bool equal = true;
  for (const auto& kv : by_inst) equal = equal && kv.second.size() == by_inst.begin()->second.size();
  if (by_inst.size() <= 1 || !equal) {
    models::Algorithm a = force ? *force : models::choose_intra(op, bytes, static_cast<int>(ranks.size()), large);
    if (by_inst.size() > 1 && !force) a = models::choose_inter(op, bytes, static_cast<int>(ranks.size()));
    out.plan = models::plan_flat(op, a, bytes, idx, opt);
    return out;
  }
  std::vector<std::vector<int>> groups;
  for (auto& kv : by_inst) groups.push_back(kv.second);
  out.plan = models::plan_hierarchical(op, bytes, groups, large, opt, force);
  return out;
}

}  // namespace trn::hw
