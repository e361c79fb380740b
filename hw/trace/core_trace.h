// A NeuronCore's timeline writer, an observer of the core (hw/core/neuron_core.h): a span per
// finished op on a track per queue, and (category "counters") the counter "<label> SBUF
// occupancy (MiB, capacity N MiB)": the summed Op::sbuf_bytes of the ops running, capped at
// the SBUF of the rank's physical cores. The core knows nothing of the trace.
#pragma once

#include <string>
#include <vector>

#include "hw/core/neuron_core.h"
#include "sim/base/trace_sink.h"

namespace trn::hw {

class CoreTraceWriter : public CoreObserver {
 public:
  /// Writes to `sink` as process `pid`, tracks from `tid_base` (one per queue, named
  /// "<label> <engine>[ q<queue>]"); `sbuf_bytes`: the SBUF of the rank's physical cores.
  /// Registers itself with `core`.
  CoreTraceWriter(NeuronCore& core, sim::TraceSink& sink, int pid, int tid_base, const std::string& label,
                  double sbuf_bytes);

  void op_started(const models::Op& op, double now) override;
  void op_finished(const models::Op& op, size_t lane, double start, double end) override;
  void program_done(double now) override;

 private:
  void sbuf_change(double now, double delta);
  void sbuf_flush();

  sim::TraceSink& sink_;
  int pid_, tid_base_;
  std::string label_;
  std::vector<char> named_;  // per lane: its track is named
  // SBUF occupancy: bytes live now; the sample not yet written (coalesces the changes of one
  // instant); the last value written.
  bool sbuf_on_;
  std::string sbuf_counter_;
  double sbuf_capacity_, sbuf_live_ = 0, pending_t_ = -1, pending_v_ = 0, written_ = -1;
};

}  // namespace trn::hw
