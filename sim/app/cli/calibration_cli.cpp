// CLI of `trnsim calibrate-collectives`, `trnsim calibrate` and `trnsim calibrate-runtime`:
// options in, run_X, the calibration file (and residuals) written or printed
// (sim/app/calibration/).
#include <cstdio>
#include <memory>

#include "sim/app/calibration/calibrate_collectives.h"
#include "sim/app/calibration/calibrate_compile.h"
#include "sim/app/calibration/calibrate_intervals.h"
#include "sim/app/calibration/calibrate_runtime.h"
#include "sim/app/cli/commands.h"
#include "sim/base/output_file.h"

namespace trn::app {

Runner add_calibrate_collectives(CLI::App* app) {
  auto out = std::make_shared<std::string>();
  auto* c = app->add_subcommand("calibrate-collectives",
                                "Fit the collective DMA engines per core and the launch overhead to the "
                                "2-rank nccom-test example; write the calibration file with residuals");
  c->add_option("--out", *out, "Write the calibration YAML to FILE (default: standard output)");
  return [out]() -> int {
    if (!out->empty() && !is_stdout(*out)) sim::check_writable(*out, "--out");
    write_or_print(*out, calibrate_collectives_yaml(run_calibrate_collectives()));
    return 0;
  };
}

Runner add_calibrate_compile(CLI::App* app) {
  struct Opts {
    CalibrateCompileOptions run;
    std::string out, residuals;
  };
  auto o = std::make_shared<Opts>();
  auto* c = app->add_subcommand("calibrate",
                                "Fit the compile-latency parameters to the observations (Levenberg-Marquardt with "
                                "priors), with leave-one-out and held-out errors; write the parameter file");
  c->add_option("observations", o->run.observations,
                "Observations YAML (e.g. workloads/calibration/compile_observations.yaml)")
      ->required();
  c->add_option("--out", o->out, "Write the parameter file to FILE (default: standard output)");
  c->add_option("--residuals", o->residuals,
                "Write every observation's in-sample, leave-one-out and held-out figure as JSON to FILE");
  c->add_option("-j,--jobs", o->run.jobs, "Leave-one-out refits at a time (default: 2)")->check(CLI::Range(1, 64));
  return [o]() -> int {
    for (const auto* f : {&o->out, &o->residuals})
      if (!f->empty() && !is_stdout(*f)) sim::check_writable(*f, f == &o->out ? "--out" : "--residuals");
    const CalibrateCompileResult r = run_calibrate_compile(o->run);
    // The table goes to standard error when the parameter file goes to standard output.
    write_calibrate_compile_text(r, o->out.empty() || is_stdout(o->out) ? stderr : stdout);
    write_or_print(o->out, calibrate_compile_yaml(r));
    if (!o->residuals.empty()) write_or_print(o->residuals, calibrate_compile_json(r).dump(1) + "\n");
    return 0;
  };
}

Runner add_calibrate_intervals(CLI::App* app) {
  struct Opts {
    CalibrateIntervalsOptions run;
    std::string out;
  };
  auto o = std::make_shared<Opts>();
  auto* c = app->add_subcommand("calibrate-intervals",
                                "The structural part of the 80 % intervals from both fits' leave-one-out residuals, "
                                "and their coverage of the published figures; write the intervals file");
  c->add_option("--out", o->out, "Write the intervals YAML to FILE (default: standard output)");
  c->add_option("--runtime-residuals", o->run.runtime_residuals,
                "The runtime fit's residuals (default: workloads/calibration/runtime_residuals.json)");
  c->add_option("--compile-observations", o->run.compile_observations,
                "The compile fit's observations (default: workloads/calibration/compile_observations.yaml)");
  c->add_option("-j,--jobs", o->run.jobs, "Leave-one-out refits at a time (default: 2)")->check(CLI::Range(1, 64));
  return [o]() -> int {
    if (!o->out.empty() && !is_stdout(o->out)) sim::check_writable(o->out, "--out");
    const CalibrateIntervalsResult r = run_calibrate_intervals(o->run);
    write_calibrate_intervals_text(r, o->out.empty() || is_stdout(o->out) ? stderr : stdout);
    write_or_print(o->out, calibrate_intervals_yaml(r));
    return 0;
  };
}

Runner add_calibrate_runtime(CLI::App* app) {
  struct Opts {
    CalibrateRuntimeOptions run;
    std::string out, residuals, check;
  };
  auto o = std::make_shared<Opts>();
  auto* c = app->add_subcommand("calibrate-runtime",
                                "Fit the runtime parameters jointly to the seed and the published trn1 tables (MAP "
                                "with priors), with leave-one-out errors; write the runtime calibration file");
  c->add_option("--observations", o->run.observations,
                "Data and priors (default: " + std::string(kRuntimeObservations) + ")");
  c->add_option("--out", o->out, "Write the runtime YAML to FILE (default: standard output)");
  c->add_option("--residuals", o->residuals, "Write the rows, in-sample and leave-one-out errors as JSON to FILE");
  c->add_option("--check", o->check,
                "Re-simulate every row at the shipped parameters and compare with this residuals JSON (exit 1 "
                "when a figure differs); fits nothing");
  c->add_option("-j,--jobs", o->run.jobs, "Simulations at a time (default: 2)")->check(CLI::Range(1, 64));
  return [o]() -> int {
    if (is_stdout(o->out)) o->out.clear();  // standard output, as without --out
    if (!o->out.empty()) sim::check_writable(o->out, "--out");
    if (!o->residuals.empty()) sim::check_writable(o->residuals, "--residuals");
    if (!o->check.empty()) {
      RuntimeCheckResult r = run_calibrate_runtime_check(o->run, o->check);
      write_runtime_check_text(r, stdout);
      return r.differing ? 1 : 0;
    }
    CalibrateRuntimeResult r = run_calibrate_runtime(o->run);
    const std::string yaml = calibrate_runtime_yaml(r);
    std::vector<std::pair<std::string, std::string>> files;
    std::vector<std::string> opts;
    if (!o->out.empty()) {
      files.push_back({o->out, yaml});
      opts.push_back("--out");
    }
    if (!o->residuals.empty()) {
      files.push_back({o->residuals, calibrate_runtime_json(r).dump(1) + "\n"});
      opts.push_back("--residuals");
    }
    if (o->out.empty()) std::fputs(yaml.c_str(), stdout);
    if (!files.empty()) sim::write_files_atomic(files, opts);
    return 0;
  };
}

}  // namespace trn::app
