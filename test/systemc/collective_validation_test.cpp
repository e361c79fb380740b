// Validation of the collective model against the nccom-test user-guide examples (S24;
// docs/sources.md, P7; tolerances from the issue). Placements:
//   2 ranks   : two NeuronCores of one trn1 chip (LNC=1); fitted point (launch overhead and
//               collective DMA engines are calibrated on the 1 KiB and 1 GiB rows)
//   16 ranks  : trn2.48xlarge at LNC=2, ranks 0-15 = chips 0-3 (one torus row), held out
//   64 ranks  : two trn1.32xlarge (32 NeuronCores each) over EFA, held out
#include <catch2/catch.hpp>

#include "sim_helpers.h"

using namespace trn;
using models::CollectiveOp;

using test::GiB;
using test::KiB;
using test::MiB;

TEST_CASE("2-rank all-reduce of 1 GiB takes about 18.93 ms (within 15%)", "[validation][collective]") {
  auto r = test::run_collective("trn1.32xlarge", 1, CollectiveOp::AllReduce, 2, {1 * GiB});
  CHECK(r.times[0] == Approx(18.93e-3).epsilon(0.15));
}

TEST_CASE("16-rank all-reduce of 512 MiB: about 9.69 ms, busbw about 104 GB/s (within 20%)",
          "[validation][collective]") {
  auto r = test::run_collective("trn2.48xlarge", 1, CollectiveOp::AllReduce, 16, {512 * MiB});
  CHECK(r.algorithms[0] == "kangaring");
  CHECK(r.times[0] == Approx(9.69e-3).epsilon(0.20));
  double busbw = 512 * MiB / r.times[0] * models::busbw_factor(CollectiveOp::AllReduce, 16);
  CHECK(busbw / 1e9 == Approx(103.9).epsilon(0.20));
}

TEST_CASE("trn1 64 ranks on 2 instances, 1 GiB: about 41.8 ms, busbw about 47 GB/s (within 20%)",
          "[validation][collective]") {
  auto r = test::run_collective("trn1.32xlarge", 2, CollectiveOp::AllReduce, 64, {1 * GiB});
  CHECK(r.algorithms[0].find("hier") == 0);
  CHECK(r.times[0] == Approx(41.806e-3).epsilon(0.20));
  // nccom-test prints 47.09 "GB/s" that are GiB/s for this row (1 GiB x 2x63/64 / 41.8 ms).
  double busbw = GiB / r.times[0] * models::busbw_factor(CollectiveOp::AllReduce, 64);
  CHECK(busbw / GiB == Approx(47.09).epsilon(0.20));
}

TEST_CASE("small-message latency floors within a factor of 2", "[validation][collective]") {
  auto two = test::run_collective("trn1.32xlarge", 1, CollectiveOp::AllReduce, 2, {1 * KiB});
  CHECK(two.times[0] > 58e-6 / 2);
  CHECK(two.times[0] < 58e-6 * 2);
}

TEST_CASE("16-rank floor within a factor of 2 of ~300 us", "[validation][collective]") {
  auto r = test::run_collective("trn2.48xlarge", 1, CollectiveOp::AllReduce, 16, {4, 8 * KiB});
  for (double t : r.times) {
    CHECK(t > 300e-6 / 2);
    CHECK(t < 300e-6 * 2);
  }
}

TEST_CASE("64-rank 2-instance floor within a factor of 2 of 520 us", "[validation][collective]") {
  auto r = test::run_collective("trn1.32xlarge", 2, CollectiveOp::AllReduce, 64, {8});
  CHECK(r.times[0] > 520e-6 / 2);
  CHECK(r.times[0] < 520e-6 * 2);
}
