// NeuronCore implementation.
#include "hw/core/neuron_core.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "models/cost/tensor_cost.h"

namespace trn::hw {

using models::Engine;

NeuronCore::NeuronCore(sc_core::sc_module_name name, const models::ChipSpec& chip, FlowNetwork& net,
                       sim::EventQueue& events, std::vector<ResourceUse> dma_path)
    : sc_core::sc_module(name), chip_(chip), net_(net), events_(events), dma_path_(std::move(dma_path)) {}

size_t NeuronCore::lane_of(Engine e, int queue) const {
  if (e == Engine::Dma) return models::kComputeEngines + static_cast<size_t>(queue % kDmaQueues);
  if (e == Engine::Collective)
    return models::kComputeEngines + kDmaQueues + static_cast<size_t>(queue % kCollectiveQueues);
  if (e == Engine::Host) return models::kComputeEngines + kDmaQueues + kCollectiveQueues;
  return static_cast<size_t>(e);
}

size_t NeuronCore::lane_of(const models::Op& op) const { return lane_of(op.engine, op.queue); }

void NeuronCore::load(models::Program program) {
  program.check();
  std::vector<models::Op> ops = std::move(program.ops);
  program.ops.clear();
  program_ = std::move(program);
  source_.reset();
  const size_t lanes = models::kComputeEngines + kDmaQueues + kCollectiveQueues + 1;
  lane_ops_.assign(lanes, {});
  lane_busy_.assign(lanes, 0);
  lane_wait_.assign(lanes, 0);
  window_.clear();
  base_ = lowered_ = 0;
  keep_times_ = true;
  times_.clear();
  times_.reserve(ops.size());
  append(ops);
}

void NeuronCore::load(std::unique_ptr<models::ProgramSource> source) {
  load(models::Program{});
  keep_times_ = false;
  source_ = std::move(source);
  lane_wait_.assign(lane_ops_.size(), static_cast<size_t>(-1));
  program_.groups = source_->meta().groups;
  program_.siblings = source_->meta().siblings;
}

bool NeuronCore::done() const {
  if (source_ && (source_->lowered() < source_->segments() || source_->host_lowered() < source_->segments()))
    return false;
  return executed_ == lowered_;
}

void NeuronCore::append(std::vector<models::Op>& ops) {
  for (auto& o : ops) {
    const size_t id = lowered_++;
    window_.push_back(std::make_unique<Slot>());
    Slot& sl = *window_.back();
    sl.op = std::move(o);
    for (int32_t d : sl.op.deps) {
      if (d < 0 || static_cast<size_t>(d) >= id)
        throw std::logic_error("NeuronCore: op dependency does not point backward");
      if (static_cast<size_t>(d) < base_ || !window_[static_cast<size_t>(d) - base_]) continue;  // released: finished
      Slot& dep = slot(static_cast<size_t>(d));
      if (dep.finished) continue;
      ++sl.waiting;
      dep.dependents.push_back(id);
    }
    lane_ops_[lane_of(sl.op)].push_back(id);
  }
  ops.clear();
  if (source_) {  // collective groups of the ops just lowered
    const auto& m = source_->meta();
    for (size_t g = program_.groups.size(); g < m.groups.size(); ++g) {
      program_.groups.push_back(m.groups[g]);
      program_.siblings.push_back(g < m.siblings.size() ? m.siblings[g] : std::vector<std::vector<int>>{});
    }
  }
}

// A lane ran out of ops: lower what it could run next. Its next op in program order is the
// first op on it in the segments not yet lowered; a root (no dependency in its own segment)
// may be ready now, so its segment is lowered; any other waits for an op of its segment, which
// is lowered (with it) when some other lane needs it.
void NeuronCore::feed(size_t lane) {
  if (!source_) return;
  const size_t n = source_->segments();
  std::vector<models::Op> batch;
  if (source_->split_host() && lane == lane_of(Engine::Host, 0)) {
    while (lane_ops_[lane].empty() && source_->host_lowered() < n) {
      source_->lower_host_next(batch);
      append(batch);
    }
    return;
  }
  size_t s = source_->lowered();
  if (lane_wait_[lane] != static_cast<size_t>(-1) && s <= lane_wait_[lane]) return;
  for (; s < n; ++s) {
    const models::SegmentLanes& sl = source_->lanes(s);
    const std::tuple<Engine, int, bool>* first = nullptr;
    for (const auto& f : sl.first)
      if (lane_of(std::get<0>(f), std::get<1>(f)) == lane) {
        first = &f;
        break;
      }
    if (!first) continue;
    if (std::get<2>(*first)) {
      while (source_->lowered() <= s) {
        source_->lower_next(batch);
        append(batch);
      }
    } else {
      lane_wait_[lane] = s;
    }
    return;
  }
  lane_wait_[lane] = n;
}

void NeuronCore::start_of_simulation() {
  events_.at(0.0, [this] {
    for (size_t l = 0; l < lane_ops_.size(); ++l) try_issue(l);
  });
}

void NeuronCore::try_issue(size_t lane) {
  if (lane_busy_[lane]) return;
  if (lane_ops_[lane].empty()) feed(lane);
  if (lane_ops_[lane].empty()) return;
  size_t op = lane_ops_[lane].front();
  if (slot(op).waiting > 0) return;  // in-order: the head waits for its dependencies
  lane_busy_[lane] = 1;
  lane_ops_[lane].pop_front();
  begin(op);
}

void NeuronCore::begin(size_t i) {
  Slot& sl = slot(i);
  const models::Op& op = sl.op;
  const double now = sim::now_s();
  sl.start = now;
  for (CoreObserver* o : observers_) o->op_started(op, now);
  if (op.engine == Engine::Dma) {
    double latency = chip_.dma.fixed_latency.v + chip_.dma.descriptor_latency.v;
    dma_bytes_ += op.bytes;
    sl.parts_left = 1;
    start_flows(i, op.bytes, latency);
    return;
  }
  if (op.engine == Engine::Collective) {
    if (!collective_hook_) throw std::logic_error("NeuronCore: collective op without a runner");
    sl.parts_left = 1;
    collective_hook_(op, [this, i] { complete(i); });
    return;
  }
  double d = op.duration_s;
  if (op.engine == Engine::Tensor && op.tensor_busy && now - tensor_idle_since_ >= chip_.tensor.throttle_window.v)
    d += models::throttle_penalty(chip_.tensor, d);
  sl.parts_left = 1;
  if (op.bytes > 0 && op.engine != Engine::Host) {  // operands stream from/to HBM alongside compute
    sl.parts_left = 2;
    dma_bytes_ += op.bytes;
    start_flows(i, op.bytes, chip_.dma.fixed_latency.v);
  }
  events_.at(d, [this, i] { complete(i); });
}

void NeuronCore::start_flows(size_t i, double bytes, double latency) {
  for (const auto& m : mirrors_) net_.start_on(m, bytes, latency, nullptr);
  net_.start_on(dma_path_, bytes, latency, [this, i] { complete(i); });
}

void NeuronCore::complete(size_t i) {
  Slot& sl = slot(i);
  if (--sl.parts_left > 0) return;
  ++completing_;
  const models::Op& op = sl.op;
  const double now = sim::now_s();
  sl.end = now;
  auto& st = stats_[static_cast<size_t>(op.engine)];
  st.busy_s += now - sl.start;
  ++st.ops;
  if (op.engine == Engine::Tensor) tensor_idle_since_ = now;
  const size_t lane = lane_of(op);
  for (CoreObserver* o : observers_) o->op_finished(op, lane, sl.start, now);
  ++executed_;
  finish_s_ = now;
  if (!observers_.empty() && done())
    for (CoreObserver* o : observers_) o->program_done(now);
  lane_busy_[lane] = 0;
  for (size_t dep : sl.dependents) --slot(dep).waiting;
  sl.finished = 1;  // ops lowered from here on do not wait for it
  try_issue(lane);
  for (size_t dep : sl.dependents) try_issue(lane_of(slot(dep).op));
  if (source_ && op.engine == Engine::Host) {  // nothing reads it again: release it now
    if (retire_hook_) retire_hook_(op, sl.start, sl.end);
    window_[i - base_].reset();
  }
  if (--completing_ == 0) retire();  // not under a completion that still reads its op
}

void NeuronCore::retire() {
  while (!window_.empty() && (!window_.front() || window_.front()->finished)) {
    if (window_.front()) {
      Slot& sl = *window_.front();
      if (retire_hook_) retire_hook_(sl.op, sl.start, sl.end);
      if (keep_times_) times_.push_back({sl.start, sl.end});
    }
    window_.pop_front();
    ++base_;
  }
}

void NeuronCore::add_stats(sim::StatGroup& g) const {
  g.add("ops", "ops", "ops executed (every engine and queue)", [this] { return static_cast<double>(executed_); });
  g.add("finish", "s", "simulated time at which the core finished its program", [this] { return finish_s_; });
  g.add("dma_bytes", "B", "bytes moved by DMA ops and streamed to and from HBM by compute ops",
        [this] { return dma_bytes_; });
  for (size_t e = 0; e < stats_.size(); ++e) {
    const std::string name = models::engine_name(static_cast<models::Engine>(e));
    sim::StatGroup& eg = g.group(name, "the " + name + " queue of this core");
    eg.add("busy", "s", "summed durations of the ops that ran on it", [this, e] { return stats_[e].busy_s; });
    eg.add("ops", "ops", "ops that ran on it", [this, e] { return static_cast<double>(stats_[e].ops); });
  }
}

}  // namespace trn::hw
