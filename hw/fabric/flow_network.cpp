// FlowNetwork implementation.
#include "hw/fabric/flow_network.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "sim/kernel/event_queue.h"

namespace trn::hw {
namespace {
constexpr double kUnboundedRate = 1e18;  // a flow that crosses no resource (MaxMinSolver default)
}  // namespace

using sim::now_s;
using sim::to_sc;

FlowNetwork::FlowNetwork(sc_core::sc_module_name name) : sc_core::sc_module(name) {
  SC_METHOD(wake);
  sensitive << wake_;
  dont_initialize();
}

int32_t FlowNetwork::add_resource(const std::string& name, double capacity) {
  capacity_.push_back(capacity);
  carried_.push_back(0);
  busy_.push_back(0);
  busy_since_.push_back(0);
  active_count_.push_back(0);
  res_flows_.emplace_back();
  res_classes_.emplace_back();
  res_seen_.push_back(0);
  names_.push_back(name);
  return static_cast<int32_t>(capacity_.size()) - 1;
}

double FlowNetwork::load(int32_t r) const {
  double l = 0;
  for (const ResEntry& e : res_flows_[static_cast<size_t>(r)])
    l += slots_[e.slot].rate * slots_[e.slot].uses[e.use].weight;
  return l;
}

std::vector<double> FlowNetwork::loads_full_scan() const {
  std::vector<double> load(capacity_.size(), 0.0);
  for (uint32_t s = active_head_; s != kNil; s = slots_[s].next)
    for (const auto& u : slots_[s].uses) load[static_cast<size_t>(u.resource)] += slots_[s].rate * u.weight;
  return load;
}

double FlowNetwork::in_flight_bytes(int32_t r, double now) const {
  double partial = 0;
  for (const ResEntry& e : res_flows_[static_cast<size_t>(r)]) {
    const Flow& f = slots_[e.slot];
    partial += f.bytes - std::max(0.0, f.remaining - f.rate * std::max(0.0, now - f.t_upd));
  }
  return partial;
}

size_t FlowNetwork::alloc() {
  // A freed slot keeps its vectors' capacity, so a warm network allocates nothing per flow.
  if (!free_slots_.empty()) {
    size_t s = free_slots_.back();
    free_slots_.pop_back();
    return s;
  }
  slots_.emplace_back();
  return slots_.size() - 1;
}

void FlowNetwork::start(std::vector<ResourceUse> uses, double bytes, double latency_s, std::function<void()> done) {
  size_t slot = alloc();
  slots_[slot].uses = std::move(uses);
  enqueue(slot, bytes, latency_s, std::move(done));
}

void FlowNetwork::start_on(const std::vector<ResourceUse>& uses, double bytes, double latency_s,
                           std::function<void()> done, double issue_wait) {
  size_t slot = alloc();
  slots_[slot].uses.assign(uses.begin(), uses.end());
  enqueue(slot, bytes, latency_s, std::move(done), issue_wait);
}

size_t FlowNetwork::UsesHash::operator()(const std::vector<ResourceUse>& u) const {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ u.size();
  for (const ResourceUse& x : u) {
    uint64_t w = 0;
    std::memcpy(&w, &x.weight, sizeof w);
    h = (h ^ static_cast<uint32_t>(x.resource)) * 0xff51afd7ed558ccdULL;
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
  }
  return static_cast<size_t>(h);
}

bool FlowNetwork::UsesEqual::operator()(const std::vector<ResourceUse>& a, const std::vector<ResourceUse>& b) const {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].resource != b[i].resource || a[i].weight != b[i].weight) return false;
  return true;
}

uint32_t FlowNetwork::flow_class(const std::vector<ResourceUse>& uses) {
  // One lookup; the list is copied once, as the index's key, when the class is new.
  const auto [it, added] = class_index_.try_emplace(uses, static_cast<uint32_t>(classes_all_.size()));
  if (added) {
    classes_all_.emplace_back();
    classes_all_.back().uses = &it->first;
    classes_all_.back().res_pos.resize(uses.size());
  }
  return it->second;
}

