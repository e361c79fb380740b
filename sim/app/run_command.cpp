// `trnsim run SCENARIO`: one steady training step, its throughput, MFU, breakdown and
// memory per rank.
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <algorithm>
#include <optional>
#include <set>
#include <memory>

#include "hw/system/program_runner.h"
#include "sim/app/commands.h"
#include "sim/app/step_simulation.h"
#include "sim/base/output_file.h"

namespace trn::app {
namespace {

struct RunOpts {
  CommonOptions common;
  std::string scenario, mode, trace, model, categories, window;
  bool allow_oom = false;
  bool all_ranks = false, all_microbatches = false, exact = false, quiet = false;
  std::string max_memory;
};


void print_memory(const workloads::MemoryReport& m, FILE* out) {
  std::fprintf(out, "  %-14s %12s\n", "memory/rank", "");
  for (const auto& c : m.categories) std::fprintf(out, "    %-12s %12s\n", c.name.c_str(), gib(c.bytes).c_str());
  std::fprintf(out, "    %-12s %12s of %s HBM per rank\n", "total", gib(m.total).c_str(), gib(m.capacity).c_str());
}

}  // namespace

double default_max_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? 0.5 * double(pages) * double(page) : 8.0 * 1073741824.0;
}

std::string gib(double b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", b / 1073741824.0);
  return buf;
}

