// Lowering to per-rank programs (see lower_program.h).
#include "workloads/lowering/lower_program.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "models/collectives/algorithm.h"
#include "workloads/lowering/op_cost.h"

namespace trn::workloads {
namespace {

using models::Engine;
using models::Op;

// The lowering's state for one rank; the cost models see only the OpCostContext part.
struct Ctx : OpCostContext {
  const Layout& layout;
  int rank;
  bool lazy_trace;       // compiled with the xla frontend and a tracing cost
  models::Program prog;  // groups and siblings; the ops go to `out`
  std::vector<Op>* out = nullptr;
  int32_t next_id = 0;
  bool any_launch = false, any_launch_dev = false;  // host / device pass: a launch was emitted
  int32_t cur_launch = -1, cur_launch_dev = -1;
  int32_t add(Op op) {
    out->push_back(std::move(op));
    return next_id++;
  }
  std::map<std::vector<int>, int32_t> group_ids;
  LoweringStats stats;
  const std::vector<char>* simulated = nullptr;  // per rank: has a program (empty: all)
  int32_t prev_device = -1;                      // last device op in program order (eager serialisation)
  int32_t last_host = -1;
  // Compiled with the xla frontend: each segment is one graph (torch-xla cuts at mark_step),
  // list-scheduled by the compiler and launched once (docs/model.md 11.1).
  bool whole_graph = false;
  // Whole graphs joined per micro-batch (compile.graph_cut microbatch, pp 1): a micro-batch's
  // backward runs in its forward's graph, traced with it and launched with no wait between.
  bool joined = false;
  bool in_backward = false;  // the segment being lowered
  // torch-xla runs one graph at a time per device: the launch of a segment's graph waits until
  // the compute engines have finished the previous segment (docs/model.md 11.9). The last op on
  // each compute engine of the segment lowered last, and what the next launch waits for.
  std::vector<int32_t> seg_last = std::vector<int32_t>(models::kComputeEngines, -1);
  std::vector<int32_t> wait_on = {};
  // Emission order per segment kind (backward, last micro-batch), computed once.
  std::shared_ptr<std::map<int, std::vector<Vertex>>> orders = std::make_shared<std::map<int, std::vector<Vertex>>>();

