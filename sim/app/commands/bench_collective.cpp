// `trnsim bench collective` (bench_collective.h): plan, quotient by the instance symmetry,
// simulate the sizes back to back, tabulate.
#include "sim/app/commands/bench_collective.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <memory>

#include "hw/collectives/collective_engine.h"
#include "hw/collectives/collective_planner.h"
#include "hw/collectives/plan_quotient.h"
#include "models/collectives/algorithm.h"
#include "sim/app/commands/common.h"
#include "sim/app/commands/documents.h"
#include "sim/app/simulation/local_symmetry.h"
#include "sim/base/config_node.h"
#include "sim/kernel/event_queue.h"

namespace trn::app {
namespace {

void check_lnc(const models::SystemSpec& spec, int lnc) {
  const auto& modes = spec.chip.cores.lnc_modes;
  if (lnc == 0 || std::find(modes.begin(), modes.end(), lnc) != modes.end()) return;
  std::string expected;
  for (auto m : modes) expected += (expected.empty() ? "" : ", ") + std::to_string(m);
  throw sim::ConfigError(sim::Location{"--lnc", 0, 0}, "",
                         "LNC " + std::to_string(lnc) + " is not supported by " + spec.chip.name +
                             ": expected 0 (chip default) or one of " + expected);
}

// The instance symmetry (docs/workloads.md 1.6.1): when the ranks fill whole instances, the
// cyclic shifts of those instances are symmetries of the collective; only the transfers
// that start in instance 0 are simulated. Off with --exact.
void set_instance_symmetry(hw::System& sys, int ranks) {
  const int per_instance = sys.ranks_per_instance();
  const int used = ranks / per_instance;
  if (ranks % per_instance != 0 || used < 2) return;
  const int n = sys.topology().num_chips() / sys.topology().chips_per_instance();
  sys.set_symmetry(hw::InstanceSymmetry::cyclic(used, n));
}

// A plan that the symmetry does not map onto itself: the user's way out is --exact.
[[noreturn]] void throw_not_symmetric(const models::SymmetryError& e) {
  throw sim::ConfigError(sim::Location{"--exact", 0, 0}, "",
                         std::string(e.what()) + "; rerun with --exact to simulate every instance");
}

// Runs the sizes back to back in one simulation: each starts when the previous has ended.
// `checked`: per size, the plan the symmetry was checked on, already its quotient under the
// whole symmetry (empty: plan each size when its turn comes).
void simulate_sizes(hw::System& sys, const BenchCollectiveRequest& q, const std::vector<int>& rank_list,
                    std::vector<hw::PlannedCollective>& checked, std::vector<BenchCollectiveRow>& rows) {
  hw::CollectiveEngine eng("collectives", sys);
  rows.assign(q.sizes.size(), BenchCollectiveRow{});
  std::function<void(size_t)> launch = [&](size_t i) {
    if (i >= q.sizes.size()) return;
    hw::PlannedCollective pc;
    try {  // instance 0's transfers only, built as such (the whole plan without symmetry)
      if (i < checked.size()) {
        pc = std::move(checked[i]);
      } else {
        pc = hw::plan_collective_quotient(sys, q.op, q.sizes[i], rank_list, q.force ? &q.forced : nullptr);
      }
    } catch (const models::SymmetryError& e) {
      throw_not_symmetric(e);
    }
    rows[i].size = q.sizes[i];
    rows[i].algorithm = pc.plan.algorithm;
    rows[i].transfers = pc.plan.full_transfers;
    eng.run(std::move(pc.plan), pc.ranks, 0.0, [&, i](const hw::CollectiveResult& r) {
      rows[i].time_s = r.time();
      launch(i + 1);
    });
  };
  launch(0);
  sim::run_to_completion();
}

// What the figures are computed from: the parsed options, then the resolved system.
std::string bench_collective_inputs(const BenchCollectiveOptions& o, const BenchCollectiveRequest& q,
                                    const BenchCollectiveResult& r) {
  std::string sizes;
  for (double b : q.sizes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%.17g", sizes.empty() ? "" : ", ", b);
    sizes += buf;
  }
  return std::string("command: bench collective\nop: ") + models::collective_op_name(q.op) +
         "\ndtype: " + models::dtype_name(q.dtype) + "\nalgorithm: " + o.algorithm + "\nsizes: [" + sizes +
         "]\nranks: " + std::to_string(r.ranks) + "\nlnc: " + std::to_string(r.lnc) +
         "\nexact: " + (o.exact ? "true" : "false") + "\nsystem:\n" + models::resolved_yaml(r.spec, "");
}

}  // namespace

BenchCollectiveRequest parse_bench_collective(const BenchCollectiveOptions& o) {
  BenchCollectiveRequest q;
  if (!models::parse_collective_op(o.op, &q.op))
    throw sim::ConfigError(sim::Location{"--op", 0, 0}, "",
                           "unknown collective '" + o.op + "': expected " + models::collective_op_names());
  if (!models::parse_dtype(o.dtype, &q.dtype))
    throw sim::ConfigError(sim::Location{"--dtype", 0, 0}, "",
                           "unknown dtype '" + o.dtype + "': expected " + models::dtype_names());
  q.force = o.algorithm != "auto";
  if (q.force && !models::parse_algorithm(o.algorithm, &q.forced))
    throw sim::ConfigError(sim::Location{"--algorithm", 0, 0}, "",
                           "unknown algorithm '" + o.algorithm + "': expected auto, " + models::algorithm_names());
  if (o.instances < 0 || o.instances > models::SystemSpec::kMaxInstances)
    throw sim::ConfigError(sim::Location{"--instances", 0, 0}, "",
                           "expected 1 to " + std::to_string(models::SystemSpec::kMaxInstances) + " instances, got " +
                               std::to_string(o.instances));
  q.sizes = parse_size_list(o.sizes, "--sizes");
  return q;
}

BenchCollectiveResult run_bench_collective(const BenchCollectiveOptions& o) {
  const BenchCollectiveRequest q = parse_bench_collective(o);
  BenchCollectiveResult res;
  res.op = q.op;
  res.dtype = q.dtype;
  res.spec = models::load_system(o.system, o.sets, o.instances);
  check_lnc(res.spec, o.lnc);
  auto sys = std::make_unique<hw::System>("system", res.spec, o.lnc);
  const int ranks = o.ranks == 0 ? sys->total_ranks() : o.ranks;
  if (ranks < 2 || ranks > sys->total_ranks())
    throw sim::ConfigError(sim::Location{"--ranks", 0, 0}, "",
                           "expected 2 to " + std::to_string(sys->total_ranks()) + " ranks on " +
                               std::to_string(res.spec.total_chips()) + " chips at LNC=" + std::to_string(sys->lnc()) +
                               ", got " + std::to_string(ranks));
  std::vector<int> rank_list(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r) rank_list[static_cast<size_t>(r)] = r;
  double wall0 = static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
  std::vector<hw::PlannedCollective> checked;
  if (!o.exact) {
    set_instance_symmetry(*sys, ranks);
    // Inside the instances, the torus ring's rotations (checked on the plans of every size).
    hw::InstanceSymmetry k = sys->symmetry();
    try {
      k.local = local_collective_symmetry(*sys, q.op, q.sizes, rank_list, q.force ? &q.forced : nullptr, &checked);
    } catch (const models::SymmetryError& e) {
      throw_not_symmetric(e);
    }
    if (k.local.active()) {
      sys->set_symmetry(std::move(k));
      // Taken on to the quotient under the whole symmetry now: held until their turn at a
      // quarter of the size.
      for (hw::PlannedCollective& pc : checked) hw::quotient_plan(*sys, pc.plan, pc.ranks);
    }
  }
  simulate_sizes(*sys, q, rank_list, checked, res.rows);
  res.wall_s = static_cast<double>(std::clock()) / CLOCKS_PER_SEC - wall0;
  res.ranks = ranks;
  res.lnc = sys->lnc();
  res.ranks_per_chip = sys->ranks_per_chip();
  res.chips_used = (ranks + sys->ranks_per_chip() - 1) / sys->ranks_per_chip();
  res.flow_events = sys->net().events();
  res.flows = sys->net().flows_completed();
  res.queue_events = sys->events().events();
  res.inputs_hash = inputs_hash(bench_collective_inputs(o, q, res));
  return res;
}

void write_bench_collective_text(const BenchCollectiveResult& r, FILE* out) {
  std::fprintf(out, "%s x%d, %s, %d ranks (LNC=%d, %d ranks/chip on %d chips), %s\n", r.spec.name.c_str(),
               r.spec.instances, models::collective_op_name(r.op), r.ranks, r.lnc, r.ranks_per_chip, r.chips_used,
               models::dtype_name(r.dtype));
  std::fprintf(out, "%14s %12s %6s %12s %12s %12s  %s\n", "size(B)", "count", "type", "time(us)", "algbw(GB/s)",
               "busbw(GB/s)", "algorithm");
  for (const auto& row : r.rows) {
    double algbw = row.size / row.time_s / 1e9;
    double busbw = algbw * models::busbw_factor(r.op, r.ranks);
    std::fprintf(out, "%14.0f %12.0f %6s %12.2f %12.2f %12.2f  %s\n", row.size, row.size / models::dtype_bytes(r.dtype),
                 models::dtype_name(r.dtype), row.time_s * 1e6, algbw, busbw, row.algorithm.c_str());
  }
  std::fprintf(out, "GB/s = 1e9 B/s; busbw = algbw x %s.\n",
               r.op == models::CollectiveOp::AllReduce ? "2(n-1)/n" : "(n-1)/n");
}

void write_bench_collective_sim_line(const BenchCollectiveResult& r, FILE* out) {
  uint64_t transfers = 0;
  for (const auto& row : r.rows) transfers += row.transfers;
  std::fprintf(out, "fabric: %llu flow events, %llu queue events, %.3f s wall; %llu flows for %llu transfers\n",
               static_cast<unsigned long long>(r.flow_events), static_cast<unsigned long long>(r.queue_events),
               r.wall_s, static_cast<unsigned long long>(r.flows), static_cast<unsigned long long>(transfers));
}

nlohmann::ordered_json bench_collective_json(const BenchCollectiveResult& r) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& row : r.rows) {
    double algbw = row.size / row.time_s / 1e9;
    rows.push_back({{"size_bytes", json_count(row.size)},
                    {"time_s", row.time_s},
                    {"algbw_GBps", algbw},
                    {"busbw_GBps", algbw * models::busbw_factor(r.op, r.ranks)},
                    {"algorithm", row.algorithm},
                    {"op", models::collective_op_name(r.op)},
                    {"ranks", r.ranks},
                    {"transfers", row.transfers}});
  }
  nlohmann::ordered_json js = {{"system", r.spec.name},
                               {"instances", r.spec.instances},
                               {"op", models::collective_op_name(r.op)},
                               {"dtype", models::dtype_name(r.dtype)},
                               {"ranks", r.ranks},
                               {"lnc", r.lnc},
                               {"rows", rows}};
  return stamped(Document::BenchCollective, r.inputs_hash, js);
}

}  // namespace trn::app
