// FlowNetwork: the shared-bandwidth engine behind NeuronLink links, switch ports, EFA
// NICs, DMA engines and HBM stacks. A transfer is a flow over a list of resources; active
// flows share each resource by weighted max-min fairness (models/fabric/max_min.h), and
// rates are recomputed whenever a flow starts or ends. Events happen per flow start/end,
// never per byte or cycle.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <vector>

#include "hw/fabric/slot_heap.h"
#include "models/fabric/max_min.h"
#include "sim/base/stats.h"
#include "sim/base/trace_sink.h"

namespace trn::hw {

using models::ResourceUse;

class FlowNetwork : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(FlowNetwork);
  explicit FlowNetwork(sc_core::sc_module_name name);

  /// Registers a resource with `capacity` bytes/s; returns its id. Before or during simulation.
  int32_t add_resource(const std::string& name, double capacity);

  /// Starts a flow of `bytes` that first waits `latency_s`, then moves over `uses`;
  /// `done` runs when the last byte has arrived.
  void start(std::vector<ResourceUse> uses, double bytes, double latency_s, std::function<void()> done);
  /// The same, copying `uses` into storage the network reuses (no allocation per flow once
  /// warm) instead of taking ownership of a vector.
  void start_on(const std::vector<ResourceUse>& uses, double bytes, double latency_s, std::function<void()> done);

  uint64_t events() const { return events_; }
  uint64_t flows_completed() const { return completed_; }
  size_t resources() const { return capacity_.size(); }
  const std::string& resource_name(int32_t r) const { return names_[static_cast<size_t>(r)]; }
  double capacity(int32_t r) const { return capacity_[static_cast<size_t>(r)]; }
  /// Bytes that have crossed resource r (each flow counted once per resource it uses).
  double carried(int32_t r) const { return carried_[static_cast<size_t>(r)]; }
  /// Seconds during which at least one flow was active on resource r, up to the network's
  /// last event (an interval still open counts up to that event).
  double busy_time(int32_t r) const {
    const size_t i = static_cast<size_t>(r);
    return active_count_[i] > 0 ? busy_[i] + (last_ - busy_since_[i]) : busy_[i];
  }
  /// Registers the network's counters into `g`: events, flows, and per resource the bytes
  /// carried and the busy time (sim/base/stats.h).
  void add_stats(sim::StatGroup& g) const;
  /// Current rate of flows on a resource (bytes/s, weighted), for counters.
  double load(int32_t r) const;
  /// Streams a utilisation counter per resource (category "counters") to `sink` as process
  /// `pid` when a resource's utilisation changes by more than 5% (at most every 100 us).
  void set_trace(sim::TraceSink* sink, int pid) {
    trace_ = sink;
    trace_pid_ = pid;
  }
  /// With a trace set: also streams a "busy" span (category "links") for every interval in
  /// which at least one flow is active on resource r, on its own track (tid kSpanTidBase + r,
  /// named after the resource when its first span is written), with args {flows: most
  /// concurrent flows, bytes: bytes of the flows that crossed r during the span}.
  void trace_busy_spans(int32_t r);
  /// Writes the spans still open at `now` (cut at `now`); call before the sink finishes.
  void flush_trace(double now);
  /// Reference mode for tests: utilisation counters from a scan of every active flow and
  /// resource at each re-solve, instead of the resources of the re-solved component.
  void set_counters_full_scan(bool on) { counters_full_scan_ = on; }
  static constexpr int kSpanTidBase = 100000;

