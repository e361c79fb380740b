// The step analysis library (sim/app/analysis, trn_analysis) without a simulation: interval
// arithmetic, the breakdown adding up to the step, op-name stems, the roofline against the
// chip's peaks, MFU from the model FLOPs, and the steady-state extrapolation.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "sim/app/analysis/step_analysis.h"

using namespace trn::app;

TEST_CASE("union_length and exposed count overlaps once", "[analysis]") {
  CHECK(union_length({}) == 0);
  CHECK(union_length({{0, 1}, {0.5, 2}, {3, 4}}) == Approx(3.0));
  CHECK(exposed({{0, 2}}, {{0.5, 1}}) == Approx(1.5));
  CHECK(exposed({{0, 1}}, {{0, 1}}) == Approx(0.0));
}

TEST_CASE("the breakdown's parts add up to the step", "[analysis]") {
  // compute [0,4], communication [3,6] (exposed 2), the neighbouring stage [6,7], the host
  // [0,8] (exposed only where nothing else explains the wait: [7,8]); step 10 s, 1 s memory bound.
  auto b = step_breakdown({{0, 4}}, {{3, 6}}, {{6, 7}}, {{0, 8}}, 1.0, 10.0);
  const auto named = b.named();
  REQUIRE(named.size() == 6);
  double sum = 0;
  for (const auto& [k, v] : named) sum += v;
  CHECK(sum == Approx(10.0));
  CHECK(named[0].first == "compute");
  CHECK(named[5].first == "idle");
  CHECK(b[StepCategory::Compute] == Approx(3.0));
  CHECK(b[StepCategory::MemoryBound] == Approx(1.0));
  CHECK(b[StepCategory::ExposedCommunication] == Approx(2.0));
  CHECK(b[StepCategory::HostDispatch] == Approx(1.0));
  CHECK(b[StepCategory::PipelineBubble] == Approx(1.0));
  CHECK(b[StepCategory::Idle] == Approx(2.0));
  CHECK(b.largest() == StepCategory::Compute);
  CHECK(StepBreakdown::from_named(named).seconds == b.seconds);
  CHECK_THROWS_AS(StepBreakdown::from_named({{"bubble", 1.0}}), std::invalid_argument);
  // Shares of the step sum to 1 however the intervals overlap.
  auto c = step_breakdown({{0, 1}, {0.5, 3}}, {{2, 5}, {4, 6}}, {}, {{5.5, 9}}, 5.0, 9.0);
  double share = 0;
  for (double v : c.seconds) share += v / 9.0;
  CHECK(share == Approx(1.0));
}

TEST_CASE("name_stem drops layer indices", "[analysis]") {
  CHECK(name_stem("layer12.attn.qkv") == "attn.qkv");
  CHECK(name_stem("L3.mlp.up.fwd") == "mlp.up.fwd");
  CHECK(name_stem("block7.3.norm") == "norm");
  CHECK(name_stem("embed") == "embed");
  CHECK(name_stem("12") == "12");  // nothing left: the name itself
}

TEST_CASE("the roofline divides the chip's peaks among logical cores and keeps the largest groups", "[analysis]") {
  trn::workloads::ScenarioSpec s = trn::workloads::load_scenario("qwen3-32b-trn2", {});
  std::vector<RooflinePoint> pts;
  for (int i = 0; i < kRooflinePoints + 5; ++i) {
    RooflinePoint p;
    p.name = "op" + std::to_string(i);
    p.engine = "tensor";
    p.ops = 1;
    p.flops = 1e12;
    p.hbm_bytes = 1e9;
    p.busy_s = 1.0 + i;
    pts.push_back(p);
  }
  Roofline rl = build_roofline(s, 2, pts);
  const double logical = double(s.system.chip.cores.physical) / 2;
  CHECK(rl.peak_flop_rate == Approx(s.system.chip.peak.bf16.v / logical));
  CHECK(rl.hbm_bandwidth == Approx(s.system.chip.hbm.bandwidth.v / logical));
  REQUIRE(rl.points.size() == size_t(kRooflinePoints));
  CHECK(rl.points.front().busy_s == Approx(kRooflinePoints + 5));  // largest first
  CHECK(rl.points.back().name == "other");
  CHECK(rl.points.back().ops == 6);  // the six smallest groups
  CHECK(rl.points.front().intensity == Approx(1000.0));
}

TEST_CASE("finish_result: throughput and MFU from the model FLOPs", "[analysis]") {
  trn::workloads::ScenarioSpec s = trn::workloads::load_scenario("qwen3-32b-trn2", {});
  StepResult r;
  r.step_time_s = 2.0;
  r.breakdown[StepCategory::Compute] = 1.5;
  r.breakdown[StepCategory::Idle] = 0.5;
  finish_result(s, r);
  CHECK(r.tokens_per_s == Approx(double(s.batch.tokens()) / 2.0));
  CHECK(r.model_flops == Approx(model_flops_per_step(s)));
  CHECK(r.mfu == Approx(r.model_flops / (2.0 * s.system.total_chips() * s.system.chip.peak.bf16.v)));
  CHECK(r.verdict == "the step is bound by compute (75% of the step)");
}

TEST_CASE("combine_steady extrapolates along the line through two runs", "[analysis]") {
  StepResult a, b;
  a.step_time_s = 10;  // 8 micro-batches
  b.step_time_s = 14;  // 12 micro-batches: 1 s per micro-batch
  a.breakdown[StepCategory::Compute] = 6;
  b.breakdown[StepCategory::Compute] = 8;
  a.engine_ops = {{"tensor", 80}};
  b.engine_ops = {{"tensor", 120}};
  a.ops = 800;
  b.ops = 1200;
  StepResult r = combine_steady(a, b, 8, 12, 32);
  CHECK(r.step_time_s == Approx(34.0));
  CHECK(r.breakdown[StepCategory::Compute] == Approx(18.0));
  CHECK(r.engine_ops[0].second == 320);
  CHECK(r.ops == 3200);
}

TEST_CASE("a step result survives the JSON a forked run sends back", "[analysis]") {
  StepResult r;
  r.step_time_s = 1.25;
  r.breakdown[StepCategory::Compute] = 1.0;
  r.breakdown[StepCategory::Idle] = 0.25;
  r.engines = {{"tensor", 0.9}};
  r.engine_ops = {{"tensor", 42}};
  r.events = 7;
  r.world = 16;
  r.simulated_ranks = 4;
  r.ops = 99;
  r.roofline_groups.push_back(RooflinePoint{"mlp.up", "tensor", 3, 1e9, 2e6, 0.5, 0, 0});
  StepResult back = nlohmann::json::parse(nlohmann::json(r).dump()).get<StepResult>();
  CHECK(back.step_time_s == r.step_time_s);
  CHECK(back.breakdown.seconds == r.breakdown.seconds);
  CHECK(back.engine_ops == r.engine_ops);
  CHECK(back.events == 7);
  CHECK(back.world == 16);
  CHECK(back.simulated_ops == 99);
  REQUIRE(back.roofline_groups.size() == 1);
  CHECK(back.roofline_groups[0].name == "mlp.up");
  CHECK(back.roofline_groups[0].hbm_bytes == 2e6);
}
