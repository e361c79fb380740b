// `trnsim run SCENARIO` (run.h): load, check memory, simulate; the report as text and JSON.
#include "sim/app/commands/run.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "sim/app/commands/common.h"
#include "sim/app/commands/documents.h"
#include "sim/app/plan/quick_layout.h"
#include "sim/app/simulation/fork_eval.h"
#include "sim/base/config_node.h"
#include "sim/base/fork_pool.h"
#include "sim/base/provenance.h"
#include "sim/base/stats.h"
#include "sim/base/units.h"

namespace trn::app {
namespace {

// --trace-categories: a comma-separated subset of the trace's categories.
std::set<std::string> parse_categories(const std::string& text) {
  std::set<std::string> out;
  if (text.empty()) return out;
  const std::vector<std::string> known = {"tensor",     "vector", "scalar",   "gpsimd", "dma",
                                          "collective", "host",   "counters", "links"};
  std::string expected;
  for (const auto& k : known) expected += (expected.empty() ? "" : ", ") + k;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string cat = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (std::find(known.begin(), known.end(), cat) == known.end())
      throw sim::ConfigError(sim::Location{"--trace-categories", 0, 0}, "",
                             "unknown category '" + cat + "': expected " + expected);
    out.insert(cat);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// --trace-format, or the format the file name implies (.pftrace, .perfetto-trace: perfetto).
std::string trace_format(const std::string& given, const std::string& path) {
  if (!given.empty()) return given;
  auto ends = [&](const std::string& x) {
    return path.size() >= x.size() && path.compare(path.size() - x.size(), x.size(), x) == 0;
  };
  return ends(".pftrace") || ends(".perfetto-trace") ? "perfetto" : "json";
}

// --trace-window START,END (times with units) into `t`.
void parse_window(const std::string& text, TraceOptions& t) {
  if (text.empty()) return;
  size_t comma = text.find(',');
  std::string why;
  auto a = comma == std::string::npos ? std::nullopt : sim::parse_quantity(text.substr(0, comma), sim::Dim::Time, &why);
  auto b =
      comma == std::string::npos ? std::nullopt : sim::parse_quantity(text.substr(comma + 1), sim::Dim::Time, &why);
  if (!a || !b || *a < 0 || *b <= *a)
    throw sim::ConfigError(sim::Location{"--trace-window", 0, 0}, "",
                           "expected START,END times with units and END > START >= 0, e.g. 0s,500ms");
  t.t0 = *a;
  t.t1 = *b;
}

void print_memory(const workloads::MemoryReport& m, FILE* out) {
  std::fprintf(out, "  %-14s %12s\n", "memory/rank", "");
  for (const auto& c : m.categories) std::fprintf(out, "    %-12s %12s\n", c.name.c_str(), gib(c.bytes).c_str());
  std::fprintf(out, "    %-12s %12s of %s HBM per rank\n", "total", gib(m.total).c_str(), gib(m.capacity).c_str());
}

// The step time's interval from the perturbed step times, and throughput's and MFU's from it.
void set_run_intervals(RunResult& res, const IntervalModel& model,
                       const std::vector<std::pair<std::string, double>>& moved) {
  res.step_time = steady_step_interval(model, res.scenario, res.step.step_time_s, moved);
  res.tokens_per_s = reciprocal(res.step_time, res.step.tokens_per_s);
  res.mfu = reciprocal(res.step_time, res.step.mfu);
}

// What the figures are computed from: the options that change them, then the resolved scenario
// (and, with intervals, the files they are computed from).
std::string run_inputs(const workloads::ScenarioSpec& s, const StepOptions& o, bool intervals) {
  return std::string("command: run\nranks: ") + (o.ranks == RankSelection::All ? "all" : "one per stage") +
         "\nall_microbatches: " + (o.all_microbatches ? "true" : "false") +
         "\nall_layers: " + (o.all_layers ? "true" : "false") + "\n" + workloads::resolved_yaml(s, "") +
         (intervals ? "intervals:\n" + interval_inputs_text() : "");
}

// The --set list of the run: the user's, then --mode.
std::vector<std::string> run_sets(const RunOptions& o) {
  std::vector<std::string> sets = o.sets;
  if (!o.mode.empty()) sets.push_back("mode=" + o.mode);
  return sets;
}

StepOptions reductions(const RunOptions& o) {
  StepOptions sopt;
  sopt.ranks = o.all_ranks || o.exact ? RankSelection::All : RankSelection::Stages;
  sopt.all_microbatches = o.all_microbatches || o.exact;
  sopt.all_layers = o.all_layers || o.exact;
  return sopt;
}

workloads::ScenarioSpec load_job(const RunOptions& o, std::string* note) {
  const JobSource job = job_source(o.scenario, o.model, o.system, o.chips, run_sets(o));
  workloads::ScenarioSpec s = workloads::load_scenario(job.scenario, job.sets, job.model);
  if (note) *note = job.model_replaced ? kept_settings_note(s) : job.note;
  return s;
}

}  // namespace

workloads::ScenarioSpec load_run_scenario(const RunOptions& o) { return load_job(o, nullptr); }

std::string run_inputs_hash(const RunOptions& o) {
  return inputs_hash(run_inputs(load_job(o, nullptr), reductions(o), o.intervals));
}

RunResult run_run(const RunOptions& o) {
  RunResult res;
  res.scenario = load_job(o, &res.note);
  res.memory = workloads::memory_per_rank(res.scenario);
  if (!res.memory.fits() && !o.allow_oom) {
    res.fits = false;
    return res;
  }
  StepOptions sopt = reductions(o);
  sopt.trace.path = o.trace;
  if (!o.trace_format.empty() && o.trace.empty())
    throw sim::ConfigError(sim::Location{"--trace-format", 0, 0}, "", "needs --trace FILE: the timeline to write");
  sopt.trace.format = trace_format(o.trace_format, o.trace);
  sopt.trace.categories = parse_categories(o.categories);
  parse_window(o.window, sopt.trace);
  sopt.trace.stats = !o.stats.empty();
  sopt.progress = o.progress;
  sopt.max_memory = o.max_memory.empty() ? default_max_memory() : parse_size(o.max_memory, "--max-memory");
  res.ranks = sopt.ranks;
  res.inputs_hash = inputs_hash(run_inputs(res.scenario, sopt, o.intervals));
  if (!o.intervals) {
    res.step = simulate(res.scenario, sopt);
    return res;
  }
  // The perturbed simulations run in children beside the parent's own (SystemC elaborates once
  // per process, so they are forked before it starts).
  check_memory_guard(res.scenario, sopt);  // before the children: one error line, not one per child
  const IntervalModel model = load_interval_model();
  const auto perturbed = runtime_perturbations(res.scenario);
  StepOptions child = reductions(o);
  child.progress = false;
  child.max_memory = sopt.max_memory;
  sim::ForkedBatch batch(
      perturbed.size(),
      [&](size_t i) {
        return sealed([&] { return nlohmann::json(simulate(perturbed[i].second, child).step_time_s); });
      },
      "interval simulation");
  res.step = simulate(res.scenario, sopt);
  std::vector<std::pair<std::string, double>> moved;
  const auto outcomes = batch.collect();
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const sim::ChildResult r = sim::ChildResult::open(outcomes[i]);
    if (!r.ok()) rethrow(r, "interval simulation");
    moved.emplace_back(perturbed[i].first, r.value.get<double>());
  }
  set_run_intervals(res, model, moved);
  return res;
}

std::string run_stats_text(const RunResult& r) {
  const auto& sims = r.step.stats;
  std::string out = "# trnsim " + sim::trnsim_version() + " statistics of " + r.scenario.name + ": " +
                    std::to_string(sims.size()) + (sims.size() == 1 ? " simulation" : " simulations") +
                    " (docs/architecture.md, Statistics)\n";
  for (size_t k = 0; k < sims.size(); ++k) {
    const int m = sims[k].at("microbatches").get<int>();
    out += "\n# sim" + std::to_string(k + 1) + ": " + std::to_string(m) + " micro-batch" + (m == 1 ? "" : "es") +
           (m == r.scenario.parallel.microbatches ? " (the step)" : " (steady-state extrapolation)") + "\n";
    out += sim::stats_text(sims[k].at("tree"), "sim" + std::to_string(k + 1) + ".");
  }
  return out;
}

std::string run_oom_message(const RunResult& r) {
  return r.scenario.name + " does not fit in HBM: " + gib(r.memory.total) + " per rank needed, " +
         gib(r.memory.capacity) + " available (use --allow-oom to simulate anyway)";
}

void write_run_oom(const RunResult& r, FILE* out) {
  std::fprintf(out, "trnsim: error: %s\n", run_oom_message(r).c_str());
  print_memory(r.memory, out);
}

void write_run_text(const RunResult& res, FILE* out) {
  const workloads::ScenarioSpec& s = res.scenario;
  const StepResult& r = res.step;
  std::fprintf(out, "%s: %s on %d x %s (%d chips), %s mode\n", s.name.c_str(), s.model.name.c_str(), s.system.instances,
               s.system.name.c_str(), s.system.total_chips(), sim::word_of(s.mode).c_str());
  std::fputs(res.note.c_str(), out);
  if (workloads::is_imported(s.model))
    std::fprintf(out, "  model        %s\n", workloads::parameter_summary(s.model).c_str());
  std::fprintf(out,
               "  layout       tp=%d%s pp=%d (microbatches %d) dp=%d fsdp=%d ep=%d, LNC=%d, %d ranks (%d simulated)\n",
               s.parallel.tp, s.parallel.sequence_parallel ? "+sp" : "", s.parallel.pp, s.parallel.microbatches,
               s.parallel.dp, s.parallel.fsdp, s.parallel.ep, s.effective_lnc(), r.world, r.simulated_ranks);
  std::fprintf(out, "  batch        %lld sequences x %lld tokens = %lld tokens per step, checkpointing %s\n",
               static_cast<long long>(s.batch.sequences()), static_cast<long long>(s.batch.seq_len),
               static_cast<long long>(s.batch.tokens()), sim::word_of(s.checkpointing).c_str());
  std::fprintf(out, "  step time    %10.4f s%s\n", r.step_time_s, interval_text(res.step_time, "%.3f").c_str());
  std::fprintf(out, "  throughput   %10.0f tokens/s%s\n", r.tokens_per_s,
               interval_text(res.tokens_per_s, "%.0f").c_str());
  std::fprintf(out, "  MFU          %10.1f %% of %s dense BF16 per chip%s\n", 100 * r.mfu,
               sim::format_quantity(s.system.chip.peak.bf16.v, sim::Dim::FlopRate).c_str(),
               interval_text(scaled(res.mfu, 100), "%.1f").c_str());
  for (const auto& why : res.step_time.why) std::fprintf(out, "  interval wider: %s\n", why.c_str());
  std::fprintf(out, "  breakdown (rank 0, seconds)\n");
  for (const auto& [k, v] : r.breakdown.named())
    std::fprintf(out, "    %-22s %9.4f  %5.1f%%\n", k.c_str(), v, 100 * v / r.step_time_s);
  std::fprintf(out, "  engine busy (rank 0, seconds)\n");
  for (const auto& [k, v] : r.engines) std::fprintf(out, "    %-22s %9.4f\n", k.c_str(), v);
  print_memory(r.memory, out);
  std::fprintf(out, "  verdict: %s\n", r.verdict.c_str());
  if (r.steady.layers_extrapolated()) {
    std::string pts;
    for (int n : r.steady.layers) pts += (pts.empty() ? "" : ", ") + std::to_string(n);
    std::fprintf(out, "  steady state: simulated %s of %d layers, %.4f s per layer (error bound %.3f%% of the step)\n",
                 pts.c_str(), r.steady.layer_target, r.steady.period_s, 100 * r.steady.drift);
  } else if (r.steady.extrapolated()) {
    std::string pts;
    for (int m : r.steady.microbatches) pts += (pts.empty() ? "" : ", ") + std::to_string(m);
    std::fprintf(
        out,
        "  steady state: simulated %s of %d micro-batches, %.4f s per micro-batch (error bound %.3f%% of the step)\n",
        pts.c_str(), r.steady.target, r.steady.period_s, 100 * r.steady.drift);
  }
}

void write_run_sim_line(const RunResult& res, FILE* out) {
  const StepResult& r = res.step;
  std::fprintf(out, "sim: %llu events, %lld ops simulated (%lld in the step), %.3f s wall\n",
               static_cast<unsigned long long>(r.events), static_cast<long long>(r.simulated_ops),
               static_cast<long long>(r.ops), r.wall_s);
}

namespace {

nlohmann::ordered_json roofline_json(const Roofline& rl) {
  nlohmann::ordered_json js;
  js["scope"] = "rank 0: one logical NeuronCore (LNC " + std::to_string(rl.lnc) + ")";
  js["peak_bf16_flop_per_s"] = rl.peak_flop_rate;
  js["hbm_bandwidth_B_per_s"] = rl.hbm_bandwidth;
  js["points"] = nlohmann::ordered_json::array();
  for (const auto& p : rl.points)
    js["points"].push_back({{"name", p.name},
                            {"engine", p.engine},
                            {"ops", p.ops},
                            {"flops", p.flops},
                            {"hbm_bytes", json_count(p.hbm_bytes)},
                            {"busy_s", p.busy_s},
                            {"intensity_flop_per_B", p.intensity},
                            {"achieved_flop_per_s", p.flop_rate}});
  return js;
}

nlohmann::ordered_json sim_json(const RunResult& res) {
  const StepResult& r = res.step;
  nlohmann::ordered_json js;
  js["events"] = r.events;
  js["ops"] = r.ops;
  js["simulated_ops"] = r.simulated_ops;
  js["simulated_ranks"] = r.simulated_ranks;
  js["sibling_collectives"] = r.sibling_collectives;
  js["reductions"] = {
      {"ranks", res.ranks == RankSelection::All ? "all"
                : r.per_orbit                   ? "one per orbit"
                                                : "one per stage"},
      {"microbatches_simulated", r.steady.microbatches},
      {"layers_simulated", r.steady.layers.empty() ? std::vector<int>{res.scenario.model.num_layers} : r.steady.layers},
      {"steady_period_s", r.steady.period_s},
      {"steady_error_bound", r.steady.drift}};
  js["wall_s"] = r.wall_s;
  return js;
}

}  // namespace

nlohmann::ordered_json run_json(const RunResult& res) {
  const workloads::ScenarioSpec& s = res.scenario;
  const StepResult& r = res.step;
  nlohmann::ordered_json js;
  js["scenario"] = s.name;
  js["mode"] = sim::word_of(s.mode);
  js["system"] = {{"name", s.system.name},
                  {"chip", s.system.chip.name},
                  {"instances", s.system.instances},
                  {"chips", s.system.total_chips()},
                  {"world", r.world}};
  js["model"] = {{"name", s.model.name},
                 {"architecture", sim::word_of(s.model.architecture)},
                 {"parameters", json_count(s.model.parameters())},
                 {"active_parameters", json_count(s.model.active_parameters())}};
  js["precision"] = {{"compute", workloads::enum_word(s.precision.compute)}};
  js["steady"]["step_time_s"] = r.step_time_s;
  if (res.step_time.valid) js["steady"]["step_time_s_interval"] = interval_json(res.step_time);
  js["steady"]["tokens_per_s"] = r.tokens_per_s;
  if (res.tokens_per_s.valid) js["steady"]["tokens_per_s_interval"] = interval_json(res.tokens_per_s);
  js["steady"]["mfu"] = r.mfu;
  if (res.mfu.valid) js["steady"]["mfu_interval"] = interval_json(res.mfu);
  js["steady"]["model_flops"] = r.model_flops;
  for (const auto& [k, v] : r.breakdown.named()) js["steady"]["breakdown"][k] = v;
  for (const auto& [k, v] : r.engines) js["steady"]["engine_busy_s"][k] = v;
  for (const auto& [k, v] : r.engine_ops) js["steady"]["engine_ops"][k] = static_cast<int64_t>(v);
  js["memory"]["per_rank_bytes"] = json_count(r.memory.total);
  js["memory"]["hbm_capacity_bytes"] = json_count(r.memory.capacity);
  for (const auto& c : r.memory.categories) js["memory"]["categories"][c.name] = json_count(c.bytes);
  js["roofline"] = roofline_json(r.roofline);
  js["sim"] = sim_json(res);
  return stamped(Document::Run, res.inputs_hash, js);
}

}  // namespace trn::app
