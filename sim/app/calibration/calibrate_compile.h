// `trnsim calibrate OBSERVATIONS.yaml`: fits the compile-latency parameters by
// Levenberg-Marquardt (Eigen) on log time with priors, using pass/fail observations (the
// FlexAttention suite) as smooth hinge bounds. Options in, run_calibrate_compile, result out;
// the writers give the parameter file (workloads/calibration/compile.yaml) and JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "models/compile/compile_model.h"

namespace trn::app {

struct CalibrateCompileOptions {
  std::string observations;  // the observations YAML
};

struct CompileResidual {
  std::string name;
  double measured_s = 0, model_s = 0;
};

struct CalibrateCompileResult {
  models::CompileParams params;                             // fitted (4 significant digits) and prior ones
  std::vector<CompileResidual> residuals;                   // on the observations, at `params`
  int flex_agree = 0, flex_fail = 0;                        // FlexAttention cases at `params`
  std::vector<std::pair<std::string, double>> uncertainty;  // fitted parameter, sigma of ln(value)
};

/// Reads the observations (every input checked before the first simulation), simulates the
/// steady steps the first-step observations need (forked children) and fits. Throws ConfigError.
CalibrateCompileResult run_calibrate_compile(const CalibrateCompileOptions& o);
/// The parameter file, with the method and residuals as comments.
std::string calibrate_compile_yaml(const CalibrateCompileResult& r);
nlohmann::ordered_json calibrate_compile_json(const CalibrateCompileResult& r);

}  // namespace trn::app
