// Lowering to per-rank programs: the emission (see lower_program.h).
#include "workloads/lowering/lower_program.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <unordered_set>
#include <utility>

#include "workloads/compile/list_schedule.h"
#include "workloads/lowering/launch_policy.h"
#include "workloads/lowering/op_cost.h"

namespace trn::workloads {

class OpTemplates {
 public:
  struct Ops {
    std::vector<models::Op> casts;
    models::Op op;  // a collective's without its group (Op::group -1)
  };
  std::vector<std::unique_ptr<Ops>> by_vertex;
  const ScenarioSpec* scenario = nullptr;  // what they were made for (checked on each use)
  const TrainingGraph* graph = nullptr;
};

std::shared_ptr<OpTemplates> make_op_templates() { return std::make_shared<OpTemplates>(); }

namespace {

using models::Engine;
using models::Op;

std::vector<int> pp_group(const Layout& layout, int rank, const GraphOp& g) {
  const auto mine = layout.group(GroupKind::Pp, rank, true);
  const auto back = layout.group(GroupKind::Pp, rank, false);
  if (g.role == OpRole::PipeSendAct) return mine;                                       // {self, next}
  if (g.role == OpRole::PipeRecvGrad) return {mine.size() > 1 ? mine[1] : rank, rank};  // {next, self}
  if (g.role == OpRole::PipeSendGrad) return back;                                      // {self, prev}
  return {back.size() > 1 ? back[1] : rank, rank};                                      // recv act: {prev, self}
}

// The emission of one rank's program: the ops of a segment in its launch policy's order, each
// graph op as its casts and itself with the graph inputs of the same step as dependencies; the
// policy adds the host ops they wait for. Also the collective groups (with their siblings) and
// the statistics.
class Emitter {
 public:
  Emitter(const ScenarioSpec& s, const Layout& layout, const TrainingGraph& t, int rank,
          const std::vector<char>& simulated, std::shared_ptr<OpTemplates> templates)
      : cost_{s, s.system.chip, s.effective_lnc(), s.mode == ExecMode::Eager},
        layout_(layout),
        t_(t),
        rank_(rank),
        simulated_(simulated),
        policy_(make_launch_policy(cost_, layout, rank, t)),
        templates_(templates ? std::move(templates) : make_op_templates()) {
    if (!templates_->graph) {
      templates_->scenario = &s;
      templates_->graph = &t;
      templates_->by_vertex.resize(boost::num_vertices(t.g));
    } else if (templates_->scenario != &s || templates_->graph != &t) {
      throw std::logic_error("lowering: op templates shared by two scenarios or stage graphs");
    }
  }

  LaunchPolicy& policy() { return *policy_; }
  const models::Program& program() const { return prog_; }
  models::Program take_program() { return std::move(prog_); }
  const LoweringStats& stats() const { return stats_; }

  // Appends to `out` the host ops of a segment of kind `k` (Pass::Host); its launches go to
  // `launches`.
  void emit_host(SegmentKind k, std::vector<int32_t>& launches, std::vector<Op>& out) {
    sink_.target(&out);
    policy_->begin_segment(sink_, k, Pass::Host);
    for (Vertex v : policy_->order(k)) policy_->host_pass_op(sink_, t_.g[v], launches);
  }
  // Appends to `out` the ops of a segment of kind `k`: all of them (Pass::All) or, after its
  // host pass, the others (Pass::Device, taking that pass's `launches`). `ids`: the ops of the
  // segment's micro-batch by graph op, those of this segment added.
  void emit(SegmentKind k, Pass pass, std::vector<int32_t>& ids, const std::vector<int32_t>& launches,
            std::vector<Op>& out) {
    if (ids.empty()) ids.assign(boost::num_vertices(t_.g), -1);
    sink_.target(&out);
    policy_->begin_segment(sink_, k, pass);
    for (Vertex v : policy_->order(k)) {
      const int32_t id = emit_op(v, pass, ids, launches);
      ids[v] = id;  // Vertex: an index (vecS)
    }
  }
  // The queues of a segment of kind `k` (SegmentLanes) and its op count; `split`: its host ops
  // are handed out ahead (not part of the segment).
  void summarise(SegmentKind k, bool split, models::SegmentLanes& out, int64_t& n);