void FlowNetwork::class_activate(uint32_t slot) {
  Flow& f = slots_[slot];
  FlowClass& k = classes_all_[f.cls];
  f.cpos = static_cast<uint32_t>(k.flows.size());
  k.flows.push_back(slot);
  k.fresh = true;
  if (k.flows.size() > 1) return;
  for (size_t u = 0; u < k.uses->size(); ++u) {
    auto& list = res_classes_[static_cast<size_t>((*k.uses)[u].resource)];
    k.res_pos[u] = static_cast<uint32_t>(list.size());
    list.push_back(ClassEntry{f.cls, static_cast<uint32_t>(u)});
  }
}

void FlowNetwork::class_retire(uint32_t slot) {
  const Flow& f = slots_[slot];
  FlowClass& k = classes_all_[f.cls];
  const uint32_t moved = k.flows.back();
  k.flows[f.cpos] = moved;
  slots_[moved].cpos = f.cpos;
  k.flows.pop_back();
  if (!k.flows.empty()) return;
  for (size_t u = 0; u < k.uses->size(); ++u) {
    auto& list = res_classes_[static_cast<size_t>((*k.uses)[u].resource)];
    const uint32_t p = k.res_pos[u];
    list[p] = list.back();
    classes_all_[list[p].cls].res_pos[list[p].use] = p;
    list.pop_back();
  }
}

void FlowNetwork::enqueue(size_t slot, double bytes, double latency_s, std::function<void()> done, double issue_wait) {
  const double now = now_s();
  last_ = now;
  Flow& f = slots_[slot];
  f.cls = flow_class(f.uses);
  f.pos.resize(f.uses.size());
  f.bytes = f.remaining = std::max(0.0, bytes);
  f.rate = 0;
  f.t_upd = now;
  f.act_seq = 0;
  f.fresh = false;
  f.done = std::move(done);
  // Issued at `at`, due after its latency; among flows due at the same time, the earlier issued
  // starts first.
  const double at = now + std::max(0.0, issue_wait);
  const double due = at + std::max(0.0, latency_s);
  pending_.push(Pending{due, at, seq_++, slot});
  dirty_ = true;
  // Woken when the flow is due (an earlier pending notification of wake_ stays, a later one is
  // replaced): a flow that waits for its issue costs no wake before it starts.
  wake_.notify(due > now ? to_sc(due - now) : sc_core::SC_ZERO_TIME);
}

void FlowNetwork::push_entries(size_t slot, double res) {
  const Flow& f = slots_[slot];
  const uint32_t s = static_cast<uint32_t>(slot);
  if (f.rate > 0)
    finish_.set(s, f.t_upd + f.remaining / f.rate);
  else
    finish_.erase(s);
  // Earliest time at which wake() finds the flow done: remaining <= tol, or less than one
  // time step of transfer left (wake() checks the exact criterion). For most flows the
  // second comes first (tol <= res x rate), i.e. from finish - res on; wake() finds those
  // through finish_. Only the others are kept in done_at_, keyed by when remaining <= tol.
  const double tol = 1e-9 * std::max(1.0, f.bytes);
  if (f.remaining <= tol)
    done_at_.set(s, f.t_upd);
  else if (f.rate > 0 && tol > res * f.rate)
    done_at_.set(s, f.t_upd + (f.remaining - tol) / f.rate);
  else
    done_at_.erase(s);  // found through finish_, or stalled (rate 0) until its rate rises
}

