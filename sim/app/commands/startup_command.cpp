// `trnsim startup SCENARIO` (startup.h): both first steps, the steady steps, break-even,
// cost, sensitivity and the timeline.
#include "sim/app/commands/startup.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <set>

#include "hw/host/compile_host.h"
#include "sim/app/commands/common.h"
#include "sim/app/commands/documents.h"
#include "sim/app/commands/startup_intervals.h"
#include "sim/app/plan/quick_layout.h"
#include "sim/app/simulation/fork_eval.h"
#include "sim/app/simulation/step_simulation.h"
#include "sim/base/config_loader.h"
#include "sim/base/output_file.h"
#include "sim/base/paths.h"
#include "sim/base/trace_sink.h"
#include "workloads/compile/first_step.h"

namespace trn::app {
namespace {

// Runs the compile phase on the SystemC host model (worker slots, longest job first) and
// puts its makespan into the first step's "compile" part.
void host_compile(workloads::FirstStep& f) {
  double makespan = run_in_child(
      [&]() -> std::vector<double> {
        sim::EventQueue ev("events");
        hw::CompileHost host("host", ev, f.compile.workers);
        for (const auto& j : f.compile.jobs)
          for (int d = 0; d < j.compiles; ++d) host.submit(j.name, j.seconds);
        sim::run_to_completion();
        return {host.makespan()};
      },
      "host compile model")[0];
  double& compile = f.part(workloads::StartupPart::Compile);
  f.total += makespan - compile;
  compile = makespan;
}

// The steady step of each job, in forked children two at a time.
std::vector<double> steady_steps(const std::vector<const workloads::ScenarioSpec*>& jobs) {
  std::vector<std::function<double()>> bodies;
  for (const auto* s : jobs) bodies.push_back([s]() { return simulate(*s, StepOptions{}).step_time_s; });
  return run_in_children(bodies, "steady step", 2);
}

// Parameters and their stated log-uncertainty (the `uncertainty:` section of compile.yaml).
std::vector<std::pair<std::string, double>> uncertainties() {
  sim::ConfigNode root = sim::load_config_file(sim::data_root() + "/workloads/calibration/compile.yaml");
  std::vector<std::pair<std::string, double>> out;
  if (const sim::ConfigNode* u = root.find("uncertainty"))
    for (const auto& e : u->map) {
      char* end = nullptr;
      const double x = std::strtod(e.value.scalar.c_str(), &end);
      if (!e.value.is_scalar() || e.value.scalar.empty() || *end != '\0' || !(x >= 0) || !std::isfinite(x))
        throw sim::ConfigError(e.value.loc, "uncertainty." + e.key,
                               "expected a number >= 0 (standard deviation of ln(parameter))");
      out.push_back({e.key, x});
    }
  return out;
}

// The part that dominates a first step, e.g. "compile (54%)".
std::string leading_part(const workloads::FirstStep& f) {
  auto it = std::max_element(f.parts.begin(), f.parts.end(),
                             [](const auto& a, const auto& b) { return a.second < b.second; });
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s (%.0f%%)", it->first.c_str(), 100 * it->second / f.total);
  return buf;
}

// One line a reader can act on: which part dominates each first step, and which mode to pick.
std::string startup_verdict(const StartupResult& r) {
  const workloads::FirstStep &fe = r.eager, &fc = r.compiled;
  char buf[512];
  if (!r.has_eager || !r.has_compiled) {
    const workloads::FirstStep& f = r.has_eager ? fe : fc;
    const char* mode = r.has_eager ? "eager" : "compiled";
    if (!f.compile.failures.empty())
      std::snprintf(buf, sizeof buf, "%s mode fails to start (%s)", mode, f.compile.failures.front().c_str());
    else
      std::snprintf(buf, sizeof buf, "the %s first step takes %.0f s, led by %s", mode, f.total,
                    leading_part(f).c_str());
  } else if (!fc.compile.failures.empty()) {
    std::snprintf(buf, sizeof buf, "compiled mode fails to start (%s); eager starts in %.0f s, led by %s",
                  fc.compile.failures.front().c_str(), fe.total, leading_part(fe).c_str());
  } else if (r.break_even_steps > 0) {
    std::snprintf(
        buf, sizeof buf,
        "compiled is %.0f%% faster per step and overtakes eager after %.0f steps; its first step is led by %s, "
        "eager's by %s",
        100 * (r.steady_eager - r.steady_compiled) / r.steady_eager, r.break_even_steps, leading_part(fc).c_str(),
        leading_part(fe).c_str());
  } else {
    std::snprintf(buf, sizeof buf,
                  "eager is at least as fast per step, so compiling does not pay back; "
                  "eager's first step is led by %s",
                  leading_part(fe).c_str());
  }
  return buf;
}

// The --set list of both modes: the user's, then --cache and --budget.
std::vector<std::string> startup_sets(const StartupOptions& o) {
  std::vector<std::string> sets = o.sets;
  if (!o.cache.empty()) sets.push_back("compile.cache=" + o.cache);
  if (!o.budget.empty()) {
    std::string why;
    if (!sim::parse_quantity(o.budget, sim::Dim::Time, &why))
      throw sim::ConfigError(sim::Location{"--budget", 0, 0}, "",
                             why + "; expected " + sim::dim_expectation(sim::Dim::Time));
    sets.push_back("compile.budget=" + o.budget);
  }
  return sets;
}

double parse_price(const std::string& text) {
  if (text.empty()) return -1;
  char* end = nullptr;
  const double price = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !(price >= 0) || !std::isfinite(price))
    throw sim::ConfigError(sim::Location{"--price-per-hour", 0, 0}, "",
                           "expected a non-negative number, got '" + text + "'");
  return price;
}

std::vector<SensitivityRow> sensitivity(const StartupResult& r, const models::CompileParams& params,
                                        const std::vector<std::pair<std::string, double>>& sigmas) {
  std::vector<SensitivityRow> rows;
  for (const auto& [key, sigma] : sigmas) {
    double f = std::exp(sigma);
    auto pu = scaled(params, key, f), pd = scaled(params, key, 1 / f);
    auto change = [&](bool on, const workloads::ScenarioSpec& sc, workloads::ExecMode m, double steady) {
      if (!on) return 0.0;
      return (workloads::first_step(sc, pu, m, steady).total - workloads::first_step(sc, pd, m, steady).total) / 2;
    };
    const double de = change(r.has_eager, r.eager_scenario, workloads::ExecMode::Eager, r.steady_eager);
    const double dc = change(r.has_compiled, r.compiled_scenario, workloads::ExecMode::Compiled, r.steady_compiled);
    rows.push_back({key, sigma, de, dc});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const SensitivityRow& a, const SensitivityRow& b) {
    return std::max(std::fabs(a.eager_s), std::fabs(a.compiled_s)) >
           std::max(std::fabs(b.eager_s), std::fabs(b.compiled_s));
  });
  return rows;
}

