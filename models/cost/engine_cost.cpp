// Streaming-engine and DMA closed forms (see engine_cost.h).
#include "models/cost/engine_cost.h"

#include <algorithm>
#include <cmath>

namespace trn::models {

double stream_cycles(const StreamEngineSpec& e, const StreamOp& op) {
  double rate = op.fast ? e.elems_per_cycle_fast : e.elems_per_cycle;
  double body = std::ceil(op.elements / rate) * std::max(1, op.inputs);
  return e.fixed_overhead_cycles + body;
}

double stream_time(const StreamEngineSpec& e, const StreamOp& op) { return stream_cycles(e, op) / e.clock.v; }

double dma_time(const DmaSpec& d, double bytes, int engines) {
  double bw = d.engine_bandwidth.v * std::max(1, engines);
  return d.fixed_latency.v + d.descriptor_latency.v + bytes / bw;
}

}  // namespace trn::models
