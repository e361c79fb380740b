// The pure parts of `trnsim plan` (workloads/plan): the restart and checkpoint model, the
// search space, the step bound and the Pareto front.
#include <catch2/catch.hpp>

#include <cmath>

#include "workloads/plan/plan_model.h"

using namespace trn::workloads;
using namespace trn::workloads::plan;

namespace {
RestartInput job() {  // 1,024 chips on 16 hosts, 30 days of work, a 70B-class checkpoint
  RestartInput in;
  in.work_s = 30 * 86400.0;
  in.chips = 1024;
  in.hosts = 16;
  in.checkpoint_bytes = 70e9 * 14;
  in.restart_startup_s = 600;
  return in;
}
}  // namespace

TEST_CASE("restart model: goodput falls as the interruption rate rises", "[plan]") {
  RestartParams p;
  double last = 1.0;
  for (double rate : {0.0, 1e-6, 1e-5, 2e-5, 1e-4, 1e-3}) {
    p.interruptions_per_chip_hour = rate;
    RestartResult r = restart_model(job(), p);
    INFO("rate " << rate << " goodput " << r.goodput);
    CHECK(r.goodput <= last);
    if (rate > 0) CHECK(r.goodput < last);
    last = r.goodput;
  }
  CHECK(last < 0.9);
}

TEST_CASE("restart model: the checkpoint interval has an interior optimum at Young/Daly", "[plan]") {
  RestartParams p;
  const RestartResult opt = restart_model(job(), p);
  REQUIRE(opt.finishes);
  CHECK(opt.interval_s == Approx(std::sqrt(2 * opt.write_s * opt.mtbf_s)));
  // Goodput against the interval: rises, peaks, falls.
  double best_tau = 0, best = 0;
  std::vector<double> g;
  for (double f : {0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 10.0, 20.0}) {
    p.interval_s = opt.interval_s * f;
    const double gp = restart_model(job(), p).goodput;
    g.push_back(gp);
    if (gp > best) best = gp, best_tau = f;
  }
  CHECK(g.front() < best);
  CHECK(g.back() < best);
  CHECK(best_tau > 0.05);
  CHECK(best_tau < 20.0);
  CHECK(opt.goodput >= best * 0.999);  // Young/Daly is (to first order) the optimum
}

TEST_CASE("restart model: the totals add up", "[plan]") {
  RestartParams p;
  const RestartInput in = job();
  const RestartResult r = restart_model(in, p);
  CHECK(r.total_s == Approx(in.work_s + r.checkpoint_s + r.restarts_s + r.lost_s).epsilon(1e-9));
  CHECK(r.goodput == Approx(in.work_s / r.total_s));
  CHECK(r.restart_s == Approx(in.restart_startup_s + r.read_s));
  p.interruptions_per_chip_hour = 1.0;  // far faster than progress: never finishes
  const RestartResult never = restart_model(in, p);
  CHECK_FALSE(never.finishes);
  CHECK(never.goodput == 0);
}

// `trnsim plan` bounds the time to train from a step bound with the restart model at no
// restart start-up (docs/plan.md section 2): that is a bound only if the model's total never
// falls as the work or the restart start-up grows, whatever the rate and the interval.
TEST_CASE("restart model: the total grows with the work and with the restart start-up", "[plan]") {
  for (double rate : {0.0, 1.97e-5, 1e-4}) {
    for (double interval : {0.0, 600.0}) {
      RestartParams p;
      p.interruptions_per_chip_hour = rate;
      p.interval_s = interval;
      RestartInput in = job();
      double last = -1;
      for (double work : {0.0, 3600.0, 86400.0, 30 * 86400.0, 300 * 86400.0}) {
        in.work_s = work;
        const double t = restart_model(in, p).total_s;
        INFO("rate " << rate << " interval " << interval << " work " << work << " total " << t);
        CHECK(t >= last);
        CHECK(t >= work);
        last = t;
      }
      in = job();
      last = -1;
      for (double startup : {0.0, 60.0, 600.0, 6000.0}) {
        in.restart_startup_s = startup;
        const double t = restart_model(in, p).total_s;
        INFO("rate " << rate << " interval " << interval << " restart start-up " << startup << " total " << t);
        CHECK(t >= last);
        last = t;
      }
    }
  }
}

TEST_CASE("plan search space: layouts multiply to the ranks and respect the model", "[plan]") {
  ModelSpec m;
  m.num_layers = 80;
  m.num_heads = 64;
  m.num_kv_heads = 8;
  SearchSpace space;
  const auto ls = enumerate_layouts(m, space, 256, 64, 1024, 2);
  REQUIRE(!ls.empty());
  for (const auto& l : ls) {
    CHECK(l.tp * l.pp * l.dp * l.fsdp == 256);
    CHECK(80 % l.pp == 0);
    CHECK(64 % l.tp == 0);
    CHECK(1024 % (int64_t{l.dp} * l.fsdp * l.microbatches) == 0);
    if (l.pp > 1) CHECK(l.microbatches >= l.pp);
  }
  // 576 ranks (144 chips): every split leaves a factor 9 in dp x fsdp, which 1,024 does not divide;
  // 1,026 = 9 x 114 is the next batch with a layout (TP 32 x PP 2 x DP 9).
  CHECK(enumerate_layouts(m, space, 576, 576, 1024, 2).empty());
  CHECK(next_batch_with_layouts(m, space, 576, 576, 1024, 2) == 1026);
  CHECK(next_batch_with_layouts(m, space, 256, 64, 1024, 2) == 1025);  // TP 32 x PP 8: one replica takes any batch
  CHECK(instance_counts(16, 1, 1024) == std::vector<int>{1, 2, 4, 8, 16, 32, 64});
  CHECK(instance_counts(64, 100, 1024) == std::vector<int>{2, 4, 8, 16});
  CHECK(instance_counts(16, 20, 64, false) == std::vector<int>{2, 3, 4});  // every count, not only powers of two
  // The nearest batch with a layout within a tolerance: 1,026 is 2 away (1,017 = 9 x 113 is 7 away).
  CHECK(nearest_batch_with_layouts(m, space, 576, 576, 1024, 2, 0.15) == 1026);
  CHECK(nearest_batch_with_layouts(m, space, 576, 576, 1024, 2, 0.001) == -1);
  CHECK(nearest_batch_with_layouts(m, space, 576, 576, 1024, 2, 0) == -1);
  CHECK(nearest_batch_with_layouts(m, space, 256, 64, 1024, 2, 0) == 1024);  // the batch itself when it has a layout
}

TEST_CASE("pareto front keeps the non-dominated points", "[plan]") {
  std::vector<std::pair<double, double>> tc = {{10, 5}, {8, 7}, {12, 4}, {9, 9}, {8, 6}};
  auto f = pareto_front(tc);
  CHECK(f == std::vector<size_t>{4, 0, 2});
}
