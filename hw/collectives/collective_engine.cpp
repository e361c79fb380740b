// CollectiveEngine implementation.
#include "hw/collectives/collective_engine.h"

#include <algorithm>

#include "hw/collectives/plan_quotient.h"

namespace trn::hw {

struct CollectiveEngine::Run {
  models::CollectivePlan plan;
  std::vector<int> ranks;
  std::vector<int32_t> waiting;
  std::vector<std::vector<int32_t>> dependents;
  size_t left = 0;
  CollectiveResult result;
  std::function<void(const CollectiveResult&)> done;
};

CollectiveEngine::CollectiveEngine(sc_core::sc_module_name name, System& system)
    : sc_core::sc_module(name), sys_(system), issue_free_(static_cast<size_t>(system.total_ranks()), 0.0) {}

CollectiveEngine::~CollectiveEngine() = default;

void CollectiveEngine::run(models::CollectivePlan plan, std::vector<int> ranks, double start_delay_s,
                           std::function<void(const CollectiveResult&)> done) {
  auto r = std::make_unique<Run>();
  quotient_plan(sys_, plan, ranks);  // one transfer per orbit under the instance symmetry
  r->plan = std::move(plan);
  r->ranks = std::move(ranks);
  r->done = std::move(done);
  const size_t n = r->plan.transfers.size();
  r->waiting.assign(n, 0);
  r->dependents.assign(n, {});
  for (size_t i = 0; i < n; ++i) {
    r->waiting[i] = static_cast<int32_t>(r->plan.transfers[i].deps.size());
    for (int32_t d : r->plan.transfers[i].deps) r->dependents[static_cast<size_t>(d)].push_back(static_cast<int32_t>(i));
  }
  r->left = n;
  Run* raw = r.get();
  runs_.push_back(std::move(r));
  sys_.events().at(start_delay_s, [this, raw] {
    raw->result.start_s = sim::now_s();
    double launch_s = sys_.spec().chip.collectives.launch_overhead.v;
    sys_.events().at(launch_s, [this, raw] { launch(*raw); });
  });
}

void CollectiveEngine::launch(Run& r) {
  if (r.left == 0) {
    r.result.end_s = sim::now_s();
    if (r.done) r.done(r.result);
    return;
  }
  for (size_t i = 0; i < r.plan.transfers.size(); ++i)
    if (r.waiting[i] == 0) ready(r, i);
}

void CollectiveEngine::ready(Run& r, size_t t) {
  const models::Transfer& x = r.plan.transfers[t];
  if (x.barrier) {
    finish_transfer(r, t);
    return;
  }
  const int src = r.ranks[static_cast<size_t>(x.src)], dst = r.ranks[static_cast<size_t>(x.dst)];
  const RankPlacement ps = sys_.placement(src), pd = sys_.placement(dst);
  const auto& topo = sys_.topology();
  const auto& chip = sys_.spec().chip;
  const double route_lat = topo.route_latency(ps.chip, pd.chip);
  const double issue = chip.dma.fixed_latency.v + chip.dma.descriptor_latency.v + 2.0 * route_lat;
  const double now = sim::now_s();
  double& free_at = issue_free_[static_cast<size_t>(src)];
  free_at = std::max(free_at, now) + issue;
  std::vector<ResourceUse> uses;
  // Under the instance symmetry the transfer starts in a representative instance; the links of
  // other instances on its route fold onto their images there.
  uses.push_back({sys_.collective_dma_resource(src), x.reduce ? 1.0 / chip.collectives.reduce_rate : 1.0});
  for (int32_t l : topo.route(ps.chip, pd.chip)) uses.push_back({sys_.link_resource(sys_.rep_link(l)), 1.0});
  const double bytes = x.bytes;
  Run* rp = &r;
  sys_.events().at(free_at - now, [this, rp, t, uses = std::move(uses), bytes, route_lat]() mutable {
    sys_.net().start(std::move(uses), bytes, route_lat, [this, rp, t] { finish_transfer(*rp, t); });
  });
}

void CollectiveEngine::finish_transfer(Run& r, size_t t) {
  const auto& x = r.plan.transfers[t];
  if (!x.barrier) {
    ++r.result.transfers;
    r.result.bytes += x.bytes;
  }
  for (int32_t d : r.dependents[t])
    if (--r.waiting[static_cast<size_t>(d)] == 0) ready(r, static_cast<size_t>(d));
  if (--r.left == 0) {
    r.result.end_s = sim::now_s();
    if (r.done) r.done(r.result);
  }
}

}  // namespace trn::hw
