// The collective algorithm interface (models/collectives/algorithm.h): every registered
// algorithm is found by its name, builds a DAG, and its closed-form estimate agrees with that
// plan: bandwidth term = the busiest rank's bytes / bandwidth, latency term at most one latency
// per step of the plan. The lowering's list scheduler takes the ring's estimate, so the ring's
// closed form is checked exactly; the built-in algorithms move the closed-form volume from
// every rank.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <string>

#include "models/collectives/algorithm.h"

using namespace trn::models;

namespace {
std::vector<int> ranks_upto(int n) {
  std::vector<int> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}
double busiest_rank_bytes(const CollectivePlan& p, int n) {
  std::vector<double> s(static_cast<size_t>(n), 0);
  for (const auto& t : p.transfers)
    if (!t.barrier) s[static_cast<size_t>(t.src)] += t.bytes;
  return *std::max_element(s.begin(), s.end());
}
}  // namespace

TEST_CASE("every registered algorithm is found by its name, in registration order", "[algorithm]") {
  const std::vector<Algorithm> all = registered_algorithms();
  REQUIRE(all.size() >= 4);
  std::string names;
  for (Algorithm a : all) {
    const std::string name = algorithm(a).name();
    Algorithm parsed{};
    REQUIRE(parse_algorithm(name, &parsed));
    CHECK(parsed == a);
    CHECK(algorithm_name(a) == name);
    names += (names.empty() ? "" : ", ") + name;
  }
  CHECK(algorithm_names() == names);
  CHECK(algorithm_names(" | ").find("ring | kangaring | mesh | rdh") == 0);
  CHECK(std::string(algorithm(Algorithm::Ring).name()) == "ring");
  CHECK(std::string(algorithm(Algorithm::KangaRing).name()) == "kangaring");
  CHECK(std::string(algorithm(Algorithm::Mesh).name()) == "mesh");
  CHECK(std::string(algorithm(Algorithm::Rdh).name()) == "rdh");
  Algorithm a{};
  CHECK_FALSE(parse_algorithm("auto", &a));
  CHECK_FALSE(parse_algorithm("Ring", &a));
}

TEST_CASE("each algorithm's estimate agrees with the plan it builds", "[algorithm]") {
  const double S = 24.0 * 1024 * 1024, bw = 100e9, lat = 2e-6;
  for (Algorithm a : registered_algorithms()) {
    const CollectiveAlgorithm& alg = algorithm(a);
    for (CollectiveOp op : {CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::ReduceScatter}) {
      for (int n : {2, 4, 6, 8, 16}) {
        INFO(alg.name() << " " << collective_op_name(op) << " over " << n << " ranks");
        const CollectivePlan p = plan_flat(op, a, S, ranks_upto(n));
        for (size_t i = 0; i < p.transfers.size(); ++i)
          for (int32_t d : p.transfers[i].deps) CHECK((d >= 0 && static_cast<size_t>(d) < i));
        CHECK(p.algorithm == alg.label(n));
        const double busiest = busiest_rank_bytes(p, n);
        CHECK(alg.estimate(op, n, S, {bw, 0.0}) == Approx(busiest / bw));
        const double latency_term = alg.estimate(op, n, S, {1e300, lat});
        CHECK(latency_term > 0);
        CHECK(latency_term <= p.steps * lat * (1 + 1e-12));
        CHECK(alg.estimate(op, n, 2 * S, {bw, lat}) > alg.estimate(op, n, S, {bw, lat}));
        CHECK(alg.estimate(op, 1, S, {bw, lat}) == 0);
      }
    }
  }
}

TEST_CASE("the built-in algorithms move the closed-form volume per rank", "[algorithm]") {
  const double S = 24.0 * 1024 * 1024;
  for (Algorithm a : {Algorithm::Ring, Algorithm::KangaRing, Algorithm::Mesh, Algorithm::Rdh})
    for (CollectiveOp op : {CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::ReduceScatter})
      for (int n : {2, 4, 6, 8, 16}) {
        INFO(algorithm_name(a) << " " << collective_op_name(op) << " over " << n << " ranks");
        const CollectivePlan p = plan_flat(op, a, S, ranks_upto(n));
        std::vector<double> sent(static_cast<size_t>(n), 0);
        for (const auto& t : p.transfers)
          if (!t.barrier) sent[static_cast<size_t>(t.src)] += t.bytes;
        for (double x : sent) CHECK(x == Approx(per_rank_share(op, n) * S));  // every rank alike
      }
}

TEST_CASE("all-to-all runs as mesh whichever algorithm is asked for", "[algorithm]") {
  const double S = 8.0 * 1024 * 1024;
  for (Algorithm a : registered_algorithms()) {
    const CollectivePlan p = plan_flat(CollectiveOp::AllToAll, a, S, ranks_upto(8));
    CHECK(p.algorithm == "mesh");
    CHECK(p.steps == 1);
    CHECK(busiest_rank_bytes(p, 8) == Approx(7.0 / 8 * S));
  }
}

TEST_CASE("the ring's closed form, which the lowering's list scheduler uses", "[algorithm]") {
  const LinkTier tier{50e9, 1.5e-6};
  const CollectiveAlgorithm& ring = algorithm(Algorithm::Ring);
  // One latency per step of one half, plus the busiest rank's bytes over the tier.
  CHECK(ring.estimate(CollectiveOp::AllReduce, 8, 64e6, tier) == 1.5e-6 * 7 + (7.0 / 8 * 2) * 64e6 / 50e9);
  CHECK(ring.estimate(CollectiveOp::AllGather, 8, 64e6, tier) == 1.5e-6 * 7 + (7.0 / 8) * 64e6 / 50e9);
  CHECK(ring.estimate(CollectiveOp::SendRecv, 2, 64e6, tier) == 1.5e-6 + 64e6 / 50e9);
  CHECK(ring_estimate(CollectiveOp::AllReduce, 8, 64e6, tier) == ring.estimate(CollectiveOp::AllReduce, 8, 64e6, tier));
  // KangaRing moves the ring's volume over two rings: the same closed form.
  CHECK(algorithm(Algorithm::KangaRing).estimate(CollectiveOp::AllReduce, 8, 64e6, tier) ==
        ring.estimate(CollectiveOp::AllReduce, 8, 64e6, tier));
  // Rdh on a group that is not a power of two is the ring, in its plan and its estimate.
  CHECK(algorithm(Algorithm::Rdh).estimate(CollectiveOp::AllReduce, 6, 64e6, tier) ==
        ring.estimate(CollectiveOp::AllReduce, 6, 64e6, tier));
  CHECK(algorithm(Algorithm::Rdh).label(6) == "kangaring (rdh needs a power-of-two group)");
}
