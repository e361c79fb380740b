// CollectiveEngine's replays of collectives that run alone (CollectiveEngine::replay_isolated;
// docs/workloads.md 1.6.6, docs/adr/0007): recording a run, replaying it, and turning a replay
// back into flows when a later run meets it.
#include <algorithm>
#include <unordered_map>

#include "hw/collectives/collective_engine.h"
#include "hw/collectives/collective_run.h"
#include "sim/kernel/event_queue.h"

namespace trn::hw {

using detail::meet;

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