// Each graph (or eager kernel) of `f` on its compile worker, from `compile_start`.
void trace_compile_workers(sim::TraceSink& sink, int pid, const workloads::FirstStep& f, double compile_start) {
  std::vector<double> secs;
  std::vector<std::string> names;
  for (const auto& j : f.compile.jobs)
    for (int d = 0; d < j.compiles; ++d) {
      secs.push_back(j.seconds);
      names.push_back(j.name);
    }
  auto at = models::lpt_assign(secs, f.compile.workers);
  if (f.compile.workers == 1) {  // JIT: in program order, one after another
    double c = 0;
    for (size_t i = 0; i < secs.size(); ++i) {
      at[i] = {0, c};
      c += secs[i];
    }
  }
  std::set<int> named;
  for (size_t i = 0; i < secs.size(); ++i) {
    int tid = 1 + at[i].first;
    if (named.insert(tid).second) sink.thread_name(pid, tid, "compile worker " + std::to_string(at[i].first));
    sink.span(pid, tid, names[i], "host", compile_start + at[i].second, compile_start + at[i].second + secs[i]);
  }
}

// The first step of both modes as a timeline: the parts, and each graph's compile on its worker.
void write_trace(const std::string& path, const StartupResult& r) {
  sim::JsonTraceSink sink(path, {}, 0, 1e300);
  int pid = 1;
  for (const auto* f : {&r.eager, &r.compiled}) {
    if (!(f == &r.eager ? r.has_eager : r.has_compiled)) continue;
    const char* mode = f == &r.eager ? "eager" : "compiled";
    sink.process_name(pid, std::string("host (") + mode + ")");
    sink.thread_name(pid, 0, "first step");
    double t = 0, compile_start = 0;
    for (size_t i = 0; i < f->parts.size(); ++i) {
      const auto& [k, v] = f->parts[i];
      if (i == static_cast<size_t>(workloads::StartupPart::Compile)) compile_start = t;
      if (!f->shown(i)) continue;  // no precompile job
      sink.span(pid, 0, k, "host", t, t + v);
      t += v;
    }
    trace_compile_workers(sink, pid, *f, compile_start);
    ++pid;
  }
  sink.finish();
}

