// `trnsim bench collective`: nccom-test-style collective sweep on a simulated system.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>

#include "hw/collectives/collective_engine.h"
#include "hw/collectives/plan_quotient.h"
#include "hw/collectives/collective_planner.h"
#include "models/cost/dtype.h"
#include "sim/app/commands.h"
#include "sim/base/output_file.h"
#include "sim/kernel/event_queue.h"

namespace trn::app {
namespace {

struct Opts {
  CommonOptions common;
  std::string system = "trn2.48xlarge", op = "all-reduce", sizes = "1KiB,1MiB,64MiB,512MiB",
              dtype = "fp32", algorithm = "auto";
  int instances = 0, ranks = 0, lnc = 0;
  bool exact = false;
};

sim::Location opt_loc(const std::string& o) { return sim::Location{o, 0, 0}; }

}  // namespace

Runner add_bench_collective(CLI::App* bench) {
  auto o = std::make_shared<Opts>();
  auto* c = bench->add_subcommand("collective", "Simulate a collective over a range of sizes (like nccom-test)");
  c->add_option("--system", o->system, "System name (hw/configs/systems) or YAML path")->capture_default_str();
  c->add_option("--instances", o->instances, "Instances joined by EFA (count; 0 = the system file's value, 1 unless set)")->capture_default_str();
  c->add_option("--lnc", o->lnc, "Physical cores per rank (logical NeuronCore size; 0 = chip default)")->capture_default_str();
  c->add_option("--op", o->op, "all-reduce | all-gather | reduce-scatter | all-to-all")->capture_default_str();
  c->add_option("--ranks", o->ranks, "Ranks taking part, placed contiguously from rank 0 (count; 0 = all)")->capture_default_str();
  c->add_flag("--exact", o->exact,
              "Simulate every transfer of every instance (default: when the ranks fill whole instances, only "
              "instance 0's, by symmetry)");
  c->add_option("--sizes", o->sizes, "Comma-separated message sizes with units (bytes, e.g. 1KiB,512MiB)")->capture_default_str();
  c->add_option("--dtype", o->dtype, "Element type: fp32, bf16, fp16, fp8, uint8 (sets the count column)")->capture_default_str();
  c->add_option("--algorithm", o->algorithm, "auto (Neuron runtime choice by size) | ring | kangaring | mesh | rdh")->capture_default_str();
  add_common(c, o->common);
  return [o]() -> int {
    models::CollectiveOp op;
    if (!models::parse_collective_op(o->op, &op))
      throw sim::ConfigError(opt_loc("--op"), "", "unknown collective '" + o->op + "': expected " + models::collective_op_names());
    models::DType dt;
    if (!models::parse_dtype(o->dtype, &dt))
      throw sim::ConfigError(opt_loc("--dtype"), "", "unknown dtype '" + o->dtype + "': expected " + models::dtype_names());
    models::Algorithm forced{};
    bool force = o->algorithm != "auto";
    if (force && !models::parse_algorithm(o->algorithm, &forced))
      throw sim::ConfigError(opt_loc("--algorithm"), "", "unknown algorithm '" + o->algorithm + "': expected auto, ring, kangaring, mesh, rdh");
    if (o->instances < 0 || o->instances > 4096)
      throw sim::ConfigError(opt_loc("--instances"), "", "expected 1 to 4096 instances, got " + std::to_string(o->instances));
    auto sizes = parse_size_list(o->sizes, "--sizes");
    check_outputs(o->common);
    models::SystemSpec spec = models::load_system(o->system, o->common.sets, o->instances);
    const auto& modes = spec.chip.cores.lnc_modes;
    if (o->lnc != 0 && std::find(modes.begin(), modes.end(), o->lnc) == modes.end()) {
      std::string expected;
      for (auto m : modes) expected += (expected.empty() ? "" : ", ") + std::to_string(m);
      throw sim::ConfigError(opt_loc("--lnc"), "", "LNC " + std::to_string(o->lnc) + " is not supported by " +
                                                        spec.chip.name + ": expected 0 (chip default) or one of " + expected);
    }

    auto sys = std::make_unique<hw::System>("system", spec, o->lnc);
    int ranks = o->ranks == 0 ? sys->total_ranks() : o->ranks;
    if (ranks < 2 || ranks > sys->total_ranks())
      throw sim::ConfigError(opt_loc("--ranks"), "",
                             "expected 2 to " + std::to_string(sys->total_ranks()) + " ranks on " +
                                 std::to_string(spec.total_chips()) + " chips at LNC=" + std::to_string(sys->lnc()) +
                                 ", got " + std::to_string(ranks));
    std::vector<int> rank_list(static_cast<size_t>(ranks));
    for (int r = 0; r < ranks; ++r) rank_list[static_cast<size_t>(r)] = r;
    // The instance symmetry (docs/workloads.md 1.6.1): when the ranks fill whole instances, the
    // cyclic shifts of those instances are symmetries of the collective; only the transfers
    // that start in instance 0 are simulated. Off with --exact.
    const int per_instance = sys->ranks_per_instance();
    const int used = ranks / per_instance;
    if (!o->exact && ranks % per_instance == 0 && used >= 2) {
      const int n = sys->topology().num_chips() / sys->topology().chips_per_instance();
      hw::InstanceSymmetry k;
      for (int shift = 0; shift < used; ++shift) {
        std::vector<int> perm(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i < used ? (i + shift) % used : i;
        k.perms.push_back(std::move(perm));
      }
      k.to_rep.assign(static_cast<size_t>(n), 0);
      for (int i = 1; i < used; ++i) k.to_rep[static_cast<size_t>(i)] = used - i;
      sys->set_symmetry(std::move(k));
    }
    hw::CollectiveEngine eng("collectives", *sys);
    struct Row {
      double size;
      std::string algo;
      hw::CollectiveResult res;
      size_t transfers;
    };
    std::vector<Row> rows(sizes.size());
    // Sizes run back to back in one simulation: each starts when the previous has ended.
    std::function<void(size_t)> launch = [&](size_t i) {
      if (i >= sizes.size()) return;
      auto pc = hw::plan_collective(*sys, op, sizes[i], rank_list, force ? &forced : nullptr);
      rows[i].size = sizes[i];
      rows[i].algo = pc.plan.algorithm;
      rows[i].transfers = 0;
      for (const auto& t : pc.plan.transfers) rows[i].transfers += t.barrier ? 0 : 1;
      try {
        hw::quotient_plan(*sys, pc.plan, pc.ranks);  // instance 0's transfers (a no-op without symmetry)
      } catch (const std::logic_error& e) {
        throw sim::ConfigError(opt_loc("--exact"), "",
                               std::string(e.what()) + "; rerun with --exact to simulate every instance");
      }
      eng.run(std::move(pc.plan), pc.ranks, 0.0, [&, i](const hw::CollectiveResult& r) {
        rows[i].res = r;
        launch(i + 1);
      });
    };
    launch(0);
    double wall0 = static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
    sim::run_to_completion();
    double wall = static_cast<double>(std::clock()) / CLOCKS_PER_SEC - wall0;

    int chips_used = (ranks + sys->ranks_per_chip() - 1) / sys->ranks_per_chip();
    std::printf("%s x%d, %s, %d ranks (LNC=%d, %d ranks/chip on %d chips), %s\n", spec.name.c_str(), spec.instances,
                models::collective_op_name(op), ranks, sys->lnc(), sys->ranks_per_chip(), chips_used,
                models::dtype_name(dt));
    std::printf("%14s %12s %6s %12s %12s %12s  %s\n", "size(B)", "count", "type", "time(us)", "algbw(GB/s)",
                "busbw(GB/s)", "algorithm");
    nlohmann::ordered_json js = nlohmann::ordered_json::array();
    for (const auto& r : rows) {
      double t = r.res.time();
      double algbw = r.size / t / 1e9;
      double busbw = algbw * models::busbw_factor(op, ranks);
      std::printf("%14.0f %12.0f %6s %12.2f %12.2f %12.2f  %s\n", r.size, r.size / models::dtype_bytes(dt),
                  models::dtype_name(dt), t * 1e6, algbw, busbw, r.algo.c_str());
      js.push_back({{"size_bytes", r.size},
                    {"time_s", t},
                    {"algbw_GBps", algbw},
                    {"busbw_GBps", busbw},
                    {"algorithm", r.algo},
                    {"op", models::collective_op_name(op)},
                    {"ranks", ranks},
                    {"transfers", r.transfers}});
    }
    std::printf("GB/s = 1e9 B/s; busbw = algbw x %s.\n", op == models::CollectiveOp::AllReduce ? "2(n-1)/n" : "(n-1)/n");
    write_outputs(o->common, js.dump(2) + "\n",
                  models::resolved_yaml(spec, "# trnsim resolved configuration (system " + spec.name + ")\n"));
    // After the outputs: a failed write then reports its error as the only stderr line.
    std::fprintf(stderr, "fabric: %llu flow events, %llu queue events, %.3f s wall\n",
                static_cast<unsigned long long>(sys->net().events()),
                static_cast<unsigned long long>(sys->events().events()), wall);
    return 0;
  };
}

}  // namespace trn::app