 private:
  int32_t emit_op(Vertex v, Pass pass, const std::vector<int32_t>& ids, const std::vector<int32_t>& launches);
  const OpTemplates::Ops& op_template(Vertex v);
  int32_t group_of(Vertex v);
  int32_t add_device_op(const GraphOp& g, Op op, Pass pass, const std::vector<int32_t>& launches);
  int32_t group_id(const std::vector<int>& members, const GraphOp& g);

  const OpCostContext cost_;  // the cost models see only this
  const Layout& layout_;
  const TrainingGraph& t_;
  const int rank_;
  const std::vector<char>& simulated_;  // per rank: has a program (empty: all)
  std::unique_ptr<LaunchPolicy> policy_;
  OpSink sink_;
  models::Program prog_;  // groups and siblings; the ops go to the sink's target
  std::map<std::vector<int>, int32_t> group_ids_;
  std::shared_ptr<OpTemplates> templates_;
  std::vector<int32_t> group_by_vertex_;  // collectives: the group of this rank's program (-1: not yet)
  LoweringStats stats_;
};

// A graph op's device ops without their dependencies: the same for every micro-batch and every
// rank of the stage, made once (OpTemplates).
const OpTemplates::Ops& Emitter::op_template(Vertex v) {
  std::unique_ptr<OpTemplates::Ops>& slot = templates_->by_vertex[v];
  if (slot) return *slot;
  slot = std::make_unique<OpTemplates::Ops>();
  const GraphOp& g = t_.g[v];
  slot->casts = cast_ops(cost_, g);
  Op& op = slot->op;
  if (g.kind == OpKind::Collective) {
    op.engine = Engine::Collective;
    op.queue = static_cast<int>(collective_stream(g));
    op.coll = g.coll;
    op.bytes = g.coll_bytes;
    op.name = g.name;
  } else {
    op = compute_op(cost_, g);
  }
  return *slot;
}

// A collective graph op's group in this rank's program, found once.
int32_t Emitter::group_of(Vertex v) {
  if (group_by_vertex_.empty()) group_by_vertex_.assign(boost::num_vertices(t_.g), -1);
  int32_t& id = group_by_vertex_[v];
  if (id < 0) id = group_id(collective_members(layout_, rank_, t_.g[v]), t_.g[v]);
  return id;
}

// One graph op: its casts (an FP8 GEMM's, or an FP32 model's auto-cast), each after the
// previous one and the first with the op's inputs, then the op after the last of them.
int32_t Emitter::emit_op(Vertex v, Pass pass, const std::vector<int32_t>& ids, const std::vector<int32_t>& launches) {
  const GraphOp& g = t_.g[v];
  const OpTemplates::Ops& tpl = op_template(v);
  stats_.model_flops += tpl.op.flops;
  // Dependencies: graph inputs of the same step.
  std::vector<int32_t> inputs;
  inputs.reserve(boost::in_degree(v, t_.g) + 1);  // and the last cast
  for (auto e : boost::make_iterator_range(boost::in_edges(v, t_.g))) {
    const int32_t id = ids[boost::source(e, t_.g)];
    if (id >= 0 && policy_->honours(t_.g[e])) inputs.push_back(id);
  }
  int32_t last_cast = -1;
  for (const Op& c : tpl.casts) {
    Op cast = c;
    cast.deps = inputs;
    if (last_cast >= 0) cast.deps.push_back(last_cast);
    last_cast = add_device_op(g, std::move(cast), pass, launches);
  }
  Op op = tpl.op;
  if (g.kind == OpKind::Collective) op.group = group_of(v);
  op.deps = std::move(inputs);
  if (last_cast >= 0) op.deps.push_back(last_cast);
  return add_device_op(g, std::move(op), pass, launches);
}

// Appends a device op of graph op `g` (its graph dependencies set) after the host op the
// policy makes it wait for; returns its id.
int32_t Emitter::add_device_op(const GraphOp& g, Op op, Pass pass, const std::vector<int32_t>& launches) {
  policy_->before_device_op(sink_, g, op, pass, launches);
  std::sort(op.deps.begin(), op.deps.end());
  op.deps.erase(std::unique(op.deps.begin(), op.deps.end()), op.deps.end());
  const Engine engine = op.engine;
  const int32_t id = sink_.add(std::move(op));
  policy_->after_device_op(g, engine, id);
  ++stats_.ops;
  return id;
}

int32_t Emitter::group_id(const std::vector<int>& members, const GraphOp& g) {
  auto it = group_ids_.find(members);
  if (it != group_ids_.end()) return it->second;
  prog_.groups.push_back(members);
  int32_t id = static_cast<int32_t>(prog_.groups.size()) - 1;
  group_ids_[members] = id;
  // Sibling groups: the same collective as seen from every other rank of this stage (they run
  // the same program at the same moment), once per distinct member set, skipping the groups
  // that contain a simulated rank (that rank's own program starts them).
  std::vector<std::vector<int>> sib;
  if (!simulated_.empty()) {
    // Groups that partition the ranks are told apart by their leader (no member list built for
    // every rank: O(ranks of the stage), not O(ranks x group size)); pipeline pairs by members.
    const bool partition = layout_.group_leader(g.group, rank_) >= 0;
    std::set<std::vector<int>> seen;
    std::unordered_set<int> leaders;
    std::vector<int> key = members;
    std::sort(key.begin(), key.end());
    if (partition)
      leaders.insert(layout_.group_leader(g.group, rank_));
    else
      seen.insert(key);
    const int p = layout_.coord(rank_).p, per_stage = layout_.per_stage();
    for (int r = p * per_stage; r < (p + 1) * per_stage; ++r) {
      if (simulated_[static_cast<size_t>(r)]) continue;
      if (partition && !leaders.insert(layout_.group_leader(g.group, r)).second) continue;
      std::vector<int> m = collective_members(layout_, r, g);
      if (!partition) {
        key = m;
        std::sort(key.begin(), key.end());
        if (!seen.insert(key).second) continue;
      }
      bool has_simulated = false;
      for (int x : m) has_simulated = has_simulated || simulated_[static_cast<size_t>(x)];
      if (!has_simulated && m.size() > 1) sib.push_back(std::move(m));
    }
  }
  prog_.siblings.push_back(std::move(sib));
  return id;
}

void Emitter::summarise(SegmentKind k, bool split, models::SegmentLanes& out, int64_t& n) {
  const std::vector<Vertex>& order = policy_->order(k);
  const std::set<Vertex> in_segment(order.begin(), order.end());
  std::set<std::pair<Engine, int>> seen;
  n = 0;
  if (policy_->host_leads()) {  // the host's first op (a dispatch) waits only for the previous segment
    out.first.push_back({Engine::Host, 0, true});
    seen.insert({Engine::Host, 0});
  }
  for (Vertex v : order) {
    const GraphOp& g = t_.g[v];
    ++n;
    // The op's queue, after those of the casts emitted before it (each cast after the
    // previous one, the first with the op's graph inputs).
    std::vector<std::pair<Engine, int>> keys;
    if (g.kind == OpKind::Collective) {
      keys.push_back({Engine::Collective, static_cast<int>(collective_stream(g))});
    } else {
      for (const Op& cast : cast_ops(cost_, g)) keys.push_back({cast.engine, 0});
      n += static_cast<int64_t>(keys.size());
      keys.push_back({compute_op(cost_, g).engine, 0});
    }
    // A root waits for nothing of its segment: no graph input there, and no host op of it (an
    // eager dispatch, or a compiled launch when the host ops are not handed out ahead).
    bool root = !policy_->waits_for_host(g, split);
    for (auto e : boost::make_iterator_range(boost::in_edges(v, t_.g)))
      if (in_segment.count(boost::source(e, t_.g)) && policy_->honours(t_.g[e])) root = false;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (!seen.insert(keys[i]).second) continue;
      out.first.push_back({keys[i].first, keys[i].second, i == 0 && root});
    }
  }
}

// A rank's program lowered one 1F1B segment at a time (models::ProgramSource). Compiled mode
// hands out host ops (trace, launches) separately: the host runs ahead of the device.
class RankStream : public models::ProgramSource {
 public:
  RankStream(const ScenarioSpec& s, const Layout& layout, const TrainingGraph& t, int rank,
             const std::vector<char>& simulated, bool split, std::shared_ptr<OpTemplates> templates = nullptr)
      : e_(s, layout, t, rank, simulated, std::move(templates)),
        order_(one_f_one_b(layout.coord(rank).p, s.parallel.pp, s.parallel.microbatches)),
        m_(s.parallel.microbatches),
        split_(split && e_.policy().splits_host()) {
    ids_.resize(static_cast<size_t>(m_));
    for (int k = 0; k < kSegmentKinds; ++k)
      e_.summarise(SegmentKind{(k & 1) != 0, (k & 2) != 0}, split_, lanes_[k], ops_[k]);
    for (auto [micro, bwd] : order_) total_ops_ += ops_[kind(micro, bwd).index()];
  }
  size_t segments() const override { return order_.size(); }
  const models::SegmentLanes& lanes(size_t seg) const override {
    return lanes_[kind(order_[seg].first, order_[seg].second).index()];
  }
  bool split_host() const override { return split_; }
  size_t lowered() const override { return next_; }
  size_t host_lowered() const override { return split_ ? next_host_ : next_; }
  void lower_host_next(std::vector<Op>& out) override {
    if (!split_ || next_host_ >= order_.size()) return;
    // A segment's host ops may wait for the previous segment's device ops (a whole graph's
    // launch for the previous graph's compute), which are then lowered first.
    while (e_.policy().host_waits_for_device() && next_ < next_host_) lower_next(out);
    auto [micro, bwd] = order_[next_host_];
    e_.emit_host(kind(micro, bwd), launches_[next_host_], out);
    ++next_host_;
  }
  void lower_next(std::vector<Op>& out) override {
    if (next_ >= order_.size()) return;
    if (split_ && next_host_ <= next_) lower_host_next(out);
    auto [micro, bwd] = order_[next_];
    auto& ids = ids_[static_cast<size_t>(micro)];
    if (split_) {
      e_.emit(kind(micro, bwd), Pass::Device, ids, launches_[next_], out);
      launches_.erase(next_);
    } else {
      e_.emit(kind(micro, bwd), Pass::All, ids, {}, out);
    }
    if (bwd) std::vector<int32_t>().swap(ids);  // nothing later reads this micro-batch's ops
    ++next_;
  }
  const models::Program& meta() const override { return e_.program(); }
  int64_t total_ops() const { return total_ops_; }
  const LoweringStats& stats() const { return e_.stats(); }
  models::Program take_program() { return e_.take_program(); }

