// CollectiveEngine: runs a collective plan (models/collectives) on the fabric. Each
// transfer waits for its dependencies, then for its source rank's CC-core to issue it
// (serially: DMA semaphore-to-start + descriptor generation + a handshake round trip with
// the peer, S14/S16/S22), then moves as a flow over the source rank's collective DMA
// engines (weighted by 1/reduce_rate for reductions) and the links of its route.
#pragma once

#include <systemc>

#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "hw/system/system.h"
#include "models/collectives/collective_plan.h"
#include "models/fabric/max_min.h"

namespace trn::hw {

struct CollectiveResult {
  double start_s = 0, end_s = 0;
  uint64_t transfers = 0;
  double bytes = 0;
  double time() const { return end_s - start_s; }
};

/// A plan made ready to run (CollectiveEngine::prepare): its quotient under the instance
/// symmetry, each transfer's dependents, and per transfer the source rank, route and issue
/// time. Immutable, so the runs of one collective (the same group and size, every
/// micro-batch and layer) can share it.
struct PreparedPlan {
  models::CollectivePlan plan;
  std::vector<int> ranks;
  std::vector<int32_t> waiting;  // dependency count per transfer
  // Dependents of transfer i (in increasing order): dependents[dep_start[i] .. dep_start[i+1]).
  std::vector<uint32_t> dep_start;
  std::vector<int32_t> dependents;
  struct Hop {
    int32_t src = 0;     // system rank that issues the transfer
    uint32_t route = 0;  // CollectiveEngine route index (source chip -> destination chip)
    double issue = 0;    // CC-core issue time (DMA start + descriptors + handshake)
  };
  std::vector<Hop> hops;  // per transfer (barriers: unused)
  // Every resource a run of the plan can load, sorted: link resources (>= 0) and, as
  // -(rank + 1), the collective DMA engines of the ranks that issue its transfers.
  std::vector<int64_t> footprint;
};

class CollectiveEngine : public sc_core::sc_module {
 public:
  CollectiveEngine(sc_core::sc_module_name name, System& system);
  ~CollectiveEngine() override;

  /// Schedules `plan` over `ranks` (plan rank i = system rank ranks[i]) to start at
  /// `start_delay_s`; `done` runs at completion. Elaboration or simulation time.
  void run(models::CollectivePlan plan, std::vector<int> ranks, double start_delay_s,
           std::function<void(const CollectiveResult&)> done);
  /// The same for a prepared plan (see prepare), which may be run any number of times.
  void run(std::shared_ptr<const PreparedPlan> plan, double start_delay_s,
           std::function<void(const CollectiveResult&)> done);
  /// Quotients `plan` (System::symmetry; not again when built as its quotient) and precomputes
  /// what its runs need.
  std::shared_ptr<const PreparedPlan> prepare(models::CollectivePlan plan, std::vector<int> ranks);
  /// Whether a flow is active now on a resource of `p`'s footprint.
  bool footprint_active(const PreparedPlan& p) const;
  /// Replays isolated runs (a reduction; off by default): a run of a plan is recorded when, from
  /// its launch to its end, no other run loaded a resource of its footprint, no flow was active
  /// there at its launch and its ranks' CC-cores were free. A later run of the same plan under the
  /// same conditions at its launch is not simulated: it ends the recorded time after its launch
  /// and credits the recorded bytes and busy time to its resources. Max-min rates decompose over
  /// the connected components of flows and resources, so the two runs are the same run shifted in
  /// time. A run launched while a replay is under way on a resource they share turns the replay
  /// into flows (materialize): what was over by then is credited, the transfers under way restart
  /// with the bytes the record had left (its flows re-solved by max-min between their starts and
  /// ends), the rest wait as in the record. No replay while a trace observes the fabric.
  void replay_isolated(bool on) { replay_ = on; }
  uint64_t replayed() const { return replayed_; }
  /// Replays met by a later run on a resource they share: from then on simulated, from the
  /// record's state at that moment (materialize).
  uint64_t replay_overlaps() const { return replay_overlaps_; }

 private:
  struct Run;
  // Links of the route between two chips as flow resources, and the route's latency;
  // cached per (source chip, destination chip).
  struct Route {
    std::vector<ResourceUse> links;
    double latency = 0;
  };
  uint32_t route(int src_chip, int dst_chip);  // index into routes_
  void launch(Run& r);
  void ready(Run& r, size_t t);
  void finish_transfer(Run& r, size_t t);

  System& sys_;
  std::vector<std::unique_ptr<Run>> runs_;  // runs in flight
  void release(Run* r);
  // Replays (replay_isolated): a recorded run, from its launch.
  struct Record {
    std::shared_ptr<const PreparedPlan> plan;  // kept, so that its address names it
    double duration = 0;
    uint64_t transfers = 0, flows = 0;
    double bytes = 0;
    std::vector<int32_t> res;                      // its footprint's resources
    std::vector<double> carried, busy;             // per resource, over the run
    std::vector<std::pair<int, double>> issue_at;  // per issuing rank: its CC-core's free time, from launch
    // Per transfer, from launch: ready, issued (its CC-core done) and over (materialize).
    std::vector<double> ready, issued, over;
  };
  bool meets_others(Run& r);  // marks r and the runs in flight whose footprints meet r's
  bool may_replay(const Run& r) const;
  void begin_record(Run& r);
  void end_record(Run& r);
  void replay(Run& r, std::shared_ptr<const Record> rec);
  void materialize(Run& r);
  std::vector<double> moved_by(const Run& r, double tau);
  void flow_uses(const Run& r, size_t t, std::vector<ResourceUse>& out);
  models::MaxMinSolver solver_;   // moved_by
  std::vector<double> capacity_;  // moved_by: the fabric's capacities, by resource
  void credit_until(const Run& r, double tau, const std::vector<double>& moved);
  void start_flow(Run& r, size_t t, double wait, double bytes, double latency);
  double flow_latency(const Run& r, size_t t) const;
  void finish_run(Run& r);
  int32_t footprint_resource(int64_t k) const;  // a footprint entry's resource (-1: not registered)
  bool replay_ = false;
  static constexpr size_t kRecordTransfers = size_t{1} << 19;  // records held, like the runner's plans
  std::unordered_map<const PreparedPlan*, std::shared_ptr<const Record>> records_;
  size_t records_transfers_ = 0;
  uint64_t replayed_ = 0, replay_overlaps_ = 0;
  std::vector<double> issue_free_;  // per system rank: when its CC-core can issue again
  std::vector<Route> routes_;
  std::unordered_map<uint64_t, uint32_t> route_index_;
  std::vector<ResourceUse> uses_;  // scratch: the resources of the flow being started
};

}  // namespace trn::hw
