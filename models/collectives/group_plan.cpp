// Rank ordering and plan selection for a group of system ranks (see group_plan.h).
#include "models/collectives/group_plan.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

#include "models/collectives/selection.h"

namespace trn::models {

PlanOptions with_runtime_release(const CollectiveSpec& cc, PlanOptions opt) {
  if (!parse_sdk_release(cc.sdk, &opt.sdk)) throw std::invalid_argument("collectives.sdk: not a release: " + cc.sdk);
  opt.legacy_ring_dma_share = cc.legacy_ring_dma_share;
  return opt;
}

GroupPlan plan_group_collective(const Topology& topo, int ranks_per_chip, Algorithm large, CollectiveOp op,
                                double bytes, const std::vector<int>& ranks, const Algorithm* force,
                                const PlanOptions& opt) {
  // Position of each local chip in the ring order.
  std::vector<int> pos(static_cast<size_t>(topo.chips_per_instance()), 0);
  const auto& ring = topo.ring_order_local();
  for (size_t i = 0; i < ring.size(); ++i) pos[static_cast<size_t>(ring[i])] = static_cast<int>(i);
  GroupPlan out;
  out.ranks = ranks;
  if (op == CollectiveOp::SendRecv) {  // keep the group's order: ranks[0] sends to ranks[1]
    out.plan = plan_flat(op, Algorithm::Ring, bytes, {0, 1}, opt);
    return out;
  }
  // Sort plan indices by (instance, ring position of chip, rank).
  auto chip_of = [&](int i) { return ranks[static_cast<size_t>(i)] / ranks_per_chip; };
  std::vector<int> idx(ranks.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int>(i);
  std::vector<std::tuple<int, int, int>> keys(ranks.size());
  for (size_t i = 0; i < ranks.size(); ++i) {
    const int chip = chip_of(static_cast<int>(i));
    keys[i] =
        std::make_tuple(topo.instance_of(chip), pos[static_cast<size_t>(chip % topo.chips_per_instance())], ranks[i]);
  }
  auto before = [&](int a, int b) { return keys[static_cast<size_t>(a)] < keys[static_cast<size_t>(b)]; };
  if (!std::is_sorted(idx.begin(), idx.end(), before)) std::stable_sort(idx.begin(), idx.end(), before);
  // Where each rank sits, for rdh's two stages (S22): its chip and the chip's hypercube label.
  PlanOptions o = opt;
  o.rank_chip.resize(ranks.size());
  o.rank_cube.resize(ranks.size());
  for (size_t i = 0; i < ranks.size(); ++i) {
    o.rank_chip[i] = chip_of(static_cast<int>(i));
    o.rank_cube[i] = topo.cube_label(o.rank_chip[i] % topo.chips_per_instance());
  }
  std::vector<std::vector<int>> by_inst;  // the ranks of each instance, in instance order (idx is)
  for (size_t k = 0; k < idx.size(); ++k) {
    if (k == 0 || std::get<0>(keys[static_cast<size_t>(idx[k])]) != std::get<0>(keys[static_cast<size_t>(idx[k - 1])]))
      by_inst.emplace_back();
    by_inst.back().push_back(idx[k]);
  }
  bool equal = true;
  size_t local = 0;  // the group's ranks in its fullest instance
  for (const auto& g : by_inst) {
    equal = equal && g.size() == by_inst.front().size();
    local = std::max(local, g.size());
  }
  // An older runtime's all-reduce: the ring at a share of the DMA rate (docs/model.md 8.7).
  const bool legacy = !force && op == CollectiveOp::AllReduce && legacy_allreduce(opt.sdk, static_cast<int>(local));
  const Algorithm legacy_ring = Algorithm::Ring;
  if (legacy) force = &legacy_ring;
  if (by_inst.size() <= 1 || !equal) {
    Algorithm a = force ? *force : choose_intra(op, bytes, static_cast<int>(ranks.size()), large);
    if (by_inst.size() > 1 && !force) a = choose_inter(op, bytes, static_cast<int>(ranks.size()));
    out.plan = plan_flat(op, a, bytes, idx, o);
  } else {
    out.plan = plan_hierarchical(op, bytes, by_inst, large, o, force);
  }
  if (legacy) {
    out.plan.dma_share = opt.legacy_ring_dma_share;
    out.plan.algorithm += " (sdk " + std::to_string(opt.sdk.major) + "." + std::to_string(opt.sdk.minor) + ")";
  }
  return out;
}

}  // namespace trn::models
