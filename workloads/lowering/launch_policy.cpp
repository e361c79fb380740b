// The launch policies of a rank's program (see launch_policy.h).
#include "workloads/lowering/launch_policy.h"

#include <algorithm>
#include <utility>

#include "models/collectives/algorithm.h"
#include "workloads/lowering/lower_program.h"

namespace trn::workloads {

using models::Engine;
using models::Op;

int32_t OpSink::add(Op op) {
  out_->push_back(std::move(op));
  return next_id_++;
}

int32_t OpSink::host_op(const char* name, double duration_s, int32_t also) {
  Op h;
  h.engine = Engine::Host;
  h.name = name;
  h.duration_s = duration_s;
  if (last_host_ >= 0) h.deps.push_back(last_host_);
  if (also >= 0) h.deps.push_back(also);
  last_host_ = add(std::move(h));
  return last_host_;
}

int32_t OpSink::host_wait(const char* name, std::vector<int32_t> deps) {
  if (deps.empty()) return -1;
  Op w;
  w.engine = Engine::Host;
  w.name = name;
  w.duration_s = 0;
  w.deps = std::move(deps);
  if (last_host_ >= 0) w.deps.push_back(last_host_);
  std::sort(w.deps.begin(), w.deps.end());
  last_host_ = add(std::move(w));
  return last_host_;
}

const std::vector<Vertex>& LaunchPolicy::order(SegmentKind k) {
  std::optional<std::vector<Vertex>>& o = orders_[static_cast<size_t>(k.index())];
  if (!o) o = schedule(k);
  return *o;
}

namespace {

bool prefetched(const GraphOp& g) { return g.kind == OpKind::Collective && g.prefetchable; }

// Eager dispatch: synchronous host dispatch, each op launched after the previous one has
// finished (no cross-op scheduling, so no compute/communication overlap and no hiding of the
// dispatch cost), in graph order (no prefetch).
class EagerDispatch : public LaunchPolicy {
 public:
  EagerDispatch(const TrainingGraph& t, double dispatch_s) : LaunchPolicy(t), dispatch_s_(dispatch_s) {}
  bool splits_host() const override { return false; }
  bool host_leads() const override { return true; }
  bool waits_for_host(const GraphOp&, bool) const override { return true; }
  void before_device_op(OpSink& sink, const GraphOp&, Op& op, Pass, const std::vector<int32_t>&) override {
    op.deps.push_back(sink.host_op("dispatch", dispatch_s_, prev_device_));
  }
  // Eager pipeline sends are asynchronous (torch.distributed.pipelining posts them with
  // batch_isend_irecv and waits for them later): the next dispatch does not wait for a send,
  // only for the receive whose data it needs. A blocking send would deadlock 1F1B.
  void after_device_op(const GraphOp& g, Engine, int32_t id) override {
    if (!(g.kind == OpKind::Collective && g.group == GroupKind::Pp && !is_pipe_recv(g.role))) prev_device_ = id;
  }

 protected:
  std::vector<Vertex> schedule(SegmentKind k) const override { return program_order(t_, k, false); }

 private:
  double dispatch_s_;
  int32_t prev_device_ = -1;  // the last device op in program order that the next dispatch waits for
};

// Compiled mode: one host launch per region (region()); every device op but a prefetched
// collective waits for its region's launch. The launches chain on the host lane only, so they
// run ahead of the device.
class CompiledLaunch : public LaunchPolicy {
 public:
  CompiledLaunch(const TrainingGraph& t, double launch_s) : LaunchPolicy(t), launch_s_(launch_s) {}
  bool waits_for_host(const GraphOp& g, bool split) const override { return !split && !prefetched(g); }
  void begin_segment(OpSink&, SegmentKind k, Pass) override {
    kind_ = k;
    region_.reset();
    next_launch_ = 0;
  }
  void host_pass_op(OpSink& sink, const GraphOp& g, std::vector<int32_t>& launches) override {
    if (new_region(g)) launches.push_back(start_region(sink, g));
  }
  void before_device_op(OpSink& sink, const GraphOp& g, Op& op, Pass pass,
                        const std::vector<int32_t>& launches) override {
    if (new_region(g)) {
      launch_ = pass == Pass::Device ? launches.at(next_launch_++) : start_region(sink, g);
      region_ = region(g);
    }
    if (!prefetched(g)) op.deps.push_back(launch_);
  }

 protected:
  // The launch region of graph op `g`.
  virtual int region(const GraphOp& g) const = 0;
  // Before the launch of `g`'s region; `first`: the segment's first launch.
  virtual void before_launch(OpSink& sink, const GraphOp& g, bool first) {}
  SegmentKind kind_;  // the segment being lowered

 private:
  bool new_region(const GraphOp& g) const { return !region_ || *region_ != region(g); }
  int32_t start_region(OpSink& sink, const GraphOp& g) {
    before_launch(sink, g, !region_);
    region_ = region(g);
    return sink.host_op("launch", launch_s_);
  }

