// CollectiveEngine implementation.
#include "hw/collectives/collective_engine.h"

#include <algorithm>
#include <stdexcept>

#include "hw/collectives/plan_quotient.h"

namespace trn::hw {

struct CollectiveEngine::Run {
  CollectiveEngine* engine = nullptr;  // so callbacks capture only (Run*, index)
  models::CollectivePlan plan;
  std::vector<int> ranks;
  std::vector<int32_t> waiting;
  // Dependents of transfer i (in increasing order): dependents[dep_start[i] .. dep_start[i+1]).
  std::vector<uint32_t> dep_start;
  std::vector<int32_t> dependents;
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
  r->engine = this;
  r->plan = std::move(plan);
  r->ranks = std::move(ranks);
  r->done = std::move(done);
  const size_t n = r->plan.transfers.size();
  if (n > UINT32_MAX) throw std::length_error("collective plan: more than 2^32 transfers");
  r->waiting.assign(n, 0);
  r->dep_start.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    r->waiting[i] = static_cast<int32_t>(r->plan.transfers[i].deps.size());
    for (int32_t d : r->plan.transfers[i].deps) ++r->dep_start[static_cast<size_t>(d) + 1];
  }
  for (size_t i = 0; i < n; ++i) r->dep_start[i + 1] += r->dep_start[i];
  if (r->dep_start[n] < r->dep_start[n > 0 ? n - 1 : 0])
    throw std::length_error("collective plan: more than 2^32 dependencies");
  r->dependents.resize(r->dep_start[n]);
  {
    std::vector<uint32_t> fill(r->dep_start.begin(), r->dep_start.end() - 1);
    for (size_t i = 0; i < n; ++i)
      for (int32_t d : r->plan.transfers[i].deps) r->dependents[fill[static_cast<size_t>(d)]++] = static_cast<int32_t>(i);
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
    release(&r);
    return;
  }
  for (size_t i = 0; i < r.plan.transfers.size(); ++i)
    if (r.waiting[i] == 0) ready(r, i);
}

uint32_t CollectiveEngine::route(int src_chip, int dst_chip) {
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(src_chip)) << 32) | static_cast<uint32_t>(dst_chip);
  auto it = route_index_.find(key);
  if (it != route_index_.end()) return it->second;
  const auto& topo = sys_.topology();
  Route rt;
  // Under the instance symmetry transfers start in a representative instance; the links of
  // other instances on the route fold onto their images there (System::rep_link).
  for (int32_t l : topo.route(src_chip, dst_chip)) rt.links.push_back({sys_.link_resource(sys_.rep_link(l)), 1.0});
  rt.latency = topo.route_latency(src_chip, dst_chip);
  routes_.push_back(std::move(rt));
  const uint32_t i = static_cast<uint32_t>(routes_.size() - 1);
  route_index_.emplace(key, i);
  return i;
}

void CollectiveEngine::ready(Run& r, size_t t) {
  const models::Transfer& x = r.plan.transfers[t];
  if (x.barrier) {
    finish_transfer(r, t);
    return;
  }
  const int src = r.ranks[static_cast<size_t>(x.src)], dst = r.ranks[static_cast<size_t>(x.dst)];
  const RankPlacement ps = sys_.placement(src), pd = sys_.placement(dst);
  const auto& chip = sys_.spec().chip;
  const uint32_t ri = route(ps.chip, pd.chip);
  const double route_lat = routes_[ri].latency;
  const double issue = chip.dma.fixed_latency.v + chip.dma.descriptor_latency.v + 2.0 * route_lat;
  const double now = sim::now_s();
  double& free_at = issue_free_[static_cast<size_t>(src)];
  free_at = std::max(free_at, now) + issue;
  sys_.collective_dma_resource(src);  // registered now (resource ids follow readiness order)
  Run* rp = &r;
  const uint32_t ti = static_cast<uint32_t>(t);  // (Run*, two indices): fits std::function's local storage
  sys_.events().at(free_at - now, [rp, ti, ri] { rp->engine->start_flow(*rp, ti, ri); });
}

void CollectiveEngine::start_flow(Run& r, size_t t, uint32_t route) {
  const models::Transfer& x = r.plan.transfers[t];
  const int src = r.ranks[static_cast<size_t>(x.src)];
  const Route& rt = routes_[route];
  const auto& chip = sys_.spec().chip;
  uses_.clear();
  uses_.push_back({sys_.collective_dma_resource(src), x.reduce ? 1.0 / chip.collectives.reduce_rate : 1.0});
  uses_.insert(uses_.end(), rt.links.begin(), rt.links.end());
  Run* rp = &r;
  sys_.net().start_on(uses_, x.bytes, rt.latency, [rp, t] { rp->engine->finish_transfer(*rp, t); });
}

void CollectiveEngine::finish_transfer(Run& r, size_t t) {
  const auto& x = r.plan.transfers[t];
  if (!x.barrier) {
    ++r.result.transfers;
    r.result.bytes += x.bytes;
  }
  for (uint32_t k = r.dep_start[t]; k < r.dep_start[t + 1]; ++k) {
    const size_t d = static_cast<size_t>(r.dependents[k]);
    if (--r.waiting[d] == 0) ready(r, d);
  }
  if (--r.left == 0) {
    r.result.end_s = sim::now_s();
    if (r.done) r.done(r.result);
    release(&r);
  }
}

void CollectiveEngine::release(Run* r) {
  // A finished run is freed once the current callbacks have returned (memory does not grow
  // with the collectives of a step).
  sys_.events().at(0.0, [this, r] {
    auto it = std::find_if(runs_.begin(), runs_.end(), [r](const std::unique_ptr<Run>& p) { return p.get() == r; });
    if (it == runs_.end()) return;
    std::swap(*it, runs_.back());
    runs_.pop_back();
  });
}

}  // namespace trn::hw
