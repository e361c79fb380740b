// StepBounder: the step's programs scheduled with lower-bound durations and no fabric.
#include "sim/app/plan/step_bound.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "hw/core/neuron_core.h"
#include "models/collectives/collective_bound.h"
#include "models/collectives/group_plan.h"
#include "models/collectives/selection.h"
#include "models/spec/system_spec.h"
#include "sim/app/simulation/step_simulation.h"
#include "workloads/lowering/lower_program.h"
#include "workloads/parallel/layout.h"
#include "workloads/parallel/parallel_passes.h"

namespace trn::app {

struct StepBounder::SystemCache {
  models::Topology topo;
  std::map<std::tuple<int, double, std::vector<int>>, double> collectives;  // (op, bytes, group) -> bound
};

namespace {

using models::Engine;

struct BoundOp {
  double dur = 0;      // lower bound of the op's time (collectives: set from their group's plan)
  double bytes = 0;    // collectives: message size
  int32_t group = -1;  // collectives: index into the rank's groups
  int32_t seq = 0;     // collectives: earlier ops of this rank on the same group (the runner's sequence)
  uint32_t dep_begin = 0, dep_end = 0;
  uint16_t lane = 0;
  models::CollectiveOp coll = models::CollectiveOp::AllReduce;
  bool collective = false;
};

struct RankProgram {
  int rank = 0;
  std::vector<BoundOp> ops;
  std::vector<int32_t> deps;  // BoundOp::dep_begin .. dep_end
  std::vector<std::vector<int>> groups;
};

// The lane of an op as hw::NeuronCore numbers them: 4 compute engines, the DMA queues, the
// collective streams, the host.
uint16_t lane_of(const models::Op& op) {
  constexpr int kDma = hw::NeuronCore::kDmaQueues, kColl = hw::NeuronCore::kCollectiveQueues;
  if (op.engine == Engine::Dma) return static_cast<uint16_t>(models::kComputeEngines + op.queue % kDma);
  if (op.engine == Engine::Collective) return static_cast<uint16_t>(models::kComputeEngines + kDma + op.queue % kColl);
  if (op.engine == Engine::Host) return static_cast<uint16_t>(models::kComputeEngines + kDma + kColl);
  return static_cast<uint16_t>(op.engine);
}

// The op's bound (collectives later, from their group): see step_bound.h.
BoundOp bound_op(const models::Op& op, const models::ChipSpec& chip, double path_cap) {
  BoundOp b;
  b.lane = lane_of(op);
  switch (op.engine) {
    case Engine::Dma: b.dur = chip.dma.fixed_latency.v + chip.dma.descriptor_latency.v + op.bytes / path_cap; break;
    case Engine::Collective:
      b.collective = true;
      b.group = op.group;
      b.coll = op.coll;
      b.bytes = op.bytes;
      break;
    case Engine::Host: b.dur = op.duration_s; break;
    default:  // compute: its engine time, and its HBM stream when it has one
      b.dur = op.duration_s;
      if (op.bytes > 0) b.dur = std::max(b.dur, chip.dma.fixed_latency.v + op.bytes / path_cap);
  }
  return b;
}

// Every segment of `rank`'s program, as the step simulation streams it (workloads::stream_rank).
RankProgram lower_program(const workloads::ScenarioSpec& s, const workloads::Layout& layout,
                          const workloads::TrainingGraph& g, int rank, int lnc) {
  static const std::vector<char> no_mask;  // no sibling groups: they only add traffic
  auto src = workloads::stream_rank(s, layout, g, rank, nullptr, no_mask);
  const auto& chip = s.system.chip;
  // A DMA path: the logical core's DMA engines and its HBM stack (hw::System::dma_path).
  const double path_cap = std::min(lnc * chip.dma.core_bandwidth(), chip.hbm.bandwidth.v / chip.hbm.stacks);
  RankProgram p;
  p.rank = rank;
  std::map<int32_t, int32_t> seq;
  std::vector<models::Op> batch;
  while (src->lowered() < src->segments()) {
    batch.clear();
    src->lower_next(batch);
    for (const models::Op& op : batch) {
      BoundOp b = bound_op(op, chip, path_cap);
      b.dep_begin = static_cast<uint32_t>(p.deps.size());
      p.deps.insert(p.deps.end(), op.deps.begin(), op.deps.end());
      b.dep_end = static_cast<uint32_t>(p.deps.size());
      if (b.collective) b.seq = seq[b.group]++;
      p.ops.push_back(b);
    }
  }
  p.groups = src->meta().groups;
  return p;
}

// Sets each collective's bound from its group's plan (cached per (op, bytes, group)).
void bound_collectives(RankProgram& p, StepBounder::SystemCache& sc, const models::ChipSpec& chip, int lnc) {
  const models::Algorithm large = models::large_message_algorithm(chip.collectives);  // as hw::plan_collective
  const int ranks_per_chip = chip.cores.physical / lnc;
  const models::PlanOptions opt = models::with_runtime_release(chip.collectives);  // as hw::plan_collective
  for (BoundOp& b : p.ops) {
    if (!b.collective) continue;
    const std::vector<int>& group = p.groups.at(static_cast<size_t>(b.group));
    if (group.size() <= 1) continue;  // the runner completes it at once
    auto key = std::make_tuple(static_cast<int>(b.coll), b.bytes, group);
    auto it = sc.collectives.find(key);
    if (it == sc.collectives.end()) {
      const models::GroupPlan gp =
          models::plan_group_collective(sc.topo, ranks_per_chip, large, b.coll, b.bytes, group, nullptr, opt);
      it = sc.collectives.emplace(std::move(key), models::collective_time_lower_bound(gp, sc.topo, chip, lnc)).first;
    }
    b.dur = it->second;
  }
}

// The programs of the simulated ranks run by the simulation's rules (step_bound.h) with the
// bound durations: dataflow over (dependencies, lane order, group arrival), no clock.
class Schedule {
 public:
  explicit Schedule(const std::vector<RankProgram>& progs) : progs_(progs), st_(progs.size()) {
    for (const auto& p : progs_) simulated_.push_back(p.rank);
    std::sort(simulated_.begin(), simulated_.end());
    // Each rank's groups by one number across ranks (the runner matches arrivals by members),
    // with the count of their simulated members.
    std::map<std::vector<int>, int32_t> ids;
    for (size_t r = 0; r < progs_.size(); ++r)
      for (const std::vector<int>& group : progs_[r].groups) {
        auto [it, fresh] = ids.emplace(group, static_cast<int32_t>(expected_.size()));
        if (fresh) {
          size_t n = 0;
          for (int m : group) n += std::binary_search(simulated_.begin(), simulated_.end(), m) ? 1 : 0;
          expected_.push_back(group.size() <= 1 ? 0 : n);
        }
        st_[r].group_id.push_back(it->second);
      }
    for (size_t r = 0; r < progs_.size(); ++r) init(r);
  }
  /// The last completion of any rank (the simulation's step time is the last of its cores').
  double run() {
    while (!work_.empty()) {
      auto [r, i] = work_.back();
      work_.pop_back();
      issue(r, i);
    }
    for (size_t r = 0; r < progs_.size(); ++r)
      if (st_[r].done != progs_[r].ops.size()) throw std::logic_error("step bound: the programs deadlock");
    return finish_;
  }

