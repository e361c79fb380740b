// What a report draws, read from `trnsim run --json` / `trnsim startup --json` results or a
// `trnsim sweep` SQLite database. Input that is none of these throws ConfigError (exit 2).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace trn::app::report {

using Parts = std::vector<std::pair<std::string, double>>;  // name, seconds (or bytes)
/// A predicted figure's 80 % interval (low, high); {0, 0} when the result has none.
using Interval = std::pair<double, double>;

struct RoofOp {
  std::string name, engine;
  double ops = 0, flops = 0, hbm_bytes = 0, busy_s = 0, intensity = 0, flop_rate = 0;
};

/// One `trnsim run` result.
struct RunPoint {
  std::string label, scenario, mode, system, chip;
  std::vector<std::string> varied;  // a sweep row's "key=value" items that differ between its points
  int chips = 0;                    // 0: unknown (a result from a trnsim without the `system` section)
  double step_time_s = 0, tokens_per_s = 0, mfu = 0;
  Interval step_interval, tokens_interval, mfu_interval;
  Parts breakdown;
  std::string verdict;
  bool has_roofline = false;
  std::string roof_scope;
  double peak_flop_rate = 0, hbm_bandwidth = 0;
  std::vector<RoofOp> roof;
};

struct FirstStep {
  Parts parts;  // in order
  double total_s = 0, steady_s = 0;
  Interval total_interval;
};

/// One `trnsim startup` result.
struct StartupPoint {
  std::string label, scenario;
  FirstStep eager, compiled;
  double tokens_per_step = 0;    // 0: unknown (then plots count steps)
  double break_even_steps = -1;  // -1: never
};

/// One row of a `trnsim calibrate-runtime --residuals` document: a published throughput and
/// the simulated one, fitted (in-sample) and left out of the fit (leave-one-out). The document's
/// optional `releases` (written by tools/validate.py) are the same jobs at other SDK releases:
/// `release` set, `of` the row whose job and simulation they share, no leave-one-out figure.
struct ValidationPoint {
  std::string id, group, source, of;
  double published = 0, simulated = 0;  // tokens per second
  double loo = -1;                      // -1: no leave-one-out figure (a seed row, fitted)
  bool duplicate = false, release = false;
};

struct Skipped {  // a sweep row without a result
  std::string label, status, reason;
};

struct ReportData {
  std::string source;  // what was read, for the page title
  std::vector<RunPoint> runs;
  std::vector<StartupPoint> startups;
  std::vector<Skipped> skipped;
  std::vector<ValidationPoint> validation;
  int rows = 0;                                             // sweep rows read (0 for a JSON file)
  std::vector<std::pair<std::string, std::string>> sweeps;  // name, settings shared by all its points
};

/// Reads a result JSON of `trnsim run`, `trnsim startup` or `trnsim calibrate-runtime --residuals`.
ReportData load_result_json(const std::string& path);
/// Reads every row of a `trnsim sweep` database (opened read-only).
ReportData load_sweep_db(const std::string& path);

}  // namespace trn::app::report
