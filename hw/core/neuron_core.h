// NeuronCore: executes a Program (models/ir) on four in-order compute-engine queues
// (tensor, vector, scalar, GpSimd), DMA queues, a collective queue (the CC-cores) and a
// host queue (eager dispatch). An op waits for its dependencies and for its queue;
// compute durations come from the op (cost models); DMA ops, and the HBM bytes a compute
// op streams, become flows through this core's DMA engines and its HBM stack on the shared
// FlowNetwork, so cores that stream at once contend for HBM. Collective ops are handed to
// a hook (the program runner) that rendezvouses group members and runs the collective on
// the fabric. The tensor engine pays the dI/dt ramp after idling for the throttle window.
#pragma once

#include <systemc>

#include <array>
#include <deque>
#include <memory>
#include <functional>
#include <cstdint>
#include <vector>

#include "hw/fabric/flow_network.h"
#include "models/ir/program.h"
#include "models/spec/chip_spec.h"
#include "sim/base/stats.h"
#include "sim/kernel/event_queue.h"

namespace trn::hw {

/// What a NeuronCore reports as it runs, for observers outside the model (the trace writer,
/// hw/trace/core_trace.h). Without observers the core pays one test per op.
class CoreObserver {
 public:
  virtual ~CoreObserver() = default;
  /// Op `op` started at `now` (its dependencies done and its queue free).
  virtual void op_started(const models::Op& op, double now) {}
  /// Op `op` finished: it ran on `lane` (the core's queue: compute engines, DMA queues,
  /// collective and host queues) from `start` to `end`.
  virtual void op_finished(const models::Op& op, size_t lane, double start, double end) {}
  /// The core finished its program at `now`.
  virtual void program_done(double now) {}
};

struct EngineStats {
  double busy_s = 0;
  uint64_t ops = 0;
};

class NeuronCore : public sc_core::sc_module {
 public:
  static constexpr int kDmaQueues = 8;
  static constexpr int kCollectiveQueues = 8;  // in-order collective streams (op.queue picks one)
  using CollectiveHook = std::function<void(const models::Op&, std::function<void()> done)>;
  /// Called once per finished op in program order (an op retires when it and every op before
  /// it have finished), with its start and end time; the op's storage is released after it.
  using RetireHook = std::function<void(const models::Op&, double start, double end)>;

  /// `dma_path`: resources a DMA transfer of this core crosses (its DMA engines, its HBM stack).
  NeuronCore(sc_core::sc_module_name name, const models::ChipSpec& chip, FlowNetwork& net, sim::EventQueue& events,
             std::vector<ResourceUse> dma_path);

  /// Loads a program; it starts when the simulation starts. One program per run.
  void load(models::Program program);
  /// Loads a program lowered on demand: a segment is lowered when a queue that has run out
  /// of ops could run one of its ops (the first op of that queue in the next segments that
  /// has it is a root), host ops (split_host) when the host queue runs out; ops are released
  /// as they retire. Every op is there before it could start, so the run is the one of the
  /// whole program loaded at once. op_times() stays empty.
  void load(std::unique_ptr<models::ProgramSource> source);
  /// Reports op starts and ends to `o` (which outlives the run).
  void add_observer(CoreObserver* o) { observers_.push_back(o); }
  /// Adds the DMA path of an identical rank that is not simulated (the symmetry reduction):
  /// every flow this core starts on its own path is also started, unobserved, on `path`, so
  /// that the ranks it stands for load the HBM stacks and DMA engines they share.
  void add_mirror(std::vector<ResourceUse> path) { mirrors_.push_back(std::move(path)); }
  /// Where collective ops go (required if the program has any).
  void set_collective_hook(CollectiveHook hook) { collective_hook_ = std::move(hook); }
  /// Streams the finished ops (see RetireHook) to `hook`, for analyses that need no op kept.
  void set_retire_hook(RetireHook hook) { retire_hook_ = std::move(hook); }
  const models::Program& program() const { return program_; }

  double finish_time() const { return finish_s_; }
  bool done() const;
  size_t executed() const { return executed_; }
  const EngineStats& engine(models::Engine e) const { return stats_[static_cast<size_t>(e)]; }
  /// Registers the core's counters into `g`: per engine its busy time and ops, the ops
  /// executed, the DMA bytes and the finish time (sim/base/stats.h).
  void add_stats(sim::StatGroup& g) const;
  double dma_bytes() const { return dma_bytes_; }
  /// Start and end time of each op (for tests; a whole program loaded at once only).
  const std::vector<std::pair<double, double>>& op_times() const { return times_; }

 private:
  void start_of_simulation() override;
  void try_issue(size_t lane);
  void begin(size_t op_index);
  void feed(size_t lane);
  void append(std::vector<models::Op>& ops);
  size_t lane_of(models::Engine e, int queue) const;
  void complete(size_t op_index);
  size_t lane_of(const models::Op& op) const;

  const models::ChipSpec& chip_;
  FlowNetwork& net_;
  sim::EventQueue& events_;
  std::vector<ResourceUse> dma_path_;
  std::vector<std::vector<ResourceUse>> mirrors_;
  void start_flows(size_t op_index, double bytes, double latency);
  models::Program program_;  // groups and siblings (ops live in window_)
  std::unique_ptr<models::ProgramSource> source_;
  // The ops lowered and not yet retired: op id i is window_[i - base_].
  struct Slot {
    models::Op op;
    int32_t waiting = 0;    // unfinished deps
    int8_t parts_left = 0;  // compute and/or streamed bytes still running
    char finished = 0;
    std::vector<size_t> dependents;  // lowered ops that wait for this one
    double start = 0, end = 0;
  };
  // A finished host op of a streamed program is released at once (null): compiled mode's
  // host runs far ahead of the device, and only order-free sums read host ops.
  std::deque<std::unique_ptr<Slot>> window_;
  size_t base_ = 0, lowered_ = 0;
  Slot& slot(size_t i) { return *window_[i - base_]; }
  // lanes: 4 compute engines then kDmaQueues DMA queues; each holds op indices in order.
  std::vector<std::deque<size_t>> lane_ops_;
  std::vector<char> lane_busy_;
  std::vector<size_t> lane_wait_;  // feed: the lane's next op is a non-root of this segment
  bool keep_times_ = true;
  std::vector<std::pair<double, double>> times_;
  std::array<EngineStats, 7> stats_{};
  CollectiveHook collective_hook_;
  RetireHook retire_hook_;
  int completing_ = 0;
  void retire();
  std::vector<CoreObserver*> observers_;
  double tensor_idle_since_ = -1e9;
  double finish_s_ = 0, dma_bytes_ = 0;
  size_t executed_ = 0;
};

}  // namespace trn::hw
