// CLI of `trnsim run`: options in, run_run, text on stdout, --json and --resolved files
// (sim/app/commands/run.h).
#include <cstdio>
#include <memory>

#include "sim/app/cli/commands.h"
#include "sim/app/commands/import_chakra.h"
#include "sim/app/commands/run.h"
#include "sim/base/output_file.h"

namespace trn::app {

namespace {
struct RunCli {
  CommonOptions common;
  RunOptions run;
  bool quiet = false, no_intervals = false;
  ResultChannel channel;  // --result-fd (sweep workers)
  std::string workload_et;
  bool et_durations = false;
};

// `run --workload-et DIR --system NAME`: Chakra traces on a system (import_chakra.h). The
// options that describe a scenario's job, its trace or its statistics do not apply; --json writes
// the run-trace document, --resolved the system.
int run_et_command(const RunCli& o) {
  const RunOptions& r = o.run;
  if (r.system.empty())
    throw sim::ConfigError(sim::Location{"--workload-et " + o.workload_et, 0, 0}, "",
                           "expected --system NAME: the hardware to run the traces on");
  const std::pair<bool, const char*> refused[] = {
      {!r.scenario.empty(), "a scenario"}, {!r.model.empty(), "--model"}, {!r.mode.empty(), "--mode"},
      {!o.common.sets.empty(), "--set"},   {!r.trace.empty(), "--trace"}, {!r.trace_format.empty(), "--trace-format"},
      {!r.stats.empty(), "--stats"}};
  for (const auto& [given, what] : refused)
    if (given)
      throw sim::ConfigError(sim::Location{"--workload-et " + o.workload_et, 0, 0}, "",
                             std::string(what) + " does not apply to Chakra traces (docs/interop.md)");
  ChakraImportOptions io;
  io.dir = o.workload_et;
  io.system = r.system;
  io.chips = r.chips;
  io.durations = o.et_durations;
  check_outputs(o.common);
  const ChakraImportResult res = run_import_chakra(io);
  write_import_text(res, summary_stream(o.common));
  write_outputs(o.common, import_json(res).dump(2) + "\n",
                models::resolved_yaml(res.system, "# trnsim resolved system of the Chakra traces " + res.name + "\n"));
  return 0;
}

int run_command(const RunCli& o) {
  if (!o.workload_et.empty()) return run_et_command(o);
  if (o.et_durations)
    throw sim::ConfigError(sim::Location{"--et-durations", 0, 0}, "", "applies to --workload-et traces only");
  check_outputs(o.common);
  check_other_output(o.common, o.run.trace, "--trace");
  if (is_stdout(o.run.stats))
    throw sim::ConfigError(sim::Location{"--stats -", 0, 0}, "",
                           "expected a file path (statistics are not written to standard output)");
  if (!o.run.stats.empty()) sim::check_writable(o.run.stats, "--stats");
  FILE* text = summary_stream(o.common, o.run.trace);
  RunOptions opt = o.run;
  opt.sets = o.common.sets;
  opt.progress = !o.quiet;
  opt.intervals = !o.no_intervals;
  StdoutSpool trace(opt.trace);
  RunResult r;
  try {
    r = run_run(opt);
  } catch (const MemoryGuardError& e) {
    std::fprintf(stderr, "trnsim: error: %s\n", e.what());
    o.channel.infeasible("host-memory", e.what());
    return 2;
  }
  if (!r.fits) {
    write_run_oom(r, stderr);
    o.channel.infeasible("oom", run_oom_message(r));
    return 2;
  }
  write_run_text(r, text);
  write_run_sim_line(r, stderr);
  const auto& s = r.scenario;
  if (!opt.stats.empty()) sim::write_file_atomic(opt.stats, run_stats_text(r));
  const std::string json = run_json(r).dump(2) + "\n";
  write_outputs(o.common, json, workloads::resolved_yaml(s, "# trnsim resolved scenario " + s.name + "\n"));
  trace.emit();
  o.channel.result(json);
  return 0;
}

}  // namespace

Runner add_run(CLI::App* app) {
  auto o = std::make_shared<RunCli>();
  RunOptions& r = o->run;
  auto* c = app->add_subcommand("run", "Simulate one steady training step of a scenario");
  c->add_option("scenario", r.scenario,
                "Scenario name (workloads/scenarios) or YAML path; without one, --model and --system (the layout is "
                "then chosen by the planner's quick search, docs/plan.md 8)");
  c->add_option("--mode", r.mode, "Execution mode: eager | compiled (default: the scenario's)")
      ->check(CLI::IsMember({"eager", "compiled"}));
  c->add_option("--model", r.model,
                "Replace the scenario's model, or the model to run without a scenario: zoo name, YAML path, Hugging "
                "Face config.json or model directory (default: the scenario's)");
  c->add_option("--system", r.system,
                "Without a scenario: the system (hw/configs/systems) to run --model on, e.g. trn2.48xlarge");
  c->add_option("--chips", r.chips, "Without a scenario: chips of --system, whole instances (default: one instance)");
  c->add_option("--trace", r.trace,
                "Write the timeline to FILE, streamed, or to standard output for '-': Chrome JSON, or Perfetto's "
                "protobuf trace with --trace-format perfetto or a FILE ending in .pftrace (default: none)");
  c->add_option("--trace-format", r.trace_format,
                "Format of --trace: json (Chrome's trace-event JSON) or perfetto (Perfetto's protobuf trace, a "
                "fraction of the size) (default: by the file name, json unless it ends in .pftrace or "
                ".perfetto-trace)")
      ->check(CLI::IsMember({"json", "perfetto"}));
  c->add_option("--trace-categories", r.categories,
                "Comma-separated categories to keep: tensor, vector, scalar, gpsimd, dma, collective, host, counters, "
                "links (default: all)");
  c->add_option("--trace-window", r.window, "Simulated-time window START,END with units, e.g. 0s,500ms (default: all)");
  c->add_option("--stats", r.stats,
                "Write the statistics tree of every simulation of the step to FILE (text: path, value, unit, "
                "description; default: none)");
  c->add_flag("--allow-oom", r.allow_oom, "Simulate even when a rank does not fit in HBM (default: off)");
  c->add_flag("--all-ranks", r.all_ranks,
              "Simulate every rank instead of one per pipeline stage (the symmetry reduction); slow, for checking "
              "the reduction (default: off)");
  c->add_flag("--all-microbatches", r.all_microbatches,
              "Simulate every micro-batch instead of extrapolating the pipeline's steady state (default: off)");
  c->add_flag("--all-layers", r.all_layers,
              "Simulate every layer instead of extrapolating the layers' steady state (default: off)");
  c->add_option("--max-memory", r.max_memory,
                "Refuse to start a run estimated to need more memory than this (bytes with units, e.g. 8GiB; "
                "default: half of the machine's RAM)");
  c->add_flag("--no-intervals", o->no_intervals,
              "Skip the 80 % intervals and their extra simulations (default: intervals on)");
  c->add_flag("--quiet", o->quiet, "No progress line on stderr (default: progress when stderr is a terminal)");
  c->add_flag("--exact", r.exact,
              "No reductions: every rank, micro-batch and layer (--all-ranks --all-microbatches --all-layers; "
              "default: off)");
  c->add_option("--workload-et", o->workload_et,
                "Instead of a scenario: simulate the Chakra execution traces DIR/<name>.<rank>.et (and "
                "DIR/<name>.comm_groups.json) on --system (docs/interop.md; default: none)");
  c->add_flag("--et-durations", o->et_durations,
              "With --workload-et: replay every compute node's recorded duration instead of costing its FLOPs and "
              "bytes (default: off)");
  add_common(c, o->common);
  add_result_option(c, o->channel);
  return [o]() -> int { return reporting_to(o->channel, [&o]() { return run_command(*o); }); };
}

}  // namespace trn::app
