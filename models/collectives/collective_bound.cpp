// The time lower bound of a group's collective plan (see collective_bound.h).
#include "models/collectives/collective_bound.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace trn::models {

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
    const double n = static_cast<double>(x.repeat);  // a chain of steps (Transfer::repeat)
    const double issue = n * (dma_issue + 2.0 * latency);
    const double dma_s =
        n * x.bytes * (x.reduce ? 1.0 / chip.collectives.reduce_rate : 1.0) / (cc_cap * gp.plan.dma_share);
    double slowest = dma_s;
    load[kRankKey + src] += dma_s;
    for (int32_t l : topo.route(cs, cd)) {
      const double link_s = n * x.bytes / topo.links()[static_cast<size_t>(l)].bandwidth;
      slowest = std::max(slowest, link_s);
      load[l] += link_s;
    }
    issue_queue[src] += issue;
    end[i] = start + issue + n * latency + slowest;
    path = std::max(path, end[i]);
  }
  double heaviest = 0;
  for (const auto& [res, s] : load) heaviest = std::max(heaviest, s);
  for (const auto& [rank, s] : issue_queue) heaviest = std::max(heaviest, s);
  return chip.collectives.launch_overhead.v + std::max(path, heaviest);
}

}  // namespace trn::models
