// Lowers one matmul to a tiled NeuronCore program (DMA loads, tensor-engine accumulation
// groups, PSUM evacuation on the vector engine, DMA stores), the way an NKI kernel would:
//   - B (moving) is kept resident in SBUF one column block at a time, A (stationary) tiles
//     stream through it; a block is `psum.banks/2` banks wide so that the vector engine can
//     evacuate one half of PSUM while the tensor engine fills the other (double buffering);
//   - the first group of each block is split into k-chunks that start as soon as their
//     slice of B has arrived, so the prologue is one chunk, not the whole block.
// Durations of tensor ops come from matmul_cost(), of vector ops from stream_time().
#pragma once

#include "models/cost/tensor_cost.h"
#include "models/ir/program.h"
#include "models/spec/chip_spec.h"

namespace trn::models {

struct MatmulKernel {
  Program program;
  MatmulCost cost;         // closed-form tensor-engine cost of the whole matmul
  double dma_bytes = 0;    // HBM <-> SBUF bytes moved
  int64_t n_block = 0;     // columns of B resident at once
  bool b_resident = true;  // false when a B block does not fit in SBUF
};

MatmulKernel lower_matmul(const ChipSpec& chip, const MatmulShape& s);

/// SBUF bytes lower_matmul() keeps live on one physical core: the resident B block
/// (k x n_block) plus the double-buffered A tile (2 x k x tensor.cols), in s.dtype. It can
/// exceed the SBUF when even the narrowest B block does not fit (b_resident == false).
double matmul_sbuf_bytes(const ChipSpec& chip, const MatmulShape& s);

/// A program that streams `bytes` from HBM into SBUF on `queues` DMA queues.
Program lower_hbm_stream(const ChipSpec& chip, double bytes, int queues = 4);

}  // namespace trn::models