void FlowNetwork::recompute(double now) {
  // Collect the classes connected to a dirty resource (breadth-first over shared resources).
  ++epoch_;
  if (class_seen_.size() < classes_all_.size()) {
    class_seen_.resize(classes_all_.size(), 0);
    class_local_.resize(classes_all_.size(), 0);
  }
  classes_.clear();
  frontier_.clear();
  for (int32_t r : dirty_res_)
    if (res_seen_[static_cast<size_t>(r)] != epoch_) {
      res_seen_[static_cast<size_t>(r)] = epoch_;
      frontier_.push_back(r);
    }
  dirty_res_.clear();
  for (size_t i = 0; i < frontier_.size(); ++i)
    for (const ClassEntry& e : res_classes_[static_cast<size_t>(frontier_[i])]) {
      if (class_seen_[e.cls] == epoch_) continue;
      class_seen_[e.cls] = epoch_;
      classes_.push_back(e.cls);
      for (const auto& u : *classes_all_[e.cls].uses)
        if (res_seen_[static_cast<size_t>(u.resource)] != epoch_) {
          res_seen_[static_cast<size_t>(u.resource)] = epoch_;
          frontier_.push_back(u.resource);
        }
    }
  // One solver entry per class, in class order (independent of the visit order), with its
  // multiplicity.
  std::sort(classes_.begin(), classes_.end());
  solver_in_.clear();
  class_mult_.clear();
  for (uint32_t c : classes_) {
    class_local_[c] = static_cast<uint32_t>(solver_in_.size());
    solver_in_.push_back(classes_all_[c].uses);
    class_mult_.push_back(static_cast<uint32_t>(classes_all_[c].flows.size()));
  }
  solver_.solve(capacity_, solver_in_, class_mult_, rates_);
  const double res = sc_core::sc_get_time_resolution().to_seconds();
  for (size_t i = 0; i < classes_.size(); ++i) {
    FlowClass& k = classes_all_[classes_[i]];
    const double rate = rates_[i];
    if (rate == k.rate && !k.fresh) continue;  // unchanged: its flows' heap entries stay right
    k.rate = rate;
    k.fresh = false;
    for (uint32_t slot : k.flows) {
      Flow& f = slots_[slot];
      if (rate == f.rate && !f.fresh) continue;
      // Bring remaining up to `now` at the old rate, then continue at the new one.
      f.remaining -= f.rate * (now - f.t_upd);
      f.t_upd = now;
      f.rate = rate;
      f.fresh = false;
      push_entries(slot, res);
    }
  }
  dirty_ = false;
}

void FlowNetwork::schedule(double now) {
  double next = std::numeric_limits<double>::infinity();
  if (!pending_.empty()) next = pending_.top().time;
  if (!finish_.empty()) next = std::min(next, finish_.top().key);
  if (next < std::numeric_limits<double>::infinity())
    wake_.notify(next > now ? to_sc(next - now) : sc_core::SC_ZERO_TIME);
}

void FlowNetwork::wake() {
  ++events_;
  const double now = now_s();
  last_ = now;
  const double res = sc_core::sc_get_time_resolution().to_seconds();
  finish_flows(now, res);
  start_pending(now, res);
  for (FabricObserver* o : observers_) o->settled(now);
  if (dirty_) {
    recompute(now);
    for (FabricObserver* o : observers_) o->rates_changed(now, frontier_);
  }
  schedule(now);
  // Callbacks may start flows (not re-enter wake), so the member list is safe to walk.
  for (size_t i = 0; i < callbacks_.size(); ++i)
    if (callbacks_[i]) callbacks_[i]();
  callbacks_.clear();
  progress_.tick();
}

void FlowNetwork::finish_flows(double now, double res) {
  // Finish flows whose remaining bytes take less than one time step (or are within 1e-9 of
  // their size). Candidates come from finish_ and done_at_ (with a margin for rounding);
  // the criterion itself is checked exactly.
  finished_.clear();
  auto check = [&](const SlotHeap::Node& n) {
    const Flow& f = slots_[n.slot];
    const double rem = f.remaining - f.rate * (now - f.t_upd);
    if (rem <= 1e-9 * std::max(1.0, f.bytes) || (f.rate > 0 && rem / f.rate < res))
      finished_.emplace_back(f.act_seq, n.slot);
  };
  finish_.for_each_at_most(now + 3.0 * res, check);  // done from finish - res on
  done_at_.for_each_at_most(now + 2.0 * res, check);
  // In activation order, as callbacks, slot reuse and resource lists depend on it (a flow
  // in both heaps is found twice).
  std::sort(finished_.begin(), finished_.end());
  finished_.erase(std::unique(finished_.begin(), finished_.end()), finished_.end());
  for (const auto& fin : finished_) retire(fin.second, now);
}

