// The quotient of a collective plan built as such (hw::plan_collective_quotient, the builders
// given PlanOptions::quotient: models/collectives/quotient_sink.h) is the quotient of the whole
// plan (hw::quotient_plan), transfer for transfer: same sources, destinations, sizes, kinds and
// dependencies, for every op, algorithm and size band, on whole and partial sets of instances,
// with and without a local symmetry; where the whole plan is not invariant, both refuse it.
// And the simulated time of the quotient is the time of every transfer simulated.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "hw/collectives/plan_quotient.h"
#include "models/collectives/algorithm.h"
#include "sim_helpers.h"

using namespace trn;
using models::Algorithm;
using models::CollectiveOp;

using test::KiB;
using test::MiB;

namespace {

// The instance symmetry `bench collective` sets on ranks that fill `used` whole instances: the
// cyclic shifts of those instances, instance 0 the representative.
hw::InstanceSymmetry shifts_of(const hw::System& sys, int used) {
  return hw::InstanceSymmetry::cyclic(used, sys.topology().num_chips() / sys.topology().chips_per_instance());
}

// A local part that exchanges the ranks of each chip by XOR of their index (for the plans only:
// it carries no link permutations, so nothing may be simulated with it).
hw::LocalSymmetry chip_xor(const hw::System& sys) {
  hw::LocalSymmetry l;
  const int per = sys.ranks_per_instance(), rpc = sys.ranks_per_chip();
  for (int e = 0; e < rpc; ++e) {
    std::vector<int> p(static_cast<size_t>(per));
    for (int r = 0; r < per; ++r) p[static_cast<size_t>(r)] = r ^ e;
    l.rank_perms.push_back(std::move(p));
    l.link_perms.emplace_back();
  }
  for (int r = 0; r < per; ++r) l.to_rep.push_back(r % rpc);
  return l;
}

// The first difference between two plans, or "" when they are the same.
std::string plan_difference(const models::CollectivePlan& a, const models::CollectivePlan& b) {
  std::ostringstream d;
  if (a.algorithm != b.algorithm || a.steps != b.steps || a.dma_share != b.dma_share ||
      a.full_transfers != b.full_transfers)
    d << "header: " << a.algorithm << " / " << b.algorithm << ", steps " << a.steps << " / " << b.steps
      << ", transfers of the whole plan " << a.full_transfers << " / " << b.full_transfers;
  else if (a.transfers.size() != b.transfers.size())
    d << "transfers " << a.transfers.size() << " / " << b.transfers.size();
  for (size_t i = 0; d.str().empty() && i < a.transfers.size(); ++i) {
    const auto &x = a.transfers[i], &y = b.transfers[i];
    const bool deps = x.deps.size() == y.deps.size() && std::equal(x.deps.begin(), x.deps.end(), y.deps.begin());
    if (x.src != y.src || x.dst != y.dst || x.bytes != y.bytes || x.reduce != y.reduce || x.barrier != y.barrier ||
        !deps)
      d << "transfer " << i << ": " << x.src << "->" << x.dst << " " << x.bytes << " B, " << x.deps.size() << " deps / "
        << y.src << "->" << y.dst << " " << y.bytes << " B, " << y.deps.size() << " deps";
  }
  return d.str();
}

struct QuotientCase {
  CollectiveOp op;
  const Algorithm* force;
  double bytes;
};

// Every op (send-recv too), the runtime's choice and each registered algorithm forced, sizes in
// the mesh, rdh and large-message bands (256 MiB: a hierarchical plan in 4 pipelined pieces).
std::vector<QuotientCase> quotient_cases() {
  static const std::vector<Algorithm> algos = models::registered_algorithms();
  std::vector<QuotientCase> out;
  for (double bytes : {256 * KiB, 16 * MiB, 256 * MiB}) {
    for (CollectiveOp op : {CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::ReduceScatter})
      for (size_t k = 0; k <= algos.size(); ++k) out.push_back({op, k == 0 ? nullptr : &algos[k - 1], bytes});
    out.push_back({CollectiveOp::SendRecv, nullptr, bytes});
  }
  out.push_back({CollectiveOp::AllToAll, nullptr, 64 * KiB});
  return out;
}

// For each case on `ranks`: the direct quotient is the whole plan's quotient, or both refuse
// it. Returns how many cases were refused.
int check_direct_quotient(const hw::System& sys, const std::vector<int>& ranks, const std::string& what) {
  int refused = 0;
  for (const QuotientCase& c : quotient_cases()) {
    INFO(what << ": " << models::collective_op_name(c.op) << " of " << c.bytes << " B, algorithm "
              << (c.force ? models::algorithm_name(*c.force) : "auto"));
    hw::PlannedCollective whole = hw::plan_collective(sys, c.op, c.bytes, ranks, c.force);
    uint64_t counted = 0;
    for (const auto& t : whole.plan.transfers) counted += t.barrier ? 0 : 1;
    CHECK(whole.plan.full_transfers == counted);
    bool whole_refused = false, direct_refused = false;
    try {
      hw::quotient_plan(sys, whole.plan, whole.ranks);
    } catch (const models::SymmetryError&) {
      whole_refused = true;
    }
    hw::PlannedCollective direct;
    try {
      direct = hw::plan_collective_quotient(sys, c.op, c.bytes, ranks, c.force);
    } catch (const models::SymmetryError&) {
      direct_refused = true;
    }
    REQUIRE(direct_refused == whole_refused);
    refused += whole_refused ? 1 : 0;
    if (whole_refused) continue;
    CHECK(direct.ranks == whole.ranks);
    CHECK(plan_difference(direct.plan, whole.plan) == "");
  }
  return refused;
}

std::vector<int> range_of(int first, int count) {
  std::vector<int> r(static_cast<size_t>(count));
  std::iota(r.begin(), r.end(), first);
  return r;
}

}  // namespace

