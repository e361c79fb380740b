// FlowNetwork cross-checks: closed-form times, fair sharing, byte conservation.
#include <catch2/catch.hpp>

#include "hw/fabric/flow_network.h"
#include "sim/kernel/event_queue.h"

using namespace trn;

TEST_CASE("one flow takes latency + bytes / capacity", "[fabric]") {
  hw::FlowNetwork net("net");
  int32_t r = net.add_resource("link", 100e9);
  double done_at = -1;
  net.start({{r, 1.0}}, 1e9, 2e-6, [&] { done_at = sim::now_s(); });
  sim::run_to_completion();
  CHECK(done_at == Approx(2e-6 + 1e-2).epsilon(1e-9));
  CHECK(net.carried(r) == Approx(1e9));
  CHECK(net.busy_time(r) == Approx(1e-2).epsilon(1e-6));
}

TEST_CASE("flows share a link fairly and rates rise when one ends", "[fabric]") {
  hw::FlowNetwork net("net");
  int32_t r = net.add_resource("link", 100e9);
  double a = 0, b = 0;
  net.start({{r, 1.0}}, 1e9, 0, [&] { a = sim::now_s(); });
  net.start({{r, 1.0}}, 3e9, 0, [&] { b = sim::now_s(); });
  sim::run_to_completion();
  CHECK(a == Approx(2e9 / 100e9));          // 1 GB at 50 GB/s
  CHECK(b == Approx((1e9 + 3e9) / 100e9));  // then the rest alone: total bytes / capacity
}

TEST_CASE("bytes are conserved on every resource of a multi-hop flow", "[fabric]") {
  hw::FlowNetwork net("net");
  std::vector<int32_t> rs;
  for (int i = 0; i < 4; ++i) rs.push_back(net.add_resource("r" + std::to_string(i), (i + 1) * 10e9));
  int finished = 0;
  for (int f = 0; f < 10; ++f) {
    std::vector<models::ResourceUse> uses;
    for (int i = 0; i <= f % 4; ++i) uses.push_back({rs[static_cast<size_t>(i)], 1.0});
    net.start(uses, 1e6 * (f + 1), 1e-6 * f, [&] { ++finished; });
  }
  sim::run_to_completion();
  CHECK(finished == 10);
  double expect0 = 0;
  for (int f = 0; f < 10; ++f) expect0 += 1e6 * (f + 1);
  CHECK(net.carried(rs[0]) == Approx(expect0));
  // The slowest resource (10 GB/s) carried everything, so the run lasted at least that long.
  CHECK(sim::now_s() >= expect0 / 10e9);
}

TEST_CASE("a saturated resource delivers its configured bandwidth", "[fabric]") {
  hw::FlowNetwork net("net");
  int32_t r = net.add_resource("hbm", 725e9);
  for (int f = 0; f < 8; ++f) net.start({{r, 1.0}}, 1e9, 0, [] {});
  sim::run_to_completion();
  CHECK(8e9 / sim::now_s() == Approx(725e9).epsilon(1e-6));
}