  double launch_s_;
  std::optional<int> region_;  // the current region of the segment (none before its first launch)
  int32_t launch_ = -1;        // the current region's launch
  size_t next_launch_ = 0;     // Pass::Device: the next of the host pass's launches
};

// Regional launch (TorchNeuron): a region is a layer's forward or backward (GraphOp::layer; the
// ops outside the layers are layer -1).
class RegionalLaunch : public CompiledLaunch {
 public:
  using CompiledLaunch::CompiledLaunch;

 protected:
  int region(const GraphOp& g) const override { return g.layer; }
  std::vector<Vertex> schedule(SegmentKind k) const override { return program_order(t_, k, true); }
};

// The regions of a whole-graph segment: the segment's graph and the optimizer step's.
enum WholeGraphRegion : int { kSegmentGraph = -1, kUpdateGraph = -3 };

// Whole graphs (the xla frontend): each segment is one graph (torch-xla cuts at mark_step),
// list-scheduled by the compiler and launched once (docs/model.md 11.1); the optimizer step is
// a graph of its own.
class WholeGraph : public CompiledLaunch {
 public:
  WholeGraph(const OpCostContext& cost, const Layout& layout, int rank, const TrainingGraph& t)
      : CompiledLaunch(t, cost.s.runtime.compiled_launch.v),
        cost_(cost),
        layout_(layout),
        rank_(rank),
        lazy_trace_(cost.s.runtime.lazy_trace.v > 0),
        joined_(cost.s.compile.graph_cut != GraphCut::Segment),
        update_joined_(cost.s.compile.graph_cut == GraphCut::Step) {}
  bool honours(const GraphEdge& e) const override { return !e.sequence; }
  bool host_waits_for_device() const override { return true; }
  void begin_segment(OpSink& sink, SegmentKind k, Pass pass) override;
  void after_device_op(const GraphOp&, Engine engine, int32_t id) override {
    if (static_cast<size_t>(engine) < seg_last_.size()) seg_last_[static_cast<size_t>(engine)] = id;
  }

 protected:
  int region(const GraphOp& g) const override {
    return g.phase == Phase::Update && !update_joined_ ? kUpdateGraph : kSegmentGraph;
  }
  void before_launch(OpSink& sink, const GraphOp& g, bool first) override {
    if (g.phase == Phase::Update && !update_joined_) trace_update(sink);
    if (first) wait_previous_graph(sink);
  }
  std::vector<Vertex> schedule(SegmentKind k) const override;

 private:
  struct Traced {
    double ops = 0, tensors = 0;
  };
  Traced traced(SegmentKind k, bool update);
  // The host time to trace `t`: each graph op (runtime.lazy_trace) and each parameter tensor
  // the optimizer steps (runtime.lazy_trace_tensor; docs/model.md 11.9).
  double trace_seconds(const Traced& t) const {
    return t.ops * cost_.s.runtime.lazy_trace.v + t.tensors * cost_.s.runtime.lazy_trace_tensor.v;
  }
  void trace_update(OpSink& sink);
  void wait_previous_graph(OpSink& sink);
  double collective_estimate(const GraphOp& g) const;