 private:
  SegmentKind kind(int micro, bool bwd) const { return SegmentKind{bwd, micro == m_ - 1}; }

  Emitter e_;
  std::vector<std::pair<int, bool>> order_;
  int m_;
  bool split_;
  std::vector<std::vector<int32_t>> ids_;            // per micro-batch, per vertex: its op (-1: none yet)
  std::map<size_t, std::vector<int32_t>> launches_;  // per segment whose host ops are out
  size_t next_ = 0, next_host_ = 0;
  models::SegmentLanes lanes_[kSegmentKinds];
  int64_t ops_[kSegmentKinds] = {0, 0, 0, 0};
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

models::Program lower_rank(const ScenarioSpec& s, const Layout& layout, const TrainingGraph& t, int rank,
                           LoweringStats* stats, const std::vector<char>& simulated) {
  RankStream rs(s, layout, t, rank, simulated, false);
  std::vector<Op> ops;
  while (rs.lowered() < rs.segments()) rs.lower_next(ops);
  // The optimizer update (phase Update) is emitted with the last backward segment.
  if (stats) *stats = rs.stats();
  models::Program p = rs.take_program();
  p.ops = std::move(ops);
  return p;
}

std::unique_ptr<models::ProgramSource> stream_rank(const ScenarioSpec& s, const Layout& layout, const TrainingGraph& t,
                                                   int rank, int64_t* ops, const std::vector<char>& simulated,
                                                   std::shared_ptr<OpTemplates> templates) {
  auto rs = std::make_unique<RankStream>(s, layout, t, rank, simulated, true, std::move(templates));
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

std::vector<int> collective_members(const Layout& layout, int rank, const GraphOp& g) {
  return g.group == GroupKind::Pp ? pp_group(layout, rank, g) : layout.group(g.group, rank);
}

}  // namespace trn::workloads