// What the figures are computed from: the options that change them, the compile parameters and the
// resolved scenario (compiled mode; the eager one differs only in its mode).
std::string startup_inputs(const StartupResult& r, const models::CompileParams& params, bool sensitivity,
                           bool intervals) {
  char price[64];
  std::snprintf(price, sizeof price, "%.17g", r.price);
  // Both modes (the default) hash as before --mode existed; one mode adds its word.
  const std::string modes = r.has_eager && r.has_compiled ? "" : (r.has_eager ? "\nmode: eager" : "\nmode: compiled");
  return std::string("command: startup\nprice_per_hour: ") + price + modes +
         "\nsensitivity: " + (sensitivity ? "true" : "false") + "\ncompile_params:\n" +
         sim::to_yaml(sim::write_config(params)) + "scenario:\n" + workloads::resolved_yaml(r.scenario(), "") +
         (intervals ? "intervals:\n" + interval_inputs_text() : "");
}

}  // namespace

StartupResult run_startup(const StartupOptions& o) {
  StartupResult r;
  if (o.mode != "both" && o.mode != "eager" && o.mode != "compiled")
    throw sim::ConfigError(sim::Location{"--mode", 0, 0}, "", "expected eager, compiled or both, got '" + o.mode + "'");
  r.has_eager = o.mode != "compiled";
  r.has_compiled = o.mode != "eager";
  const JobSource job = job_source(o.scenario, o.model, o.system, o.chips, startup_sets(o));
  r.price = parse_price(o.price);
  std::vector<std::string> se = job.sets, sc = job.sets;
  se.push_back("mode=eager");
  sc.push_back("mode=compiled");
  if (r.has_eager) r.eager_scenario = workloads::load_scenario(job.scenario, se, job.model);
  if (r.has_compiled) r.compiled_scenario = workloads::load_scenario(job.scenario, sc, job.model);
  const workloads::ScenarioSpec& s = r.scenario();
  r.note = job.model_replaced ? kept_settings_note(s) : job.note;
  // A job that cannot run has no first step: stop as `run` does.
  const workloads::MemoryReport mem = workloads::memory_per_rank(s);
  if (!mem.fits() && !o.allow_oom) {
    throw sim::ConfigError(sim::Location{s.name, 0, 0}, "",
                           "does not fit in HBM: " + gib(mem.total) + " per rank needed, " + gib(mem.capacity) +
                               " available (use --allow-oom to estimate anyway)",
                           "oom");
  }
  models::CompileParams params = workloads::load_compile_params();
  // Read before simulating, so that a bad compile.yaml stops the run at once.
  const auto sigmas = o.sensitivity ? uncertainties() : std::vector<std::pair<std::string, double>>{};
  r.inputs_hash = inputs_hash(startup_inputs(r, params, o.sensitivity, o.intervals));
  // The steady steps of the modes asked for and, with intervals, of each mode's jobs with a fitted
  // runtime parameter moved (forked children, two at a time).
  const IntervalModel model = o.intervals ? load_interval_model() : IntervalModel{};
  std::vector<std::pair<std::string, workloads::ScenarioSpec>> pe, pc;
  if (o.intervals && r.has_eager) pe = runtime_perturbations(r.eager_scenario);
  if (o.intervals && r.has_compiled) pc = runtime_perturbations(r.compiled_scenario);
  std::vector<const workloads::ScenarioSpec*> jobs;
  if (r.has_eager) jobs.push_back(&r.eager_scenario);
  if (r.has_compiled) jobs.push_back(&r.compiled_scenario);
  for (const auto* v : {&pe, &pc})
    for (const auto& p : *v) jobs.push_back(&p.second);
  const std::vector<double> steps = steady_steps(jobs);
  size_t k = 0;
  if (r.has_eager) {
    r.steady_eager = steps[k++];
    r.eager = workloads::first_step(r.eager_scenario, params, workloads::ExecMode::Eager, r.steady_eager);
    if (r.eager.compile.workers > 1) host_compile(r.eager);  // parallel compilation: simulate the host
  }
  if (r.has_compiled) {
    r.steady_compiled = steps[k++];
    r.compiled = workloads::first_step(r.compiled_scenario, params, workloads::ExecMode::Compiled, r.steady_compiled);
    if (r.compiled.compile.workers > 1) host_compile(r.compiled);
  }
  PerturbedSteps steps_e, steps_c;
  for (const auto& p : pe) steps_e.emplace_back(p.first, steps[k++]);
  for (const auto& p : pc) steps_c.emplace_back(p.first, steps[k++]);
  r.tokens = double(s.batch.tokens());
  r.instances = s.system.instances;
  if (r.has_eager && r.has_compiled && r.steady_compiled < r.steady_eager)
    r.break_even_steps =
        std::max(1.0, std::ceil(1 + (r.compiled.total - r.eager.total) / (r.steady_eager - r.steady_compiled)));
  if (o.intervals) set_startup_intervals(r, params, model, steps_e, steps_c);
  r.verdict = startup_verdict(r);
  r.has_sensitivity = o.sensitivity;
  if (o.sensitivity) r.sensitivity = sensitivity(r, params, sigmas);
  if (!o.trace.empty()) write_trace(o.trace, r);
  return r;
}

