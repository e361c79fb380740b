// `trnsim calibrate-runtime`: one joint calibration of the workload model's runtime
// parameters (MAP fit with priors, leave-one-out errors), and --check, which re-simulates
// every row at the shipped parameters. Options in, run_X, result out; the writers give the
// runtime file (workloads/calibration/runtime.yaml), the residuals JSON and the check's text.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace trn::app {

constexpr const char* kRuntimeObservations = "workloads/calibration/runtime_observations.yaml";

struct CalibrateRuntimeOptions {
  std::string observations = kRuntimeObservations;  // data and priors
  int jobs = 2;                                     // simulations at a time
};

/// One observation row at the fit (and left out of it, for table rows).
struct RuntimeRow {
  std::string id, scenario, source, fold;  // scenario relative to the source tree when inside it
  std::vector<std::string> sets;
  bool table = false, duplicate = false;
  double published = 0, simulated = 0, in_sample_error = 0;  // tokens/s
  bool has_loo = false;
  double loo_simulated = 0, loo_error = 0;
  std::vector<double> loo_parameters;  // the fold's refitted values, in parameter order
};

struct RuntimeParameter {
  std::string name, applies, provenance;
  double value = 0, prior = 0, prior_log_sigma = 0, fit_log_sigma = 0;
  std::string value_text;  // as written in the runtime file ("\"12.00 us\"" or "0.8123")
  std::string prior_text;  // the prior median with its unit
};

struct CalibrateRuntimeResult {
  int iterations = 0, simulations = 0;
  std::vector<RuntimeRow> rows;
  std::vector<RuntimeParameter> parameters;
  size_t summary_rows = 0;  // table rows that are not duplicate releases
  double in_sample_median = 0, in_sample_max = 0, loo_median = 0, loo_max = 0;
};

/// Fits (simulations in forked children, `jobs` at a time; progress lines on stderr).
CalibrateRuntimeResult run_calibrate_runtime(const CalibrateRuntimeOptions& o);
/// The runtime file, with the method and residuals as comments.
std::string calibrate_runtime_yaml(const CalibrateRuntimeResult& r);
/// The --residuals document (read by `make validate` and `trnsim report`).
nlohmann::json calibrate_runtime_json(const CalibrateRuntimeResult& r);

struct RuntimeCheckRow {
  std::string id;
  double simulated = 0, recorded = -1;  // recorded: -1 when the residuals file lacks the row
  bool ok = false;
};
struct RuntimeCheckResult {
  std::string residuals;  // the file compared with
  std::vector<RuntimeCheckRow> rows;
  int differing = 0;
};
/// Re-simulates every row at the shipped parameters and compares with the residuals file.
RuntimeCheckResult run_calibrate_runtime_check(const CalibrateRuntimeOptions& o, const std::string& residuals);
void write_runtime_check_text(const RuntimeCheckResult& r, FILE* out);
nlohmann::ordered_json runtime_check_json(const RuntimeCheckResult& r);

}  // namespace trn::app
