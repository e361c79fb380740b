// `trnsim run SCENARIO`: one steady training step, its throughput, MFU, breakdown and memory
// per rank. Options in, run_run, result out; the text and JSON writers are separate.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "sim/app/analysis/intervals.h"
#include "sim/app/simulation/step_simulation.h"
#include "workloads/memory/memory_model.h"
#include "workloads/scenario/scenario_spec.h"

namespace trn::app {

struct RunOptions {
  std::string scenario;           // name (workloads/scenarios) or YAML path; empty: --model on --system
  std::vector<std::string> sets;  // --set key=value
  std::string mode;               // eager | compiled | empty: the scenario's
  std::string model;              // replaces the scenario's model when not empty
  std::string system;             // without a scenario: the system the layout is chosen for
  int chips = 0;                  // without a scenario: chips of `system` (0: one instance)
  std::string trace;              // timeline output, empty: none
  std::string trace_format;       // json | perfetto; empty: by the file name (.pftrace, .perfetto-trace: perfetto)
  std::string categories;         // comma-separated trace categories, empty: all
  std::string window;             // "START,END" simulated-time window of the trace, empty: all
  std::string stats;              // statistics text output (run --stats), empty: none
  std::string max_memory;         // size with unit, empty: default_max_memory()
  bool allow_oom = false, all_ranks = false, all_microbatches = false, all_layers = false, exact = false;
  bool progress = true;   // progress line on stderr when it is a terminal
  bool intervals = true;  // 80 % intervals: one more simulation per fitted parameter acting on the job
};

struct RunResult {
  workloads::ScenarioSpec scenario;  // as loaded (with --set, --mode, --model)
  bool fits = true;                  // false: a rank does not fit in HBM, nothing was simulated
  workloads::MemoryReport memory;    // per rank (set when !fits)
  RankSelection ranks = RankSelection::Stages;
  StepResult step;
  std::string inputs_hash;  // of the resolved scenario and the reductions (documents.h)
  std::string note;         // the layout chosen without a scenario, or what a scenario kept under --model
  PredictionInterval step_time, tokens_per_s, mfu;  // valid when intervals were asked for
};

/// The statistics of every simulation of the step (StepResult::stats) as text: a header line
/// per simulation, then its tree (sim::stats_text) under "sim<K>." for the K-th.
std::string run_stats_text(const RunResult& r);
/// Loads the scenario (or, without one, chooses the layout of --model on --system:
/// sim/app/plan/quick_layout.h) and simulates its step (unless it does not fit and !allow_oom). Throws
/// ConfigError for bad input and MemoryGuardError when the run is estimated above --max-memory.
RunResult run_run(const RunOptions& o);
/// The scenario `o` names as run_run loads it (--set, --mode, --model; without a scenario the
/// quick layout of --model on --system), nothing simulated. Throws ConfigError for bad input.
workloads::ScenarioSpec load_run_scenario(const RunOptions& o);
/// The inputs_hash run_run stamps on the result of `o` (the scenario is loaded, nothing is
/// simulated): what a sweep compares with a stored row's before it reuses the row. Throws
/// ConfigError when the scenario does not load.
std::string run_inputs_hash(const RunOptions& o);
/// The report on standard output (a fitting run) .
void write_run_text(const RunResult& r, FILE* out);
/// The "does not fit" message and memory table of a run that does not fit.
void write_run_oom(const RunResult& r, FILE* out);
/// That message alone, without the "trnsim: error: " prefix.
std::string run_oom_message(const RunResult& r);
/// The simulator's own figures (events, ops, wall time), one line.
void write_run_sim_line(const RunResult& r, FILE* out);
/// The --json document (docs/schema/run.schema.json).
nlohmann::ordered_json run_json(const RunResult& r);

}  // namespace trn::app