std::string startup_inputs_hash(const StartupOptions& o) {
  StartupResult r;  // the fields startup_inputs reads: the modes, the price and the scenario
  r.has_eager = o.mode != "compiled";
  r.has_compiled = o.mode != "eager";
  r.price = parse_price(o.price);
  const JobSource job = job_source(o.scenario, o.model, o.system, o.chips, startup_sets(o));
  std::vector<std::string> sets = job.sets;
  sets.push_back(r.has_compiled ? "mode=compiled" : "mode=eager");
  (r.has_compiled ? r.compiled_scenario : r.eager_scenario) = workloads::load_scenario(job.scenario, sets, job.model);
  return inputs_hash(startup_inputs(r, workloads::load_compile_params(), o.sensitivity, o.intervals));
}

namespace {

// The first steps asked for, with their column names.
std::vector<std::pair<const char*, const workloads::FirstStep*>> modes_of(const StartupResult& r) {
  std::vector<std::pair<const char*, const workloads::FirstStep*>> m;
  if (r.has_eager) m.push_back({"eager", &r.eager});
  if (r.has_compiled) m.push_back({"compiled", &r.compiled});
  return m;
}

double steady_of(const StartupResult& r, const workloads::FirstStep* f) {
  return f == &r.eager ? r.steady_eager : r.steady_compiled;
}

void write_break_even_and_cost(const StartupResult& r, FILE* out) {
  const auto& fe = r.eager;
  const auto& fc = r.compiled;
  if (r.has_eager && r.has_compiled) {
    std::string range;
    if (r.break_even.valid) {
      char b[120];
      if (r.break_even.never)
        std::snprintf(b, sizeof b, " (%.0f %%: %.0f steps to never)", 100 * r.break_even.level, r.break_even.low);
      else if (r.break_even.low == r.break_even.high)
        std::snprintf(b, sizeof b, " (%.0f %%: %.0f steps)", 100 * r.break_even.level, r.break_even.low);
      else
        std::snprintf(b, sizeof b, " (%.0f %%: %.0f-%.0f steps)", 100 * r.break_even.level, r.break_even.low,
                      r.break_even.high);
      range = b;
    }
    if (r.break_even_steps > 0)
      std::fprintf(out, "  break-even: compiled mode pays back its %s start after %.0f steps%s (%.3g tokens)\n",
                   fc.total > fe.total ? "longer" : "shorter", r.break_even_steps, range.c_str(),
                   r.break_even_steps * r.tokens);
    else
      std::fprintf(out, "  break-even: never (compiled is not faster per step)\n");
  }
  std::fprintf(out, "  start-up cost:");
  const char* sep = " ";
  for (const auto& [mode, f] : modes_of(r)) {
    std::fprintf(out, "%s%.3f%s %s", sep, f->total / 3600 * r.instances, *sep == ' ' ? " instance-hours" : "", mode);
    sep = ", ";
  }
  if (r.price >= 0) {
    std::fprintf(out, " (");
    sep = "";
    for (const auto& [mode, f] : modes_of(r)) {
      std::fprintf(out, "%s%.2f", sep, f->total / 3600 * r.instances * r.price);
      sep = " and ";
    }
    std::fprintf(out, " at %.2f per instance-hour)", r.price);
  }
  std::fprintf(out, "\n");
}

// Why an interval is wider than the fits' own error: the axes no observation covers, once each.
void write_interval_reasons(const StartupResult& r, FILE* out) {
  std::vector<std::string> seen;
  for (const auto* iv : {&r.first_eager, &r.first_compiled, &r.steady_eager_iv, &r.steady_compiled_iv})
    for (const auto& why : iv->why)
      if (std::find(seen.begin(), seen.end(), why) == seen.end()) {
        seen.push_back(why);
        std::fprintf(out, "  interval wider: %s\n", why.c_str());
      }
}

void write_sensitivity(const StartupResult& r, FILE* out) {
  std::fprintf(out, "  sensitivity: first-step change when a parameter moves by x/÷ exp(sigma), largest first\n");
  std::fprintf(out, "    %-14s %8s", "parameter", "sigma");
  for (const auto& [mode, f] : modes_of(r)) std::fprintf(out, " %12s", (std::string(mode) + " (s)").c_str());
  std::fprintf(out, "\n");
  for (const auto& row : r.sensitivity) {
    std::fprintf(out, "    %-14s %8.2f", row.key.c_str(), row.sigma);
    if (r.has_eager) std::fprintf(out, " %+12.1f", row.eager_s);
    if (r.has_compiled) std::fprintf(out, " %+12.1f", row.compiled_s);
    std::fprintf(out, "\n");
  }
}

}  // namespace