  int32_t group_id(const std::vector<int>& members, const GraphOp& g);
};

// Appends a host op (trace, launch or eager dispatch) after the previous host op and, when
// given, after device op `also`; it becomes the last host op. Returns its id.
int32_t host_op(Ctx& c, const char* name, double duration_s, int32_t also = -1) {
  Op h;
  h.engine = Engine::Host;
  h.name = name;
  h.duration_s = duration_s;
  if (c.last_host >= 0) h.deps.push_back(c.last_host);
  if (also >= 0) h.deps.push_back(also);
  c.last_host = c.add(std::move(h));
  return c.last_host;
}

std::vector<int> pp_group(const Layout& layout, int rank, const GraphOp& g) {
  const auto mine = layout.group(GroupKind::Pp, rank, true);
  const auto back = layout.group(GroupKind::Pp, rank, false);
  if (g.role == OpRole::PipeSendAct) return mine;                                       // {self, next}
  if (g.role == OpRole::PipeRecvGrad) return {mine.size() > 1 ? mine[1] : rank, rank};  // {next, self}
  if (g.role == OpRole::PipeSendGrad) return back;                                      // {self, prev}
  return {back.size() > 1 ? back[1] : rank, rank};                                      // recv act: {prev, self}
}

// The members of collective `g` as seen from `rank`.
std::vector<int> members_of(const Layout& layout, int rank, const GraphOp& g) {
  return g.group == GroupKind::Pp ? pp_group(layout, rank, g) : layout.group(g.group, rank);
}

int32_t Ctx::group_id(const std::vector<int>& members, const GraphOp& g) {
  auto it = group_ids.find(members);
  if (it != group_ids.end()) return it->second;
  prog.groups.push_back(members);
  int32_t id = static_cast<int32_t>(prog.groups.size()) - 1;
  group_ids[members] = id;
  // Sibling groups: the same collective as seen from every other rank of this stage (they run
  // the same program at the same moment), once per distinct member set, skipping the groups
  // that contain a simulated rank (that rank's own program starts them).
  std::vector<std::vector<int>> sib;
  if (simulated && !simulated->empty()) {
    std::set<std::vector<int>> seen;
    std::vector<int> key = members;
    std::sort(key.begin(), key.end());
    seen.insert(key);
    const int p = layout.coord(rank).p, per_stage = layout.per_stage();
    for (int r = p * per_stage; r < (p + 1) * per_stage; ++r) {
      if ((*simulated)[static_cast<size_t>(r)]) continue;
      std::vector<int> m = members_of(layout, r, g);
      key = m;
      std::sort(key.begin(), key.end());
      if (!seen.insert(key).second) continue;
      bool has_simulated = false;
      for (int x : m) has_simulated = has_simulated || (*simulated)[static_cast<size_t>(x)];
      if (!has_simulated && m.size() > 1) sib.push_back(std::move(m));
    }
  }
  prog.siblings.push_back(std::move(sib));
  return id;
}

// Which ops a segment holds: its phase's, and the once-per-step ones only on the last
// micro-batch.
bool emitted(const GraphOp& g, bool backward, bool last_micro) {
  return (g.phase != Phase::Forward) == backward && (last_micro || !g.once_per_step);
}

// Whether edge `e` orders its two ops here: a sequence edge orders separately launched graphs
// only, not two ops of one whole graph (GraphEdge).
bool honoured(const Ctx& c, const Graph& g, const Graph::edge_descriptor& e) {
  return !(c.whole_graph && g[e].sequence);
}

// The compiler's estimate of a collective's duration, used for list scheduling only (the
// fabric simulates the real transfer): the ring's closed form (models/collectives/algorithm.h,
// CollectiveAlgorithm::estimate) over the group at the per-rank share of the slowest tier it
// crosses (NeuronLink within an instance, the instance's EFA across instances).
double collective_estimate(const Ctx& c, const GraphOp& g) {
  const std::vector<int> m = members_of(c.layout, c.rank, g);
  if (m.size() <= 1) return 0;
  const models::SystemSpec& sys = c.s.system;
  const int per_chip = std::max(1, c.chip.cores.physical / c.lnc);
  const int per_instance = sys.chips * per_chip;
  double bw = c.chip.neuronlink.bandwidth_per_chip.v / per_chip;
  bool cross = false;
  for (int r : m) cross = cross || r / per_instance != m[0] / per_instance;
  if (cross) bw = std::min(bw, sys.efa.nics * sys.efa.bandwidth_per_nic.v / per_instance);
  const models::LinkTier tier{bw, sys.topology.link_latency.v};
  return models::algorithm(models::Algorithm::Ring).estimate(g.coll, static_cast<int>(m.size()), g.coll_bytes, tier);
}

// A segment's ops (forward or backward of one micro-batch) in the graph's program order; in
// compiled mode each prefetchable collective (an FSDP gather) moves up to just after the
// previous one of the same phase, so that it runs during the previous layer's compute (the
// compiler's prefetch).
std::vector<Vertex> graph_order(const Ctx& c, const TrainingGraph& t, bool backward, bool last) {
  std::vector<Vertex> out;
  std::map<Phase, size_t> last_prefetch;  // position in `out` after the last prefetched gather
  for (Vertex v : t.order) {
    const GraphOp& g = t.g[v];
    if (!emitted(g, backward, last)) continue;
    if (!c.eager && g.kind == OpKind::Collective && g.prefetchable && last_prefetch.count(g.phase)) {
      size_t pos = last_prefetch[g.phase];
      out.insert(out.begin() + static_cast<std::ptrdiff_t>(pos), v);
      last_prefetch[g.phase] = pos + 1;
      continue;
    }
    out.push_back(v);
    if (g.kind == OpKind::Collective && g.prefetchable) last_prefetch[g.phase] = out.size();
  }
  return out;
}

// The compiler's list schedule of one whole graph (docs/model.md 11.1): the engines and
// collective streams run their instructions in order, so the order is the schedule. Ops are
// placed one at a time, each time the one that can start earliest (its inputs done and its
// engine or stream free, by the estimated durations: the cost models for compute,
// collective_estimate for collectives), ties in program order. Independent work (a weight
// gradient, the recomputed forward of the next layer down) thus fills the time an engine would
// wait for a collective, and a collective waits for its inputs only. `order` must be a
// topological order of the segment; the result is one too.
std::vector<Vertex> list_schedule(const Ctx& c, const TrainingGraph& t, const std::vector<Vertex>& order) {
  const size_t n = order.size();
  std::map<Vertex, size_t> index;
  for (size_t i = 0; i < n; ++i) index[order[i]] = i;
  std::vector<std::vector<size_t>> succ(n);
  std::vector<int> waiting(n, 0);
  std::vector<int> lane(n, 0);
  std::vector<double> dur(n, 0), ready_at(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const GraphOp& g = t.g[order[i]];
    for (auto e : boost::make_iterator_range(boost::in_edges(order[i], t.g))) {
      auto it = index.find(boost::source(e, t.g));
      if (it == index.end() || !honoured(c, t.g, e)) continue;
      succ[it->second].push_back(i);
      ++waiting[i];
    }
    if (g.kind == OpKind::Collective) {
      lane[i] = 100 + static_cast<int>(collective_stream(g));
      dur[i] = collective_estimate(c, g);
    } else {
      const Op op = compute_op(c, g);
      lane[i] = static_cast<int>(op.engine);
      dur[i] = op.duration_s;
    }
  }
  std::map<int, double> lane_free;
  std::vector<size_t> ready;
  for (size_t i = 0; i < n; ++i)
    if (waiting[i] == 0) ready.push_back(i);
  std::vector<Vertex> out;
  out.reserve(n);
  while (!ready.empty()) {
    size_t best = 0;
    double best_start = 0;
    for (size_t r = 0; r < ready.size(); ++r) {
      const size_t i = ready[r];
      const double start = std::max(ready_at[i], lane_free[lane[i]]);
      if (r == 0 || start < best_start || (start == best_start && i < ready[best])) best = r, best_start = start;
    }
    const size_t i = ready[best];
    ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(best));
    const double finish = best_start + dur[i];
    lane_free[lane[i]] = finish;
    out.push_back(order[i]);
    for (size_t j : succ[i]) {
      ready_at[j] = std::max(ready_at[j], finish);
      if (--waiting[j] == 0) ready.push_back(j);
    }
  }
  return out;
}

// The emission order of a segment: the graph's order, list-scheduled when the segment is one
// whole graph; computed once per kind of segment.
const std::vector<Vertex>& emission_order(const Ctx& c, const TrainingGraph& t, bool backward, bool last) {
  const int key = (backward ? 1 : 0) | (last ? 2 : 0);
  auto it = c.orders->find(key);
  if (it != c.orders->end()) return it->second;
  std::vector<Vertex> order = graph_order(c, t, backward, last);
  if (c.whole_graph) order = list_schedule(c, t, order);
  return (*c.orders)[key] = std::move(order);
}

// The launch region of an op: a layer's forward or backward (TorchNeuron regions, eager), or
// the whole segment (one graph per segment).
int region_of(const Ctx& c, const GraphOp& g) {
  if (!c.whole_graph) return g.layer;
  return g.phase == Phase::Update ? -3 : -1;  // the optimizer step is a graph of its own
}

// Whole graphs (xla frontend): before launching a segment's graph the host waits until the
// previous segment's compute has finished. torch-xla locks the device from a graph's launch to
// the end of its execution (XLAGraphExecutor, DeviceLockerArena), so the host traces at most one
// graph ahead and the device runs one graph at a time. Collectives still in flight (a pipeline
// send, a gradient reduction) do not hold the next graph back.
void wait_previous_graph(Ctx& c) {
  if (!c.whole_graph || (c.joined && c.in_backward)) return;
  Op w;
  for (int32_t d : c.wait_on)
    if (d >= 0) w.deps.push_back(d);
  if (w.deps.empty()) return;  // the first graph: nothing lowered before
  w.engine = Engine::Host;
  w.name = "wait_graph";
  w.duration_s = 0;
  if (c.last_host >= 0) w.deps.push_back(c.last_host);
  std::sort(w.deps.begin(), w.deps.end());
  c.last_host = c.add(std::move(w));
}

// The graph ops of segment (backward, last) that the host traces, and the parameter tensors
// they step: the optimizer update's (`update`) or all the others.
struct Traced {
  double ops = 0, tensors = 0;
};
Traced traced(const Ctx& c, const TrainingGraph& t, bool backward, bool last, bool update) {
  Traced r;
  for (Vertex v : emission_order(c, t, backward, last)) {
    const GraphOp& g = t.g[v];
    if (!emitted(g, backward, last) || (g.phase == Phase::Update) != update) continue;
    ++r.ops;
    r.tensors += g.tensors;
  }
  return r;
}

// Lazy tensors: before the launch of the optimizer's graph the host traces it (the backward's
// graph was traced and launched before, so its execution overlaps this trace). Each graph op
// is one traced op (runtime.lazy_trace); the optimizer's update is a loop over the parameter
// tensors, each traced (runtime.lazy_trace_tensor; docs/model.md 11.9).
void trace_update(Ctx& c, const TrainingGraph& t, bool backward, bool last) {
  if (!c.lazy_trace) return;
  const Traced u = traced(c, t, backward, last, true);
  host_op(c, "trace", u.ops * c.s.runtime.lazy_trace.v + u.tensors * c.s.runtime.lazy_trace_tensor.v);
}

// Which ops a call emits: all of a segment's (in program order), only its host ops (the trace
// and launches of compiled mode, which depend on host ops only), or only the others (after its
// host pass; `launches` then holds the region launches that pass emitted, in order).
enum class Pass { All, Host, Device };

int32_t add_device_op(Ctx& c, const GraphOp& g, Op op, int& region, std::vector<int32_t>& launches, size_t& next_launch,
                      Pass pass);

void emit(Ctx& c, const TrainingGraph& t, bool backward, bool last_micro, std::map<Vertex, int32_t>& ids,
          std::vector<int32_t>& launches, Pass pass = Pass::All) {
  int region = -2;
  size_t next_launch = 0;
  const std::vector<Vertex>& order = emission_order(c, t, backward, last_micro);
  const bool joined_backward = c.joined && backward;  // part of its forward's graph
  c.in_backward = backward;
  if (pass != Pass::Device) c.wait_on = c.seg_last;  // the segment lowered before this one
  if (pass != Pass::Host && !joined_backward) c.seg_last.assign(models::kComputeEngines, -1);
  if (c.lazy_trace && pass != Pass::Device && !joined_backward) {
    // Lazy-tensor tracing (torch-xla): the host traces every op of the graph before it can
    // run, every micro-batch; tracing the next graph overlaps the device running this one
    // (asynchronous execution), so the host paces the step when it is slower. A joined graph
    // holds the micro-batch's backward too.
    double n = traced(c, t, backward, last_micro, false).ops;
    if (c.joined) n += traced(c, t, true, last_micro, false).ops;
    host_op(c, "trace", n * c.s.runtime.lazy_trace.v);
  }
  for (Vertex v : order) {
    const GraphOp& g = t.g[v];
    if (!emitted(g, backward, last_micro)) continue;
    if (pass == Pass::Host) {  // compiled mode: the launches only
      if (region_of(c, g) != region || !c.any_launch) {
        if (g.phase == Phase::Update && c.whole_graph) trace_update(c, t, backward, last_micro);
        if (region == -2) wait_previous_graph(c);
        region = region_of(c, g);
        c.any_launch = true;
        launches.push_back(host_op(c, "launch", c.s.runtime.compiled_launch.v));
      }
      continue;
    }
    if (pass == Pass::All && c.whole_graph && g.phase == Phase::Update && region_of(c, g) != region)
      trace_update(c, t, backward, last_micro);
    // An FP8 GEMM's casts (or an FP32 model's auto-cast) run first, on their own engines, with
    // the op's inputs; the op waits for the last of them.
    std::vector<Op> casts = cast_ops(c, g);
    int32_t last_cast = -1;
    Op op;
    if (g.kind == OpKind::Collective) {
      op.engine = Engine::Collective;
      op.queue = static_cast<int>(collective_stream(g));
      op.coll = g.coll;
      op.bytes = g.coll_bytes;
      op.name = g.name;
      op.group = c.group_id(members_of(c.layout, c.rank, g), g);
    } else {
      op = compute_op(c, g);
      c.stats.model_flops += op.flops;
    }
    // Dependencies: graph inputs of the same step.
    std::vector<int32_t> inputs;
    for (auto e : boost::make_iterator_range(boost::in_edges(v, t.g))) {
      auto it = ids.find(boost::source(e, t.g));
      if (it != ids.end() && honoured(c, t.g, e)) inputs.push_back(it->second);
    }
    for (Op& cast : casts) {
      cast.deps = inputs;
      if (last_cast >= 0) cast.deps.push_back(last_cast);
      last_cast = add_device_op(c, g, std::move(cast), region, launches, next_launch, pass);
    }
    op.deps = inputs;
    if (last_cast >= 0) op.deps.push_back(last_cast);
    int32_t id = add_device_op(c, g, std::move(op), region, launches, next_launch, pass);
    ids[v] = id;
  }
}

// Adds a device op of graph op `g` (its graph dependencies set) after its dispatch (eager) or
// its region's launch (compiled); returns its id.
int32_t add_device_op(Ctx& c, const GraphOp& g, Op op, int& region, std::vector<int32_t>& launches, size_t& next_launch,
                      Pass pass) {
  if (c.eager) {
    // Synchronous host dispatch: each op is launched after the previous one has finished
    // (no cross-op scheduling, so no compute/communication overlap and no hiding of the
    // dispatch cost).
    op.deps.push_back(host_op(c, "dispatch", c.s.runtime.eager_dispatch.v, c.prev_device));
  } else if (pass == Pass::All) {
    // One launch per region (a layer's forward or backward, or the rest of the step).
    if (region_of(c, g) != region || !c.any_launch) {
      if (region == -2) wait_previous_graph(c);
      region = region_of(c, g);
      c.any_launch = true;
      c.cur_launch = host_op(c, "launch", c.s.runtime.compiled_launch.v);
    }
    if (!(g.kind == OpKind::Collective && g.prefetchable)) op.deps.push_back(c.cur_launch);
  } else {  // Pass::Device: the launches of this segment's host pass, in the same order
    if (region_of(c, g) != region || !c.any_launch_dev) {
      region = region_of(c, g);
      c.any_launch_dev = true;
      c.cur_launch_dev = launches.at(next_launch++);
    }
    if (!(g.kind == OpKind::Collective && g.prefetchable)) op.deps.push_back(c.cur_launch_dev);
  }
  std::sort(op.deps.begin(), op.deps.end());
  op.deps.erase(std::unique(op.deps.begin(), op.deps.end()), op.deps.end());
  const auto engine = static_cast<size_t>(op.engine);
  int32_t id = c.add(std::move(op));
  if (engine < c.seg_last.size()) c.seg_last[engine] = id;
  // Eager pipeline sends are asynchronous (torch.distributed.pipelining posts them with
  // batch_isend_irecv and waits for them later): the next dispatch does not wait for a send,
  // only for the receive whose data it needs. A blocking send would deadlock 1F1B.
  if (!(c.eager && g.kind == OpKind::Collective && g.group == GroupKind::Pp && !is_pipe_recv(g.role)))
    c.prev_device = id;
  ++c.stats.ops;
  return id;
}

// A rank's program lowered one 1F1B segment at a time (models::ProgramSource). Compiled mode
// hands out host ops (trace, launches) separately: the host runs ahead of the device.
class RankStream : public models::ProgramSource {
 public:
  RankStream(Ctx c, const TrainingGraph& t, std::vector<std::pair<int, bool>> order, int m, bool split)
      : c_(std::move(c)), t_(t), order_(std::move(order)), m_(m), split_(split && !c_.eager) {
    ids_.resize(static_cast<size_t>(m));
    for (int k = 0; k < 4; ++k) summarise(k & 1, k & 2, lanes_[k], ops_[k]);
    for (auto [micro, bwd] : order_) total_ops_ += ops_[kind(micro, bwd)];
  }
  size_t segments() const override { return order_.size(); }
  const models::SegmentLanes& lanes(size_t seg) const override {
    return lanes_[kind(order_[seg].first, order_[seg].second)];
  }
  bool split_host() const override { return split_; }
  size_t lowered() const override { return next_; }
  size_t host_lowered() const override { return split_ ? next_host_ : next_; }
  void lower_host_next(std::vector<Op>& out) override {
    if (!split_ || next_host_ >= order_.size()) return;
    // A segment's launch waits for the previous segment's compute (wait_previous_graph), so
    // that segment's device ops are lowered first.
    while (c_.whole_graph && next_ < next_host_) lower_next(out);
    auto [micro, bwd] = order_[next_host_];
    c_.out = &out;
    std::map<Vertex, int32_t> none;
    emit(c_, t_, bwd, micro == m_ - 1, none, launches_[next_host_], Pass::Host);
    ++next_host_;
  }
  void lower_next(std::vector<Op>& out) override {
    if (next_ >= order_.size()) return;
    if (split_ && next_host_ <= next_) lower_host_next(out);
    auto [micro, bwd] = order_[next_];
    c_.out = &out;
    auto& ids = ids_[static_cast<size_t>(micro)];
    if (split_) {
      emit(c_, t_, bwd, micro == m_ - 1, ids, launches_[next_], Pass::Device);
      launches_.erase(next_);
    } else {
      std::vector<int32_t> unused;
      emit(c_, t_, bwd, micro == m_ - 1, ids, unused, Pass::All);
    }
    if (bwd) std::map<Vertex, int32_t>().swap(ids);  // nothing later reads this micro-batch's ops
    ++next_;
  }
  const models::Program& meta() const override { return c_.prog; }
  int64_t total_ops() const { return total_ops_; }
  const LoweringStats& stats() const { return c_.stats; }
  models::Program take_program() { return std::move(c_.prog); }

