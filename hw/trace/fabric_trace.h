// The fabric's timeline writer, an observer of the FlowNetwork (hw/fabric/flow_network.h):
// a utilisation counter per resource (category "counters") and, for the resources asked
// for, a "busy" span per interval with at least one active flow (category "links"). The
// network knows nothing of the trace; this writer keeps all the sampling state.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/fabric/flow_network.h"
#include "sim/base/trace_sink.h"

namespace trn::hw {

class FabricTraceWriter : public FabricObserver {
 public:
  /// Writes to `sink` as process `pid`; registers itself with `net`.
  FabricTraceWriter(FlowNetwork& net, sim::TraceSink& sink, int pid);
  /// Also writes busy spans of resource r, on its own track (tid kSpanTidBase + r, named after
  /// the resource when its first span is written), with args {flows: most concurrent flows,
  /// bytes: bytes of the flows that crossed r during the span}.
  void trace_busy_spans(int32_t r);
  /// Writes the spans still open at `now` (cut at `now`); call before the sink finishes.
  void flush(double now);
  /// Reference mode for tests: utilisation counters from a scan of every active flow and
  /// resource at each re-solve, instead of the resources of the re-solved component.
  void set_counters_full_scan(bool on) { full_scan_ = on; }
  static constexpr int kSpanTidBase = 100000;

  void flow_started(int32_t r, double now, int active) override;
  void flow_finished(int32_t r, double now, int active) override;
  void settled(double now) override;
  void rates_changed(double now, const std::vector<int32_t>& changed) override;

 private:
  void counters_full_scan(double now);
  void sample(size_t r, double now, double util);
  void span_end(size_t r, double end, double extra_bytes);

  FlowNetwork& net_;
  sim::TraceSink& sink_;
  int pid_;
  bool full_scan_ = false;
  // Utilisation counters: sampled on changes of more than 5 % of capacity, at most every
  // 100 us per resource (a drop to idle always). Per resource the last value written and
  // when, its load as of the last re-solve that touched it; deferred_ holds the resources
  // whose sample the 100 us limit held back (looked at again on every re-solve).
  std::vector<double> util_, at_, load_;
  std::vector<int32_t> deferred_;
  std::vector<uint8_t> deferred_mark_;
  // Busy spans: per resource whether it is traced, its track is named, the open span's start,
  // most concurrent flows and the carried bytes at its start; closing_ holds the traced
  // resources whose last flow ended at this instant (closed once the flows due have started,
  // so that a flow starting at the same instant continues the span).
  std::vector<char> span_on_, span_named_;
  std::vector<double> span_start_, span_bytes0_;
  std::vector<int32_t> span_flows_, closing_;
};

}  // namespace trn::hw