 private:
  struct RankState {
    std::vector<double> ready, end;
    std::vector<int32_t> waiting, lane_next;
    std::vector<uint32_t> dep_start;  // dependents of op i: dependents[dep_start[i] .. dep_start[i + 1]]
    std::vector<int32_t> dependents;
    std::vector<int32_t> group_id;  // per group of the rank's program: its number across ranks
    size_t done = 0;
  };
  struct Slot {
    size_t expected = 0;
    double t = 0;
    std::vector<std::pair<size_t, int32_t>> arrived;
  };

  void init(size_t r) {
    const RankProgram& p = progs_[r];
    RankState& s = st_[r];
    const size_t n = p.ops.size();
    s.ready.assign(n, 0.0);
    s.end.assign(n, 0.0);
    s.waiting.assign(n, 0);
    s.lane_next.assign(n, -1);
    s.dep_start.assign(n + 1, 0);
    std::vector<int32_t> last_on_lane;  // per lane: its last op so far (-1: none)
    for (size_t i = 0; i < n; ++i) {
      const BoundOp& b = p.ops[i];
      for (uint32_t k = b.dep_begin; k < b.dep_end; ++k) ++s.dep_start[static_cast<size_t>(p.deps[k]) + 1];
      s.waiting[i] = static_cast<int32_t>(b.dep_end - b.dep_begin);
      if (b.lane >= last_on_lane.size()) last_on_lane.resize(b.lane + size_t{1}, -1);
      int32_t& last = last_on_lane[b.lane];
      if (last >= 0) {
        s.lane_next[static_cast<size_t>(last)] = static_cast<int32_t>(i);
        ++s.waiting[i];
      }
      last = static_cast<int32_t>(i);
    }
    for (size_t i = 0; i < n; ++i) s.dep_start[i + 1] += s.dep_start[i];
    s.dependents.resize(s.dep_start[n]);
    std::vector<uint32_t> fill(s.dep_start.begin(), s.dep_start.end() - 1);
    for (size_t i = 0; i < n; ++i)
      for (uint32_t k = p.ops[i].dep_begin; k < p.ops[i].dep_end; ++k)
        s.dependents[fill[static_cast<size_t>(p.deps[k])]++] = static_cast<int32_t>(i);
    for (size_t i = 0; i < n; ++i)
      if (s.waiting[i] == 0) work_.push_back({r, static_cast<int32_t>(i)});
  }

