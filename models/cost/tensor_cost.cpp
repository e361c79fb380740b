// Matmul tiling cost model (see tensor_cost.h for the equations and sources).
#include "models/cost/tensor_cost.h"

#include <algorithm>

#include "sim/base/shared_helpers.h"

namespace trn::models {
namespace {

using sim::ceil_div;

int64_t k_multiplier(const TensorEngineSpec& t, DType d) {
  if ((d == DType::MXFP8 || d == DType::MXFP4) && t.mx_pairs_per_pe > 1) return t.mx_pairs_per_pe;
  if ((d == DType::FP8 || d == DType::MXFP8 || d == DType::MXFP4) && t.fp8_double_row) return 2;
  return 1;
}

double dtype_slowdown(const TensorEngineSpec& t, DType d) { return d == DType::FP32 ? t.fp32_slowdown : 1.0; }

// Sizes of the tiles along one dimension: `full` tiles of `tile` and one remainder.
struct Split {
  int64_t full, tile, rem;
  int64_t count() const { return full + (rem > 0 ? 1 : 0); }
};
Split split(int64_t n, int64_t tile) { return Split{n / tile, tile, n % tile}; }

}  // namespace

double tensor_peak_flops(const TensorEngineSpec& t, DType dtype) {
  return 2.0 * t.rows * t.cols * t.clock.v * static_cast<double>(k_multiplier(t, dtype)) / dtype_slowdown(t, dtype);
}

double throttle_penalty(const TensorEngineSpec& t, double busy_s) {
  double w = t.throttle_window.v, f = t.throttle_fraction;
  if (w <= 0 || f >= 1.0 || busy_s <= 0) return 0.0;
  // Work done during the window at fraction f is f*w seconds of full-speed work.
  if (busy_s <= f * w) return busy_s / f - busy_s;
  return w * (1.0 - f);
}

MatmulCost matmul_cost(const TensorEngineSpec& t, int psum_banks, const MatmulShape& s, bool from_idle) {
  MatmulCost c;
  c.flops = 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k);
  c.peak_flops_per_s = tensor_peak_flops(t, s.dtype);
  if (s.m <= 0 || s.n <= 0 || s.k <= 0) return c;
  c.k_per_instruction = t.rows * k_multiplier(t, s.dtype);
  Split ms = split(s.m, t.cols), ns = split(s.n, t.moving_free_max), ks = split(s.k, c.k_per_instruction);
  c.m_tiles = ms.count();
  c.n_tiles = ns.count();
  c.k_tiles = ks.count();
  c.matmul_instructions = c.m_tiles * c.n_tiles * c.k_tiles;
  int64_t banks = std::max(1, psum_banks);
  int64_t sweeps = ceil_div(c.n_tiles, banks);  // bank sweeps per (m, k) stationary tile
  c.load_stationary = c.m_tiles * c.k_tiles * sweeps;

  double f = dtype_slowdown(t, s.dtype);
  double init = t.mm_init_latency_cycles;
  auto mm_cycles = [&](int64_t n_tile) { return std::max<double>(static_cast<double>(n_tile), init); };
  // LoadStationary of an [K_tile x M_tile] tile: min(64, M_tile) cycles (S18).
  auto ls_cycles = [](int64_t m_tile) { return std::min<double>(64.0, static_cast<double>(m_tile)); };
  // For each m tile width and each k tile: `sweeps` instructions carry a LoadStationary
  // (the first of each bank sweep), the rest reuse the stationary tile.
  double cycles = 0;
  for (int mi = 0; mi < 2; ++mi) {
    int64_t m_count = mi == 0 ? ms.full : (ms.rem > 0 ? 1 : 0);
    int64_t m_tile = mi == 0 ? ms.tile : ms.rem;
    if (m_count == 0) continue;
    double per_k = 0;  // cycles for one k tile across all n tiles
    for (int ni = 0; ni < 2; ++ni) {
      int64_t n_count = ni == 0 ? ns.full : (ns.rem > 0 ? 1 : 0);
      int64_t n_tile = ni == 0 ? ns.tile : ns.rem;
      if (n_count == 0) continue;
      per_k += static_cast<double>(n_count) * mm_cycles(n_tile) * f;
    }
    // Instructions that follow a LoadStationary cost at least the LS time.
    double first_mm = mm_cycles(ns.full > 0 ? ns.tile : ns.rem) * f;
    double ls_extra = std::max(0.0, ls_cycles(m_tile) * f - first_mm);
    per_k += static_cast<double>(sweeps) * ls_extra;
    per_k += static_cast<double>(c.n_tiles) * t.issue_overhead_cycles;
    cycles += static_cast<double>(m_count) * static_cast<double>(c.k_tiles) * per_k;
  }
  c.cycles = cycles;
  double busy = cycles / t.clock.v;
  c.throttle_s = from_idle ? throttle_penalty(t, busy) : 0.0;
  c.time_s = busy + c.throttle_s;
  c.utilization = c.time_s > 0 ? c.flops / (c.time_s * c.peak_flops_per_s) : 0.0;
  return c;
}

}  // namespace trn::models
