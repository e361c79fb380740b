// EventQueue implementation.
#include "sim/kernel/event_queue.h"

#include <algorithm>

namespace trn::sim {

EventQueue::EventQueue(sc_core::sc_module_name name) : sc_core::sc_module(name) {
  SC_METHOD(wake);
  sensitive << ev_;
  dont_initialize();
}

void EventQueue::at(double delay_s, std::function<void()> fn) {
  const double now = now_s();
  double t = now + (delay_s > 0 ? delay_s : 0.0);
  uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
    fns_[slot] = std::move(fn);
  } else {
    slot = static_cast<uint32_t>(fns_.size());
    fns_.push_back(std::move(fn));
  }
  items_.push_back(Item{t, seq_++, slot});
  std::push_heap(items_.begin(), items_.end(), Later());
  double next = items_.front().time;
  ev_.notify(next > now ? to_sc(next - now) : sc_core::SC_ZERO_TIME);
}

void EventQueue::wake() {
  // Items due within half the time resolution count as due now.
  const double now = now_s();
  const double eps = sc_core::sc_get_time_resolution().to_seconds() * 0.5;
  while (!items_.empty() && items_.front().time <= now + eps) {
    std::pop_heap(items_.begin(), items_.end(), Later());
    const uint32_t slot = items_.back().slot;
    items_.pop_back();
    auto fn = std::move(fns_[slot]);  // moved, not copied: captures may be large
    fns_[slot] = nullptr;
    free_.push_back(slot);
    ++events_;
    fn();
    progress_.tick();
  }
  if (!items_.empty()) {
    double next = items_.front().time;
    ev_.notify(next > now ? to_sc(next - now) : sc_core::SC_ZERO_TIME);
  }
}

double run_to_completion() {
  sc_core::sc_start();
  return now_s();
}

}  // namespace trn::sim
