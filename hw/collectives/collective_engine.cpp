// CollectiveEngine implementation.
#include "hw/collectives/collective_engine.h"

#include <algorithm>
#include <stdexcept>

#include "hw/collectives/collective_run.h"
#include "hw/collectives/plan_quotient.h"
#include "models/collectives/plan_symmetry.h"

namespace trn::hw {

using detail::meet;

CollectiveEngine::CollectiveEngine(sc_core::sc_module_name name, System& system)
    : sc_core::sc_module(name), sys_(system), issue_free_(static_cast<size_t>(system.total_ranks()), 0.0) {}

CollectiveEngine::~CollectiveEngine() = default;

std::shared_ptr<const PreparedPlan> CollectiveEngine::prepare(models::CollectivePlan plan, std::vector<int> ranks) {
  auto p = std::make_shared<PreparedPlan>();
  if (!plan.quotient) quotient_plan(sys_, plan, ranks);  // one transfer per orbit under the symmetry
  p->plan = std::move(plan);
  p->ranks = std::move(ranks);
  const auto& xs = p->plan.transfers;
  const size_t n = xs.size();
  if (n > UINT32_MAX) throw std::length_error("collective plan: more than 2^32 transfers");
  p->waiting.assign(n, 0);
  p->dep_start.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    p->waiting[i] = static_cast<int32_t>(xs[i].deps.size());
    for (int32_t d : xs[i].deps) ++p->dep_start[static_cast<size_t>(d) + 1];
  }
  for (size_t i = 0; i < n; ++i) p->dep_start[i + 1] += p->dep_start[i];
  if (p->dep_start[n] < p->dep_start[n > 0 ? n - 1 : 0])
    throw std::length_error("collective plan: more than 2^32 dependencies");
  p->dependents.resize(p->dep_start[n]);
  {
    std::vector<uint32_t> fill(p->dep_start.begin(), p->dep_start.end() - 1);
    for (size_t i = 0; i < n; ++i)
      for (int32_t d : xs[i].deps) p->dependents[fill[static_cast<size_t>(d)]++] = static_cast<int32_t>(i);
  }
  const auto& chip = sys_.spec().chip;
  p->hops.resize(n);
  // Per (source, destination) pair of plan ranks, its hop, worked out for the pair's first
  // transfer (a plan has millions of transfers over a few thousand pairs).
  models::PairIds pairs(1024);
  std::vector<PreparedPlan::Hop> pair_hop;
  for (size_t i = 0; i < n; ++i) {
    const models::Transfer& x = xs[i];
    if (x.barrier) continue;
    const int32_t k = pairs.insert(models::PairIds::key(x.src, x.dst));
    if (static_cast<size_t>(k) == pair_hop.size()) {
      const int src = p->ranks[static_cast<size_t>(x.src)], dst = p->ranks[static_cast<size_t>(x.dst)];
      const RankPlacement ps = sys_.placement(src), pd = sys_.placement(dst);
      PreparedPlan::Hop h;
      // Under the local symmetry a kept transfer may start outside its orbit's representative
      // rank; it issues on, and loads the DMA engines of, that representative (which in the
      // full system issues the transfer's image at the same moment).
      h.src = sys_.rep_rank(src);
      h.route = route(ps.chip, pd.chip);
      h.issue = chip.dma.fixed_latency.v + chip.dma.descriptor_latency.v + 2.0 * routes_[h.route].latency;
      pair_hop.push_back(h);
    }
    p->hops[i] = pair_hop[static_cast<size_t>(k)];
  }
  for (const PreparedPlan::Hop& h : pair_hop) {
    p->footprint.push_back(-static_cast<int64_t>(h.src) - 1);
    for (const ResourceUse& u : routes_[h.route].links) p->footprint.push_back(u.resource);
  }
  std::sort(p->footprint.begin(), p->footprint.end());
  p->footprint.erase(std::unique(p->footprint.begin(), p->footprint.end()), p->footprint.end());
  return p;
}

int32_t CollectiveEngine::footprint_resource(int64_t k) const {
  return k >= 0 ? static_cast<int32_t>(k) : sys_.registered_collective_dma(static_cast<int>(-k - 1));
}

bool CollectiveEngine::footprint_active(const PreparedPlan& p) const {
  for (int64_t k : p.footprint) {
    const int32_t r = footprint_resource(k);
    if (r >= 0 && sys_.net().active_flows(r) > 0) return true;
  }
  // A replay under way loads its resources without flows.
  for (const auto& o : runs_)
    if (o->replaying && o->left > 0 && meet(o->prep->footprint, p.footprint)) return true;
  return false;
}

void CollectiveEngine::run(models::CollectivePlan plan, std::vector<int> ranks, double start_delay_s,
                           std::function<void(const CollectiveResult&)> done) {
  run(prepare(std::move(plan), std::move(ranks)), start_delay_s, std::move(done));
}

void CollectiveEngine::run(std::shared_ptr<const PreparedPlan> plan, double start_delay_s,
                           std::function<void(const CollectiveResult&)> done) {
  auto r = std::make_unique<Run>();
  r->engine = this;
  r->waiting = plan->waiting;
  r->left = plan->plan.transfers.size();
  r->prep = std::move(plan);
  r->done = std::move(done);
  Run* raw = r.get();
  runs_.push_back(std::move(r));
  sys_.events().at(start_delay_s, [this, raw] {
    raw->result.start_s = sim::now_s();
    double launch_s = sys_.spec().chip.collectives.launch_overhead.v;
    sys_.events().at(launch_s, [this, raw] { launch(*raw); });
  });
}