Runner add_run(CLI::App* app) {
  auto o = std::make_shared<RunOpts>();
  auto* c = app->add_subcommand("run", "Simulate one steady training step of a scenario");
  c->add_option("scenario", o->scenario, "Scenario name (workloads/scenarios) or YAML path")->required();
  c->add_option("--mode", o->mode, "Execution mode: eager | compiled (default: the scenario's)")
      ->check(CLI::IsMember({"eager", "compiled"}));
  c->add_option("--model", o->model,
                 "Replace the scenario's model: zoo name, YAML path or Hugging Face config.json (default: the scenario's)");
  c->add_option("--trace", o->trace, "Write a Chrome/Perfetto JSON timeline to FILE, streamed (default: none)");
  c->add_option("--trace-categories", o->categories,
                "Comma-separated categories to keep: tensor, vector, scalar, gpsimd, dma, collective, host, counters, "
                "links (default: all)");
  c->add_option("--trace-window", o->window, "Simulated-time window START,END with units, e.g. 0s,500ms (default: all)");
  c->add_flag("--allow-oom", o->allow_oom, "Simulate even when a rank does not fit in HBM (default: off)");
  c->add_flag("--all-ranks", o->all_ranks,
              "Simulate every rank instead of one per pipeline stage (the symmetry reduction); slow, for checking "
              "the reduction (default: off)");
  c->add_flag("--all-microbatches", o->all_microbatches,
              "Simulate every micro-batch instead of extrapolating the pipeline's steady state (default: off)");
  c->add_option("--max-memory", o->max_memory,
                "Refuse to start a run estimated to need more memory than this (bytes with units, e.g. 8GiB; "
                "default: half of the machine's RAM)");
  c->add_flag("--quiet", o->quiet, "No progress line on stderr (default: progress when stderr is a terminal)");
  c->add_flag("--exact", o->exact,
              "No reductions: every rank and every micro-batch (--all-ranks --all-microbatches; default: off)");
  add_common(c, o->common);
  return [o]() -> int {
    check_outputs(o->common);
    if (!o->trace.empty()) sim::check_writable(o->trace, "--trace");
    std::vector<std::string> sets = o->common.sets;
    if (!o->mode.empty()) sets.push_back("mode=" + o->mode);
    workloads::ScenarioSpec s = workloads::load_scenario(o->scenario, sets, o->model);
    workloads::MemoryReport mem = workloads::memory_per_rank(s);
    if (!mem.fits() && !o->allow_oom) {
      std::fprintf(stderr, "trnsim: error: %s does not fit in HBM: %s per rank needed, %s available (use --allow-oom to simulate anyway)\n",
                   s.name.c_str(), gib(mem.total).c_str(), gib(mem.capacity).c_str());
      print_memory(mem, stderr);
      return 2;
    }
    TraceOptions topt;
    topt.path = o->trace;
    if (!o->categories.empty()) {
      const std::vector<std::string> known = {"tensor", "vector", "scalar", "gpsimd", "dma",
                                              "collective", "host", "counters", "links"};
      std::string expected;
      for (const auto& k : known) expected += (expected.empty() ? "" : ", ") + k;
      size_t start = 0;
      while (start <= o->categories.size()) {
        size_t comma = o->categories.find(',', start);
        std::string cat = o->categories.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (std::find(known.begin(), known.end(), cat) == known.end())
          throw sim::ConfigError(sim::Location{"--trace-categories", 0, 0}, "",
                                 "unknown category '" + cat + "': expected " + expected);
        topt.categories.insert(cat);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    }
    if (!o->window.empty()) {
      size_t comma = o->window.find(',');
      std::string why;
      auto a = comma == std::string::npos ? std::nullopt : sim::parse_quantity(o->window.substr(0, comma), sim::Dim::Time, &why);
      auto b = comma == std::string::npos ? std::nullopt : sim::parse_quantity(o->window.substr(comma + 1), sim::Dim::Time, &why);
      if (!a || !b || *a < 0 || *b <= *a)
        throw sim::ConfigError(sim::Location{"--trace-window", 0, 0}, "",
                               "expected START,END times with units and END > START >= 0, e.g. 0s,500ms");
      topt.t0 = *a;
      topt.t1 = *b;
    }
    StepOptions sopt;
    sopt.trace = topt;
    sopt.ranks = o->all_ranks || o->exact ? RankSelection::All : RankSelection::Stages;
    sopt.all_microbatches = o->all_microbatches || o->exact;
    sopt.progress = !o->quiet;
    sopt.max_memory = o->max_memory.empty() ? default_max_memory() : parse_size(o->max_memory, "--max-memory");
    StepResult r;
    try {
      r = simulate(s, sopt);
    } catch (const MemoryGuardError& e) {
      std::fprintf(stderr, "trnsim: error: %s\n", e.what());
      return 2;
    }
    std::printf("%s: %s on %d x %s (%d chips), %s mode\n", s.name.c_str(), s.model.name.c_str(), s.system.instances,
                s.system.name.c_str(), s.system.total_chips(), sim::word_of(s.mode).c_str());
    std::printf("  layout       tp=%d%s pp=%d (microbatches %d) dp=%d fsdp=%d ep=%d, LNC=%d, %d ranks (%d simulated)\n",
                s.parallel.tp, s.parallel.sequence_parallel ? "+sp" : "", s.parallel.pp, s.parallel.microbatches,
                s.parallel.dp, s.parallel.fsdp, s.parallel.ep, s.lnc > 0 ? s.lnc : s.system.chip.cores.default_lnc,
                r.world, r.simulated_ranks);
    std::printf("  batch        %lld sequences x %lld tokens = %lld tokens per step, checkpointing %s\n",
                static_cast<long long>(s.batch.sequences()), static_cast<long long>(s.batch.seq_len),
                static_cast<long long>(s.batch.tokens()), sim::word_of(s.checkpointing).c_str());
    std::printf("  step time    %10.4f s\n", r.step_time_s);
    std::printf("  throughput   %10.0f tokens/s\n", r.tokens_per_s);
    std::printf("  MFU          %10.1f %% of %s dense BF16 per chip\n", 100 * r.mfu,
                sim::format_quantity(s.system.chip.peak.bf16.v, sim::Dim::FlopRate).c_str());
    std::printf("  breakdown (rank 0, seconds)\n");
    for (const auto& [k, v] : r.breakdown) std::printf("    %-22s %9.4f  %5.1f%%\n", k.c_str(), v, 100 * v / r.step_time_s);
    std::printf("  engine busy (rank 0, seconds)\n");
    for (const auto& [k, v] : r.engines) std::printf("    %-22s %9.4f\n", k.c_str(), v);
    print_memory(r.memory, stdout);
    std::printf("  verdict: %s\n", r.verdict.c_str());
    if (r.steady.extrapolated()) {
      std::string pts;
      for (int m : r.steady.microbatches) pts += (pts.empty() ? "" : ", ") + std::to_string(m);
      std::printf("  steady state: simulated %s of %d micro-batches, %.4f s per micro-batch (error bound %.3f%% of the step)\n",
                  pts.c_str(), r.steady.target, r.steady.period_s, 100 * r.steady.drift);
    }
    std::fprintf(stderr, "sim: %llu events, %lld ops simulated (%lld in the step), %.3f s wall\n",
                 static_cast<unsigned long long>(r.events), static_cast<long long>(r.simulated_ops),
                 static_cast<long long>(r.ops), r.wall_s);
    nlohmann::ordered_json js;
    js["scenario"] = s.name;
    js["mode"] = sim::word_of(s.mode);
    js["system"] = {{"name", s.system.name}, {"chip", s.system.chip.name}, {"instances", s.system.instances},
                    {"chips", s.system.total_chips()}, {"world", r.world}};
    js["steady"]["step_time_s"] = r.step_time_s;
    js["steady"]["tokens_per_s"] = r.tokens_per_s;
    js["steady"]["mfu"] = r.mfu;
    js["steady"]["model_flops"] = r.model_flops;
    for (const auto& [k, v] : r.breakdown) js["steady"]["breakdown"][k] = v;
    for (const auto& [k, v] : r.engines) js["steady"]["engine_busy_s"][k] = v;
    for (const auto& [k, v] : r.engine_ops) js["steady"]["engine_ops"][k] = static_cast<int64_t>(v);
    js["memory"]["per_rank_bytes"] = r.memory.total;
    js["memory"]["hbm_capacity_bytes"] = r.memory.capacity;
    for (const auto& c : r.memory.categories) js["memory"]["categories"][c.name] = c.bytes;
    js["roofline"]["scope"] = "rank 0: one logical NeuronCore (LNC " + std::to_string(r.roofline.lnc) + ")";
    js["roofline"]["peak_bf16_flop_per_s"] = r.roofline.peak_flop_rate;
    js["roofline"]["hbm_bandwidth_B_per_s"] = r.roofline.hbm_bandwidth;
    js["roofline"]["points"] = nlohmann::ordered_json::array();
    for (const auto& p : r.roofline.points)
      js["roofline"]["points"].push_back({{"name", p.name}, {"engine", p.engine}, {"ops", p.ops}, {"flops", p.flops},
                                          {"hbm_bytes", p.hbm_bytes}, {"busy_s", p.busy_s},
                                          {"intensity_flop_per_B", p.intensity}, {"achieved_flop_per_s", p.flop_rate}});
    js["sim"]["events"] = r.events;
    js["sim"]["ops"] = r.ops;
    js["sim"]["simulated_ops"] = r.simulated_ops;
    js["sim"]["simulated_ranks"] = r.simulated_ranks;
    js["sim"]["sibling_collectives"] = r.sibling_collectives;
    js["sim"]["reductions"] = {{"ranks", sopt.ranks == RankSelection::All ? "all" : "one per stage"},
                               {"microbatches_simulated", r.steady.microbatches},
                               {"steady_period_s", r.steady.period_s},
                               {"steady_error_bound", r.steady.drift}};
    js["sim"]["wall_s"] = r.wall_s;
    std::vector<std::pair<std::string, std::string>> files;
    std::vector<std::string> opts;
    if (!o->common.json.empty()) files.emplace_back(o->common.json, js.dump(2) + "\n"), opts.push_back("--json");
    if (!o->common.resolved.empty())
      files.emplace_back(o->common.resolved, workloads::resolved_yaml(s, "# trnsim resolved scenario " + s.name + "\n")),
          opts.push_back("--resolved");
    sim::write_files_atomic(files, opts);
    return 0;
  };
}

}  // namespace trn::app