void FlowNetwork::retire(uint32_t slot, double now) {
  Flow& f = slots_[slot];
  finish_.erase(slot);
  done_at_.erase(slot);
  class_retire(slot);
  for (size_t k = 0; k < f.uses.size(); ++k) {
    const size_t r = static_cast<size_t>(f.uses[k].resource);
    carried_[r] += f.bytes;
    if (--active_count_[r] == 0) busy_[r] += now - busy_since_[r];
    for (FabricObserver* o : observers_) o->flow_finished(f.uses[k].resource, now, active_count_[r]);
    auto& list = res_flows_[r];
    const uint32_t p = f.pos[k];
    list[p] = list.back();
    slots_[list[p].slot].pos[list[p].use] = p;
    list.pop_back();
    dirty_res_.push_back(f.uses[k].resource);
  }
  callbacks_.push_back(std::move(f.done));
  f.done = nullptr;
  // Unlink from the active list.
  if (f.prev != kNil)
    slots_[f.prev].next = f.next;
  else
    active_head_ = f.next;
  if (f.next != kNil)
    slots_[f.next].prev = f.prev;
  else
    active_tail_ = f.prev;
  f.prev = f.next = kNil;
  f.act_seq = 0;
  --n_active_;
  free_slots_.push_back(slot);
  dirty_ = true;
  ++completed_;
}

void FlowNetwork::start_pending(double now, double res) {
  while (!pending_.empty() && pending_.top().time <= now + res * 0.5) {
    const size_t slot = pending_.top().slot;
    pending_.pop();
    Flow& f = slots_[slot];
    f.act_seq = ++act_seq_;
    f.prev = active_tail_;
    f.next = kNil;
    if (active_tail_ != kNil)
      slots_[active_tail_].next = static_cast<uint32_t>(slot);
    else
      active_head_ = static_cast<uint32_t>(slot);
    active_tail_ = static_cast<uint32_t>(slot);
    ++n_active_;
    f.t_upd = now;
    if (f.uses.empty()) {
      f.rate = kUnboundedRate;  // crosses nothing: never in a re-solved component
      push_entries(slot, res);
    } else {
      f.fresh = true;  // rate and heap entries come from recompute()
    }
    class_activate(static_cast<uint32_t>(slot));
    for (size_t k = 0; k < f.uses.size(); ++k) {
      const int32_t ri = f.uses[k].resource;
      const size_t r = static_cast<size_t>(ri);
      if (++active_count_[r] == 1) busy_since_[r] = now;
      for (FabricObserver* o : observers_) o->flow_started(ri, now, active_count_[r]);
      auto& list = res_flows_[r];
      f.pos[k] = static_cast<uint32_t>(list.size());
      list.push_back(ResEntry{static_cast<uint32_t>(slot), static_cast<uint32_t>(k)});
      dirty_res_.push_back(ri);
    }
    dirty_ = true;
  }
}

void FlowNetwork::add_stats(sim::StatGroup& g) const {
  g.add("events", "events", "flow starts and ends and rate re-solves of the shared-bandwidth network",
        [this] { return static_cast<double>(events_); });
  g.add("flows", "flows", "flows completed (transfers over links, switch ports, NICs, DMA engines, HBM)",
        [this] { return static_cast<double>(completed_); });
  g.add("resources", "resources", "resources with a bandwidth (links, ports, NICs, DMA engines, HBM stacks)",
        [this] { return static_cast<double>(capacity_.size()); });
  auto per_resource = [this](double (FlowNetwork::*f)(int32_t) const) {
    return [this, f] {
      sim::StatGroup::Entries out;
      for (size_t r = 0; r < capacity_.size(); ++r) out.emplace_back(names_[r], (this->*f)(static_cast<int32_t>(r)));
      return out;
    };
  };
  g.add_vector("carried", "B", "bytes that crossed the resource (each flow once per resource it uses)",
               per_resource(&FlowNetwork::carried));
  g.add_vector("busy", "s", "time with at least one flow active on the resource",
               per_resource(&FlowNetwork::busy_time));
}

}  // namespace trn::hw
