// `trnsim startup SCENARIO`: the first step in eager and compiled mode side by side, the
// steady step of each (simulated), the first/steady ratio, the break-even point of compiled
// mode and the start-up cost in instance-hours (and money with a price per hour). Options in,
// run_startup, result out; the text and JSON writers are separate.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "sim/app/analysis/intervals.h"
#include "workloads/compile/first_step.h"
#include "workloads/scenario/scenario_spec.h"

namespace trn::app {

struct StartupOptions {
  std::string scenario;           // name (workloads/scenarios) or YAML path; empty: --model on --system
  std::string system;             // without a scenario: the system the layout is chosen for
  int chips = 0;                  // without a scenario: chips of `system` (0: one instance)
  std::vector<std::string> sets;  // --set key=value
  std::string cache;              // cold | warm | empty: the scenario's
  std::string budget;             // per-graph compile budget (time with unit), empty: none
  std::string price;              // money per instance-hour, empty: none
  std::string model;              // replaces the scenario's model when not empty
  std::string trace;              // Chrome/Perfetto timeline of both first steps, empty: none
  std::string mode = "both";      // eager | compiled | both: which first steps to estimate
  bool sensitivity = false;       // the first step's change with each parameter's uncertainty
  bool allow_oom = false;
  bool intervals = true;  // 80 % intervals: one more steady step per fitted runtime parameter acting on a mode
};

/// The break-even point's interval: quantiles of a sampled linearisation (it is a ratio of
/// differences, not log-normal); `never` when compiled mode is not faster at the high end.
struct BreakEvenInterval {
  bool valid = false, never = false;
  double low = 0, high = 0, level = 0.8;
};

/// How the first step moves when one compile parameter moves by x/÷ exp(sigma).
struct SensitivityRow {
  std::string key;
  double sigma = 0, eager_s = 0, compiled_s = 0;
};

struct StartupResult {
  bool has_eager = true, has_compiled = true;  // the modes asked for (--mode); the other's fields stay empty
  workloads::ScenarioSpec eager_scenario, compiled_scenario;
  workloads::FirstStep eager, compiled;
  double steady_eager = 0, steady_compiled = 0;  // seconds per steady step
  double tokens = 0;                             // per step
  int instances = 0;
  double break_even_steps = -1;  // -1: never (or only one mode asked for)
  double price = -1;             // -1: no price given
  std::string verdict;
  PredictionInterval first_eager, first_compiled, steady_eager_iv, steady_compiled_iv;  // valid with intervals
  BreakEvenInterval break_even;
  double level() const { return first_compiled.valid ? first_compiled.level : first_eager.level; }
  bool has_sensitivity = false;
  std::vector<SensitivityRow> sensitivity;  // largest first
  std::string inputs_hash;                  // of the resolved scenario, compile parameters and options (documents.h)
  std::string note;  // the layout chosen without a scenario, or what a scenario kept under --model
  /// The scenario of the first mode asked for (compiled when both): the resolved one written out.
  const workloads::ScenarioSpec& scenario() const { return has_compiled ? compiled_scenario : eager_scenario; }
};

/// Loads the scenario in the modes asked for (both by default), simulates their steady steps
/// (forked children) and estimates the first steps; writes the --trace timeline when asked.
/// Throws ConfigError.
StartupResult run_startup(const StartupOptions& o);
/// The inputs_hash run_startup stamps on the result of `o` (the scenario is loaded, nothing is
/// simulated): what a sweep compares with a stored row's before it reuses the row. Throws
/// ConfigError when the scenario or the options do not load.
std::string startup_inputs_hash(const StartupOptions& o);
void write_startup_text(const StartupResult& r, FILE* out);
/// The --json document (docs/schema/startup.schema.json).
nlohmann::ordered_json startup_json(const StartupResult& r);

}  // namespace trn::app
