// The first training step of a scenario (docs/startup.md section 1): its graph inventory
// (inventory.h), the compile phase on the host, and the other parts of the first step.
// Everything that does not depend on the compile parameters is prepared once
// (first_step_inputs), so that the fit can evaluate the first step at many parameter sets.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "models/compile/compile_model.h"
#include "workloads/compile/inventory.h"
#include "workloads/scenario/scenario_spec.h"

namespace trn::workloads {

/// The parts of a first step, in the order they run (docs/startup.md section 1).
enum class StartupPart {
  ProcessStart,
  WeightInit,
  GraphCapture,
  TrialRun,
  Compile,
  NeffLoad,
  CollectiveBootstrap,
  FirstExecution
};
inline const std::vector<std::string>& enum_words(StartupPart) {
  static const std::vector<std::string> w{"process_start", "weight_init", "graph_capture",        "trial_run",
                                          "compile",       "neff_load",   "collective_bootstrap", "first_execution"};
  return w;
}

/// What a first step depends on besides the compile parameters.
struct FirstStepInputs {
  ExecMode mode = ExecMode::Compiled;
  Inventory inventory;
  models::HostLimits host;  // one host server: its vCPUs, memory, duplicate compiles
  double speedup = 1, budget_s = 0;
  double weight_bytes = 0;  // weights (and FP32 master copy) one host server initialises
  double world = 1;         // ranks of the job
  int trial_steps = 0;      // neuron_parallel_compile's trial run (0: no precompile job)
  double steady_s = 0;      // the steady step (first execution)
};

FirstStepInputs first_step_inputs(const ScenarioSpec& s, ExecMode mode, double steady_step_s);

struct FirstStep {
  std::vector<std::pair<std::string, double>> parts;  // seconds, one per StartupPart in its order, named by its word
  double total = 0, steady = 0;
  models::CompilePhase compile;  // of the host that finishes last
  Inventory inventory;           // every graph of the job

  double& part(StartupPart p) { return parts[static_cast<size_t>(p)].second; }
  double part(StartupPart p) const { return parts[static_cast<size_t>(p)].second; }
  /// Whether a report shows part i: all but a trial run of a job that has none (no precompile job).
  bool shown(size_t i) const { return i != static_cast<size_t>(StartupPart::TrialRun) || parts[i].second > 0; }
  /// The parts a report shows.
  std::vector<std::pair<std::string, double>> shown_parts() const {
    std::vector<std::pair<std::string, double>> out;
    for (size_t i = 0; i < parts.size(); ++i)
      if (shown(i)) out.push_back(parts[i]);
    return out;
  }
};

FirstStep first_step(const FirstStepInputs& in, const models::CompileParams& p);
/// First step of `mode` given its simulated steady step time (for the first execution).
FirstStep first_step(const ScenarioSpec& s, const models::CompileParams& p, ExecMode mode, double steady_step_s);

/// The compile parameters shipped in workloads/calibration/compile.yaml.
models::CompileParams load_compile_params(const std::string& path = "");

}  // namespace trn::workloads
