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

TEST_CASE("a flow issued after a wait runs as one started by an event after that wait", "[fabric]") {
  // CollectiveEngine issues a transfer when its rank's CC-core is free: start_on's issue_wait,
  // where an event used to start the flow. The same flows (shared resources, chains started
  // from callbacks, waits and latencies of both sizes) through both paths end at the same times.
  hw::FlowNetwork by_event("by_event"), by_wait("by_wait");
  sim::EventQueue events("events");
  std::vector<int32_t> ra, rb;
  for (int i = 0; i < 3; ++i) {
    ra.push_back(by_event.add_resource("r" + std::to_string(i), (i + 2) * 25e9));
    rb.push_back(by_wait.add_resource("r" + std::to_string(i), (i + 2) * 25e9));
  }
  constexpr int kFlows = 24;
  std::vector<double> end_a(kFlows, -1), end_b(kFlows, -1);
  auto uses_of = [](const std::vector<int32_t>& r, int f) {
    std::vector<models::ResourceUse> u;
    for (int i = 0; i <= f % 3; ++i) u.push_back({r[static_cast<size_t>((f + i) % 3)], f % 4 == 0 ? 2.0 : 1.0});
    return u;
  };
  auto bytes_of = [](int f) { return 1e6 * (1 + (f * 7) % 11); };
  auto wait_of = [](int f) { return 1.9e-6 * (f % 5); };
  auto latency_of = [](int f) { return f % 3 == 0 ? 0.0 : 1.5e-6 * (f % 4); };
  std::function<void(int)> start_a = [&](int f) {
    events.at(wait_of(f), [&, f] {
      by_event.start_on(uses_of(ra, f), bytes_of(f), latency_of(f), [&, f] {
        end_a[static_cast<size_t>(f)] = sim::now_s();
        if (f + 8 < kFlows) start_a(f + 8);  // a chain: the next flow waits for this one
      });
    });
  };
  std::function<void(int)> start_b = [&](int f) {
    by_wait.start_on(
        uses_of(rb, f), bytes_of(f), latency_of(f),
        [&, f] {
          end_b[static_cast<size_t>(f)] = sim::now_s();
          if (f + 8 < kFlows) start_b(f + 8);
        },
        wait_of(f));
  };
  for (int f = 0; f < 8; ++f) {
    start_a(f);
    start_b(f);
  }
  sim::run_to_completion();
  for (int f = 0; f < kFlows; ++f) {
    INFO("flow " << f);
    CHECK(end_a[static_cast<size_t>(f)] > 0);
    CHECK(end_b[static_cast<size_t>(f)] == Approx(end_a[static_cast<size_t>(f)]).margin(2e-12));
  }
  for (int i = 0; i < 3; ++i)
    CHECK(by_wait.carried(rb[static_cast<size_t>(i)]) == by_event.carried(ra[static_cast<size_t>(i)]));
}