 private:
  int kind(int micro, bool bwd) const { return (bwd ? 1 : 0) | (micro == m_ - 1 ? 2 : 0); }
  // The queues of a segment of kind (backward, last micro-batch) and its op count.
  void summarise(bool bwd, bool last, models::SegmentLanes& out, int64_t& n) const {
    const std::vector<Vertex>& order = emission_order(c_, t_, bwd, last);
    std::set<Vertex> in_segment;
    for (Vertex v : order)
      if (emitted(t_.g[v], bwd, last)) in_segment.insert(v);
    std::set<std::pair<Engine, int>> seen;
    n = 0;
    if (c_.eager) {  // the host's first op (a dispatch) waits only for the previous segment
      out.first.push_back({Engine::Host, 0, true});
      seen.insert({Engine::Host, 0});
    }
    for (Vertex v : order) {
      const GraphOp& g = t_.g[v];
      if (!in_segment.count(v)) continue;
      ++n;
      // The op's queue, after those of the casts emitted before it (each cast after the
      // previous one, the first with the op's graph inputs).
      std::vector<std::pair<Engine, int>> keys;
      if (g.kind == OpKind::Collective) {
        keys.push_back({Engine::Collective, static_cast<int>(collective_stream(g))});
      } else {
        Ctx probe = c_;
        for (const Op& cast : cast_ops(probe, g)) keys.push_back({cast.engine, 0});
        n += static_cast<int64_t>(keys.size());
        keys.push_back({compute_op(probe, g).engine, 0});
      }
      // Eager: every op waits for its dispatch, a host op of the same segment. Compiled: the
      // launches come from the host ops handed out ahead (not part of the segment here).
      bool root = !c_.eager;
      for (auto e : boost::make_iterator_range(boost::in_edges(v, t_.g)))
        if (in_segment.count(boost::source(e, t_.g)) && honoured(c_, t_.g, e)) root = false;
      if (!split_ && !c_.eager && !(g.kind == OpKind::Collective && g.prefetchable)) root = false;  // its launch
      for (size_t i = 0; i < keys.size(); ++i) {
        if (!seen.insert(keys[i]).second) continue;
        out.first.push_back({keys[i].first, keys[i].second, i == 0 && root});
      }
    }
  }

