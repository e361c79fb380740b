// The intervals of `trnsim startup` (startup.h): each mode's first and steady step, and the
// break-even point (docs/model.md section 12). Internal to sim/app/commands.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "models/compile/compile_model.h"
#include "sim/app/commands/startup.h"

namespace trn::app {

/// Multiplies the named compile parameter by `factor` (through the resolved YAML of the
/// parameters); a plain number stays within its field's lower bound.
models::CompileParams scaled(const models::CompileParams& p, const std::string& key, double factor);

/// The compile parameters moved one standard deviation along each principal axis of the compile
/// fit (`fit.parameter_axes`), in order.
std::vector<models::CompileParams> along_axes(const FitSpread& fit, const models::CompileParams& params);

/// The steady steps of one mode's perturbed jobs (runtime_perturbations), by parameter name.
using PerturbedSteps = std::vector<std::pair<std::string, double>>;

/// Sets r's intervals from the compile fit's parameter axes, the perturbed steady steps and the
/// structural and distance terms of `model`.
void set_startup_intervals(StartupResult& r, const models::CompileParams& params, const IntervalModel& model,
                           const PerturbedSteps& eager, const PerturbedSteps& compiled);

}  // namespace trn::app
