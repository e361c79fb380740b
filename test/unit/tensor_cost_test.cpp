// Closed-form checks of the tensor-engine tiling model and of the streaming/DMA costs.
#include <catch2/catch.hpp>

#include "models/cost/engine_cost.h"
#include "models/cost/tensor_cost.h"
#include "models/spec/system_spec.h"

using namespace trn::models;

TEST_CASE("4096^3 BF16 on a trn2 core: instruction and cycle counts", "[cost]") {
  ChipSpec c = load_chip("trn2", {});
  MatmulCost m = matmul_cost(c.tensor, c.psum.banks, {4096, 4096, 4096, DType::BF16});
  CHECK(m.m_tiles == 32);
  CHECK(m.n_tiles == 8);
  CHECK(m.k_tiles == 32);
  CHECK(m.matmul_instructions == 8192);
  CHECK(m.load_stationary == 32 * 32);  // one per (m, k): 8 n-tiles fit the 8 PSUM banks
  // Each MultiplyMoving: max(N=512, 64) cycles + 32 issue cycles.
  CHECK(m.cycles == Approx(8192.0 * (512 + 32)));
  CHECK(m.throttle_s == Approx(1.5e-6));  // 3 us at 50%
  CHECK(m.utilization > 0.90);
  CHECK(m.utilization < 0.95);
}

TEST_CASE("small N is bounded by the MM initiation interval", "[cost]") {
  ChipSpec c = load_chip("trn2", {});
  MatmulCost m = matmul_cost(c.tensor, c.psum.banks, {128, 32, 128, DType::BF16}, false);
  CHECK(m.matmul_instructions == 1);
  CHECK(m.cycles == Approx(64 + 32));  // max(32, 64) + issue
}

TEST_CASE("FP8 double-row and MX shrink the contraction tiles", "[cost]") {
  ChipSpec t2 = load_chip("trn2", {});
  ChipSpec t3 = load_chip("trn3", {});
  MatmulShape s{1024, 1024, 4096, DType::BF16};
  auto bf = matmul_cost(t2.tensor, 8, s, false);
  s.dtype = DType::FP8;
  auto f8 = matmul_cost(t2.tensor, 8, s, false);
  CHECK(f8.k_tiles * 2 == bf.k_tiles);
  CHECK(f8.cycles * 2 == Approx(bf.cycles));
  s.dtype = DType::MXFP8;
  auto mx = matmul_cost(t3.tensor, 8, s, false);
  CHECK(mx.k_tiles * 4 == bf.k_tiles);
  s.dtype = DType::FP32;
  auto f32 = matmul_cost(t2.tensor, 8, s, false);
  CHECK(f32.time_s > 3.5 * bf.time_s);
  ChipSpec t1 = load_chip("trn1", {});
  s.dtype = DType::FP8;  // no double-row on NC-v2
  CHECK(matmul_cost(t1.tensor, 8, s, false).k_tiles == bf.k_tiles);
}

TEST_CASE("more work never takes less time", "[cost][invariant]") {
  ChipSpec c = load_chip("trn2", {});
  double prev = 0;
  for (int64_t k = 1; k <= 4096; k += 37) {
    double t = matmul_cost(c.tensor, 8, {256, 700, k, DType::BF16}).time_s;
    CHECK(t >= prev);
    prev = t;
  }
  prev = 0;
  for (int64_t n = 1; n <= 5000; n += 61) {
    double t = matmul_cost(c.tensor, 8, {300, n, 512, DType::BF16}).time_s;
    CHECK(t >= prev);
    prev = t;
  }
}

TEST_CASE("streaming engines and DMA closed forms", "[cost]") {
  ChipSpec c = load_chip("trn2", {});
  StreamOp op;
  op.elements = 128.0 * 512;
  CHECK(stream_cycles(c.vector, op) == Approx(64 + 512));
  op.inputs = 2;
  CHECK(stream_cycles(c.vector, op) == Approx(64 + 1024));
  op.inputs = 1;
  op.fast = true;
  CHECK(stream_cycles(c.vector, op) == Approx(64 + 128));
  CHECK(stream_time(c.vector, {128.0 * 960, 1, false}) == Approx((64 + 960) / 0.96e9));
  CHECK(dma_time(c.dma, 0, 16) == Approx(1.9e-6));
  CHECK(dma_time(c.dma, 435.2e6, 16) == Approx(1.9e-6 + 1e-3));
  CHECK(dma_time(c.dma, 2e6, 16) > dma_time(c.dma, 1e6, 16));
}

TEST_CASE("the tensor model's FP8 and MX peaks agree with the chips' published rates", "[cost][fp8]") {
  // Per chip: physical cores x rows x cols x 2 x clock x K multiplier. Trn2 FP8: 8 x 157.3 =
  // 1,258 TFLOPS against S1's 1,299 (the BF16 figure is as far off: 629 vs 667). Trn3 MXFP8:
  // 8 x 314.6 = 2,517 = S2. Trn3 plain FP8 is modelled at double row (S17), half S2's table.
  ChipSpec t2 = load_chip("trn2", {}), t3 = load_chip("trn3", {});
  auto chip_peak = [](const ChipSpec& c, DType d) { return c.cores.physical * tensor_peak_flops(c.tensor, d); };
  CHECK(chip_peak(t2, DType::FP8) == Approx(t2.peak.fp8.v).epsilon(0.04));
  CHECK(chip_peak(t3, DType::MXFP8) == Approx(t3.peak.mxfp8.v).epsilon(0.01));
  CHECK(chip_peak(t3, DType::FP8) == Approx(chip_peak(t3, DType::BF16) * 2));
  CHECK(t2.peak.mxfp8.v == 0);  // no MX on NeuronCore-v3
  CHECK(t3.vector.mx_quantize_elems_per_cycle == 512);
}