void write_startup_text(const StartupResult& r, FILE* out) {
  const auto& s = r.scenario();
  const auto modes = modes_of(r);
  std::fprintf(out, "%s: first training step, %s on %d x %s, cache %s%s\n", s.name.c_str(), s.model.name.c_str(),
               r.instances, s.system.name.c_str(), workloads::enum_word(s.compile.cache).c_str(),
               s.compile.budget.v > 0 ? (", budget " + s.compile.budget.str()).c_str() : "");
  std::fputs(r.note.c_str(), out);
  if (workloads::is_imported(s.model))
    std::fprintf(out, "  model: %s\n", workloads::parameter_summary(s.model).c_str());
  auto row = [&](const char* label, const std::function<std::string(const workloads::FirstStep&, double)>& cell) {
    std::fprintf(out, "  %-22s", label);
    for (const auto& [mode, f] : modes) std::fprintf(out, " %12s", cell(*f, steady_of(r, f)).c_str());
    std::fprintf(out, "\n");
  };
  auto fmt = [](const char* f, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, x);
    return std::string(buf);
  };
  std::fprintf(out, "  %-22s", "part (s)");
  for (const auto& [mode, f] : modes) std::fprintf(out, " %12s", mode);
  std::fprintf(out, "\n");
  const auto& parts = modes.front().second->parts;
  for (size_t i = 0; i < parts.size(); ++i) {
    bool shown = false;  // in a mode that has it
    for (const auto& [mode, f] : modes) shown = shown || f->shown(i);
    if (shown)
      row(parts[i].first.c_str(),
          [&](const workloads::FirstStep& f, double) { return fmt("%.1f", f.parts[i].second); });
  }
  row("first step", [&](const workloads::FirstStep& f, double) { return fmt("%.1f", f.total); });
  auto range = [&](const PredictionInterval& iv, const char* f) {
    return iv.valid ? fmt(f, iv.low) + "-" + fmt(f, iv.high) : std::string("");
  };
  const std::string level = r.first_eager.valid || r.first_compiled.valid ? fmt("%.0f %%", 100 * r.level()) : "";
  if (!level.empty())
    row(("  " + level).c_str(), [&](const workloads::FirstStep& f, double) {
      return range(&f == &r.eager ? r.first_eager : r.first_compiled, "%.0f");
    });
  row("steady step", [&](const workloads::FirstStep&, double st) { return fmt("%.3f", st); });
  if (!level.empty())
    row(("  " + level).c_str(), [&](const workloads::FirstStep& f, double) {
      return range(&f == &r.eager ? r.steady_eager_iv : r.steady_compiled_iv, "%.2f");
    });
  row("first / steady", [&](const workloads::FirstStep& f, double st) { return fmt("%.1fx", f.total / st); });
  row("graphs compiled", [&](const workloads::FirstStep& f, double) {
    const char* kind = f.inventory.kind == workloads::InventoryKind::EagerKernels ? "kern"
                       : f.inventory.kind == workloads::InventoryKind::Regional   ? "reg"
                                                                                  : "step";
    return std::to_string(f.inventory.graphs()) + " " + kind;
  });
  row("compile workers", [&](const workloads::FirstStep& f, double) { return std::to_string(f.compile.workers); });
  write_break_even_and_cost(r, out);
  write_interval_reasons(r, out);
  for (const auto& [mode, f] : modes)
    for (const auto& fail : f->compile.failures) std::fprintf(out, "  FAILURE (%s): %s\n", mode, fail.c_str());
  std::fprintf(out, "  verdict: %s\n", r.verdict.c_str());
  if (r.has_sensitivity) write_sensitivity(r, out);
}