  OpCostContext cost_;
  const Layout& layout_;
  int rank_;
  bool lazy_trace_;  // lazy tensors with a tracing cost
  // Whole graphs joined per micro-batch (compile.graph_cut microbatch or step, pp 1): a
  // micro-batch's backward runs in its forward's graph, traced with it and launched with no
  // wait between.
  bool joined_;
  // The optimizer step in the last micro-batch's graph (compile.graph_cut step: the Hugging
  // Face Trainer), traced with it.
  bool update_joined_;
  // torch-xla runs one graph at a time per device: the launch of a segment's graph waits until
  // the compute engines have finished the previous segment (docs/model.md 11.9). The last op on
  // each compute engine of the segment lowered last, and what the next launch waits for.
  std::vector<int32_t> seg_last_ = std::vector<int32_t>(models::kComputeEngines, -1);
  std::vector<int32_t> wait_on_;
};

void WholeGraph::begin_segment(OpSink& sink, SegmentKind k, Pass pass) {
  CompiledLaunch::begin_segment(sink, k, pass);
  const bool joined_backward = joined_ && k.backward;  // part of its forward's graph
  if (pass != Pass::Device) wait_on_ = seg_last_;      // the segment lowered before this one
  if (pass != Pass::Host && !joined_backward) seg_last_.assign(models::kComputeEngines, -1);
  if (lazy_trace_ && pass != Pass::Device && !joined_backward) {
    // Lazy-tensor tracing (torch-xla): the host traces every op of the graph before it can
    // run, every micro-batch; tracing the next graph overlaps the device running this one
    // (asynchronous execution), so the host paces the step when it is slower. A joined graph
    // holds the micro-batch's backward too, and with the Trainer's cut the last one holds the
    // optimizer step (its graph ops and its per-tensor trace).
    Traced t{traced(k, false).ops, 0.0};
    if (joined_) t.ops += traced(SegmentKind{true, k.last_micro}, false).ops;
    if (update_joined_) {
      const Traced u = traced(SegmentKind{true, k.last_micro}, true);
      t.ops += u.ops;
      t.tensors = u.tensors;
    }
    sink.host_op("trace", trace_seconds(t));
  }
}

// The graph ops of a segment of kind `k` that the host traces, and the parameter tensors they
// step: the optimizer update's (`update`) or all the others.
WholeGraph::Traced WholeGraph::traced(SegmentKind k, bool update) {
  Traced r;
  for (Vertex v : order(k)) {
    const GraphOp& g = t_.g[v];
    if ((g.phase == Phase::Update) != update) continue;
    ++r.ops;
    r.tensors += g.tensors;
  }
  return r;
}

// Lazy tensors: before the launch of the optimizer's graph the host traces it (the backward's
// graph was traced and launched before, so its execution overlaps this trace). Each graph op
// is one traced op (runtime.lazy_trace); the optimizer's update is a loop over the parameter
// tensors, each traced (runtime.lazy_trace_tensor; docs/model.md 11.9).
void WholeGraph::trace_update(OpSink& sink) {
  if (!lazy_trace_) return;
  sink.host_op("trace", trace_seconds(traced(kind_, true)));
}

// Before launching a segment's graph the host waits until the previous segment's compute has
// finished. torch-xla locks the device from a graph's launch to the end of its execution
// (XLAGraphExecutor, DeviceLockerArena), so the host traces at most one graph ahead and the
// device runs one graph at a time. Collectives still in flight (a pipeline send, a gradient
// reduction) do not hold the next graph back. The first graph waits for nothing.
void WholeGraph::wait_previous_graph(OpSink& sink) {
  if (joined_ && kind_.backward) return;
  std::vector<int32_t> deps;
  for (int32_t d : wait_on_)
    if (d >= 0) deps.push_back(d);
  sink.host_wait("wait_graph", std::move(deps));
}

// The compiler's estimate of a collective's duration, used for list scheduling only (the
// fabric simulates the real transfer): the ring's closed form (models/collectives/algorithm.h,
// CollectiveAlgorithm::estimate) over the group at the per-rank share of the slowest tier it
// crosses (NeuronLink within an instance, the instance's EFA across instances).
double WholeGraph::collective_estimate(const GraphOp& g) const {
  const std::vector<int> m = collective_members(layout_, rank_, g);
  if (m.size() <= 1) return 0;
  const models::SystemSpec& sys = cost_.s.system;
  const int per_chip = std::max(1, cost_.chip.cores.physical / cost_.lnc);
  const int per_instance = sys.chips * per_chip;
  double bw = cost_.chip.neuronlink.bandwidth_per_chip.v / per_chip;
  bool cross = false;
  for (int r : m) cross = cross || r / per_instance != m[0] / per_instance;
  if (cross) bw = std::min(bw, sys.efa.nics * sys.efa.bandwidth_per_nic.v / per_instance);
  const models::LinkTier tier{bw, sys.topology.link_latency.v};
  return models::algorithm(models::Algorithm::Ring).estimate(g.coll, static_cast<int>(m.size()), g.coll_bytes, tier);
}

// The segment's program order (with the prefetch), list-scheduled on the cost models'
// durations for compute and collective_estimate for collectives.
std::vector<Vertex> WholeGraph::schedule(SegmentKind k) const {
  std::vector<Vertex> order = program_order(t_, k, true);
  std::vector<LaneEstimate> estimates;
  estimates.reserve(order.size());
  for (Vertex v : order) {
    const GraphOp& g = t_.g[v];
    if (g.kind == OpKind::Collective) {
      estimates.push_back({Engine::Collective, static_cast<int>(collective_stream(g)), collective_estimate(g)});
    } else {
      const Op op = compute_op(cost_, g);
      estimates.push_back({op.engine, op.queue, op.duration_s});
    }
  }
  return list_schedule(t_.g, order, estimates);
}

}  // namespace

std::unique_ptr<LaunchPolicy> make_launch_policy(const OpCostContext& cost, const Layout& layout, int rank,
                                                 const TrainingGraph& t) {
  const ScenarioSpec& s = cost.s;
  if (s.mode == ExecMode::Eager) return std::make_unique<EagerDispatch>(t, s.runtime.eager_dispatch.v);
  if (s.compile.frontend == Frontend::Xla) return std::make_unique<WholeGraph>(cost, layout, rank, t);
  return std::make_unique<RegionalLaunch>(t, s.runtime.compiled_launch.v);
}

}  // namespace trn::workloads