void CollectiveEngine::launch(Run& r) {
  r.launched = true;
  r.launch_s = sim::now_s();
  if (r.left == 0) {
    finish_run(r);
    return;
  }
  if (replay_ && !meets_others(r) && may_replay(r)) {
    auto it = records_.find(r.prep.get());
    if (it != records_.end()) {
      replay(r, it->second);
      return;
    }
    begin_record(r);
  }
  for (size_t i = 0; i < r.prep->plan.transfers.size(); ++i)
    if (r.waiting[i] == 0) ready(r, i);
}

uint32_t CollectiveEngine::route(int src_chip, int dst_chip) {
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(src_chip)) << 32) | static_cast<uint32_t>(dst_chip);
  auto it = route_index_.find(key);
  if (it != route_index_.end()) return it->second;
  const auto& topo = sys_.topology();
  Route rt;
  // Under the instance symmetry transfers start in a representative instance; the links of
  // other instances on the route fold onto their images there, and under the local symmetry
  // onto their orbit's representative, loaded once per element that fixes the link
  // (System::rep_link, System::link_weight).
  for (int32_t l : topo.route(src_chip, dst_chip))
    rt.links.push_back({sys_.link_resource(sys_.rep_link(l)), sys_.link_weight(l)});
  rt.latency = topo.route_latency(src_chip, dst_chip);
  routes_.push_back(std::move(rt));
  const uint32_t i = static_cast<uint32_t>(routes_.size() - 1);
  route_index_.emplace(key, i);
  return i;
}

void CollectiveEngine::ready(Run& r, size_t t) {
  const PreparedPlan& p = *r.prep;
  if (p.plan.transfers[t].barrier) {
    finish_transfer(r, t);
    return;
  }
  const PreparedPlan::Hop& h = p.hops[t];
  const double now = sim::now_s();
  double& free_at = issue_free_[static_cast<size_t>(h.src)];
  free_at = std::max(free_at, now) + h.issue;
  if (r.recording) {
    r.ready[t] = now - r.launch_s;
    r.issued[t] = free_at - r.launch_s;
  }
  const models::Transfer& x = p.plan.transfers[t];
  start_flow(r, t, free_at - now, x.bytes * static_cast<double>(x.repeat), flow_latency(r, t));
}

// The flow waits for its issue, then its route's latency. A chain of `repeat` steps
// (Transfer::repeat): one flow of all their bytes, after the latency of every step and the issues
// of all but the first.
double CollectiveEngine::flow_latency(const Run& r, size_t t) const {
  const double n = static_cast<double>(r.prep->plan.transfers[t].repeat);
  return routes_[r.prep->hops[t].route].latency * n + r.prep->hops[t].issue * (n - 1);
}

// The resources of transfer t's flow: its source rank's collective DMA engines (weighted by
// 1/reduce_rate for a reduction), then the links of its route.
void CollectiveEngine::flow_uses(const Run& r, size_t t, std::vector<ResourceUse>& out) {
  const models::Transfer& x = r.prep->plan.transfers[t];
  const auto& chip = sys_.spec().chip;
  out.clear();
  const double dma = (x.reduce ? 1.0 / chip.collectives.reduce_rate : 1.0) / r.prep->plan.dma_share;
  out.push_back(
      {sys_.collective_dma_resource(r.prep->hops[t].src), dma});  // registered now (ids follow readiness order)
  const Route& rt = routes_[r.prep->hops[t].route];
  out.insert(out.end(), rt.links.begin(), rt.links.end());
}

// The flow waits `wait` (until the source rank's CC-core is free and has issued it), then
// `latency`, then moves `bytes`.
void CollectiveEngine::start_flow(Run& r, size_t t, double wait, double bytes, double latency) {
  flow_uses(r, t, uses_);
  Run* rp = &r;
  sys_.net().start_on(
      uses_, bytes, latency, [rp, t] { rp->engine->finish_transfer(*rp, t); }, wait);
}

void CollectiveEngine::finish_transfer(Run& r, size_t t) {
  const PreparedPlan& p = *r.prep;
  const auto& x = p.plan.transfers[t];
  if (r.recording) {
    r.over[t] = sim::now_s() - r.launch_s;
    if (x.barrier) r.ready[t] = r.over[t];
  }
  if (!x.barrier) {
    r.result.transfers += x.repeat;
    r.result.bytes += x.bytes * x.repeat;
  }
  for (uint32_t k = p.dep_start[t]; k < p.dep_start[t + 1]; ++k) {
    const size_t d = static_cast<size_t>(p.dependents[k]);
    if (--r.waiting[d] == 0) ready(r, d);
  }
  if (--r.left == 0) finish_run(r);
}

void CollectiveEngine::finish_run(Run& r) {
  r.result.end_s = sim::now_s();
  if (r.recording && !r.disturbed) end_record(r);
  if (r.done) r.done(r.result);
  release(&r);
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
