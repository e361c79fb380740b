// CollectiveEngine::replay_isolated against the simulation it replaces. Two engines share one
// system: one replays, the other simulates every run; they run the same collectives on two
// instances of trn2.48xlarge, whose resources are disjoint, so the second is the exact
// reference of the first in the same simulation (one kernel per process, main.cpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "hw/collectives/collective_engine.h"
#include "hw/collectives/collective_planner.h"
#include "sim/kernel/event_queue.h"
#include "sim_helpers.h"

using namespace trn;
using models::CollectiveOp;

namespace {

struct Side {
  hw::CollectiveEngine* eng = nullptr;
  std::vector<int> ranks;
  std::vector<double> ends;  // end of each run, in launch order
};

// Four back-to-back all-reduces of 64 MiB on 16 ranks of one instance; with `overlap`, an
// all-gather on 8 of them launched at 40 % of the third all-reduce, and a fifth all-reduce after
// both. Returns the ends of every run.
void drive(hw::System& sys, Side& s, bool overlap) {
  auto ar = s.eng->prepare(hw::plan_collective(sys, CollectiveOp::AllReduce, 64 * test::MiB, s.ranks).plan, s.ranks);
  auto push = [&s](const hw::CollectiveResult& r) { s.ends.push_back(r.end_s); };
  auto chain = std::make_shared<std::function<void(int)>>();
  *chain = [&sys, &s, ar, push, chain, overlap](int k) {
    if (k == 4) return;
    s.eng->run(ar, 0.0, [&sys, &s, push, chain, k, overlap, ar](const hw::CollectiveResult& r) {
      push(r);
      if (k == 1 && overlap)  // called when the third has started (a run known at its launch stops its replay)
        sys.events().at(0.4 * r.time(), [&sys, &s, push] {
          std::vector<int> half(s.ranks.begin(), s.ranks.begin() + 8);
          auto ag = hw::plan_collective(sys, CollectiveOp::AllGather, 16 * test::MiB, half);
          s.eng->run(std::move(ag.plan), ag.ranks, 0.0, push);
        });
      (*chain)(k + 1);
    });
  };
  (*chain)(0);
}

struct Pair {
  hw::System* sys;
  Side replay, exact;
};

Pair make_pair_of_sides() {
  static std::unique_ptr<hw::System> sys;
  static std::unique_ptr<hw::CollectiveEngine> a, b;
  sys = std::make_unique<hw::System>("system", models::load_system("trn2.48xlarge", {}, 2), 0);
  a = std::make_unique<hw::CollectiveEngine>("replaying", *sys);
  b = std::make_unique<hw::CollectiveEngine>("exact", *sys);
  a->replay_isolated(true);
  Pair p{sys.get(), {}, {}};
  p.replay.eng = a.get();
  p.exact.eng = b.get();
  const int per = sys->ranks_per_instance();
  for (int i = 0; i < 16; ++i) {
    p.replay.ranks.push_back(i);
    p.exact.ranks.push_back(per + i);
  }
  return p;
}

// The bytes carried and the busy time summed over the resources of the instance that holds
// `ranks` (the two sides are compared by these sums).
struct Totals {
  double carried = 0, busy = 0;
};
Totals totals(const hw::FlowNetwork& net, const std::vector<int>& ranks, hw::System& sys) {
  Totals t;
  const int chips = sys.topology().chips_per_instance();
  const int first = sys.placement(ranks.front()).chip;
  for (size_t r = 0; r < net.resources(); ++r) {
    const std::string& n = net.resource_name(static_cast<int32_t>(r));
    // Resources are named by chip ("chip<N>...", "link.chip<N>->...") or by rank ("rank<N>...").
    int id = -1;
    int chip = -1;
    if (std::sscanf(n.c_str(), "rank%d", &id) == 1)
      chip = sys.placement(id).chip;
    else if (std::sscanf(n.c_str(), "chip%d", &id) == 1 || std::sscanf(n.c_str(), "link.chip%d", &id) == 1)
      chip = id;
    if (chip < first || chip >= first + chips) continue;
    t.carried += net.carried(static_cast<int32_t>(r));
    t.busy += net.busy_time(static_cast<int32_t>(r));
  }
  return t;
}

void compare(bool overlap, double tol) {
  Pair p = make_pair_of_sides();
  drive(*p.sys, p.replay, overlap);
  drive(*p.sys, p.exact, overlap);
  sim::run_to_completion();
  REQUIRE(p.replay.ends.size() == p.exact.ends.size());
  // Errors relative to the time since the second run's end (the third's launch): the replays
  // before it are exact, what follows carries the materialized one's error.
  const double t0 = p.exact.ends[1];
  for (size_t i = 0; i < p.exact.ends.size(); ++i) {
    INFO("run " << i << ": replayed " << p.replay.ends[i] << " s, simulated " << p.exact.ends[i] << " s");
    CHECK(std::abs(p.replay.ends[i] - p.exact.ends[i]) <= tol * std::max(0.0, p.exact.ends[i] - t0) + 1e-12);
  }
  const Totals a = totals(p.sys->net(), p.replay.ranks, *p.sys), b = totals(p.sys->net(), p.exact.ranks, *p.sys);
  INFO("carried " << a.carried << " / " << b.carried << " B, busy " << a.busy << " / " << b.busy << " s");
  CHECK(b.carried > 0);
  CHECK(std::abs(a.carried - b.carried) <= 1e-9 * b.carried);
  CHECK(std::abs(a.busy - b.busy) <= std::max(tol / 10, 1e-9) * b.busy);
  CHECK(p.exact.eng->replayed() == 0);
  if (overlap) {
    CHECK(p.replay.eng->replayed() >= 2);
    CHECK(p.replay.eng->replay_overlaps() == 1);
  } else {
    CHECK(p.replay.eng->replayed() == 3);  // the first run is recorded, the other three replay it
    CHECK(p.replay.eng->replay_overlaps() == 0);
  }
}

}  // namespace

TEST_CASE("collective replay: a run alone on its resources replays exactly", "[collective][replay]") {
  compare(false, 1e-12);
}

// The materialized run's transfers under way restart with the bytes the record's flows had left
// (re-solved by max-min between their starts and ends): the same run, up to rounding.
TEST_CASE("collective replay: a run launched during a replay turns it into the same flows", "[collective][replay]") {
  compare(true, 1e-6);
}
