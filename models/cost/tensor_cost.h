// Tensor-engine cost of a matmul, from tiling it onto the 128x128 systolic array.
//
// C[M,N] = A[M,K] x B[K,N]. A is the *stationary* operand (LoadStationary puts a
// [K_tile x M_tile] tile into the array, K_tile <= rows, M_tile <= cols) and B the *moving*
// operand (MultiplyMoving streams [K_tile x N_tile], N_tile <= moving_free_max = one fp32
// PSUM bank). K > K_tile is an accumulation group in one PSUM bank. Per instruction:
//   cycles = max(min(64, M_tile) if a LoadStationary precedes it, max(N_tile, mm_init)) x f
//            + issue_overhead
// with f = fp32_slowdown for fp32 inputs (S10, S15, S18). FP8 double-row doubles K_tile on
// trn2/trn3, MX quadruples it on trn3 (S11, S12, S17). Stationary tiles are reused across
// up to `psum.banks` accumulation groups (one LoadStationary per bank sweep).
// The dI/dt throttle runs the first `throttle_window` at `throttle_fraction` after idle.
#pragma once

#include <cstdint>

#include "models/cost/dtype.h"
#include "models/spec/chip_spec.h"

namespace trn::models {

struct MatmulShape {
  int64_t m = 0, n = 0, k = 0;
  DType dtype = DType::BF16;
};

struct MatmulCost {
  int64_t m_tiles = 0, n_tiles = 0, k_tiles = 0;
  int64_t k_per_instruction = 0;    // contraction rows per MultiplyMoving
  int64_t matmul_instructions = 0;  // MultiplyMoving count
  int64_t load_stationary = 0;      // LoadStationary count
  double cycles = 0;                // tensor-engine cycles, throttle excluded
  double throttle_s = 0;            // extra seconds from the dI/dt ramp (when from idle)
  double time_s = 0;                // cycles / clock + throttle_s
  double flops = 0;                 // 2*M*N*K
  double peak_flops_per_s = 0;      // this dtype's peak on one core
  double utilization = 0;           // flops / (time_s * peak)
};

/// Peak FLOP/s of one core's tensor engine for a dtype (rows*cols*2*clock*K multiplier / f).
double tensor_peak_flops(const TensorEngineSpec& t, DType dtype);

/// Tensor-engine time of a whole matmul; `psum_banks` bounds stationary reuse.
MatmulCost matmul_cost(const TensorEngineSpec& t, int psum_banks, const MatmulShape& s, bool from_idle = true);

/// Extra time the dI/dt throttle adds to `busy_s` of work started from idle.
double throttle_penalty(const TensorEngineSpec& t, double busy_s);

}  // namespace trn::models
