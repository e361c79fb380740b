// `trnsim calibrate-intervals`: the structural part of every interval (sim/app/analysis/intervals.h)
// from the two fits' leave-one-out residuals, what their observations cover, and how often a
// published figure falls inside its interval (leave-one-out and held out). Writes
// workloads/calibration/intervals.yaml; docs/model.md section 12.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "sim/app/analysis/intervals.h"

namespace trn::app {

struct CalibrateIntervalsOptions {
  std::string runtime_residuals;     // runtime_residuals.json (empty: the shipped one)
  std::string compile_observations;  // compile_observations.yaml (empty: the shipped one)
  double level = 0.8;
  int jobs = 2;  // the compile fit's leave-one-out refits at a time
};

/// One published figure against its interval.
struct CoveragePoint {
  std::string fit, set, name;           // "runtime" | "compile"; "leave-one-out" | "held out"
  double log_error = 0, log_sigma = 0;  // ln(predicted / published); the interval's sigma of ln
  bool inside = false;
};

struct CalibrateIntervalsResult {
  IntervalModel model;
  std::vector<CoveragePoint> points;
};

/// Conformal: the ceil((n + 1) level)-th smallest of `abs_log_errors` (the largest when that is
/// past the end), over z(level): the log-normal sigma whose interval holds `level` of them.
double conformal_log_sigma(std::vector<double> abs_log_errors, double level);

CalibrateIntervalsResult run_calibrate_intervals(const CalibrateIntervalsOptions& o);
/// intervals.yaml: the model, with its data, command and coverage as comments.
std::string calibrate_intervals_yaml(const CalibrateIntervalsResult& r);
void write_calibrate_intervals_text(const CalibrateIntervalsResult& r, FILE* out);

}  // namespace trn::app
