// CollectiveEngine implementation.
#include "hw/collectives/collective_engine.h"

#include <algorithm>
#include <stdexcept>

#include "hw/collectives/plan_quotient.h"
#include "models/collectives/plan_symmetry.h"

namespace trn::hw {

namespace {
// Whether two sorted footprints share an element.
bool meet(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == b[j]) return true;
    if (a[i] < b[j])
      ++i;
    else
      ++j;
  }
  return false;
}
}  // namespace

struct CollectiveEngine::Run {
  CollectiveEngine* engine = nullptr;  // so callbacks capture only (Run*, index)
  std::shared_ptr<const PreparedPlan> prep;
  std::vector<int32_t> waiting;
  size_t left = 0;
  CollectiveResult result;
  std::function<void(const CollectiveResult&)> done;
  // Replays (replay_isolated): launched and when; whether it is being recorded, has met another
  // run on a resource of its footprint, or is a replay; when recorded, its footprint's carried
  // bytes and busy time at its launch.
  bool launched = false, recording = false, disturbed = false, replaying = false;
  double launch_s = 0;
  uint64_t serial = 0;  // of its replay
  std::vector<double> carried0, busy0;
  std::vector<double> ready, issued, over;                 // per transfer, from launch (recording)
  std::shared_ptr<const CollectiveEngine::Record> record;  // replaying
  std::vector<std::pair<int, double>> issue_before;        // its ranks' CC-cores before the replay
};

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

bool CollectiveEngine::meets_others(Run& r) {
  bool met = false;
  std::vector<Run*> replays;  // materialized after the loop (it may run callbacks that add runs)
  for (const auto& o : runs_) {
    if (o.get() == &r || o->left == 0 || !meet(o->prep->footprint, r.prep->footprint)) continue;
    // A run not launched yet will launch on r's resources while r runs, or after its end.
    r.disturbed = met = true;
    if (!o->launched) continue;
    o->disturbed = true;
    if (o->replaying) replays.push_back(o.get());
  }
  for (Run* o : replays) materialize(*o);
  return met;
}

bool CollectiveEngine::may_replay(const Run& r) const {
  if (sys_.net().observed() || footprint_active(*r.prep)) return false;
  const double now = sim::now_s();
  for (int64_t k : r.prep->footprint)
    if (k < 0 && issue_free_[static_cast<size_t>(-k - 1)] > now) return false;
  return true;
}

void CollectiveEngine::begin_record(Run& r) {
  r.recording = true;
  const size_t n = r.prep->plan.transfers.size();
  r.ready.assign(n, 0.0);
  r.issued.assign(n, 0.0);
  r.over.assign(n, 0.0);
  const FlowNetwork& net = sys_.net();
  for (int64_t k : r.prep->footprint) {
    const int32_t id = footprint_resource(k);  // a DMA engine not registered yet has carried nothing
    r.carried0.push_back(id >= 0 ? net.carried(id) : 0.0);
    r.busy0.push_back(id >= 0 ? net.busy_time(id) : 0.0);
  }
}

void CollectiveEngine::end_record(Run& r) {
  const FlowNetwork& net = sys_.net();
  const PreparedPlan& p = *r.prep;
  auto made = std::make_shared<Record>();
  Record& rec = *made;
  rec.plan = r.prep;
  rec.duration = r.result.end_s - r.launch_s;
  rec.transfers = r.result.transfers;
  rec.bytes = r.result.bytes;
  for (const auto& x : p.plan.transfers) rec.flows += x.barrier ? 0 : 1;
  for (size_t i = 0; i < p.footprint.size(); ++i) {
    const int64_t k = p.footprint[i];
    const int32_t id = footprint_resource(k);
    if (id < 0) continue;
    rec.res.push_back(id);
    rec.carried.push_back(net.carried(id) - r.carried0[i]);
    rec.busy.push_back(net.busy_time(id) - r.busy0[i]);
    if (k < 0)
      rec.issue_at.emplace_back(static_cast<int>(-k - 1), issue_free_[static_cast<size_t>(-k - 1)] - r.launch_s);
  }
  rec.ready = std::move(r.ready);
  rec.issued = std::move(r.issued);
  rec.over = std::move(r.over);
  // Bounded like the runner's plan cache: the records keep their plans.
  if (records_transfers_ + p.plan.transfers.size() > kRecordTransfers) {
    records_.clear();
    records_transfers_ = 0;
  }
  records_transfers_ += p.plan.transfers.size();
  records_.emplace(r.prep.get(), std::move(made));
}