TEST_CASE("quotient built directly: 4 trn2.48xlarge, whole and partial sets of instances", "[collective][quotient]") {
  models::SystemSpec spec = models::load_system("trn2.48xlarge", {}, 4);
  auto sys = std::make_unique<hw::System>("system", spec, 0);
  sys->set_symmetry(shifts_of(*sys, 4));
  const int per = sys->ranks_per_instance();
  CHECK(check_direct_quotient(*sys, range_of(0, 4 * per), "all 256 ranks") == 0);
  // A data-parallel group of one rank per instance, strided; two of the four instances.
  CHECK(check_direct_quotient(*sys, {5, per + 5, 2 * per + 5, 3 * per + 5}, "one rank per instance") == 0);
  CHECK(check_direct_quotient(*sys, range_of(0, 2 * per), "instances 0 and 1") == 0);
  // The ranks of each chip exchanged as well: recursive halving-doubling over the instances is
  // built by images for the kept ranks and skipped for the others (rdh.cpp), as the ring.
  hw::InstanceSymmetry k = shifts_of(*sys, 4);
  k.local = chip_xor(*sys);
  auto local = std::make_unique<hw::System>("system_local", spec, 0);
  local->set_symmetry(k);
  const int refused = check_direct_quotient(*local, range_of(0, 4 * per), "with the ranks of each chip exchanged");
  CHECK(refused < static_cast<int>(quotient_cases().size()));
  CHECK(check_direct_quotient(*local, {5, per + 5, 2 * per + 5, 3 * per + 5}, "one rank per instance, local") == 0);
}

TEST_CASE("quotient built directly: recursive halving-doubling over 8 instances", "[collective][quotient]") {
  models::SystemSpec spec = models::load_system("trn2.48xlarge", {}, 8);
  auto sys = std::make_unique<hw::System>("system", spec, 0);
  sys->set_symmetry(shifts_of(*sys, 8));
  const int per = sys->ranks_per_instance();
  std::vector<int> dp;
  for (int i = 0; i < 8; ++i) dp.push_back(i * per + 3);
  CHECK(check_direct_quotient(*sys, dp, "one rank per instance") == 0);
  std::vector<int> two;  // two ranks per instance: a hierarchical plan, its inter phase over 8
  for (int i = 0; i < 8; ++i)
    for (int j : {0, 17}) two.push_back(i * per + j);
  CHECK(check_direct_quotient(*sys, two, "two ranks per instance") == 0);
}

TEST_CASE("quotient built directly: 3 trn1.32xlarge (no XOR of positions) and a local symmetry",
          "[collective][quotient]") {
  models::SystemSpec spec = models::load_system("trn1.32xlarge", {}, 3);
  auto sys = std::make_unique<hw::System>("system", spec, 0);
  sys->set_symmetry(shifts_of(*sys, 3));
  const int per = sys->ranks_per_instance();
  CHECK(check_direct_quotient(*sys, range_of(0, 3 * per), "all ranks of 3 instances") == 0);
  // The ranks of each chip exchanged as well: the ring's order is not invariant under it (both
  // refuse those plans), mesh's is.
  hw::InstanceSymmetry k = shifts_of(*sys, 3);
  k.local = chip_xor(*sys);
  auto local = std::make_unique<hw::System>("system_local", spec, 0);
  local->set_symmetry(k);
  const int refused = check_direct_quotient(*local, range_of(0, 3 * per), "with the ranks of each chip exchanged");
  CHECK(refused > 0);
  CHECK(refused < static_cast<int>(quotient_cases().size()));
}

