// NeuronCore implementation.
#include "hw/core/neuron_core.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "models/cost/tensor_cost.h"

namespace trn::hw {

using models::Engine;
namespace {
constexpr double kMiB = 1024.0 * 1024.0;
}  // namespace

NeuronCore::NeuronCore(sc_core::sc_module_name name, const models::ChipSpec& chip, FlowNetwork& net,
                       sim::EventQueue& events, std::vector<ResourceUse> dma_path)
    : sc_core::sc_module(name), chip_(chip), net_(net), events_(events), dma_path_(std::move(dma_path)) {}

void NeuronCore::set_trace(sim::TraceSink* sink, int pid, int tid_base, const std::string& label, int lnc) {
  trace_ = sink;
  trace_pid_ = pid;
  trace_tid_ = tid_base;
  trace_label_ = label;
  trace_sbuf_ = sink && sink->wants("counters");
  sbuf_capacity_ = chip_.sbuf.total_bytes() * std::max(1, lnc);
  char cap[32];  // in MiB, printed like the samples (6 significant digits)
  std::snprintf(cap, sizeof cap, "%.6g", sbuf_capacity_ / kMiB);
  sbuf_counter_ = label + " SBUF occupancy (MiB, capacity " + cap + " MiB)";
}

void NeuronCore::sbuf_change(double now, double delta) {
  sbuf_live_ = std::max(0.0, sbuf_live_ + delta);
  if (sbuf_pending_t_ >= 0 && sbuf_pending_t_ != now) sbuf_flush();
  sbuf_pending_t_ = now;
  sbuf_pending_v_ = std::min(sbuf_live_, sbuf_capacity_);
}

void NeuronCore::sbuf_flush() {
  if (sbuf_pending_t_ < 0) return;
  if (sbuf_pending_v_ != sbuf_written_) {
    trace_->counter(trace_pid_, sbuf_counter_, "counters", sbuf_pending_t_, sbuf_pending_v_ / kMiB);
    sbuf_written_ = sbuf_pending_v_;
  }
  sbuf_pending_t_ = -1;
}

size_t NeuronCore::lane_of(const models::Op& op) const {
  if (op.engine == Engine::Dma) return models::kComputeEngines + static_cast<size_t>(op.queue % kDmaQueues);
  if (op.engine == Engine::Collective)
    return models::kComputeEngines + kDmaQueues + static_cast<size_t>(op.queue % kCollectiveQueues);
  if (op.engine == Engine::Host) return models::kComputeEngines + kDmaQueues + kCollectiveQueues;
  return static_cast<size_t>(op.engine);
}

void NeuronCore::load(models::Program program) {
  program.check();
  program_ = std::move(program);
  const size_t lanes = models::kComputeEngines + kDmaQueues + kCollectiveQueues + 1;
  lane_ops_.assign(lanes, {});
  lane_next_.assign(lanes, 0);
  lane_busy_.assign(lanes, 0);
  waiting_.assign(program_.ops.size(), 0);
  dependents_.assign(program_.ops.size(), {});
  times_.assign(program_.ops.size(), {0.0, 0.0});
  parts_left_.assign(program_.ops.size(), 0);
  for (size_t i = 0; i < program_.ops.size(); ++i) {
    lane_ops_[lane_of(program_.ops[i])].push_back(i);
    waiting_[i] = static_cast<int32_t>(program_.ops[i].deps.size());
    for (int32_t d : program_.ops[i].deps) dependents_[static_cast<size_t>(d)].push_back(i);
  }
}

void NeuronCore::start_of_simulation() {
  events_.at(0.0, [this] {
    for (size_t l = 0; l < lane_ops_.size(); ++l) try_issue(l);
  });
}

void NeuronCore::try_issue(size_t lane) {
  if (lane_busy_[lane] || lane_next_[lane] >= lane_ops_[lane].size()) return;
  size_t op = lane_ops_[lane][lane_next_[lane]];
  if (waiting_[op] > 0) return;  // in-order: the head waits for its dependencies
  lane_busy_[lane] = 1;
  ++lane_next_[lane];
  begin(op);
}

void NeuronCore::begin(size_t i) {
  const models::Op& op = program_.ops[i];
  const double now = sim::now_s();
  times_[i].first = now;
  if (trace_sbuf_ && op.sbuf_bytes > 0) sbuf_change(now, op.sbuf_bytes);
  if (op.engine == Engine::Dma) {
    double latency = chip_.dma.fixed_latency.v + chip_.dma.descriptor_latency.v;
    dma_bytes_ += op.bytes;
    parts_left_[i] = 1;
    start_flows(i, op.bytes, latency);
    return;
  }
  if (op.engine == Engine::Collective) {
    if (!collective_hook_) throw std::logic_error("NeuronCore: collective op without a runner");
    parts_left_[i] = 1;
    collective_hook_(op, [this, i] { complete(i); });
    return;
  }
  double d = op.duration_s;
  if (op.engine == Engine::Tensor && op.tensor_busy &&
      now - tensor_idle_since_ >= chip_.tensor.throttle_window.v)
    d += models::throttle_penalty(chip_.tensor, d);
  parts_left_[i] = 1;
  if (op.bytes > 0 && op.engine != Engine::Host) {  // operands stream from/to HBM alongside compute
    parts_left_[i] = 2;
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
  if (--parts_left_[i] > 0) return;
  const models::Op& op = program_.ops[i];
  const double now = sim::now_s();
  times_[i].second = now;
  auto& st = stats_[static_cast<size_t>(op.engine)];
  st.busy_s += now - times_[i].first;
  ++st.ops;
  if (op.engine == Engine::Tensor) tensor_idle_since_ = now;
  if (trace_sbuf_ && op.sbuf_bytes > 0) sbuf_change(now, -op.sbuf_bytes);
  if (trace_) {
    const size_t lane_id = lane_of(op);
    if (trace_named_.size() <= lane_id) trace_named_.resize(lane_id + 1, 0);
    const int tid = trace_tid_ + static_cast<int>(lane_id);
    std::string cat = models::engine_name(op.engine);
    if (!trace_named_[lane_id]) {
      trace_named_[lane_id] = 1;
      std::string track = trace_label_ + " " + cat;
      if (op.engine == Engine::Dma || op.engine == Engine::Collective) track += " q" + std::to_string(op.queue);
      trace_->thread_name(trace_pid_, tid, track);
    }
    std::string args;
    if (op.flops > 0 || op.bytes > 0) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "{\"flops\":%.17g,\"bytes\":%.17g}", op.flops, op.bytes);
      args = buf;
    }
    trace_->span(trace_pid_, tid, op.name.empty() ? cat : op.name, cat, times_[i].first, now, args);
  }
  ++executed_;
  finish_s_ = now;
  if (trace_sbuf_ && done()) sbuf_flush();
  size_t lane = lane_of(op);
  lane_busy_[lane] = 0;
  for (size_t dep : dependents_[i]) --waiting_[dep];
  try_issue(lane);
  for (size_t dep : dependents_[i]) try_issue(lane_of(program_.ops[dep]));
}

}  // namespace trn::hw