  // Op i of rank r has its dependencies and its lane: it starts (a collective: it arrives).
  void issue(size_t r, int32_t i) {
    const BoundOp& b = progs_[r].ops[static_cast<size_t>(i)];
    const double t = st_[r].ready[static_cast<size_t>(i)];
    if (!b.collective) return complete(r, i, t + b.dur);
    const int32_t gid = st_[r].group_id[static_cast<size_t>(b.group)];
    const size_t expected = expected_[static_cast<size_t>(gid)];
    if (expected <= 1) return complete(r, i, t + b.dur);
    Slot& slot = slots_[{gid, b.seq}];
    slot.expected = expected;
    slot.t = std::max(slot.t, t);
    slot.arrived.push_back({r, i});
    if (slot.arrived.size() < slot.expected) return;
    const Slot ready = std::move(slot);
    slots_.erase({gid, b.seq});
    for (auto [rr, ii] : ready.arrived) complete(rr, ii, ready.t + b.dur);
  }

  void complete(size_t r, int32_t i, double end) {
    RankState& s = st_[r];
    const size_t u = static_cast<size_t>(i);
    s.end[u] = end;
    ++s.done;
    finish_ = std::max(finish_, end);
    auto release = [&](int32_t j) {
      const size_t v = static_cast<size_t>(j);
      s.ready[v] = std::max(s.ready[v], end);
      if (--s.waiting[v] == 0) work_.push_back({r, j});
    };
    for (uint32_t k = s.dep_start[u]; k < s.dep_start[u + 1]; ++k) release(s.dependents[k]);
    if (s.lane_next[u] >= 0) release(s.lane_next[u]);
  }

  const std::vector<RankProgram>& progs_;
  std::vector<RankState> st_;
  std::vector<int> simulated_;
  std::vector<std::pair<size_t, int32_t>> work_;
  std::vector<size_t> expected_;                       // per group number: its simulated members (0: a group of one)
  std::map<std::pair<int32_t, int32_t>, Slot> slots_;  // (group number, sequence) -> arrivals
  double finish_ = 0;
};

}  // namespace

StepBounder::StepBounder() = default;
StepBounder::~StepBounder() = default;

StepBounder::SystemCache& StepBounder::system(const workloads::ScenarioSpec& s) {
  const int lnc = s.effective_lnc();
  const std::string key = "lnc " + std::to_string(lnc) + "\n" + models::resolved_yaml(s.system, "");
  auto it = systems_.find(key);
  if (it == systems_.end()) {
    auto c = std::make_unique<SystemCache>();
    c->topo = models::build_topology(s.system);
    it = systems_.emplace(key, std::move(c)).first;
  }
  return *it->second;
}

double StepBounder::step_lower_bound(const workloads::ScenarioSpec& s) {
  const workloads::Layout layout(s.parallel);
  const int lnc = s.effective_lnc();
  SystemCache& sc = system(s);
  std::vector<RankProgram> progs;
  {
    std::map<int, workloads::TrainingGraph> graphs;
    for (int rank : layout.stage_representatives()) {
      const int p = layout.coord(rank).p;
      if (!graphs.count(p)) graphs.emplace(p, workloads::stage_training_graph(s, p));
      progs.push_back(lower_program(s, layout, graphs.at(p), rank, lnc));
      bound_collectives(progs.back(), sc, s.system.chip, lnc);
    }
  }
  double t = Schedule(progs).run() * (1 - kRoundingMargin);
  if (steady_state_points(s.parallel.microbatches, s.parallel.pp).size() > 1 ||
      layer_points(s, StepOptions{}).size() > 1)
    t *= 1 - kExtrapolationMargin;
  return t;
}

}  // namespace trn::app
