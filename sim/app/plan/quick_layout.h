// "This model on that system" (docs/plan.md section 8): `trnsim run --model M --system S
// [--chips N]` and `trnsim startup` without a scenario. The layout, checkpointing and batch are
// chosen by the planner's quick search for one step (no simulation): the plan's base scenario
// with the model and system, one sequence per chip of --seq-len 4,096 tokens (at most the
// model's limit), every layout of the plan's search space that fits in HBM with the plan's
// default headroom, and the one with the smallest schedule bound on its step (rule 6). The
// run then simulates that one layout.
#pragma once

#include <string>
#include <vector>

#include "workloads/scenario/scenario_spec.h"

namespace trn::app {

/// What to load for a job given by model and system instead of a scenario.
struct JobSource {
  std::string scenario;           // the scenario to load (the plan's base for a chosen layout)
  std::vector<std::string> sets;  // the choice, then the user's --set (which win)
  std::string model;              // --model
  std::string note;               // a line for the report: what the quick search chose and why
  bool model_replaced = false;    // a scenario whose model --model replaces (kept_settings_note)
};

/// The job of `trnsim run|startup [SCENARIO] [--model M] [--system S] [--chips N] [--set ...]`:
/// the scenario as given (with a note listing what it keeps when --model replaces its model), or
/// without one the quick search's choice for M on `chips` chips of S (0: one instance). Throws
/// ConfigError for a missing or contradictory option, or when no layout fits.
JobSource job_source(const std::string& scenario, const std::string& model, const std::string& system, int chips,
                     const std::vector<std::string>& sets);

/// The line of a scenario run whose model --model replaced: the scenario's settings it kept (the
/// layout, batch, checkpointing, precision and mode were written for the scenario's own model).
std::string kept_settings_note(const workloads::ScenarioSpec& s);

}  // namespace trn::app
