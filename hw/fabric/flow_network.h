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
#include <unordered_map>
#include <vector>

#include "hw/fabric/slot_heap.h"
#include "models/fabric/max_min.h"
#include "sim/base/stats.h"
#include "sim/kernel/event_queue.h"

namespace trn::hw {

using models::ResourceUse;

/// What a FlowNetwork reports as it runs, for observers outside the model (the trace writer,
/// hw/trace/fabric_trace.h). Without observers the network pays one test per flow event.
class FabricObserver {
 public:
  virtual ~FabricObserver() = default;
  /// A flow became active on resource `r` at `now`; `active` flows are active on it now.
  virtual void flow_started(int32_t r, double now, int active) {}
  /// A flow on `r` finished at `now`; `active` flows are left on it.
  virtual void flow_finished(int32_t r, double now, int active) {}
  /// The flows due at `now` have finished and the flows due have started (a resource that
  /// went idle and got a new flow at this instant was never idle).
  virtual void settled(double now) {}
  /// Rates were re-solved at `now`; `changed` holds the resources whose load may have changed.
  virtual void rates_changed(double now, const std::vector<int32_t>& changed) {}
};

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
  /// warm) instead of taking ownership of a vector. With `issue_wait` > 0 the flow is issued
  /// that long from now and then waits `latency_s`: exactly as if started by an event
  /// `issue_wait` from now, without that event.
  void start_on(const std::vector<ResourceUse>& uses, double bytes, double latency_s, std::function<void()> done,
                double issue_wait = 0);

  uint64_t events() const { return events_; }
  /// Calls `fn` after every `every` events (progress reports; nothing else may depend on it).
  void set_progress(std::function<void()> fn, uint64_t every) { progress_.set(std::move(fn), every); }
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
  /// Reports flow starts and ends and rate re-solves to `o` (which outlives the run).
  void add_observer(FabricObserver* o) { observers_.push_back(o); }
  /// Current weighted rate of the flows on resource r (bytes/s), summed over r's flows.
  double load(int32_t r) const;
  /// Current weighted rate of every resource, summed over the active flows in activation
  /// order (the reference the incremental counters are tested against).
  std::vector<double> loads_full_scan() const;
  /// Bytes of r's active flows that have crossed it by `now` (carried() counts a flow when it ends).
  double in_flight_bytes(int32_t r, double now) const;
  /// Flows active on resource r.
  int active_flows(int32_t r) const { return active_count_[static_cast<size_t>(r)]; }
  /// Whether anything observes the network's flows (a trace writer).
  bool observed() const { return !observers_.empty(); }
  /// Counts, on idle resource r, `bytes` carried and `busy_s` of busy time by `flows` flows that
  /// were not simulated here: a collective replayed from an identical run that met no other
  /// traffic (CollectiveEngine::replay_isolated).
  void credit(int32_t r, double bytes, double busy_s) {
    carried_[static_cast<size_t>(r)] += bytes;
    busy_[static_cast<size_t>(r)] += busy_s;
  }
  void credit_flows(uint64_t flows) { completed_ += flows; }

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
    uint32_t cls = 0;                   // its class: the flows over the same resources and weights
    uint32_t cpos = 0;                  // index of this flow in its class's active flows (when active)
    std::function<void()> done;
  };
  static constexpr uint32_t kNil = 0xffffffffu;
  struct Pending {
    double time;    // due: issued, then its latency
    double issued;  // when it was issued (start_on's issue_wait)
    uint64_t seq;
    size_t slot;
  };
  struct Later {
    bool operator()(const Pending& a, const Pending& b) const {
      if (a.time != b.time) return a.time > b.time;
      return a.issued != b.issued ? a.issued > b.issued : a.seq > b.seq;
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
  void enqueue(size_t slot, double bytes, double latency_s, std::function<void()> done, double issue_wait = 0);
  void push_entries(size_t slot, double res);
  uint32_t flow_class(const std::vector<ResourceUse>& uses);  // interned, stable

  // Classes of flows (Flow::cls): flows over the same resources with the same weights get the
  // same max-min rate, so a re-solve gathers, solves and updates classes, each once with its
  // multiplicity (MaxMinSolver::solve), and touches the flows of a class only when its rate
  // changed or it has fresh flows. A job's transfers run over a few thousand routes; the
  // components of a Trn3 Gen2 step hold about six flows per class.
  struct UsesHash {
    size_t operator()(const std::vector<ResourceUse>& u) const;
  };
  struct UsesEqual {
    bool operator()(const std::vector<ResourceUse>& a, const std::vector<ResourceUse>& b) const;
  };
  struct FlowClass {
    // Its list: the key in class_index_ (whose nodes do not move).
    const std::vector<ResourceUse>* uses = nullptr;
    std::vector<uint32_t> flows;    // active flows (slots)
    std::vector<uint32_t> res_pos;  // per use k, while active: its index in res_classes_[uses[k]]
    double rate = 0;                // rate of its active flows that are not fresh
    bool fresh = false;             // has a flow activated since the last re-solve
  };
  struct ClassEntry {
    uint32_t cls, use;  // a class and the index of this resource in its uses
  };
  void class_activate(uint32_t slot);
  void class_retire(uint32_t slot);
  std::unordered_map<std::vector<ResourceUse>, uint32_t, UsesHash, UsesEqual> class_index_;
  std::vector<FlowClass> classes_all_;
  std::vector<std::vector<ClassEntry>> res_classes_;  // per resource: its classes with active flows
  std::vector<uint64_t> class_seen_;                  // visit marks (epoch numbers)
  std::vector<uint32_t> class_local_, class_mult_, classes_;

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
  std::vector<uint64_t> res_seen_;  // visit marks (epoch numbers)
  uint64_t epoch_ = 0;
  std::vector<int32_t> frontier_;
  models::MaxMinSolver solver_;
  sc_core::sc_event wake_;
  std::vector<FabricObserver*> observers_;
  double last_ = 0;
  bool dirty_ = false;
  uint64_t seq_ = 0, events_ = 0, completed_ = 0;
  sim::EveryN progress_;
};

}  // namespace trn::hw
