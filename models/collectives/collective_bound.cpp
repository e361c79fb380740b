// Rank ordering and plan selection for a group of system ranks; the plan's time lower bound.
#include "models/collectives/collective_bound.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

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
  auto key = [&](int i) {
    const int chip = chip_of(i);
    return std::make_tuple(topo.instance_of(chip), pos[static_cast<size_t>(chip % topo.chips_per_instance())],
                           ranks[static_cast<size_t>(i)]);
  };
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return key(a) < key(b); });
  // Where each rank sits, for rdh's two stages (S22): its chip and the chip's hypercube label.
  PlanOptions o = opt;
  o.rank_chip.resize(ranks.size());
  o.rank_cube.resize(ranks.size());
  for (size_t i = 0; i < ranks.size(); ++i) {
    o.rank_chip[i] = chip_of(static_cast<int>(i));
    o.rank_cube[i] = topo.cube_label(o.rank_chip[i] % topo.chips_per_instance());
  }
  std::map<int, std::vector<int>> by_inst;
  for (int i : idx) by_inst[topo.instance_of(chip_of(i))].push_back(i);
  bool equal = true;
  size_t local = 0;  // the group's ranks in its fullest instance
  for (const auto& kv : by_inst) {
    equal = equal && kv.second.size() == by_inst.begin()->second.size();
    local = std::max(local, kv.second.size());
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
    std::vector<std::vector<int>> groups;
    for (auto& kv : by_inst) groups.push_back(kv.second);
    out.plan = plan_hierarchical(op, bytes, groups, large, o, force);
  }
  if (legacy) {
    out.plan.dma_share = opt.legacy_ring_dma_share;
    out.plan.algorithm += " (sdk " + std::to_string(opt.sdk.major) + "." + std::to_string(opt.sdk.minor) + ")";
  }
  return out;
}

double collective_time_lower_bound(const GroupPlan& gp, const Topology& topo, const ChipSpec& chip, int lnc) {
  if (gp.ranks.size() <= 1) return 0;
  const auto& xs = gp.plan.transfers;
  const int ranks_per_chip = chip.cores.physical / lnc;
  const double cc_cap = lnc * chip.collectives.dma_engines_per_core * chip.dma.engine_bandwidth.v;
  const double dma_issue = chip.dma.fixed_latency.v + chip.dma.descriptor_latency.v;
  std::vector<double> end(xs.size(), 0.0);
  std::unordered_map<int64_t, double> load;     // resource -> seconds of its capacity used
  std::unordered_map<int, double> issue_queue;  // source rank -> seconds of issue
  double path = 0;
  const int64_t kRankKey = int64_t{1} << 40;  // collective DMA of rank r: key kRankKey + r; links: their index
  for (size_t i = 0; i < xs.size(); ++i) {
    const Transfer& x = xs[i];
    double start = 0;
    for (int32_t d : x.deps) {
      if (d < 0 || static_cast<size_t>(d) >= i) throw std::logic_error("collective plan: a dependency points forward");
      start = std::max(start, end[static_cast<size_t>(d)]);
    }
    if (x.barrier) {
      end[i] = start;
      path = std::max(path, end[i]);
      continue;
    }
    const int src = gp.ranks[static_cast<size_t>(x.src)], dst = gp.ranks[static_cast<size_t>(x.dst)];
    const int cs = src / ranks_per_chip, cd = dst / ranks_per_chip;
    const double latency = topo.route_latency(cs, cd);
    const double issue = dma_issue + 2.0 * latency;
    const double dma_s = x.bytes * (x.reduce ? 1.0 / chip.collectives.reduce_rate : 1.0) / (cc_cap * gp.plan.dma_share);
    double slowest = dma_s;
    load[kRankKey + src] += dma_s;
    for (int32_t l : topo.route(cs, cd)) {
      const double link_s = x.bytes / topo.links()[static_cast<size_t>(l)].bandwidth;
      slowest = std::max(slowest, link_s);
      load[l] += link_s;
    }
    issue_queue[src] += issue;
    end[i] = start + issue + latency + slowest;
    path = std::max(path, end[i]);
  }
  double heaviest = 0;
  for (const auto& [res, s] : load) heaviest = std::max(heaviest, s);
  for (const auto& [rank, s] : issue_queue) heaviest = std::max(heaviest, s);
  return chip.collectives.launch_overhead.v + std::max(path, heaviest);
}

}  // namespace trn::models