TEST_CASE("the directly built quotient simulates to the time of every transfer", "[collective][quotient]") {
  // Two systems in one kernel, from time 0: every instance simulated, and instance 0's
  // transfers only under the cyclic shifts of the 4 instances.
  models::SystemSpec spec = models::load_system("trn2.48xlarge", {}, 4);
  auto full = std::make_unique<hw::System>("system_full", spec, 0);
  auto reduced = std::make_unique<hw::System>("system_reduced", spec, 0);
  reduced->set_symmetry(shifts_of(*reduced, 4));
  hw::CollectiveEngine eng_full("collectives_full", *full), eng_reduced("collectives_reduced", *reduced);
  const std::vector<int> ranks = range_of(0, full->total_ranks());
  const std::vector<QuotientCase> jobs = {{CollectiveOp::AllReduce, nullptr, 256 * MiB},
                                          {CollectiveOp::AllReduce, nullptr, 16 * MiB},
                                          {CollectiveOp::AllGather, nullptr, 64 * MiB},
                                          {CollectiveOp::ReduceScatter, nullptr, 1 * MiB}};
  std::vector<double> t_full(jobs.size(), -1), t_reduced(jobs.size(), -2);
  uint64_t kept = 0, whole = 0;
  std::function<void(size_t)> next_full = [&](size_t i) {
    if (i >= jobs.size()) return;
    auto pc = hw::plan_collective(*full, jobs[i].op, jobs[i].bytes, ranks);
    eng_full.run(std::move(pc.plan), pc.ranks, 0.0, [&, i](const hw::CollectiveResult& r) {
      t_full[i] = r.time();
      next_full(i + 1);
    });
  };
  std::function<void(size_t)> next_reduced = [&](size_t i) {
    if (i >= jobs.size()) return;
    auto pc = hw::plan_collective_quotient(*reduced, jobs[i].op, jobs[i].bytes, ranks);
    kept += pc.plan.transfers.size();
    whole += pc.plan.full_transfers;
    eng_reduced.run(std::move(pc.plan), pc.ranks, 0.0, [&, i](const hw::CollectiveResult& r) {
      t_reduced[i] = r.time();
      next_reduced(i + 1);
    });
  };
  next_full(0);
  next_reduced(0);
  sim::run_to_completion();
  CHECK(kept * 3 < whole);  // the quotient is about a quarter of the plan
  for (size_t i = 0; i < jobs.size(); ++i) {
    INFO("job " << i);
    CHECK(t_reduced[i] > 0);
    CHECK(t_reduced[i] == t_full[i]);
  }
}

TEST_CASE("with an instance symmetry only the representative instances get resources", "[system][quotient]") {
  models::SystemSpec spec = models::load_system("trn2.48xlarge", {}, 4);
  auto whole = std::make_unique<hw::System>("system_whole", spec, 0);
  auto folded = std::make_unique<hw::System>("system_folded", spec, 0);
  folded->set_symmetry(shifts_of(*folded, 4));
  const auto& links = folded->topology().links();
  size_t rep_links = 0;
  for (size_t l = 0; l < links.size(); ++l) {
    const int32_t r = folded->link_resource(static_cast<int32_t>(l));
    CHECK((r >= 0) == (links[l].instance == 0));  // instance 0 stands for the four
    rep_links += r >= 0;
    CHECK(whole->link_resource(static_cast<int32_t>(l)) >= 0);
  }
  CHECK(rep_links * 4 == links.size());
  const int chips = folded->topology().chips_per_instance();
  CHECK(folded->hbm_resource(0, 0) >= 0);
  CHECK(folded->hbm_resource(chips, 0) < 0);
  CHECK(folded->core_dma_resource(4 * chips - 1, 0) < 0);
  CHECK(folded->net().resources() * 4 == whole->net().resources());
  // The resources are fixed once registered: a symmetry set afterwards is refused.
  CHECK_THROWS_AS(folded->set_symmetry(shifts_of(*folded, 4)), std::logic_error);
}
