// `trnsim startup SCENARIO`: the first step in eager and compiled mode side by side, the
// steady step of each (simulated), the first/steady ratio, the break-even point of compiled
// mode and the start-up cost in instance-hours (and money with --price-per-hour).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>

#include "hw/host/compile_host.h"
#include "sim/app/commands.h"
#include "sim/app/fork_eval.h"
#include "sim/app/step_simulation.h"
#include "sim/base/config_loader.h"
#include "sim/base/output_file.h"
#include "sim/base/paths.h"
#include "sim/base/trace_sink.h"
#include "workloads/compile/first_step.h"

namespace trn::app {
namespace {

struct StartupOpts {
  CommonOptions common;
  std::string scenario, cache, budget, price, model, trace;
  bool sensitivity = false;
  bool allow_oom = false;
};

// Runs the compile phase on the SystemC host model (worker slots, longest job first) and
// puts its makespan into the first step's "compile" part.
void host_compile(workloads::FirstStep& f) {
  double makespan = run_in_child(
      [&]() -> std::vector<double> {
        sim::EventQueue ev("events");
        hw::CompileHost host("host", ev, f.compile.workers);
        for (size_t i = 0; i < f.compile.jobs.size(); ++i) {
          const auto& j = f.compile.jobs[i];
          bool dup = !f.inventory.jobs[i].kernel && j.hit < 1;
          for (int d = 0; d < (dup ? f.compile.duplicate : 1); ++d) host.submit(j.name, j.seconds);
        }
        sim::run_to_completion();
        return {host.makespan()};
      },
      "host compile model")[0];
  for (auto& [k, v] : f.parts)
    if (k == "compile") {
      f.total += makespan - v;
      v = makespan;
    }
}

double steady_of(const workloads::ScenarioSpec& s) {
  return run_in_child([&]() -> std::vector<double> { return {simulate(s, StepOptions{}).step_time_s}; }, "steady step")[0];
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

// Multiplies the named parameter by `factor` (through the resolved YAML of the parameters).
models::CompileParams scaled(const models::CompileParams& p, const std::string& key, double factor) {
  sim::ConfigNode n = sim::write_config(p);
  models::CompileParams out = p;
  sim::ConfigNode* f = n.find(key);
  if (!f) return out;
  std::string why;
  if (auto q = sim::parse_quantity(f->scalar, sim::Dim::Time, &why)) {
    f->scalar = sim::format_quantity_exact(*q * factor, sim::Dim::Time);
  } else if (auto bw = sim::parse_quantity(f->scalar, sim::Dim::Bandwidth, &why)) {
    f->scalar = sim::format_quantity_exact(*bw * factor, sim::Dim::Bandwidth);
  } else if (auto b = sim::parse_quantity(f->scalar, sim::Dim::Bytes, &why)) {
    f->scalar = sim::format_quantity_exact(*b * factor, sim::Dim::Bytes);
  } else {
    double x = std::stod(f->scalar) * factor;
    if (key == "alpha") x = std::max(1.0, x);
    if (key == "k_first") x = std::max(1.0, x);
    f->scalar = sim::format_double_exact(x);
  }
  sim::read_config(n, out);
  return out;
}

}  // namespace

// One line a reader can act on: which part dominates each first step, and which mode to pick.
static std::string startup_verdict(const workloads::FirstStep& fe, const workloads::FirstStep& fc, double steady_e,
                            double steady_c, double be_steps) {
  auto top = [](const workloads::FirstStep& f) {
    auto it = std::max_element(f.parts.begin(), f.parts.end(),
                               [](const auto& a, const auto& b) { return a.second < b.second; });
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s (%.0f%%)", it->first.c_str(), 100 * it->second / f.total);
    return std::string(buf);
  };
  char buf[512];
  if (!fc.compile.failures.empty()) {
    std::snprintf(buf, sizeof buf, "compiled mode fails to start (%s); eager starts in %.0f s, led by %s",
                  fc.compile.failures.front().c_str(), fe.total, top(fe).c_str());
  } else if (be_steps > 0) {
    std::snprintf(buf, sizeof buf,
                  "compiled is %.0f%% faster per step and overtakes eager after %.0f steps; its first step is led by %s, "
                  "eager's by %s",
                  100 * (steady_e - steady_c) / steady_e, be_steps, top(fc).c_str(), top(fe).c_str());
  } else {
    std::snprintf(buf, sizeof buf, "eager is at least as fast per step, so compiling does not pay back; "
                  "eager's first step is led by %s", top(fe).c_str());
  }
  return buf;
}

Runner add_startup(CLI::App* app) {
  auto o = std::make_shared<StartupOpts>();
  auto* c = app->add_subcommand("startup", "First-step delay against steady throughput, eager vs compiled");
  c->add_option("scenario", o->scenario, "Scenario name (workloads/scenarios) or YAML path")->required();
  c->add_option("--cache", o->cache, "Persistent compile cache: cold | warm (default: the scenario's, cold)")
      ->check(CLI::IsMember({"cold", "warm"}));
  c->add_option("--budget", o->budget, "Per-graph compile budget, a time with unit, e.g. 600s (default: none)");
  c->add_option("--price-per-hour", o->price, "Instance price in money per instance-hour (default: none)");
  c->add_option("--model", o->model, "Replace the scenario's model (zoo name, YAML, config.json)");
  c->add_option("--trace", o->trace,
                 "Write the first step of both modes as a Chrome/Perfetto timeline to FILE: the parts, and each "
                 "graph's compile on its host worker (default: none)");
  c->add_flag("--sensitivity", o->sensitivity, "Show how the first step moves with each parameter's uncertainty");
  c->add_flag("--allow-oom", o->allow_oom, "Estimate the start-up even when a rank does not fit in HBM (default: off)");
  add_common(c, o->common);
  return [o]() -> int {
    check_outputs(o->common);
    if (!o->trace.empty()) sim::check_writable(o->trace, "--trace");
    std::vector<std::string> sets = o->common.sets;
    if (!o->cache.empty()) sets.push_back("compile.cache=" + o->cache);
    if (!o->budget.empty()) {
      std::string why;
      if (!sim::parse_quantity(o->budget, sim::Dim::Time, &why))
        throw sim::ConfigError(sim::Location{"--budget", 0, 0}, "", why + "; expected " + sim::dim_expectation(sim::Dim::Time));
      sets.push_back("compile.budget=" + o->budget);
    }
    double price = -1;
    if (!o->price.empty()) {
      char* end = nullptr;
      price = std::strtod(o->price.c_str(), &end);
      if (end != o->price.c_str() + o->price.size() || !(price >= 0) || !std::isfinite(price))
        throw sim::ConfigError(sim::Location{"--price-per-hour", 0, 0}, "", "expected a non-negative number, got '" + o->price + "'");
    }
    std::vector<std::string> se = sets, sc = sets;
    se.push_back("mode=eager");
    sc.push_back("mode=compiled");
    workloads::ScenarioSpec s_e = workloads::load_scenario(o->scenario, se, o->model);
    workloads::ScenarioSpec s_c = workloads::load_scenario(o->scenario, sc, o->model);
    // A job that cannot run has no first step: stop as `run` does.
    const workloads::MemoryReport mem = workloads::memory_per_rank(s_c);
    if (!mem.fits() && !o->allow_oom) {
      throw sim::ConfigError(sim::Location{s_c.name, 0, 0}, "",
                             "does not fit in HBM: " + gib(mem.total) + " per rank needed, " + gib(mem.capacity) +
                                 " available (use --allow-oom to estimate anyway)");
    }
    models::CompileParams params = workloads::load_compile_params();
    // Read before simulating, so that a bad compile.yaml stops the run at once.
    const auto sigmas = o->sensitivity ? uncertainties() : std::vector<std::pair<std::string, double>>{};
    const double steady_e = steady_of(s_e), steady_c = steady_of(s_c);
    workloads::FirstStep fe = workloads::first_step(s_e, params, workloads::ExecMode::Eager, steady_e);
    workloads::FirstStep fc = workloads::first_step(s_c, params, workloads::ExecMode::Compiled, steady_c);
    if (fe.compile.workers > 1 || fc.compile.workers > 1) {  // parallel compilation: simulate the host
      if (fe.compile.workers > 1) host_compile(fe);
      if (fc.compile.workers > 1) host_compile(fc);
    }
    const double tokens = double(s_e.batch.tokens());
    const int instances = s_e.system.instances;

    std::printf("%s: first training step, %s on %d x %s, cache %s%s\n", s_e.name.c_str(), s_e.model.name.c_str(),
                instances, s_e.system.name.c_str(), s_e.compile.cache.c_str(),
                s_e.compile.budget.v > 0 ? (", budget " + s_e.compile.budget.str()).c_str() : "");
    std::printf("  %-22s %12s %12s\n", "part (s)", "eager", "compiled");
    for (size_t i = 0; i < fe.parts.size(); ++i)
      std::printf("  %-22s %12.1f %12.1f\n", fe.parts[i].first.c_str(), fe.parts[i].second, fc.parts[i].second);
    std::printf("  %-22s %12.1f %12.1f\n", "first step", fe.total, fc.total);
    std::printf("  %-22s %12.3f %12.3f\n", "steady step", steady_e, steady_c);
    std::printf("  %-22s %11.1fx %11.1fx\n", "first / steady", fe.total / steady_e, fc.total / steady_c);
    std::printf("  %-22s %12s %12s\n", "graphs compiled", (std::to_string(fe.inventory.jobs.size()) + " kern").c_str(),
                (std::to_string(fc.inventory.jobs.size()) + " " + (fc.inventory.kind == "regional" ? "reg" : "step")).c_str());
    std::printf("  %-22s %12d %12d\n", "compile workers", fe.compile.workers, fc.compile.workers);
    double be_steps = -1;
    if (steady_c < steady_e) be_steps = std::max(1.0, std::ceil(1 + (fc.total - fe.total) / (steady_e - steady_c)));
    if (be_steps > 0)
      std::printf("  break-even: compiled mode pays back its %s start after %.0f steps (%.3g tokens)\n",
                  fc.total > fe.total ? "longer" : "shorter", be_steps, be_steps * tokens);
    else
      std::printf("  break-even: never (compiled is not faster per step)\n");
    const double ih_e = fe.total / 3600 * instances, ih_c = fc.total / 3600 * instances;
    std::printf("  start-up cost: %.3f instance-hours eager, %.3f compiled", ih_e, ih_c);
    if (price >= 0) std::printf(" (%.2f and %.2f at %.2f per instance-hour)", ih_e * price, ih_c * price, price);
    std::printf("\n");
    for (const auto* f : {&fe, &fc})
      for (const auto& fail : f->compile.failures) std::printf("  FAILURE (%s): %s\n", f == &fe ? "eager" : "compiled", fail.c_str());
    const std::string verdict = startup_verdict(fe, fc, steady_e, steady_c, be_steps);
    std::printf("  verdict: %s\n", verdict.c_str());

    nlohmann::ordered_json js;
    auto mode_json = [&](const workloads::FirstStep& f, double steady) {
      nlohmann::ordered_json m;
      m["first_step"]["total_s"] = f.total;
      for (const auto& [k, v] : f.parts) m["first_step"]["parts"][k] = v;
      m["first_step"]["ratio_to_steady"] = f.total / steady;
      m["steady"]["step_time_s"] = steady;
      m["steady"]["tokens_per_s"] = tokens / steady;
      m["compile"]["graphs"] = f.inventory.jobs.size();
      m["compile"]["workers"] = f.compile.workers;
      m["compile"]["failures"] = f.compile.failures;
      return m;
    };
    js["scenario"] = s_e.name;
    js["verdict"] = verdict;
    js["tokens_per_step"] = tokens;
    js["eager"] = mode_json(fe, steady_e);
    js["compiled"] = mode_json(fc, steady_c);
    js["break_even"]["steps"] = be_steps > 0 ? nlohmann::ordered_json(be_steps) : nlohmann::ordered_json(nullptr);
    js["break_even"]["tokens"] = be_steps > 0 ? nlohmann::ordered_json(be_steps * tokens) : nlohmann::ordered_json(nullptr);
    js["cost"]["instance_hours"] = {{"eager", ih_e}, {"compiled", ih_c}};
    if (price >= 0) js["cost"]["money"] = {{"eager", ih_e * price}, {"compiled", ih_c * price}};

    if (o->sensitivity) {
      struct Row {
        std::string key;
        double sigma, de, dc;
      };
      std::vector<Row> rows;
      for (const auto& [key, sigma] : sigmas) {
        double f = std::exp(sigma);
        auto pu = scaled(params, key, f), pd = scaled(params, key, 1 / f);
        using workloads::ExecMode;
        double de = (workloads::first_step(s_e, pu, ExecMode::Eager, steady_e).total -
                     workloads::first_step(s_e, pd, ExecMode::Eager, steady_e).total) / 2;
        double dc = (workloads::first_step(s_c, pu, ExecMode::Compiled, steady_c).total -
                     workloads::first_step(s_c, pd, ExecMode::Compiled, steady_c).total) / 2;
        rows.push_back({key, sigma, de, dc});
      }
      std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return std::max(std::fabs(a.de), std::fabs(a.dc)) > std::max(std::fabs(b.de), std::fabs(b.dc));
      });
      std::printf("  sensitivity: first-step change when a parameter moves by x/÷ exp(sigma), largest first\n");
      std::printf("    %-14s %8s %12s %12s\n", "parameter", "sigma", "eager (s)", "compiled (s)");
      for (const auto& r : rows) {
        std::printf("    %-14s %8.2f %+12.1f %+12.1f\n", r.key.c_str(), r.sigma, r.de, r.dc);
        js["sensitivity"].push_back({{"parameter", r.key}, {"log_sigma", r.sigma}, {"eager_s", r.de}, {"compiled_s", r.dc}});
      }
    }
    if (!o->trace.empty()) {
      sim::TraceSink sink(o->trace, {}, 0, 1e300);
      int pid = 1;
      for (const auto* f : {&fe, &fc}) {
        const char* mode = f == &fe ? "eager" : "compiled";
        sink.process_name(pid, std::string("host (") + mode + ")");
        sink.thread_name(pid, 0, "first step");
        double t = 0, compile_start = 0;
        for (const auto& [k, v] : f->parts) {
          if (k == "compile") compile_start = t;
          sink.span(pid, 0, k, "host", t, t + v);
          t += v;
        }
        // Each graph (or eager kernel) on its compile worker.
        std::vector<double> secs;
        for (const auto& j : f->compile.jobs) secs.push_back(j.seconds);
        auto at = models::lpt_assign(secs, f->compile.workers);
        if (f->compile.workers == 1) {  // JIT: in program order, one after another
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
          sink.span(pid, tid, f->compile.jobs[i].name, "host", compile_start + at[i].second,
                    compile_start + at[i].second + secs[i]);
        }
        ++pid;
      }
      sink.finish();
    }
    write_outputs(o->common, js.dump(2) + "\n", workloads::resolved_yaml(s_c, "# trnsim resolved scenario " + s_c.name + "\n"));
    return 0;
  };
}

}  // namespace trn::app
