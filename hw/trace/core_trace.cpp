// CoreTraceWriter (core_trace.h).
#include "hw/trace/core_trace.h"

#include <algorithm>
#include <cstdio>

namespace trn::hw {

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
}  // namespace

CoreTraceWriter::CoreTraceWriter(NeuronCore& core, sim::TraceSink& sink, int pid, int tid_base,
                                 const std::string& label, double sbuf_bytes)
    : sink_(sink),
      pid_(pid),
      tid_base_(tid_base),
      label_(label),
      sbuf_on_(sink.wants("counters")),
      sbuf_capacity_(sbuf_bytes) {
  char cap[32];  // in MiB, printed like the samples (6 significant digits)
  std::snprintf(cap, sizeof cap, "%.6g", sbuf_capacity_ / kMiB);
  sbuf_counter_ = label + " SBUF occupancy (MiB, capacity " + cap + " MiB)";
  core.add_observer(this);
}

void CoreTraceWriter::sbuf_change(double now, double delta) {
  sbuf_live_ = std::max(0.0, sbuf_live_ + delta);
  if (pending_t_ >= 0 && pending_t_ != now) sbuf_flush();
  pending_t_ = now;
  pending_v_ = std::min(sbuf_live_, sbuf_capacity_);
}

void CoreTraceWriter::sbuf_flush() {
  if (pending_t_ < 0) return;
  if (pending_v_ != written_) {
    sink_.counter(pid_, sbuf_counter_, "counters", pending_t_, pending_v_ / kMiB);
    written_ = pending_v_;
  }
  pending_t_ = -1;
}

void CoreTraceWriter::op_started(const models::Op& op, double now) {
  if (sbuf_on_ && op.sbuf_bytes > 0) sbuf_change(now, op.sbuf_bytes);
}

void CoreTraceWriter::op_finished(const models::Op& op, size_t lane, double start, double end) {
  if (sbuf_on_ && op.sbuf_bytes > 0) sbuf_change(end, -op.sbuf_bytes);
  if (named_.size() <= lane) named_.resize(lane + 1, 0);
  const int tid = tid_base_ + static_cast<int>(lane);
  const std::string cat = models::engine_name(op.engine);
  if (!named_[lane]) {
    named_[lane] = 1;
    std::string track = label_ + " " + cat;
    if (op.engine == models::Engine::Dma || op.engine == models::Engine::Collective)
      track += " q" + std::to_string(op.queue);
    sink_.thread_name(pid_, tid, track);
  }
  std::string args;
  if (op.flops > 0 || op.bytes > 0) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "{\"flops\":%.17g,\"bytes\":%.17g}", op.flops, op.bytes);
    args = buf;
  }
  sink_.span(pid_, tid, op.name.empty() ? cat : op.name, cat, start, end, args);
}

void CoreTraceWriter::program_done(double /*now*/) {
  if (sbuf_on_) sbuf_flush();
}

}  // namespace trn::hw
