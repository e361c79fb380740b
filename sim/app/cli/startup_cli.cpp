// CLI of `trnsim startup`: options in, run_startup, text on stdout, --json and --resolved
// files (sim/app/commands/startup.h).
#include <cstdio>
#include <memory>

#include "sim/app/cli/commands.h"
#include "sim/app/commands/startup.h"
#include "sim/base/output_file.h"

namespace trn::app {

namespace {
struct StartupCli {
  CommonOptions common;
  StartupOptions startup;
  ResultChannel channel;  // --result-fd (sweep workers)
  bool no_intervals = false;
};

int startup_command(const StartupCli& o) {
  check_outputs(o.common);
  check_other_output(o.common, o.startup.trace, "--trace");
  FILE* text = summary_stream(o.common, o.startup.trace);
  StartupOptions opt = o.startup;
  opt.sets = o.common.sets;
  opt.intervals = !o.no_intervals;
  StdoutSpool trace(opt.trace);
  StartupResult r = run_startup(opt);
  write_startup_text(r, text);
  const auto& s = r.scenario();
  const std::string json = startup_json(r).dump(2) + "\n";
  write_outputs(o.common, json, workloads::resolved_yaml(s, "# trnsim resolved scenario " + s.name + "\n"));
  trace.emit();
  o.channel.result(json);
  return 0;
}

}  // namespace

Runner add_startup(CLI::App* app) {
  auto o = std::make_shared<StartupCli>();
  StartupOptions& s = o->startup;
  auto* c = app->add_subcommand("startup", "First-step delay against steady throughput, eager vs compiled");
  c->add_option("scenario", s.scenario,
                "Scenario name (workloads/scenarios) or YAML path; without one, --model and --system (the layout is "
                "then chosen by the planner's quick search, docs/plan.md 8)");
  c->add_option("--mode", s.mode, "Which first steps to estimate: eager | compiled | both (default: both)")
      ->check(CLI::IsMember({"eager", "compiled", "both"}));
  c->add_option("--cache", s.cache, "Persistent compile cache: cold | warm (default: the scenario's, cold)")
      ->check(CLI::IsMember({"cold", "warm"}));
  c->add_option("--budget", s.budget, "Per-graph compile budget, a time with unit, e.g. 600s (default: none)");
  c->add_option("--price-per-hour", s.price, "Instance price in money per instance-hour (default: none)");
  c->add_option("--model", s.model,
                "Replace the scenario's model, or the model to start without a scenario (zoo name, YAML, "
                "config.json or Hugging Face model directory)");
  c->add_option("--system", s.system,
                "Without a scenario: the system (hw/configs/systems) to start --model on, e.g. trn2.48xlarge");
  c->add_option("--chips", s.chips, "Without a scenario: chips of --system, whole instances (default: one instance)");
  c->add_option(
      "--trace", s.trace,
      "Write the first step of the modes asked for as a Chrome/Perfetto timeline to FILE: the parts, and each "
      "graph's compile on its host worker; '-' for standard output (default: none)");
  c->add_flag("--no-intervals", o->no_intervals,
              "Skip the 80 % intervals and their extra simulations (default: intervals on)");
  c->add_flag("--sensitivity", s.sensitivity, "Show how the first step moves with each parameter's uncertainty");
  c->add_flag("--allow-oom", s.allow_oom, "Estimate the start-up even when a rank does not fit in HBM (default: off)");
  add_common(c, o->common);
  add_result_option(c, o->channel);
  return [o]() -> int { return reporting_to(o->channel, [&o]() { return startup_command(*o); }); };
}

}  // namespace trn::app