  Ctx c_;
  const TrainingGraph& t_;
  std::vector<std::pair<int, bool>> order_;
  int m_;
  bool split_;
  std::vector<std::map<Vertex, int32_t>> ids_;
  std::map<size_t, std::vector<int32_t>> launches_;  // per segment whose host ops are out
  size_t next_ = 0, next_host_ = 0;
  models::SegmentLanes lanes_[4];
  int64_t ops_[4] = {0, 0, 0, 0};
  int64_t total_ops_ = 0;
};

}  // namespace

std::vector<std::pair<int, bool>> one_f_one_b(int stage, int stages, int m) {
  std::vector<std::pair<int, bool>> order;
  int warm = std::min(m, stages - stage - 1);
  int f = 0, b = 0;
  for (int i = 0; i < warm; ++i) order.push_back({f++, false});
  while (f < m) {
    order.push_back({f++, false});
    order.push_back({b++, true});
  }
  while (b < m) order.push_back({b++, true});
  return order;
}

namespace {
Ctx make_ctx(const ScenarioSpec& s, const Layout& layout, int rank, const std::vector<char>& simulated) {
  const int lnc = s.effective_lnc();
  Ctx c{{s, s.system.chip, lnc, s.mode == ExecMode::Eager},
        layout,
        rank,
        s.mode == ExecMode::Compiled && s.compile.frontend == Frontend::Xla && s.runtime.lazy_trace.v > 0,
        {},
        nullptr,
        0,
        false,
        false,
        -1,
        -1,
        {},
        {}};
  c.simulated = &simulated;
  c.whole_graph = s.mode == ExecMode::Compiled && s.compile.frontend == Frontend::Xla;
  c.joined = c.whole_graph && s.compile.graph_cut == GraphCut::MicroBatch;  // pp 1 (scenario loader)
  return c;
}
}  // namespace

