// FabricTraceWriter (fabric_trace.h).
#include "hw/trace/fabric_trace.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace trn::hw {

FabricTraceWriter::FabricTraceWriter(FlowNetwork& net, sim::TraceSink& sink, int pid)
    : net_(net), sink_(sink), pid_(pid) {
  net_.add_observer(this);
}

void FabricTraceWriter::trace_busy_spans(int32_t r) {
  const size_t n = net_.resources();
  span_on_.resize(n, 0);
  span_named_.resize(n, 0);
  span_start_.resize(n, 0.0);
  span_bytes0_.resize(n, 0.0);
  span_flows_.resize(n, 0);
  span_on_[static_cast<size_t>(r)] = 1;
}

void FabricTraceWriter::flow_started(int32_t ri, double now, int active) {
  const size_t r = static_cast<size_t>(ri);
  if (r >= span_on_.size() || !span_on_[r]) return;
  // A new span, unless the resource went idle at this very instant (then it continues).
  if (active == 1 && std::find(closing_.begin(), closing_.end(), ri) == closing_.end()) {
    span_start_[r] = now;
    span_bytes0_[r] = net_.carried(ri);
    span_flows_[r] = 0;
  }
  span_flows_[r] = std::max(span_flows_[r], active);
}

void FabricTraceWriter::flow_finished(int32_t ri, double /*now*/, int active) {
  const size_t r = static_cast<size_t>(ri);
  if (active == 0 && r < span_on_.size() && span_on_[r]) closing_.push_back(ri);
}

void FabricTraceWriter::settled(double now) {
  for (int32_t r : closing_)
    if (net_.active_flows(r) == 0) span_end(static_cast<size_t>(r), now, 0.0);
  closing_.clear();
}

void FabricTraceWriter::span_end(size_t r, double end, double extra_bytes) {
  if (!sink_.wants("links")) return;
  const int tid = kSpanTidBase + static_cast<int>(r);
  if (!span_named_[r]) {
    span_named_[r] = 1;
    sink_.thread_name(pid_, tid, net_.resource_name(static_cast<int32_t>(r)));
  }
  char args[96];
  std::snprintf(args, sizeof args, "{\"flows\":%d,\"bytes\":%.17g}", span_flows_[r],
                net_.carried(static_cast<int32_t>(r)) - span_bytes0_[r] + extra_bytes);
  sink_.span(pid_, tid, "busy", "links", span_start_[r], end, args);
}

void FabricTraceWriter::flush(double now) {
  for (size_t r = 0; r < span_on_.size(); ++r) {
    const int32_t ri = static_cast<int32_t>(r);
    if (!span_on_[r] || net_.active_flows(ri) == 0) continue;
    const double partial = net_.in_flight_bytes(ri, now);
    span_end(r, now, partial);
    span_start_[r] = now;
    span_bytes0_[r] = net_.carried(ri) + partial;
    span_flows_[r] = net_.active_flows(ri);
  }
}

void FabricTraceWriter::sample(size_t r, double now, double util) {
  util_[r] = util;
  at_[r] = now;
  sink_.counter(pid_, net_.resource_name(static_cast<int32_t>(r)) + " utilisation", "counters", now, util);
}

void FabricTraceWriter::counters_full_scan(double now) {
  const std::vector<double> load = net_.loads_full_scan();
  for (size_t r = 0; r < load.size(); ++r) {
    const double cap = net_.capacity(static_cast<int32_t>(r));
    const double util = cap > 0 ? load[r] / cap : 0.0;
    if (std::fabs(util - util_[r]) <= 0.05) continue;
    if (util > 0 && now - at_[r] < 100e-6) continue;
    sample(r, now, util);
  }
}

void FabricTraceWriter::rates_changed(double now, const std::vector<int32_t>& changed) {
  if (!sink_.wants("counters")) return;
  const size_t n = net_.resources();
  util_.resize(n, 0.0);
  at_.resize(n, -1.0);
  if (full_scan_) return counters_full_scan(now);
  // Only the resources of the component just re-solved can have a new load; resources held
  // back by the 100 us limit (deferred_) are looked at again on every call, so the samples are
  // those of a full scan at a cost that does not grow with the network.
  load_.resize(n, 0.0);
  deferred_mark_.resize(n, 0);
  for (int32_t ri : changed) {
    const size_t r = static_cast<size_t>(ri);
    load_[r] = net_.load(ri);
    if (!deferred_mark_[r]) {
      deferred_mark_[r] = 1;
      deferred_.push_back(ri);
    }
  }
  std::sort(deferred_.begin(), deferred_.end());  // resource order, as a full scan writes them
  size_t kept = 0;
  for (int32_t ri : deferred_) {
    const size_t r = static_cast<size_t>(ri);
    const double cap = net_.capacity(ri);
    const double util = cap > 0 ? load_[r] / cap : 0.0;
    if (std::fabs(util - util_[r]) <= 0.05) {
      deferred_mark_[r] = 0;
      continue;
    }
    if (util > 0 && now - at_[r] < 100e-6) {
      deferred_[kept++] = ri;  // still pending: look again on the next call
      continue;
    }
    deferred_mark_[r] = 0;
    sample(r, now, util);
  }
  deferred_.resize(kept);
}

}  // namespace trn::hw
