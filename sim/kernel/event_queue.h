// EventQueue: one SystemC process that runs callbacks at future simulated times, in
// deterministic (time, insertion) order. Hardware modules use it instead of one process
// per op, keeping event granularity at the op / chunk level.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace trn::sim {

/// Seconds <-> sc_time (resolution: the kernel's, 1 ps by default).
inline sc_core::sc_time to_sc(double seconds) { return sc_core::sc_time(seconds, sc_core::SC_SEC); }
inline double now_s() { return sc_core::sc_time_stamp().to_seconds(); }

/// Calls a function after every `every` ticks (progress reports of the event queue and the
/// fabric; nothing else may depend on it).
class EveryN {
 public:
  void set(std::function<void()> fn, uint64_t every) {
    fn_ = std::move(fn);
    every_ = left_ = every;
  }
  void tick() {
    if (left_ && --left_ == 0) {
      left_ = every_;
      fn_();
    }
  }

 private:
  std::function<void()> fn_;
  uint64_t every_ = 0, left_ = 0;  // ticks between calls, ticks until the next
};

class EventQueue : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(EventQueue);
  explicit EventQueue(sc_core::sc_module_name name);
  /// Runs `fn` `delay_s` seconds from now (0 = later in the current time step).
  void at(double delay_s, std::function<void()> fn);
  uint64_t events() const { return events_; }
  /// Calls `fn` after every `every` events (progress reports; nothing else may depend on it).
  void set_progress(std::function<void()> fn, uint64_t every) { progress_.set(std::move(fn), every); }

 private:
  // The heap holds (time, seq, slot) only; the callbacks stay put in fns_ (slots reused), so
  // heap moves are 24-byte copies.
  struct Item {
    double time;
    uint64_t seq;
    uint32_t slot;
  };
  struct Later {
    bool operator()(const Item& a, const Item& b) const { return a.time != b.time ? a.time > b.time : a.seq > b.seq; }
  };
  void wake();
  std::vector<Item> items_;  // binary heap (Later): the earliest item at the front
  std::vector<std::function<void()>> fns_;
  std::vector<uint32_t> free_;  // unused slots of fns_
  sc_core::sc_event ev_;
  uint64_t seq_ = 0, events_ = 0;
  EveryN progress_;
};

/// Runs the SystemC kernel until no events remain; returns the final simulated time (s).
double run_to_completion();

}  // namespace trn::sim