 private:
  // Cost per event does not grow with the number of active flows or resources: a flow's
  // `remaining` is kept as of its own last rate change (t_upd), so flows whose rate did not
  // change are not touched; finish times live in indexed min-heaps (a rate change moves the
  // flow's entry); busy time is accumulated when a resource goes busy -> idle.
  struct Flow {
    std::vector<ResourceUse> uses;
    std::vector<uint32_t> pos;  // pos[k]: index of this flow in res_flows_[uses[k].resource]
    double bytes = 0, remaining = 0, rate = 0;
    double t_upd = 0;                   // time at which `remaining` was last brought up to date
    uint64_t act_seq = 0;               // activation order (0 = not active)
    uint32_t prev = kNil, next = kNil;  // list of active flows, in activation order
    bool fresh = false;                 // activated in this wake, not yet given a rate
    std::function<void()> done;
  };
  static constexpr uint32_t kNil = 0xffffffffu;
  struct Pending {
    double time;
    uint64_t seq;
    size_t slot;
  };
  struct Later {
    bool operator()(const Pending& a, const Pending& b) const {
      return a.time != b.time ? a.time > b.time : a.seq > b.seq;
    }
  };
  struct ResEntry {
    uint32_t slot, use;  // flow slot and the index of this resource in its uses
  };
  void wake();
  // The steps of wake(): retire the flows that are done (their callbacks queued), then start
  // the pending flows whose time has come.
  void finish_flows(double now, double res);
  void retire(uint32_t slot, double now);
  void start_pending(double now, double res);
  void recompute(double now);
  void schedule(double now);
  size_t alloc();
  void enqueue(size_t slot, double bytes, double latency_s, std::function<void()> done);
  void push_entries(size_t slot, double res);

  std::vector<double> capacity_, carried_, busy_, busy_since_;
  std::vector<std::string> names_;
  std::vector<Flow> slots_;  // flow storage (active and pending)
  std::vector<size_t> free_slots_;
  uint32_t active_head_ = kNil, active_tail_ = kNil;  // active flows, in activation order
  size_t n_active_ = 0;
  uint64_t act_seq_ = 0;
  std::priority_queue<Pending, std::vector<Pending>, Later> pending_;
  // finish_: t_upd + remaining / rate of active flows with rate > 0, for the next wake-up
  // and for completions of flows that are done from one time step before it on;
  // done_at_: for the other flows, the earliest time they meet the done criterion.
  SlotHeap finish_, done_at_;
  std::vector<std::pair<uint64_t, uint32_t>> finished_;  // (act_seq, slot) done in this wake
  std::vector<std::function<void()>> callbacks_;
  std::vector<const std::vector<ResourceUse>*> solver_in_;
  std::vector<double> rates_;
  std::vector<int32_t> active_count_;  // active flows per resource
  // Incremental re-solve: max-min rates decompose over the connected components of the
  // flow-resource graph, so only the component(s) around resources whose flow set changed
  // (dirty_res_) are solved again; other flows keep their rates.
  std::vector<std::vector<ResEntry>> res_flows_;  // active flows per resource
  std::vector<int32_t> dirty_res_;
  std::vector<uint64_t> res_seen_, slot_seen_;  // visit marks (epoch numbers)
  uint64_t epoch_ = 0;
  std::vector<size_t> component_;
  std::vector<int32_t> frontier_;
  models::MaxMinSolver solver_;
  sc_core::sc_event wake_;
  sim::TraceSink* trace_ = nullptr;
  int trace_pid_ = 0;
  std::vector<double> traced_util_, traced_at_, traced_load_;
  std::vector<int32_t> deferred_;       // resources whose counter sample is not written yet
  std::vector<uint8_t> deferred_mark_;  // 1 while a resource is in deferred_
  void trace_counters(double now);
  void trace_counters_full_scan(double now);
  bool counters_full_scan_ = false;
  // Busy spans (empty unless trace_busy_spans was called): per resource whether it is
  // traced, its track is named, the open span's start, most concurrent flows and the
  // carried_ bytes at its start; span_closing_ holds resources whose last flow ended in
  // this wake (closed after activations, so a flow that starts at the same instant
  // continues the span).
  std::vector<char> span_on_, span_named_;
  std::vector<double> span_start_, span_bytes0_;
  std::vector<int32_t> span_flows_, span_closing_;
  void span_end(size_t r, double end, double extra_bytes);
  double last_ = 0;
  bool dirty_ = false;
  uint64_t seq_ = 0, events_ = 0, completed_ = 0;
};

}  // namespace trn::hw
