// calibrate-intervals (calibrate_intervals.h): structural sigmas, covered values, coverage.
#include "sim/app/calibration/calibrate_intervals.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>

#include "sim/app/calibration/calibrate_compile.h"
#include "sim/base/config_reader.h"
#include "sim/base/paths.h"

namespace trn::app {
namespace {

double round4(double x) {
  if (!(x > 0)) return x;
  const double e = std::pow(10.0, 3 - std::floor(std::log10(x)));
  return std::round(x * e) / e;
}

void add(std::set<std::string>& s, const std::string& v) {
  if (!v.empty()) s.insert(v);
}

std::vector<std::string> sorted(const std::set<std::string>& s) { return {s.begin(), s.end()}; }

// One leave-one-out residual set: each row against the sigma of the others (jackknife), with its
// own parameter term.
void leave_one_out_coverage(const char* fit, const std::vector<std::string>& names, const std::vector<double>& logs,
                            const std::vector<double>& param, double level, std::vector<CoveragePoint>& out) {
  const double z = two_sided_z(level);
  for (size_t i = 0; i < logs.size(); ++i) {
    std::vector<double> others;
    for (size_t k = 0; k < logs.size(); ++k)
      if (k != i) others.push_back(std::fabs(logs[k]));
    const double st = conformal_log_sigma(others, level);
    CoveragePoint p{fit, "leave-one-out", names[i], logs[i], std::sqrt(st * st + param[i] * param[i]), false};
    p.inside = std::fabs(p.log_error) <= z * p.log_sigma;
    out.push_back(p);
  }
}

struct RuntimeData {
  std::vector<std::string> names;
  std::vector<double> loo_logs;
  std::set<std::string> chips, frontends, modes;
};

RuntimeData runtime_data(const std::string& path) {
  const nlohmann::json js = read_json_file(path);
  RuntimeData d;
  for (const auto& row : js.at("rows")) {
    std::vector<std::string> sets = row.value("set", std::vector<std::string>{});
    std::string scenario = row.at("scenario").get<std::string>();
    if (scenario.find('/') != std::string::npos && scenario[0] != '/') scenario = sim::data_root() + "/" + scenario;
    const workloads::ScenarioSpec s = workloads::load_scenario(scenario, sets);
    add(d.chips, s.system.chip.name);
    add(d.frontends, sim::word_of(s.compile.frontend));
    add(d.modes, sim::word_of(s.mode));
    if (row.value("duplicate_release", false) || !row.contains("loo_error") || row["loo_error"].is_null()) continue;
    d.names.push_back(row.at("id").get<std::string>());
    d.loo_logs.push_back(std::log1p(row["loo_error"].get<double>()));
  }
  return d;
}

}  // namespace

double conformal_log_sigma(std::vector<double> abs_log_errors, double level) {
  if (abs_log_errors.empty()) return 0;
  std::sort(abs_log_errors.begin(), abs_log_errors.end());
  const size_t n = abs_log_errors.size();
  const size_t k = static_cast<size_t>(std::ceil((n + 1) * level - 1e-9));
  return abs_log_errors[std::min(n, std::max<size_t>(k, 1)) - 1] / two_sided_z(level);
}

CalibrateIntervalsResult run_calibrate_intervals(const CalibrateIntervalsOptions& o) {
  CalibrateIntervalsResult r;
  IntervalModel& m = r.model;
  m.level = o.level;
  const std::string root = sim::data_root() + "/workloads/calibration/";
  // Runtime: the table rows' leave-one-out residuals (duplicate releases share a simulation).
  const RuntimeData rt =
      runtime_data(o.runtime_residuals.empty() ? root + "runtime_residuals.json" : o.runtime_residuals);
  std::vector<double> abs_rt;
  for (double x : rt.loo_logs) abs_rt.push_back(std::fabs(x));
  m.runtime.structural_log_sigma = round4(conformal_log_sigma(abs_rt, o.level));
  m.runtime.rows = static_cast<int>(abs_rt.size());
  m.runtime.covered = {sorted(rt.chips), sorted(rt.frontends), sorted(rt.modes), {}};
  leave_one_out_coverage("runtime", rt.names, rt.loo_logs, std::vector<double>(rt.names.size(), 0.0), o.level,
                         r.points);
  // Compile: every fitted timed observation's leave-one-out residual; held-out rows apart.
  CalibrateCompileOptions co;
  co.observations = o.compile_observations.empty() ? root + "compile_observations.yaml" : o.compile_observations;
  co.jobs = o.jobs;
  const CalibrateCompileResult cf = run_calibrate_compile(co);
  std::vector<std::string> names;
  std::vector<double> logs, param, abs_c;
  std::set<std::string> chips, frontends, modes, inference_chips;
  for (const auto& ob : cf.observations) {
    add(chips, ob.chip);
    if (ob.kind == "inference_compile") add(inference_chips, ob.chip);
    add(frontends, ob.frontend);
    add(modes, ob.mode);
    if (ob.held_out) continue;
    names.push_back(ob.name);
    logs.push_back(std::log(ob.loo_s / ob.measured_s));
    abs_c.push_back(std::fabs(logs.back()));
    param.push_back(ob.param_log_sigma);
  }
  m.compile.structural_log_sigma = round4(conformal_log_sigma(abs_c, o.level));
  m.compile.rows = static_cast<int>(abs_c.size());
  m.compile.covered = {sorted(chips), sorted(frontends), sorted(modes), sorted(inference_chips)};
  m.compile.parameters = cf.fitted;
  for (const auto& a : cf.axes) m.compile.parameter_axes.push_back({a});
  leave_one_out_coverage("compile", names, logs, param, o.level, r.points);
  const double z = two_sided_z(o.level), st = m.compile.structural_log_sigma;
  for (const auto& ob : cf.observations) {
    if (!ob.held_out) continue;
    CoveragePoint p{"compile",
                    "held out",
                    ob.name,
                    std::log(ob.in_sample_s / ob.measured_s),
                    std::sqrt(st * st + ob.param_log_sigma * ob.param_log_sigma),
                    false};
    p.inside = std::fabs(p.log_error) <= z * p.log_sigma;
    r.points.push_back(p);
  }
  for (const char* fit : {"runtime", "compile"})
    for (const char* set : {"leave-one-out", "held out"}) {
      CoverageRow row{std::string(fit) + " " + set, 0, 0};
      for (const auto& p : r.points)
        if (p.fit == fit && p.set == set) {
          ++row.rows;
          row.inside += p.inside;
        }
      if (row.rows > 0) m.coverage.push_back(row);
    }
  return r;
}

std::string calibrate_intervals_yaml(const CalibrateIntervalsResult& r) {
  std::string y =
      "# The structural part of trnsim's intervals (docs/model.md section 12). GENERATED by\n"
      "#   build/trnsim calibrate-intervals --out workloads/calibration/intervals.yaml\n"
      "# from workloads/calibration/runtime_residuals.json (trnsim calibrate-runtime) and\n"
      "# workloads/calibration/compile_observations.yaml (the compile fit, refitted here with its\n"
      "# leave-one-out); do not edit (test/cli/intervals_current.sh regenerates it).\n"
      "#\n"
      "# structural_log_sigma: the conformal quantile of the fit's leave-one-out |ln(predicted /\n"
      "# published)| (the ceil((n + 1) level)-th smallest) over z(level). An interval adds, in\n"
      "# quadrature, the fitted parameters' term (the figure at each parameter moved by its fit\n"
      "# sigma), this, and this again for every axis (chip, frontend, mode) the fit does not cover.\n"
      "#\n"
      "# Coverage: published figures inside their interval. Leave-one-out: each row against the\n"
      "# structural sigma of the others (and, for the compile fit, its parameter term); held out:\n"
      "# rows no fit has seen.\n";
  char line[256];
  for (const auto& c : r.model.coverage) {
    std::snprintf(line, sizeof line, "#   %-24s %2d of %2d inside (%.0f %%)\n", c.name.c_str(), c.inside, c.rows,
                  100.0 * c.inside / std::max(1, c.rows));
    y += line;
  }
  y += "# Each figure: ln(predicted / published), the interval's sigma of ln, inside or not.\n";
  for (const auto& p : r.points) {
    std::snprintf(line, sizeof line, "#   %-8s %-14s %-44s %+7.3f %6.3f  %s\n", p.fit.c_str(), p.set.c_str(),
                  p.name.c_str(), p.log_error, p.log_sigma, p.inside ? "inside" : "OUTSIDE");
    y += line;
  }
  return y + sim::to_yaml(sim::write_config(r.model));
}

void write_calibrate_intervals_text(const CalibrateIntervalsResult& r, FILE* out) {
  std::fprintf(out, "structural sigma of ln: runtime %.4f (%d rows), compile %.4f (%d rows)\n",
               r.model.runtime.structural_log_sigma, r.model.runtime.rows, r.model.compile.structural_log_sigma,
               r.model.compile.rows);
  for (const auto& c : r.model.coverage)
    std::fprintf(out, "coverage of the %.0f %% intervals, %s: %d of %d (%.0f %%)\n", 100 * r.model.level,
                 c.name.c_str(), c.inside, c.rows, 100.0 * c.inside / std::max(1, c.rows));
}

}  // namespace trn::app