void CollectiveEngine::replay(Run& r, std::shared_ptr<const Record> rec) {
  r.replaying = true;
  r.serial = ++replayed_;
  const double now = sim::now_s();
  r.issue_before.clear();
  for (const auto& [rank, at] : rec->issue_at) {
    double& free_at = issue_free_[static_cast<size_t>(rank)];
    r.issue_before.emplace_back(rank, free_at);
    free_at = std::max(free_at, now + at);
  }
  // The record may be dropped (the bound above) before the replay ends: the replay shares it.
  r.record = rec;
  Run* rp = &r;
  const uint64_t serial = r.serial;
  const double duration = rec->duration;

  sys_.events().at(duration, [this, rp, serial, shared = std::move(rec)] {
    // Materialized meanwhile (and maybe over and freed): its flows end it.
    if (std::none_of(runs_.begin(), runs_.end(), [&](const std::unique_ptr<Run>& o) {
          return o.get() == rp && o->replaying && o->serial == serial;
        }))
      return;
    FlowNetwork& net = sys_.net();
    for (size_t i = 0; i < shared->res.size(); ++i) net.credit(shared->res[i], shared->carried[i], shared->busy[i]);
    net.credit_flows(shared->flows);
    rp->result.transfers = shared->transfers;
    rp->result.bytes = shared->bytes;
    rp->left = 0;
    finish_run(*rp);
  });
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

// The record's state `tau` after launch, as flows: transfers over by then are credited, those
// under way restart with the bytes the record's flows had left (moved_by), those issued or in
// their latency wait the rest of it, the others wait for their dependencies.
void CollectiveEngine::materialize(Run& r) {
  ++replay_overlaps_;
  const Record& rec = *r.record;
  const PreparedPlan& p = *r.prep;
  const auto& xs = p.plan.transfers;
  const size_t n = xs.size();
  const double tau = sim::now_s() - r.launch_s;
  r.replaying = false;
  r.waiting = p.waiting;
  r.left = n;
  // The CC-cores as the record had them at tau: from their state before the replay, the issues
  // of the transfers ready by then.
  for (const auto& [rank, at] : r.issue_before) issue_free_[static_cast<size_t>(rank)] = at;
  std::vector<double> moved(n, 0.0);  // bytes moved by tau, per transfer
  for (size_t i = 0; i < n; ++i) {
    if (rec.over[i] > tau) continue;
    --r.left;
    for (uint32_t k = p.dep_start[i]; k < p.dep_start[i + 1]; ++k) --r.waiting[static_cast<size_t>(p.dependents[k])];
    if (xs[i].barrier) continue;
    moved[i] = xs[i].bytes * static_cast<double>(xs[i].repeat);
    r.result.transfers += xs[i].repeat;
    r.result.bytes += moved[i];
  }
  for (size_t i = 0; i < n; ++i) {
    if (rec.over[i] <= tau || xs[i].barrier || rec.ready[i] > tau) continue;
    double& free_at = issue_free_[static_cast<size_t>(p.hops[i].src)];
    free_at = std::max(free_at, r.launch_s + rec.issued[i]);
  }
  const std::vector<double> done_by = moved_by(r, tau);
  std::vector<size_t> now_ready;
  for (size_t i = 0; i < n; ++i) {
    if (rec.over[i] <= tau) continue;
    if (xs[i].barrier || rec.ready[i] > tau) {
      if (r.waiting[i] == 0) now_ready.push_back(i);
      continue;
    }
    const double total = xs[i].bytes * static_cast<double>(xs[i].repeat);
    const double due = rec.issued[i] + flow_latency(r, i);
    if (due <= tau) {
      const double left = std::max(total - done_by[i], total * 1e-12);
      moved[i] = total - left;
      start_flow(r, i, 0.0, left, 0.0);
    } else {
      start_flow(r, i, std::max(0.0, rec.issued[i] - tau), total, due - std::max(rec.issued[i], tau));
    }
  }
  credit_until(r, tau, moved);
  for (size_t i : now_ready) ready(r, i);
}

// Credits to the network what a materialized replay's flows did up to `tau` after its launch:
// the bytes `moved` per transfer on each resource they cross, and each resource's busy time (the
// union of its flows' intervals from due to over, up to tau).
void CollectiveEngine::credit_until(const Run& r, double tau, const std::vector<double>& moved) {
  const Record& rec = *r.record;
  const PreparedPlan& p = *r.prep;
  std::unordered_map<int32_t, std::pair<double, std::vector<std::pair<double, double>>>> per;
  for (size_t i = 0; i < moved.size(); ++i) {
    if (p.plan.transfers[i].barrier || rec.ready[i] > tau) continue;
    const double from = rec.issued[i] + flow_latency(r, i), to = std::min(rec.over[i], tau);
    flow_uses(r, i, uses_);
    for (const ResourceUse& u : uses_) {
      auto& e = per[u.resource];
      e.first += moved[i];
      if (to > from) e.second.emplace_back(from, to);
    }
  }
  FlowNetwork& net = sys_.net();
  for (auto& [res, e] : per) {
    auto& iv = e.second;
    std::sort(iv.begin(), iv.end());
    double busy = 0, a = 0, b = -1;
    for (const auto& [x, y] : iv) {
      if (x > b) {
        busy += std::max(0.0, b - a);
        a = x;
        b = y;
      } else {
        b = std::max(b, y);
      }
    }
    busy += std::max(0.0, b - a);
    net.credit(res, e.first, busy);
  }
}

// The bytes each transfer of a replay had moved `tau` after its launch: the record's flows, each
// active from its due time to its end, re-solved by max-min over every interval between two of
// those instants up to tau (the allocation the fabric made: the recorded run was alone on its
// resources).
std::vector<double> CollectiveEngine::moved_by(const Run& r, double tau) {
  const Record& rec = *r.record;
  const auto& xs = r.prep->plan.transfers;
  const size_t n = xs.size();
  std::vector<double> moved(n, 0.0);
  std::vector<std::vector<ResourceUse>> uses(n);
  struct Edge {
    double t;
    size_t i;
    bool start;
  };
  std::vector<Edge> edges;
  for (size_t i = 0; i < n; ++i) {
    if (xs[i].barrier || rec.ready[i] > tau) continue;
    const double due = rec.issued[i] + flow_latency(r, i);
    if (due >= tau) continue;
    flow_uses(r, i, uses[i]);
    edges.push_back({due, i, true});
    if (rec.over[i] < tau) edges.push_back({rec.over[i], i, false});
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    return a.t != b.t ? a.t < b.t : (a.start != b.start ? !a.start : a.i < b.i);
  });
  const FlowNetwork& net = sys_.net();
  for (size_t k = capacity_.size(); k < net.resources(); ++k)  // resources are added, never changed
    capacity_.push_back(net.capacity(static_cast<int32_t>(k)));
  std::vector<size_t> active;
  std::vector<size_t> pos(n, 0);
  std::vector<const std::vector<ResourceUse>*> flows;
  std::vector<double> rates;
  for (size_t k = 0; k < edges.size();) {
    const double t = edges[k].t;
    for (; k < edges.size() && edges[k].t == t; ++k) {
      const size_t i = edges[k].i;
      if (edges[k].start) {
        pos[i] = active.size();
        active.push_back(i);
      } else {
        active[pos[i]] = active.back();
        pos[active[pos[i]]] = pos[i];
        active.pop_back();
      }
    }
    const double next = k < edges.size() ? std::min(edges[k].t, tau) : tau;
    if (next <= t || active.empty()) continue;
    flows.clear();
    for (size_t i : active) flows.push_back(&uses[i]);
    solver_.solve(capacity_, flows, rates);
    for (size_t a = 0; a < active.size(); ++a) moved[active[a]] += rates[a] * (next - t);
  }
  return moved;
}

}  // namespace trn::hw
