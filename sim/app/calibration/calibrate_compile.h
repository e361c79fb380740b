// `trnsim calibrate OBSERVATIONS.yaml`: fits the compile-latency parameters by
// Levenberg-Marquardt (Eigen) on log time with log-normal priors, the FlexAttention suite as
// smooth hinge bounds, to every timed observation not held out (compile_observations.h); then
// refits once without each fitted observation to predict it (leave-one-out), predicts the
// held-out ones, and says which observations determine each parameter (its share of the fit's
// information; a parameter the data does not determine keeps its prior and is an assumption).
// Options in, run_calibrate_compile, result out; the writers give the parameter file
// (workloads/calibration/compile.yaml) and the residuals JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "models/compile/compile_model.h"
#include "sim/app/calibration/compile_observations.h"

namespace trn::app {

struct CalibrateCompileOptions {
  std::string observations;  // the observations YAML
  int jobs = 2;              // leave-one-out refits at a time (forked children)
};

struct ObservationFit {
  std::string name, kind, source;
  bool held_out = false;
  double measured_s = 0;
  double in_sample_s = 0;            // at the fitted parameters
  double loo_s = 0;                  // fitted without it (held out: the same as in_sample_s)
  double param_log_sigma = 0;        // sigma of ln(prediction) from the fitted parameters' (diagonal)
  std::string chip, frontend, mode;  // what it covers (empty: no such axis)
};

struct ParameterFit {
  std::string name;
  double log_sigma = 0;  // posterior standard deviation of ln(value)
  double prior_log_sigma = 0;
  double data_share = 0;                   // the observations' share of the fit's information on it
  std::vector<std::string> determined_by;  // observations carrying most of it, largest first
  bool assumption() const { return data_share < 0.5; }
};

struct CalibrateCompileResult {
  models::CompileParams params;  // fitted (4 significant digits) and prior ones
  std::vector<ObservationFit> observations;
  std::vector<CountObservation> counts;
  std::vector<TrafficObservation> traffic;  // token-generation HBM reads, checked (not fitted)
  int flex_agree = 0, flex_fail = 0;        // FlexAttention cases at `params`
  std::vector<ParameterFit> parameters;
  /// The principal axes of the fit's covariance of ln(fitted parameters): each a shift of
  /// every parameter of `fitted` (one standard deviation along the axis). A prediction's sigma
  /// of ln from the parameters is the root sum of squares of its change along each axis.
  std::vector<std::string> fitted;
  std::vector<std::vector<double>> axes;
};

/// |model / measured - 1| statistics of a set of errors.
struct ErrorSummary {
  int n = 0;
  double median = 0, p90 = 0, max = 0;
};
ErrorSummary summarise(std::vector<double> abs_errors);

/// In-sample, leave-one-out and held-out summaries of `r`.
ErrorSummary in_sample_errors(const CalibrateCompileResult& r);
ErrorSummary loo_errors(const CalibrateCompileResult& r);
ErrorSummary held_out_errors(const CalibrateCompileResult& r);
/// |model / measured - 1| of the token-generation HBM reads of the dense (`moe` false) or the MoE
/// rows.
ErrorSummary traffic_errors(const CalibrateCompileResult& r, bool moe);

/// Reads the observations (every input checked before the first simulation), simulates the
/// steady steps the first-step observations need (forked children) and fits. Throws ConfigError.
CalibrateCompileResult run_calibrate_compile(const CalibrateCompileOptions& o);
/// The parameter file, with the method, the residuals and the determination as comments.
std::string calibrate_compile_yaml(const CalibrateCompileResult& r);
/// The --residuals document: every observation's in-sample, leave-one-out and held-out figure.
nlohmann::ordered_json calibrate_compile_json(const CalibrateCompileResult& r);
/// The table `trnsim calibrate` prints: per observation, measured, in-sample and leave-one-out.
void write_calibrate_compile_text(const CalibrateCompileResult& r, FILE* out);

}  // namespace trn::app
