// Log-normal intervals of predicted figures (intervals.h).
#include "sim/app/analysis/intervals.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "sim/base/config_loader.h"
#include "sim/base/config_reader.h"
#include "sim/base/paths.h"

namespace trn::app {
namespace {

std::string intervals_path() { return sim::data_root() + "/workloads/calibration/intervals.yaml"; }

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& x : v) out += (out.empty() ? "" : ", ") + x;
  return out.empty() ? "none" : out;
}

// The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9).
double normal_quantile(double p) {
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  const double lo = 0.02425;
  if (p < lo) {
    const double q = std::sqrt(-2 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - lo) return -normal_quantile(1 - p);
  const double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

}  // namespace

IntervalModel load_interval_model() {
  IntervalModel m;
  sim::read_config(sim::load_config_file(intervals_path()), m);
  return m;
}

std::string interval_inputs_text() {
  std::string out = file_text(intervals_path());
  char b[64];
  for (const auto& [name, sigma] : runtime_parameter_sigmas()) {
    std::snprintf(b, sizeof b, "%.17g", sigma);
    out += name + ": " + b + "\n";
  }
  return out;
}

nlohmann::json read_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw sim::ConfigError(sim::Location{path, 0, 0}, "", "cannot read the file");
  nlohmann::json js;
  try {
    in >> js;
  } catch (const nlohmann::json::exception& e) {
    throw sim::ConfigError(sim::Location{path, 0, 0}, "", std::string("not JSON: ") + e.what());
  }
  return js;
}

std::vector<std::pair<std::string, double>> runtime_parameter_sigmas() {
  const std::string path = sim::data_root() + "/workloads/calibration/runtime_residuals.json";
  const nlohmann::json js = read_json_file(path);
  std::vector<std::pair<std::string, double>> out;
  for (const auto& p : js.value("parameters", nlohmann::json::array())) {
    if (!p.contains("name") || !p.contains("fit_log_sigma") || !p["fit_log_sigma"].is_number())
      throw sim::ConfigError(sim::Location{path, 0, 0}, "parameters",
                             "expected each parameter to have a name and a fit_log_sigma");
    out.emplace_back(p["name"].get<std::string>(), p["fit_log_sigma"].get<double>());
  }
  return out;
}

std::vector<std::pair<std::string, workloads::ScenarioSpec>> runtime_perturbations(const workloads::ScenarioSpec& s) {
  std::vector<std::pair<std::string, workloads::ScenarioSpec>> out;
  const auto acting = workloads::RuntimeSpec::acting(s.mode, s.compile.frontend);
  for (const auto& [name, sigma] : runtime_parameter_sigmas()) {
    if (std::find(acting.begin(), acting.end(), name) == acting.end() || !(sigma > 0)) continue;
    workloads::ScenarioSpec moved = s;
    double* v = moved.runtime.calibrated(name);
    if (!v || !(*v > 0)) continue;
    *v *= std::exp(sigma);
    out.emplace_back(name, std::move(moved));
  }
  return out;
}

PredictionInterval steady_step_interval(const IntervalModel& model, const workloads::ScenarioSpec& s, double step_s,
                                        const std::vector<std::pair<std::string, double>>& moved_steps) {
  double var = 0;
  std::vector<std::pair<std::string, double>> by_param;
  for (const auto& [name, moved] : moved_steps) {
    by_param.emplace_back(name, std::log(moved / step_s));
    var += by_param.back().second * by_param.back().second;
  }
  const double st = model.runtime.structural_log_sigma;
  std::vector<std::string> why = uncovered(model.runtime, "runtime", s);
  PredictionInterval iv =
      log_normal_interval(step_s, model.level, std::sqrt(var), st, st * std::sqrt(double(why.size())));
  iv.by_param = std::move(by_param);
  iv.why = std::move(why);
  return iv;
}

double two_sided_z(double level) { return normal_quantile(0.5 + level / 2); }

PredictionInterval log_normal_interval(double value, double level, double parameters, double structural,
                                       double distance) {
  PredictionInterval iv;
  iv.valid = value > 0 && std::isfinite(value);
  iv.level = level;
  iv.parameters = parameters;
  iv.structural = structural;
  iv.distance = distance;
  iv.log_sigma = std::sqrt(parameters * parameters + structural * structural + distance * distance);
  const double w = two_sided_z(level) * iv.log_sigma;
  iv.low = value * std::exp(-w);
  iv.high = value * std::exp(w);
  return iv;
}

PredictionInterval reciprocal(const PredictionInterval& of_x, double k_over_x) {
  PredictionInterval iv = of_x;
  if (!of_x.valid) return iv;
  const double x = std::sqrt(of_x.low * of_x.high);  // the median of the log-normal
  const double k = k_over_x * x;
  iv.low = k / of_x.high;
  iv.high = k / of_x.low;
  for (auto& [name, d] : iv.by_param) d = -d;
  return iv;
}

PredictionInterval scaled(const PredictionInterval& of_x, double c) {
  PredictionInterval iv = of_x;
  iv.low *= c;
  iv.high *= c;
  return iv;
}

std::vector<std::string> uncovered(const FitSpread& fit, const char* fit_name, const std::string& chip,
                                   const std::string& frontend, const std::string& mode) {
  std::vector<std::string> why;
  auto check = [&](const char* axis, const std::string& value, const std::vector<std::string>& covered) {
    if (std::find(covered.begin(), covered.end(), value) == covered.end())
      why.push_back(std::string(axis) + " " + value + ": the " + fit_name + " fit has no observation with it (" +
                    joined(covered) + ")");
  };
  check("chip", chip, fit.covered.chips);
  check("frontend", frontend, fit.covered.frontends);
  check("mode", mode, fit.covered.modes);
  return why;
}

std::vector<std::string> uncovered_inference(const FitSpread& fit, const std::string& chip) {
  std::vector<std::string> why = uncovered(fit, "compile", chip, "xla", "compiled");
  const auto& ic = fit.covered.inference_chips;
  if (why.empty() && !ic.empty() && std::find(ic.begin(), ic.end(), chip) == ic.end())
    why.push_back("chip " + chip + ": the compile fit has no NxD Inference compile with it (" + joined(ic) + ")");
  return why;
}

std::vector<std::string> uncovered(const FitSpread& fit, const char* fit_name, const workloads::ScenarioSpec& s) {
  return uncovered(fit, fit_name, s.system.chip.name, sim::word_of(s.compile.frontend), sim::word_of(s.mode));
}

nlohmann::ordered_json interval_json(const PredictionInterval& iv) {
  nlohmann::ordered_json js;
  js["low"] = iv.low;
  js["high"] = iv.high;
  js["level"] = iv.level;
  js["log_sigma"] = iv.log_sigma;
  js["parts"] = {{"parameters", iv.parameters}, {"structural", iv.structural}, {"distance", iv.distance}};
  js["parameters"] = nlohmann::ordered_json::object();
  for (const auto& [name, d] : iv.by_param) js["parameters"][name] = d;
  js["why"] = iv.why;
  return js;
}

std::string interval_text(const PredictionInterval& iv, const char* fmt) {
  if (!iv.valid) return "";
  char lo[64], hi[64], out[200];
  std::snprintf(lo, sizeof lo, fmt, iv.low);
  std::snprintf(hi, sizeof hi, fmt, iv.high);
  std::snprintf(out, sizeof out, " (%.0f %%: %s-%s)", 100 * iv.level, lo, hi);
  return out;
}

}  // namespace trn::app
