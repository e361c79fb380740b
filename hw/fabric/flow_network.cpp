// FlowNetwork implementation.
#include "hw/fabric/flow_network.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
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
  active_count_.push_back(0);
  res_flows_.emplace_back();
  res_seen_.push_back(0);
  names_.push_back(name);
  return static_cast<int32_t>(capacity_.size()) - 1;
}

double FlowNetwork::load(int32_t r) const {
  double l = 0;
  for (size_t s : active_)
    for (const auto& u : slots_[s].uses)
      if (u.resource == r) l += slots_[s].rate * u.weight;
  return l;
}

size_t FlowNetwork::alloc(Flow f) {
  if (!free_slots_.empty()) {
    size_t s = free_slots_.back();
    free_slots_.pop_back();
    slots_[s] = std::move(f);
    return s;
  }
  slots_.push_back(std::move(f));
  return slots_.size() - 1;
}

void FlowNetwork::start(std::vector<ResourceUse> uses, double bytes, double latency_s,
                        std::function<void()> done) {
  const double now = now_s();
  advance(now);
  Flow f;
  f.uses = std::move(uses);
  f.bytes = f.remaining = std::max(0.0, bytes);
  f.done = std::move(done);
  size_t slot = alloc(std::move(f));
  pending_.push(Pending{now + std::max(0.0, latency_s), seq_++, slot});
  dirty_ = true;
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void FlowNetwork::advance(double now) {
  double dt = now - last_;
  if (dt > 0) {
    for (size_t s : active_) slots_[s].remaining -= slots_[s].rate * dt;
    for (size_t r = 0; r < active_count_.size(); ++r)
      if (active_count_[r] > 0) busy_[r] += dt;
  }
  last_ = now;
}

void FlowNetwork::recompute() {
  // Collect the flows connected to a dirty resource (breadth-first over shared resources).
  ++epoch_;
  if (slot_seen_.size() < slots_.size()) slot_seen_.resize(slots_.size(), 0);
  component_.clear();
  frontier_.clear();
  for (int32_t r : dirty_res_)
    if (res_seen_[static_cast<size_t>(r)] != epoch_) {
      res_seen_[static_cast<size_t>(r)] = epoch_;
      frontier_.push_back(r);
    }
  dirty_res_.clear();
  for (size_t i = 0; i < frontier_.size(); ++i)
    for (size_t slot : res_flows_[static_cast<size_t>(frontier_[i])]) {
      if (slot_seen_[slot] == epoch_) continue;
      slot_seen_[slot] = epoch_;
      component_.push_back(slot);
      for (const auto& u : slots_[slot].uses)
        if (res_seen_[static_cast<size_t>(u.resource)] != epoch_) {
          res_seen_[static_cast<size_t>(u.resource)] = epoch_;
          frontier_.push_back(u.resource);
        }
    }
  std::sort(component_.begin(), component_.end());  // slot order: independent of the visit order
  solver_in_.clear();
  for (size_t s : component_) solver_in_.push_back(&slots_[s].uses);
  solver_.solve(capacity_, solver_in_, rates_);
  for (size_t i = 0; i < component_.size(); ++i) slots_[component_[i]].rate = rates_[i];
  dirty_ = false;
}

void FlowNetwork::trace_counters(double now) {
  if (!trace_->wants("counters")) return;
  std::vector<double> load(capacity_.size(), 0.0);
  for (size_t s : active_)
    for (const auto& u : slots_[s].uses) load[static_cast<size_t>(u.resource)] += slots_[s].rate * u.weight;
  traced_util_.resize(capacity_.size(), 0.0);
  traced_at_.resize(capacity_.size(), -1.0);
  for (size_t r = 0; r < capacity_.size(); ++r) {
    double util = capacity_[r] > 0 ? load[r] / capacity_[r] : 0.0;
    // Sample on changes of more than 5% of capacity, at most every 100 us per resource
    // (a drop to idle is always recorded), to keep traces of long steps small.
    if (std::fabs(util - traced_util_[r]) <= 0.05) continue;
    if (util > 0 && now - traced_at_[r] < 100e-6) continue;
    traced_util_[r] = util;
    traced_at_[r] = now;
    trace_->counter(trace_pid_, names_[r] + " utilisation", "counters", now, util);
  }
}

void FlowNetwork::trace_busy_spans(int32_t r) {
  const size_t n = capacity_.size();
  span_on_.resize(n, 0);
  span_named_.resize(n, 0);
  span_start_.resize(n, 0.0);
  span_bytes0_.resize(n, 0.0);
  span_flows_.resize(n, 0);
  span_on_[static_cast<size_t>(r)] = 1;
}

void FlowNetwork::span_end(size_t r, double end, double extra_bytes) {
  if (!trace_->wants("links")) return;
  const int tid = kSpanTidBase + static_cast<int>(r);
  if (!span_named_[r]) {
    span_named_[r] = 1;
    trace_->thread_name(trace_pid_, tid, names_[r]);
  }
  char args[96];
  std::snprintf(args, sizeof args, "{\"flows\":%d,\"bytes\":%.17g}", span_flows_[r],
                carried_[r] - span_bytes0_[r] + extra_bytes);
  trace_->span(trace_pid_, tid, "busy", "links", span_start_[r], end, args);
}

void FlowNetwork::flush_trace(double now) {
  if (!trace_) return;
  for (size_t r = 0; r < span_on_.size(); ++r) {
    if (!span_on_[r] || active_count_[r] == 0) continue;
    double partial = 0;  // bytes of the still-active flows that have crossed r by `now`
    for (size_t slot : res_flows_[r]) {
      const Flow& f = slots_[slot];
      partial += f.bytes - std::max(0.0, f.remaining - f.rate * std::max(0.0, now - last_));
    }
    span_end(r, now, partial);
    span_start_[r] = now;
    span_bytes0_[r] = carried_[r] + partial;
    span_flows_[r] = active_count_[r];
  }
}

void FlowNetwork::schedule(double now) {
  double next = std::numeric_limits<double>::infinity();
  if (!pending_.empty()) next = pending_.top().time;
  for (size_t s : active_) {
    const Flow& f = slots_[s];
    if (f.rate > 0) next = std::min(next, now + f.remaining / f.rate);
  }
  if (next < std::numeric_limits<double>::infinity())
    wake_.notify(next > now ? to_sc(next - now) : sc_core::SC_ZERO_TIME);
}

void FlowNetwork::wake() {
  ++events_;
  const double now = now_s();
  advance(now);
  const double res = sc_core::sc_get_time_resolution().to_seconds();
  // Finish flows whose remaining bytes take less than one time step.
  std::vector<std::function<void()>> callbacks;
  for (size_t i = 0; i < active_.size();) {
    Flow& f = slots_[active_[i]];
    bool done = f.remaining <= 1e-9 * std::max(1.0, f.bytes) || (f.rate > 0 && f.remaining / f.rate < res);
    if (!done) {
      ++i;
      continue;
    }
    for (const auto& u : f.uses) {
      const size_t r = static_cast<size_t>(u.resource);
      carried_[r] += f.bytes;
      if (--active_count_[r] == 0 && r < span_on_.size() && span_on_[r]) span_closing_.push_back(u.resource);
      auto& list = res_flows_[r];
      auto it = std::find(list.begin(), list.end(), active_[i]);
      if (it != list.end()) {
        *it = list.back();
        list.pop_back();
      }
      dirty_res_.push_back(u.resource);
    }
    callbacks.push_back(std::move(f.done));
    f = Flow{};
    free_slots_.push_back(active_[i]);
    active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(i));
    dirty_ = true;
    ++completed_;
  }
  while (!pending_.empty() && pending_.top().time <= now + res * 0.5) {
    size_t slot = pending_.top().slot;
    pending_.pop();
    active_.push_back(slot);
    if (slots_[slot].uses.empty()) slots_[slot].rate = kUnboundedRate;
    for (const auto& u : slots_[slot].uses) {
      const size_t r = static_cast<size_t>(u.resource);
      ++active_count_[r];
      if (r < span_on_.size() && span_on_[r]) {
        // A new span, unless the resource went idle at this very instant (then it continues).
        if (active_count_[r] == 1 &&
            std::find(span_closing_.begin(), span_closing_.end(), u.resource) == span_closing_.end()) {
          span_start_[r] = now;
          span_bytes0_[r] = carried_[r];
          span_flows_[r] = 0;
        }
        span_flows_[r] = std::max(span_flows_[r], active_count_[r]);
      }
      res_flows_[static_cast<size_t>(u.resource)].push_back(slot);
      dirty_res_.push_back(u.resource);
    }
    dirty_ = true;
  }
  for (int32_t r : span_closing_)
    if (active_count_[static_cast<size_t>(r)] == 0) span_end(static_cast<size_t>(r), now, 0.0);
  span_closing_.clear();
  if (dirty_) {
    recompute();
    if (trace_) trace_counters(now);
  }
  schedule(now);
  for (auto& cb : callbacks)
    if (cb) cb();
}

}  // namespace trn::hw
