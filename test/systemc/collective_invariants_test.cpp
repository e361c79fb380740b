// Invariants of the simulated collectives: for a fixed algorithm more bytes never take
// less time; more bandwidth never makes them slower; all four ops run on every system.
#include <catch2/catch.hpp>

#include "sim_helpers.h"

using namespace trn;
using models::Algorithm;
using models::CollectiveOp;

static constexpr double MiB = 1024.0 * 1024;

// Runs sizes from 1 KiB to `max_bytes` (x `step`) back to back with a fixed algorithm on
// 16 trn2 ranks and checks that the time never decreases.
static void check_monotone(Algorithm a, double max_bytes, double step) {
  std::vector<double> sizes;
  for (double s = 1024; s <= max_bytes; s *= step) sizes.push_back(s);
  auto r = test::run_collective("trn2.48xlarge", 1, CollectiveOp::AllReduce, 16, sizes, &a);
  for (size_t i = 1; i < r.times.size(); ++i) CHECK(r.times[i] >= r.times[i - 1]);
}

TEST_CASE("for a fixed algorithm, more bytes never take less time", "[collective][invariant]") {
  check_monotone(Algorithm::Ring, 256 * MiB, 4);
}

TEST_CASE("mesh is monotone in bytes too", "[collective][invariant]") { check_monotone(Algorithm::Mesh, 64 * MiB, 8); }

TEST_CASE("rdh is monotone in bytes too", "[collective][invariant]") { check_monotone(Algorithm::Rdh, 64 * MiB, 8); }

TEST_CASE("faster collective DMA never slows an all-reduce", "[collective][invariant]") {
  // Two systems in one kernel is not possible; compare against the closed-form DMA bound.
  auto r = test::run_collective("trn2.48xlarge", 1, CollectiveOp::AllReduce, 16, {512 * MiB}, nullptr,
                                {"chip.collectives.dma_engines_per_core=6"});
  // 6 engines x 2 cores x 27.2 GB/s per rank; reduce at half rate: RS 2x + AG 1x of 15/16 S.
  double bound = 512 * MiB * 15.0 / 16 * 3 / (6 * 2 * 27.2e9);
  CHECK(r.times[0] >= bound);
  CHECK(r.times[0] < 9.69e-3);
}

// S22 gives rdh's sweet range as 1-56 MB, found empirically: there it beats the large-message
// algorithm. The simulated rdh (two stages, one hop between chips) must agree.
static void rdh_not_slower_than(const char* system, int ranks, Algorithm large) {
  models::SystemSpec spec = models::load_system(system, {}, 1);
  static std::unique_ptr<hw::System> sys;
  static std::unique_ptr<hw::CollectiveEngine> eng;
  sys = std::make_unique<hw::System>("system", spec, 0);
  eng = std::make_unique<hw::CollectiveEngine>("collectives", *sys);
  std::vector<int> list(static_cast<size_t>(ranks));
  std::iota(list.begin(), list.end(), 0);
  struct Run {
    CollectiveOp op;
    double bytes;
    Algorithm algo;
    double time = 0;
  };
  std::vector<Run> runs;
  for (CollectiveOp op : {CollectiveOp::ReduceScatter, CollectiveOp::AllGather, CollectiveOp::AllReduce})
    for (double bytes : {4 * MiB, 16 * MiB, 32 * MiB})
      for (Algorithm a : {Algorithm::Rdh, large}) runs.push_back({op, bytes, a});
  std::function<void(size_t)> next = [&](size_t i) {
    if (i >= runs.size()) return;
    auto pc = hw::plan_collective(*sys, runs[i].op, runs[i].bytes, list, &runs[i].algo);
    eng->run(std::move(pc.plan), pc.ranks, 0.0, [&, i](const hw::CollectiveResult& r) {
      runs[i].time = r.time();
      next(i + 1);
    });
  };
  next(0);
  sim::run_to_completion();
  for (size_t i = 0; i < runs.size(); i += 2) {
    INFO(models::collective_op_name(runs[i].op) << " " << runs[i].bytes / MiB << " MiB: rdh " << runs[i].time << " s, "
                                                << models::algorithm_name(large) << " " << runs[i + 1].time);
    CHECK(runs[i].time <= runs[i + 1].time);
  }
}

TEST_CASE("in its band rdh is not slower than the ring: 32 trn1 ranks (S22)", "[collective][invariant][rdh]") {
  rdh_not_slower_than("trn1.32xlarge", 32, Algorithm::Ring);
}

TEST_CASE("in its band rdh is not slower than KangaRing: 16 trn2 ranks on 4 chips (S22)",
          "[collective][invariant][rdh]") {
  rdh_not_slower_than("trn2.48xlarge", 16, Algorithm::KangaRing);
}

static void all_ops(const char* system, int instances, int ranks) {
  // Runs all four ops one after another in one simulation; each must take positive time.
  models::SystemSpec spec = models::load_system(system, {}, instances);
  static std::unique_ptr<hw::System> sys;
  static std::unique_ptr<hw::CollectiveEngine> eng;
  sys = std::make_unique<hw::System>("system", spec, 0);
  eng = std::make_unique<hw::CollectiveEngine>("collectives", *sys);
  std::vector<int> list(static_cast<size_t>(ranks));
  std::iota(list.begin(), list.end(), 0);
  const std::vector<CollectiveOp> ops = {CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::ReduceScatter,
                                         CollectiveOp::AllToAll};
  std::vector<double> times(ops.size(), 0);
  std::function<void(size_t)> next = [&](size_t i) {
    if (i >= ops.size()) return;
    auto pc = hw::plan_collective(*sys, ops[i], 8 * MiB, list);
    eng->run(std::move(pc.plan), pc.ranks, 0.0, [&, i](const hw::CollectiveResult& r) {
      times[i] = r.time();
      next(i + 1);
    });
  };
  next(0);
  sim::run_to_completion();
  for (double t : times) CHECK(t > 0);
  // All-reduce moves twice what reduce-scatter or all-gather moves.
  CHECK(times[0] > times[1]);
  CHECK(times[0] > times[2]);
}

TEST_CASE("all ops on trn2-ultraserver", "[collective]") { all_ops("trn2-ultraserver", 1, 256); }
TEST_CASE("all ops on trn3-gen1-ultraserver", "[collective]") { all_ops("trn3-gen1-ultraserver", 1, 64); }
TEST_CASE("all ops on trn3-gen2-ultraserver", "[collective]") { all_ops("trn3-gen2-ultraserver", 1, 144); }
TEST_CASE("all ops on 2 x trn2.48xlarge", "[collective]") { all_ops("trn2.48xlarge", 2, 128); }
