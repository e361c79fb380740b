// Every shipped chip and system loads strictly, derived figures match the published
// per-core peaks, and the resolved dump reproduces the spec exactly.
#include <catch2/catch.hpp>

#include "models/cost/tensor_cost.h"
#include "models/spec/system_spec.h"
#include "sim/base/config_loader.h"
#include "sim/base/paths.h"

using namespace trn::models;

TEST_CASE("all shipped chips and systems load", "[spec]") {
  for (const auto& c : trn::sim::list_named_configs("hw/configs/chips")) {
    INFO(c);
    ChipSpec chip = load_chip(c, {});
    CHECK(chip.name == c);
  }
  for (const auto& s : trn::sim::list_named_configs("hw/configs/systems")) {
    INFO(s);
    SystemSpec sys = load_system(s, {}, 0);
    CHECK(sys.name == s);
  }
}

TEST_CASE("tensor-engine peaks derived from the array match the published per-core figures", "[spec]") {
  // S5/S11: 79 BF16, 158 FP8, 20 FP32 TFLOPS per NeuronCore-v3; S10: 92 per NC-v2; S6/S12: 315 MX per NC-v4.
  ChipSpec trn2 = load_chip("trn2", {});
  CHECK(tensor_peak_flops(trn2.tensor, DType::BF16) / 1e12 == Approx(79).epsilon(0.01));
  CHECK(tensor_peak_flops(trn2.tensor, DType::FP8) / 1e12 == Approx(158).epsilon(0.01));
  CHECK(tensor_peak_flops(trn2.tensor, DType::FP32) / 1e12 == Approx(20).epsilon(0.02));
  ChipSpec trn1 = load_chip("trn1", {});
  CHECK(tensor_peak_flops(trn1.tensor, DType::BF16) / 1e12 == Approx(92).epsilon(0.01));
  ChipSpec trn3 = load_chip("trn3", {});
  CHECK(tensor_peak_flops(trn3.tensor, DType::MXFP8) / 1e12 == Approx(315).epsilon(0.01));
  // Chip DMA: 16 engines x 8 cores x 27.2 GB/s = 3.5 TB/s (S1), trn3 4.9 TB/s (S2).
  CHECK(trn2.dma.core_bandwidth() * trn2.cores.physical / 1e12 == Approx(3.5).epsilon(0.01));
  CHECK(trn3.dma.core_bandwidth() * trn3.cores.physical / 1e12 == Approx(4.9).epsilon(0.01));
}

TEST_CASE("system totals match the published instance figures", "[spec]") {
  SystemSpec s = load_system("trn2.48xlarge", {}, 0);
  CHECK(s.chips * s.chip.hbm.capacity.v / (1024.0 * 1024 * 1024) == Approx(1536));  // S8: 1.5 TiB
  CHECK(s.chips * s.chip.hbm.bandwidth.v / 1e12 == Approx(46.4));                   // S8
  CHECK(s.efa.nics * s.efa.bandwidth_per_nic.v * 8 / 1e9 == Approx(3200));          // S8: 3.2 Tbps
  double per_chip_links = 0;
  for (const auto& d : s.topology.dims) per_chip_links += 2 * d.link_bandwidth.v;
  CHECK(per_chip_links / 1e9 == Approx(1024));  // S8: 1,024 GB/s per chip
  SystemSpec us = load_system("trn2-ultraserver", {}, 0);
  CHECK(2 * us.topology.dims[2].link_bandwidth.v / 1e9 == Approx(256));  // S8 inter-instance
}

TEST_CASE("trn1.2xlarge is one chip with the published host (S7)", "[spec]") {
  SystemSpec s = load_system("trn1.2xlarge", {}, 0);
  CHECK(s.chips == 1);
  CHECK(s.chip.hbm.capacity.v / (1024.0 * 1024 * 1024) == Approx(32));    // S7: 32 GiB device memory
  CHECK(s.host.vcpus == 8);                                               // S7
  CHECK(s.host.memory.v / (1024.0 * 1024 * 1024) == Approx(32));          // S7: 32 GiB
  CHECK(s.efa.nics * s.efa.bandwidth_per_nic.v * 8 / 1e9 == Approx(25));  // S7: up to 25 Gbps
}

TEST_CASE("set overrides reach the spec and are range-checked", "[spec]") {
  SystemSpec s = load_system("trn2.48xlarge", {"chip.hbm.bandwidth=3.0 TB/s", "efa.nics=16"}, 0);
  CHECK(s.chip.hbm.bandwidth.v == Approx(3.0e12));
  CHECK_THROWS_AS(load_system("trn2.48xlarge", {"chip.hbm.bandwidth=0 TB/s"}, 0), trn::sim::ConfigError);
  CHECK_THROWS_AS(load_system("trn2.48xlarge", {"chips=15"}, 0), trn::sim::ConfigError);  // torus mismatch
  CHECK_THROWS_AS(load_system("trn2.48xlarge", {"topology.impl=tours"}, 0), trn::sim::ConfigError);
  CHECK_THROWS_AS(load_system("trn9", {}, 0), trn::sim::ConfigError);
}

TEST_CASE("the resolved system reproduces itself exactly", "[spec]") {
  for (const auto& name : trn::sim::list_named_configs("hw/configs/systems")) {
    SystemSpec s = load_system(name, {}, 0);
    std::string y1 = resolved_yaml(s, "");
    SystemSpec back;
    trn::sim::read_config(trn::sim::parse_yaml_text(y1, "resolved"), back);
    CHECK(resolved_yaml(back, "") == y1);
  }
}
