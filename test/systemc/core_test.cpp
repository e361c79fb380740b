// NeuronCore and HBM cross-checks against the cost models.
#include <catch2/catch.hpp>

#include <memory>

#include "hw/system/system.h"
#include "models/cost/engine_cost.h"
#include "models/kernels/matmul_kernel.h"

using namespace trn;

namespace {
std::unique_ptr<hw::System> g_sys;  // one kernel per process
hw::System& make_system(const std::string& chip) {
  g_sys = std::make_unique<hw::System>("system", models::single_chip_system(models::load_chip(chip, {})), 1);
  return *g_sys;
}
}  // namespace

TEST_CASE("a single tensor op takes exactly its cost-model time", "[core]") {
  hw::System& sys = make_system("trn2");
  const auto& chip = sys.spec().chip;
  models::MatmulCost c = models::matmul_cost(chip.tensor, chip.psum.banks, {128, 512, 1024, models::DType::BF16}, true);
  models::Program p;
  models::Op op;
  op.engine = models::Engine::Tensor;
  op.tensor_busy = true;
  op.duration_s =
      models::matmul_cost(chip.tensor, chip.psum.banks, {128, 512, 1024, models::DType::BF16}, false).time_s;
  p.add(op);
  hw::NeuronCore& core = sys.add_core(0, 0, p);
  sim::run_to_completion();
  CHECK(core.finish_time() == Approx(c.time_s).epsilon(1e-6));  // dI/dt ramp included; ps rounding
}

TEST_CASE("engines run in order and wait for dependencies", "[core]") {
  hw::System& sys = make_system("trn2");
  models::Program p;
  models::Op a, b, c;
  a.engine = models::Engine::Vector;
  a.duration_s = 10e-6;
  b.engine = models::Engine::Scalar;
  b.duration_s = 5e-6;
  b.deps = {0};
  c.engine = models::Engine::Vector;
  c.duration_s = 1e-6;  // independent, but queued behind a on the vector engine
  p.add(a);
  p.add(b);
  p.add(c);
  hw::NeuronCore& core = sys.add_core(0, 0, p);
  sim::run_to_completion();
  CHECK(core.op_times()[1].first == Approx(10e-6));
  CHECK(core.op_times()[2].first == Approx(10e-6));
  CHECK(core.finish_time() == Approx(15e-6));
}

TEST_CASE("4096^3 BF16 matmul on one trn2 core: 70-95% of peak, close to the cost model", "[core][validation]") {
  hw::System& sys = make_system("trn2");
  const auto& chip = sys.spec().chip;
  models::MatmulKernel k = models::lower_matmul(chip, {4096, 4096, 4096, models::DType::BF16});
  hw::NeuronCore& core = sys.add_core(0, 0, k.program);
  sim::run_to_completion();
  double util = k.cost.flops / (core.finish_time() * models::tensor_peak_flops(chip.tensor, models::DType::BF16));
  CHECK(util > 0.70);
  CHECK(util < 0.95);
  // The simulation adds the DMA prologue and the last evacuation/store to the tensor time.
  CHECK(core.finish_time() >= k.cost.time_s);
  CHECK(core.finish_time() <= k.cost.time_s * 1.05);
  // Tensor busy time = the cost model, plus one more dI/dt ramp each time the engine idles
  // (here while the second B block loads).
  CHECK(core.engine(models::Engine::Tensor).busy_s >= k.cost.time_s * (1 - 1e-9));
  CHECK(core.engine(models::Engine::Tensor).busy_s == Approx(k.cost.time_s).epsilon(0.005));
  CHECK(core.dma_bytes() == Approx(k.dma_bytes));
}

TEST_CASE("one core streaming from HBM is DMA-limited", "[core][hbm]") {
  hw::System& sys = make_system("trn2");
  const auto& chip = sys.spec().chip;
  const double bytes = 256.0 * 1024 * 1024;
  hw::NeuronCore& core = sys.add_core(0, 0, models::lower_hbm_stream(chip, bytes));
  sim::run_to_completion();
  double bw = bytes / core.finish_time();
  CHECK(bw <= chip.dma.core_bandwidth());
  CHECK(bw > 0.9 * chip.dma.core_bandwidth());
  CHECK(bw < models::hbm_stack_bandwidth(chip.hbm));
}

TEST_CASE("eight cores saturate near the chip's HBM bandwidth, not 8x one core", "[core][hbm]") {
  hw::System& sys = make_system("trn2");
  const auto& chip = sys.spec().chip;
  const double bytes = 256.0 * 1024 * 1024;
  std::vector<hw::NeuronCore*> cores;
  for (int c = 0; c < 8; ++c) cores.push_back(&sys.add_core(0, c, models::lower_hbm_stream(chip, bytes)));
  sim::run_to_completion();
  double t = 0;
  for (auto* c : cores) t = std::max(t, c->finish_time());
  double bw = 8 * bytes / t;
  CHECK(bw <= chip.hbm.bandwidth.v * (1 + 1e-9));
  CHECK(bw > 0.9 * chip.hbm.bandwidth.v);
  CHECK(bw < 0.9 * 8 * chip.dma.core_bandwidth());
  // Bytes are conserved: every stack carried what its two cores read.
  for (int s = 0; s < chip.hbm.stacks; ++s) CHECK(sys.net().carried(sys.hbm_resource(0, s)) == Approx(2 * bytes));
}
