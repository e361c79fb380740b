// FlowNetwork against a reference: a plain event-driven max-min simulation that re-solves
// every active flow (models::MaxMinSolver) and advances every flow at every event, with the
// network's own rules (the same done criterion, wake-ups rounded to the kernel's time
// resolution, starts from completion callbacks). Random flow sets with shared resources,
// random latencies, zero-byte and resource-less flows, and chains of flows started from
// callbacks; every completion time must agree to 1e-9 relative, and so must each
// resource's carried bytes and busy time. Callbacks of flows ending at the same instant
// run in activation order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <random>
#include <vector>

#include "hw/fabric/flow_network.h"
#include "models/fabric/max_min.h"
#include "sim/kernel/event_queue.h"

using namespace trn;

namespace {

struct FlowSpec {
  std::vector<models::ResourceUse> uses;
  double bytes = 0, latency = 0;
  int parent = -1;  // started at time 0, or from the completion callback of `parent`
  std::vector<int> children;
};

struct Net {
  std::vector<double> capacity;
  std::vector<FlowSpec> flows;
};

struct Outcome {
  std::vector<double> done_at;        // per flow
  std::vector<double> carried, busy;  // per resource
  std::vector<int> order;             // flows in callback order
  std::vector<uint64_t> act_rank;     // reference only: activation order
};

// routes > 0: each flow crossing resources takes one of `routes` resource lists drawn first (many
// flows per class of FlowNetwork, as in a collective's transfers over a few routes).
Net random_net(uint32_t seed, int resources, int flows, int max_hops, int routes = 0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  Net n;
  for (int r = 0; r < resources; ++r) n.capacity.push_back(1e9 * (1.0 + 19.0 * u01(rng)));
  const double weights[] = {1.0, 1.0, 1.0, 0.5, 2.0};
  std::vector<std::vector<models::ResourceUse>> route_list;
  for (int i = 0; i < flows; ++i) {
    FlowSpec f;
    const double kind = u01(rng);
    if (kind > 0.02 && routes > 0 && static_cast<int>(route_list.size()) == routes) {
      f.uses = route_list[static_cast<size_t>(u01(rng) * routes) % static_cast<size_t>(routes)];
    } else if (kind > 0.02) {  // 2% cross no resource
      const int hops = 1 + static_cast<int>(u01(rng) * max_hops) % max_hops;
      std::vector<int> pick(static_cast<size_t>(resources));
      for (int r = 0; r < resources; ++r) pick[static_cast<size_t>(r)] = r;
      std::shuffle(pick.begin(), pick.end(), rng);
      for (int h = 0; h < hops; ++h)
        f.uses.push_back({pick[static_cast<size_t>(h)], weights[static_cast<size_t>(u01(rng) * 5) % 5]});
      if (routes > 0) route_list.push_back(f.uses);
    }
    const double b = u01(rng);
    f.bytes = b < 0.03 ? 0.0 : std::pow(10.0, 5.0 + 4.0 * u01(rng));  // 3% zero bytes, else 100 kB..1 GB
    if (u01(rng) < 0.1) f.bytes = 64e6;                               // some equal sizes (ties)
    f.latency = u01(rng) < 0.4 ? 0.0 : 2e-3 * u01(rng);
    if (i > 0 && u01(rng) < 0.35) {
      f.parent = static_cast<int>(u01(rng) * i) % i;
      n.flows[static_cast<size_t>(f.parent)].children.push_back(i);
    }
    n.flows.push_back(std::move(f));
  }
  return n;
}

/// The optimised network, run in the SystemC kernel.
Outcome run_network(const Net& n) {
  static hw::FlowNetwork* net = nullptr;  // one kernel per process (each test case runs alone)
  net = new hw::FlowNetwork("net");
  for (size_t r = 0; r < n.capacity.size(); ++r) net->add_resource("r" + std::to_string(r), n.capacity[r]);
  Outcome out;
  out.done_at.assign(n.flows.size(), -1.0);
  std::function<void(int)> launch = [&](int i) {
    const FlowSpec& f = n.flows[static_cast<size_t>(i)];
    auto done = [&, i] {
      out.done_at[static_cast<size_t>(i)] = sim::now_s();
      out.order.push_back(i);
      for (int c : n.flows[static_cast<size_t>(i)].children) launch(c);
    };
    if (i % 2)
      net->start_on(f.uses, f.bytes, f.latency, done);  // both entry points
    else
      net->start(f.uses, f.bytes, f.latency, done);
  };
  for (size_t i = 0; i < n.flows.size(); ++i)
    if (n.flows[i].parent < 0) launch(static_cast<int>(i));
  sim::run_to_completion();
  for (size_t r = 0; r < n.capacity.size(); ++r) {
    out.carried.push_back(net->carried(static_cast<int32_t>(r)));
    out.busy.push_back(net->busy_time(static_cast<int32_t>(r)));
  }
  CHECK(net->flows_completed() == n.flows.size());
  return out;
}

/// The reference: O(flows + resources) per event, all active flows re-solved each time.
Outcome run_reference(const Net& n) {
  const double res = sc_core::sc_get_time_resolution().to_seconds();
  const size_t nf = n.flows.size(), nr = n.capacity.size();
  struct P {
    double time;
    uint64_t seq;
    int flow;
    bool operator>(const P& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  std::priority_queue<P, std::vector<P>, std::greater<P>> pending;
  uint64_t seq = 0, act = 0;
  std::vector<double> rem(nf, 0.0), rate(nf, 0.0);
  std::vector<int> active;  // activation order
  Outcome out;
  out.done_at.assign(nf, -1.0);
  out.act_rank.assign(nf, 0);
  out.carried.assign(nr, 0.0);
  out.busy.assign(nr, 0.0);
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  double now = 0;
  auto launch = [&](int i) { pending.push(P{now + std::max(0.0, n.flows[static_cast<size_t>(i)].latency), seq++, i}); };
  for (size_t i = 0; i < nf; ++i)
    if (n.flows[i].parent < 0) launch(static_cast<int>(i));
  models::MaxMinSolver solver;
  std::vector<const std::vector<models::ResourceUse>*> in;
  std::vector<double> rates;
  for (;;) {
    std::vector<int> done;
    std::vector<int> still;
    for (int i : active) {
      const auto& f = n.flows[static_cast<size_t>(i)];
      const double r = rem[static_cast<size_t>(i)], v = rate[static_cast<size_t>(i)];
      if (r <= 1e-9 * std::max(1.0, f.bytes) || (v > 0 && r / v < res)) {
        done.push_back(i);
        out.done_at[static_cast<size_t>(i)] = now;
        for (const auto& u : f.uses) out.carried[static_cast<size_t>(u.resource)] += f.bytes;
      } else {
        still.push_back(i);
      }
    }
    active.swap(still);
    while (!pending.empty() && pending.top().time <= now + res * 0.5) {
      const int i = pending.top().flow;
      pending.pop();
      active.push_back(i);
      out.act_rank[static_cast<size_t>(i)] = ++act;
      rem[static_cast<size_t>(i)] = std::max(0.0, n.flows[static_cast<size_t>(i)].bytes);
    }
    in.clear();
    for (int i : active) in.push_back(&n.flows[static_cast<size_t>(i)].uses);
    solver.solve(n.capacity, in, rates);
    for (size_t k = 0; k < active.size(); ++k) rate[static_cast<size_t>(active[k])] = rates[k];
    double next = std::numeric_limits<double>::infinity();
    if (!pending.empty()) next = pending.top().time;
    for (int i : active)
      if (rate[static_cast<size_t>(i)] > 0)
        next = std::min(next, now + rem[static_cast<size_t>(i)] / rate[static_cast<size_t>(i)]);
    for (int i : done) {  // callbacks, after the next wake-up was chosen (as in the network)
      out.order.push_back(i);
      for (int c : n.flows[static_cast<size_t>(i)].children) {
        launch(c);
        next = std::min(next, now);  // start() wakes the network in the current time step
      }
    }
    if (next == std::numeric_limits<double>::infinity()) break;
    const sc_core::sc_time t_next = next > now ? t + sim::to_sc(next - now) : t;
    const double dt = t_next.to_seconds() - now;
    for (int i : active) rem[static_cast<size_t>(i)] -= rate[static_cast<size_t>(i)] * dt;
    std::vector<char> busy(nr, 0);
    for (int i : active)
      for (const auto& u : n.flows[static_cast<size_t>(i)].uses) busy[static_cast<size_t>(u.resource)] = 1;
    for (size_t r = 0; r < nr; ++r)
      if (busy[r]) out.busy[r] += dt;
    t = t_next;
    now = t.to_seconds();
  }
  return out;
}

void cross_check(uint32_t seed, int resources, int flows, int max_hops, int routes = 0) {
  const Net n = random_net(seed, resources, flows, max_hops, routes);
  const Outcome ref = run_reference(n);
  const Outcome got = run_network(n);
  INFO("seed " << seed);
  // 1e-9 relative; and as the reference rounds wake-ups like the kernel, also within a few
  // time-resolution steps (this catches a wrong done criterion, whose effect is ~1e-9 relative).
  const double ticks = 16 * sc_core::sc_get_time_resolution().to_seconds();
  int off = 0;
  for (size_t i = 0; i < n.flows.size(); ++i) {
    INFO("flow " << i);
    REQUIRE(ref.done_at[i] >= 0);
    REQUIRE(got.done_at[i] >= 0);
    const double diff = std::fabs(got.done_at[i] - ref.done_at[i]);
    if (diff > 1e-9 * std::max(ref.done_at[i], 1e-6) || diff > ticks) {
      CHECK(got.done_at[i] == Approx(ref.done_at[i]).epsilon(1e-9).margin(0));
      CHECK(diff <= ticks);
      ++off;
    }
  }
  CHECK(off == 0);
  for (size_t r = 0; r < n.capacity.size(); ++r) {
    INFO("resource " << r);
    CHECK(got.carried[r] == Approx(ref.carried[r]).epsilon(1e-12));
    CHECK(got.busy[r] == Approx(ref.busy[r]).epsilon(1e-9));
  }
  // Deterministic callback order: flows ending at the same instant, in activation order.
  REQUIRE(got.order.size() == n.flows.size());
  for (size_t k = 1; k < got.order.size(); ++k) {
    const size_t a = static_cast<size_t>(got.order[k - 1]), b = static_cast<size_t>(got.order[k]);
    CHECK(got.done_at[a] <= got.done_at[b]);
    if (got.done_at[a] == got.done_at[b]) CHECK(ref.act_rank[a] < ref.act_rank[b]);
  }
}

}  // namespace

TEST_CASE("flow network matches a re-solve-everything reference (seed 1)", "[fabric][reference]") {
  cross_check(1, 16, 300, 3);
}

TEST_CASE("flow network matches a re-solve-everything reference (seed 2: few resources)", "[fabric][reference]") {
  cross_check(2, 4, 300, 2);  // one big component
}

TEST_CASE("flow network matches a re-solve-everything reference (seed 3: many resources)", "[fabric][reference]") {
  cross_check(3, 64, 400, 4);  // many small components
}

TEST_CASE("flow network matches a re-solve-everything reference (seed 4)", "[fabric][reference]") {
  cross_check(4, 24, 500, 3);
}

TEST_CASE("flow network matches a re-solve-everything reference (seed 5: 12 routes, classes of flows)",
          "[fabric][reference]") {
  cross_check(5, 24, 500, 3, 12);  // about 40 flows per route: FlowNetwork solves them by class
}

TEST_CASE("busy time counts an interval still open up to the last event", "[fabric]") {
  hw::FlowNetwork net("net");
  int32_t a = net.add_resource("a", 100e9), b = net.add_resource("b", 100e9);
  net.start({{a, 1.0}}, 1e9, 0, [] {});       // ends at 10 ms
  net.start({{b, 1.0}}, 0.2e9, 1e-3, [] {});  // on b from 1 ms to 3 ms
  sc_core::sc_start(sim::to_sc(5e-3));
  // a is still busy: counted up to the network's last event (b's end at 3 ms).
  CHECK(net.busy_time(a) == Approx(3e-3).epsilon(1e-9));
  CHECK(net.busy_time(b) == Approx(2e-3).epsilon(1e-9));
  sim::run_to_completion();
  CHECK(net.busy_time(a) == Approx(10e-3).epsilon(1e-9));
  CHECK(net.busy_time(b) == Approx(2e-3).epsilon(1e-9));
}

TEST_CASE("a flow within 1e-9 of its bytes ends at an earlier wake-up", "[fabric]") {
  // The done criterion: at a wake-up, a flow with at most 1e-9 x bytes left (or less than
  // one time step of transfer) is finished. A ends at 1 s exactly; B's end, 0.5 ns before,
  // wakes the network while A has 0.5 bytes (< 1 byte) left, so A ends with B.
  hw::FlowNetwork net("net");
  int32_t a = net.add_resource("a", 1e9), b = net.add_resource("b", 1e9);
  double ta = -1, tb = -1;
  net.start({{a, 1.0}}, 1e9, 0, [&] { ta = sim::now_s(); });
  net.start({{b, 1.0}}, 1e9 - 0.5, 0, [&] { tb = sim::now_s(); });
  sim::run_to_completion();
  CHECK(tb == Approx(1.0 - 0.5e-9).epsilon(1e-15));
  CHECK(ta == tb);
  CHECK(net.carried(a) == 1e9);
}
