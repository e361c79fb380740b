// Collective plans: data volumes per rank match the algorithms' closed forms, every
// dependency points backwards (the plan is a DAG), and algorithm choice follows S22.
#include <catch2/catch.hpp>

#include <numeric>

#include "models/collectives/collective_plan.h"
#include "models/collectives/selection.h"

using namespace trn::models;

namespace {
std::vector<int> iota_vec(int n) {
  std::vector<int> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}
std::vector<double> sent_per_rank(const CollectivePlan& p, int n) {
  std::vector<double> s(static_cast<size_t>(n), 0);
  for (const auto& t : p.transfers)
    if (!t.barrier) s[static_cast<size_t>(t.src)] += t.bytes;
  return s;
}
void check_dag(const CollectivePlan& p) {
  for (size_t i = 0; i < p.transfers.size(); ++i)
    for (int32_t d : p.transfers[i].deps) {
      CHECK(d >= 0);
      CHECK(static_cast<size_t>(d) < i);
    }
}
}  // namespace

TEST_CASE("ring all-reduce sends 2(n-1)/n of the buffer per rank", "[plan]") {
  const double S = 64.0 * 1024 * 1024;
  for (int n : {2, 3, 8, 16}) {
    for (Algorithm a : {Algorithm::Ring, Algorithm::KangaRing}) {
      CollectivePlan p = plan_flat(CollectiveOp::AllReduce, a, S, iota_vec(n));
      check_dag(p);
      for (double s : sent_per_rank(p, n)) CHECK(s == Approx(2.0 * (n - 1) / n * S));
      CHECK(p.steps == 2 * (n - 1));
    }
  }
}

TEST_CASE("mesh and rdh volumes and steps", "[plan]") {
  const double S = 8.0 * 1024 * 1024;
  CollectivePlan m = plan_flat(CollectiveOp::AllReduce, Algorithm::Mesh, S, iota_vec(16));
  check_dag(m);
  CHECK(m.steps == 2);
  for (double s : sent_per_rank(m, 16)) CHECK(s == Approx(2.0 * 15 / 16 * S));
  CollectivePlan r = plan_flat(CollectiveOp::AllReduce, Algorithm::Rdh, S, iota_vec(16));
  check_dag(r);
  CHECK(r.steps == 8);  // log2(16) halving + log2(16) doubling
  for (double s : sent_per_rank(r, 16)) CHECK(s == Approx(2.0 * 15 / 16 * S));
  CollectivePlan ag = plan_flat(CollectiveOp::AllGather, Algorithm::Ring, S, iota_vec(4));
  for (double s : sent_per_rank(ag, 4)) CHECK(s == Approx(3.0 / 4 * S));
  CollectivePlan a2a = plan_flat(CollectiveOp::AllToAll, Algorithm::Ring, S, iota_vec(4));
  CHECK(a2a.algorithm == "mesh");
  for (double s : sent_per_rank(a2a, 4)) CHECK(s == Approx(3.0 / 4 * S));
}

TEST_CASE("hierarchical all-reduce: intra RS, inter AR on 1/L, intra AG", "[plan]") {
  const double S = 256.0 * 1024 * 1024;
  std::vector<std::vector<int>> groups = {{0, 1, 2, 3}, {4, 5, 6, 7}};
  PlanOptions opt;
  CollectivePlan p = plan_hierarchical(CollectiveOp::AllReduce, S, groups, Algorithm::Ring, opt);
  check_dag(p);
  // Per rank: intra 2(L-1)/L S, inter 2(I-1)/I * S/L.
  for (double s : sent_per_rank(p, 8)) CHECK(s == Approx(2.0 * 3 / 4 * S + 2.0 * 1 / 2 * S / 4));
  CHECK(p.algorithm.find("pipelined") != std::string::npos);  // 256 MiB = 4 pieces of 64 MiB
}

TEST_CASE("algorithm choice by message size follows the runtime's bands", "[plan]") {
  CHECK(choose_intra(CollectiveOp::AllReduce, 512e3, 16, Algorithm::KangaRing) == Algorithm::Mesh);
  CHECK(choose_intra(CollectiveOp::AllReduce, 2e6, 16, Algorithm::KangaRing) == Algorithm::Rdh);
  CHECK(choose_intra(CollectiveOp::AllReduce, 2e6, 12, Algorithm::KangaRing) == Algorithm::KangaRing);
  CHECK(choose_intra(CollectiveOp::AllReduce, 512e6, 16, Algorithm::KangaRing) == Algorithm::KangaRing);
  CHECK(choose_intra(CollectiveOp::AllToAll, 512e6, 16, Algorithm::KangaRing) == Algorithm::Mesh);
  CHECK(busbw_factor(CollectiveOp::AllReduce, 16) == Approx(2.0 * 15 / 16));
  CHECK(busbw_factor(CollectiveOp::AllGather, 16) == Approx(15.0 / 16));
}

TEST_CASE("sdk releases parse, and the release notes decide which all-reduces run the legacy ring",
          "[collective][sdk]") {
  SdkRelease r;
  CHECK(parse_sdk_release("", &r));
  CHECK(r.current());
  CHECK(parse_sdk_release("2.6", &r));
  CHECK((r.major == 2 && r.minor == 6));
  CHECK(parse_sdk_release("2.15.2", &r));
  CHECK((r.major == 2 && r.minor == 15));
  for (const char* bad : {"2", "2.", ".6", "2.6.", "2.6.1.1", "v2.6", "2.x", "0.9", "2.6 ", "2.1000"})
    CHECK_FALSE(parse_sdk_release(bad, &r));
  auto legacy = [](const char* s, int local) {
    SdkRelease v;
    REQUIRE(parse_sdk_release(s, &v));
    return legacy_allreduce(v, local);
  };
  // SDK 2.3-2.10: every all-reduce with ranks inside an instance is the ring (S34).
  CHECK(legacy("2.6", 8));
  CHECK(legacy("2.10", 32));
  // 2.11: the all-to-all all-reduce (S34), for the whole instance (our reading: 2.12 then "enabled" it for 16); 2.12
  // adds 16 ranks (S34, S35).
  CHECK_FALSE(legacy("2.11", 32));
  CHECK(legacy("2.11", 16));
  CHECK_FALSE(legacy("2.12", 16));
  CHECK(legacy("2.12", 8));
  CHECK(legacy("2.20", 4));
  // From 2.21 (S22's runtime) and for the current runtime: never.
  CHECK_FALSE(legacy("2.21", 8));
  CHECK_FALSE(legacy("", 8));
  // A group with one rank per instance has no intra-instance part.
  CHECK_FALSE(legacy("2.6", 1));
}
