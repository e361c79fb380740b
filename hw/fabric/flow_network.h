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

#include "models/fabric/max_min.h"
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

  uint64_t events() const { return events_; }
  uint64_t flows_completed() const { return completed_; }
  size_t resources() const { return capacity_.size(); }
  const std::string& resource_name(int32_t r) const { return names_[static_cast<size_t>(r)]; }
  double capacity(int32_t r) const { return capacity_[static_cast<size_t>(r)]; }
  /// Bytes that have crossed resource r (each flow counted once per resource it uses).
  double carried(int32_t r) const { return carried_[static_cast<size_t>(r)]; }
  /// Seconds during which at least one flow was active on resource r.
  double busy_time(int32_t r) const { return busy_[static_cast<size_t>(r)]; }
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
  static constexpr int kSpanTidBase = 100000;

 private:
  struct Flow {
    std::vector<ResourceUse> uses;
    double bytes = 0, remaining = 0, rate = 0;
    std::function<void()> done;
  };
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
  void wake();
  void advance(double now);
  void recompute();
  void schedule(double now);
  size_t alloc(Flow f);

  std::vector<double> capacity_, carried_, busy_;
  std::vector<std::string> names_;
  std::vector<Flow> slots_;          // flow storage (active and pending)
  std::vector<size_t> free_slots_;
  std::vector<size_t> active_;       // slots of active flows, in activation order
  std::priority_queue<Pending, std::vector<Pending>, Later> pending_;
  std::vector<const std::vector<ResourceUse>*> solver_in_;
  std::vector<double> rates_;
  std::vector<int32_t> active_count_;  // active flows per resource
  // Incremental re-solve: max-min rates decompose over the connected components of the
  // flow-resource graph, so only the component(s) around resources whose flow set changed
  // (dirty_res_) are solved again; other flows keep their rates.
  std::vector<std::vector<size_t>> res_flows_;  // active slots per resource
  std::vector<int32_t> dirty_res_;
  std::vector<uint64_t> res_seen_, slot_seen_;  // visit marks (epoch numbers)
  uint64_t epoch_ = 0;
  std::vector<size_t> component_;
  std::vector<int32_t> frontier_;
  models::MaxMinSolver solver_;
  sc_core::sc_event wake_;
  sim::TraceSink* trace_ = nullptr;
  int trace_pid_ = 0;
  std::vector<double> traced_util_, traced_at_;
  void trace_counters(double now);
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