models::Program lower_rank(const ScenarioSpec& s, const Layout& layout, const TrainingGraph& t, int rank,
                           LoweringStats* stats, const std::vector<char>& simulated) {
  const int stage = layout.coord(rank).p;
  const int m = s.parallel.microbatches;
  RankStream rs(make_ctx(s, layout, rank, simulated), t, one_f_one_b(stage, s.parallel.pp, m), m, false);
  std::vector<Op> ops;
  while (rs.lowered() < rs.segments()) rs.lower_next(ops);
  // The optimizer update (phase Update) is emitted with the last backward segment.
  if (stats) *stats = rs.stats();
  models::Program p = rs.take_program();
  p.ops = std::move(ops);
  return p;
}

std::unique_ptr<models::ProgramSource> stream_rank(const ScenarioSpec& s, const Layout& layout, const TrainingGraph& t,
                                                   int rank, int64_t* ops, const std::vector<char>& simulated) {
  const int stage = layout.coord(rank).p;
  const int m = s.parallel.microbatches;
  auto rs = std::make_unique<RankStream>(make_ctx(s, layout, rank, simulated), t, one_f_one_b(stage, s.parallel.pp, m),
                                         m, true);
  if (ops) *ops = rs->total_ops();
  return rs;
}

CollectiveStream collective_stream(const GraphOp& g) {
  switch (g.group) {
    case GroupKind::None: return CollectiveStream::None;
    case GroupKind::Tp: return CollectiveStream::Tp;
    case GroupKind::Fsdp: return CollectiveStream::Fsdp;
    case GroupKind::Dp: return CollectiveStream::Dp;
    case GroupKind::Pp: return is_pipe_recv(g.role) ? CollectiveStream::PpRecv : CollectiveStream::Pp;
    case GroupKind::Ep: return CollectiveStream::Ep;
  }
  return CollectiveStream::None;
}

}  // namespace trn::workloads
