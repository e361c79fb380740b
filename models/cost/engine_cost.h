// Closed-form costs of the streaming engines and of DMA transfers.
//
// Vector / scalar / GpSimd: an instruction streams its free dimension while all 128
// partitions work in parallel (S10), so
//   cycles = fixed_overhead + ceil(elements / elems_per_cycle) x inputs
// where a two-input (tensor_tensor) op reads twice (S10) and 16-bit copy-like ops use the
// fast rate (performance mode, S11). DMA: a fixed cost per transfer (semaphore-to-start,
// S14, plus descriptor generation, S16) plus bytes / bandwidth.
#pragma once

#include <cstdint>

#include "models/spec/chip_spec.h"

namespace trn::models {

struct StreamOp {
  double elements = 0;  // total elements written
  int inputs = 1;       // tensor inputs read per element (1 or 2)
  bool fast = false;    // 16-bit copy-like op eligible for performance mode
};

/// Cycles and seconds of one streaming-engine instruction.
double stream_cycles(const StreamEngineSpec& e, const StreamOp& op);
double stream_time(const StreamEngineSpec& e, const StreamOp& op);

/// Seconds to move `bytes` with `engines` DMA engines of one core, no contention.
double dma_time(const DmaSpec& d, double bytes, int engines);

/// Peak HBM bandwidth available to one stack.
inline double hbm_stack_bandwidth(const HbmSpec& h) { return h.bandwidth.v / h.stacks; }

}  // namespace trn::models