nlohmann::ordered_json startup_json(const StartupResult& r) {
  nlohmann::ordered_json js;
  auto mode_json = [&](const workloads::FirstStep& f, double steady) {
    nlohmann::ordered_json m;
    const bool eager = &f == &r.eager;
    const PredictionInterval& fi = eager ? r.first_eager : r.first_compiled;
    const PredictionInterval& si = eager ? r.steady_eager_iv : r.steady_compiled_iv;
    m["first_step"]["total_s"] = f.total;
    if (fi.valid) m["first_step"]["total_s_interval"] = interval_json(fi);
    for (const auto& [k, v] : f.shown_parts()) m["first_step"]["parts"][k] = v;
    m["first_step"]["ratio_to_steady"] = f.total / steady;
    m["steady"]["step_time_s"] = steady;
    if (si.valid) m["steady"]["step_time_s_interval"] = interval_json(si);
    m["steady"]["tokens_per_s"] = r.tokens / steady;
    if (si.valid) m["steady"]["tokens_per_s_interval"] = interval_json(reciprocal(si, r.tokens / steady));
    m["compile"]["graphs"] = f.inventory.graphs();
    m["compile"]["workers"] = f.compile.workers;
    m["compile"]["failures"] = f.compile.failures;
    if (f.shown(static_cast<size_t>(workloads::StartupPart::TrialRun)))  // a precompile job: its trial's trace
      m["compile"]["trial_traced_ops_per_step"] = static_cast<long long>(std::llround(f.inventory.step_traced_ops));
    return m;
  };
  const double be = r.break_even_steps;
  js["scenario"] = r.scenario().name;
  const auto& mdl = r.scenario().model;
  js["model"] = {{"name", mdl.name},
                 {"architecture", sim::word_of(mdl.architecture)},
                 {"parameters", json_count(mdl.parameters())},
                 {"active_parameters", json_count(mdl.active_parameters())}};
  js["verdict"] = r.verdict;
  js["tokens_per_step"] = json_count(r.tokens);
  for (const auto& [mode, f] : modes_of(r)) js[mode] = mode_json(*f, steady_of(r, f));
  if (r.has_eager && r.has_compiled) {
    js["break_even"]["steps"] = be > 0 ? nlohmann::ordered_json(json_count(be)) : nlohmann::ordered_json(nullptr);
    js["break_even"]["tokens"] =
        be > 0 ? nlohmann::ordered_json(json_count(be * r.tokens)) : nlohmann::ordered_json(nullptr);
    if (r.break_even.valid)
      js["break_even"]["steps_interval"] = {
          {"low", json_count(r.break_even.low)},
          {"high", r.break_even.never ? nlohmann::ordered_json(nullptr)
                                      : nlohmann::ordered_json(json_count(r.break_even.high))},
          {"level", r.break_even.level},
          {"method", "quantiles of 4000 draws of the linearised first and steady steps (docs/model.md 12)"}};
  }
  for (const auto& [mode, f] : modes_of(r)) {
    const double ih = f->total / 3600 * r.instances;
    js["cost"]["instance_hours"][mode] = ih;
    const PredictionInterval& fi = f == &r.eager ? r.first_eager : r.first_compiled;
    if (fi.valid) js["cost"]["instance_hours_interval"][mode] = interval_json(scaled(fi, r.instances / 3600.0));
    if (r.price >= 0) js["cost"]["money"][mode] = ih * r.price;
    if (r.price >= 0 && fi.valid)
      js["cost"]["money_interval"][mode] = interval_json(scaled(fi, r.instances / 3600.0 * r.price));
  }
  for (const auto& row : r.sensitivity) {
    nlohmann::ordered_json j{{"parameter", row.key}, {"log_sigma", row.sigma}};
    if (r.has_eager) j["eager_s"] = row.eager_s;
    if (r.has_compiled) j["compiled_s"] = row.compiled_s;
    js["sensitivity"].push_back(j);
  }
  return stamped(Document::Startup, r.inputs_hash, js);
}

}  // namespace trn::app
