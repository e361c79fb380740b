// `trnsim calibrate OBSERVATIONS.yaml` (see calibrate_compile.h).
#include "sim/app/calibration/calibrate_compile.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "models/fit/map_fit.h"
#include "sim/app/simulation/fork_eval.h"

namespace trn::app {
namespace {

double softplus(double x) { return x > 30 ? x : std::log1p(std::exp(x)); }

double round_sig(double x, int digits) {
  if (x == 0) return 0;
  double m = std::pow(10.0, digits - 1 - std::floor(std::log10(std::fabs(x))));
  return std::round(x * m) / m;
}

// The compile parameters at ln values `th` of the fitted ones.
models::CompileParams params_at(const ObservationSet& set, const Eigen::VectorXd& th) {
  models::CompileParams p = set.prior;
  ParamRefs r;
  p.visit(r);
  for (size_t i = 0; i < set.fitted.size(); ++i)
    for (auto& [k, ptr] : r.refs)
      if (k == set.fitted[i]) *ptr = std::exp(th[static_cast<Eigen::Index>(i)]);
  return p;
}

// The fit's model (models/fit/map_fit.h): a row per timed observation (ln model / measured over
// its log sigma), then a row per FlexAttention case (a smooth hinge on the wrong side of the
// budget), all in closed form.
models::MapModel map_model(const ObservationSet& set) {
  models::MapModel m;
  models::CompileParams prior = set.prior;
  ParamRefs refs;
  prior.visit(refs);
  for (size_t i = 0; i < set.fitted.size(); ++i)
    for (auto& [k, ptr] : refs.refs)
      if (k == set.fitted[i]) m.params.push_back({k, std::log(*ptr), set.prior_log_sigma[i]});
  m.rows = static_cast<int>(set.timed.size() + set.flex.cases.size());
  for (const auto& o : set.timed) m.row_names.push_back(o.name);
  for (size_t c = 0; c < set.flex.cases.size(); ++c) m.row_names.push_back("FlexAttention suite (P3)");
  m.residuals = [&set](const std::vector<Eigen::VectorXd>& thetas) {
    std::vector<Eigen::VectorXd> out;
    for (const auto& th : thetas) {
      const models::CompileParams p = params_at(set, th);
      Eigen::VectorXd r(static_cast<Eigen::Index>(set.timed.size() + set.flex.cases.size()));
      Eigen::Index k = 0;
      for (const auto& o : set.timed)
        r[k++] = (std::log(std::max(1e-9, o.predict(p))) - std::log(o.value_s)) / o.log_sigma;
      const double lb = std::log(set.flex.budget_s);
      for (const auto& c : set.flex.cases) {
        const double lc = std::log(std::max(1e-9, models::compile_seconds(p, workloads::flex_job(c))));
        const double x = workloads::flex_published_fail(c) ? (lb - lc) : (lc - lb);  // > 0: on the wrong side
        r[k++] = softplus(x / set.flex.softness) * set.flex.softness / 0.05;
      }
      out.push_back(r);
    }
    return out;
  };
  return m;
}

// The rows a fit uses: the timed observations of `use_timed`, and every FlexAttention case.
std::vector<char> rows_of(const ObservationSet& set, const std::vector<char>& use_timed) {
  std::vector<char> use = use_timed;
  use.resize(set.timed.size() + set.flex.cases.size(), 1);
  return use;
}

models::MapOptions map_options() {
  models::MapOptions o;
  o.max_iterations = 400;
  o.min_step = 1e-8;
  return o;
}

// Rounds a fitted parameter to 4 significant digits: a quantity to the value its 4-digit text
// reads back as (so that the parameter file shows that text), a number directly.
struct RoundFitted {
  const std::vector<std::string>& names;
  bool fitted(const char* k) const { return std::find(names.begin(), names.end(), k) != names.end(); }
  template <sim::Dim D>
  void field(const char* k, sim::Quantity<D>& q, const sim::FieldSpec&) {
    if (!fitted(k)) return;
    if (const auto back = sim::parse_quantity(sim::format_quantity(q.v, D, 4), D, nullptr)) q.v = *back;
  }
  void field(const char* k, double& x, const sim::FieldSpec&) {
    if (fitted(k)) x = round_sig(x, 4);
  }
};

models::CompileParams rounded(const ObservationSet& set, const models::CompileParams& in) {
  models::CompileParams p = in;
  RoundFitted r{set.fitted};
  p.visit(r);
  return p;
}

std::string fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

}  // namespace

ErrorSummary summarise(std::vector<double> e) {
  ErrorSummary s;
  s.n = static_cast<int>(e.size());
  if (e.empty()) return s;
  std::sort(e.begin(), e.end());
  auto quantile = [&](double q) {  // linear interpolation between order statistics
    const double at = q * (e.size() - 1);
    const size_t lo = static_cast<size_t>(std::floor(at)), hi = std::min(e.size() - 1, lo + 1);
    return e[lo] + (e[hi] - e[lo]) * (at - lo);
  };
  s.median = quantile(0.5);
  s.p90 = quantile(0.9);
  s.max = e.back();
  return s;
}

namespace {
ErrorSummary errors_of(const CalibrateCompileResult& r, bool held, bool loo) {
  std::vector<double> e;
  for (const auto& o : r.observations)
    if (o.held_out == held) e.push_back(std::fabs((loo ? o.loo_s : o.in_sample_s) / o.measured_s - 1));
  return summarise(e);
}
}  // namespace

ErrorSummary in_sample_errors(const CalibrateCompileResult& r) { return errors_of(r, false, false); }
ErrorSummary loo_errors(const CalibrateCompileResult& r) { return errors_of(r, false, true); }
ErrorSummary held_out_errors(const CalibrateCompileResult& r) { return errors_of(r, true, false); }

ErrorSummary traffic_errors(const CalibrateCompileResult& r, bool moe) {
  std::vector<double> e;
  for (const auto& t : r.traffic)
    if (t.moe == moe) e.push_back(std::abs(t.modelled_bytes / t.measured_bytes - 1));
  return summarise(e);
}

// The principal axes of a covariance, each scaled to one standard deviation along it, largest
// first, signed so that the largest component is positive (the same file on every machine).
std::vector<std::vector<double>> principal_axes(const Eigen::MatrixXd& cov) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(cov);
  std::vector<std::vector<double>> axes;
  for (Eigen::Index k = cov.rows() - 1; k >= 0; --k) {
    const double lambda = std::max(0.0, es.eigenvalues()[k]);
    Eigen::VectorXd v = es.eigenvectors().col(k) * std::sqrt(lambda);
    Eigen::Index big = 0;
    v.cwiseAbs().maxCoeff(&big);
    if (v[big] < 0) v = -v;
    std::vector<double> a(static_cast<size_t>(v.size()));
    for (Eigen::Index j = 0; j < v.size(); ++j) a[static_cast<size_t>(j)] = round_sig(v[j], 4);
    axes.push_back(a);
  }
  return axes;
}

CalibrateCompileResult run_calibrate_compile(const CalibrateCompileOptions& opt) {
  const ObservationSet set = load_observation_set(opt.observations);
  const models::MapModel m = map_model(set);
  std::vector<char> use(set.timed.size());
  for (size_t i = 0; i < use.size(); ++i) use[i] = !set.timed[i].held_out;
  const models::MapFit fit = models::map_fit(m, models::prior_point(m), map_options(), rows_of(set, use));
  CalibrateCompileResult r;
  r.params = rounded(set, params_at(set, fit.theta));
  r.counts = set.counts;
  r.traffic = set.traffic;
  for (const auto& d : models::determination(m, fit, [&m](size_t row) { return m.row_names[row]; })) {
    ParameterFit f;
    f.name = d.name;
    f.log_sigma = round_sig(d.log_sigma, 3);
    f.prior_log_sigma = d.prior_log_sigma;
    f.data_share = d.data_share;
    f.determined_by = d.determined_by;
    r.parameters.push_back(f);
  }
  r.fitted = set.fitted;
  r.axes = principal_axes(fit.covariance);
  for (const auto& c : workloads::run_flex_suite(r.params, set.flex.budget_s, 1.0)) {
    r.flex_agree += (c.pass != workloads::flex_published_fail(c.c));
    r.flex_fail += !c.pass;
  }
  // Leave-one-out: refit without each fitted observation (forked children, as many at a time
  // as --jobs), predict it at the rounded refit.
  std::vector<std::function<double()>> bodies;
  std::vector<size_t> which;
  for (size_t i = 0; i < set.timed.size(); ++i) {
    if (!use[i]) continue;
    which.push_back(i);
    bodies.push_back([&set, &m, use, &fit, i]() {
      std::vector<char> without = use;
      without[i] = 0;
      const models::MapFit fi = models::map_fit(m, fit.theta, map_options(), rows_of(set, without));
      return set.timed[i].predict(rounded(set, params_at(set, fi.theta)));
    });
  }
  const std::vector<double> loo = run_in_children(bodies, "leave-one-out refit", std::max(1, opt.jobs));
  std::map<size_t, double> loo_of;
  for (size_t k = 0; k < which.size(); ++k) loo_of[which[k]] = loo[k];
  for (size_t i = 0; i < set.timed.size(); ++i) {
    const TimedObservation& o = set.timed[i];
    ObservationFit f;
    f.name = o.name;
    f.kind = sim::word_of(o.kind);
    f.source = o.source;
    f.held_out = o.held_out;
    f.measured_s = o.value_s;
    f.in_sample_s = o.predict(r.params);
    f.loo_s = o.held_out ? f.in_sample_s : loo_of[i];
    double var = 0;
    for (const auto& axis : r.axes) {
      Eigen::VectorXd th = fit.theta;
      for (size_t k = 0; k < axis.size(); ++k) th[static_cast<Eigen::Index>(k)] += axis[k];
      const double d = std::log(o.predict(rounded(set, params_at(set, th))) / f.in_sample_s);
      var += d * d;
    }
    f.param_log_sigma = std::sqrt(var);
    f.chip = o.chip;
    f.frontend = o.frontend;
    f.mode = o.mode;
    r.observations.push_back(f);
  }
  return r;
}

namespace {

std::string pct(double model, double measured) { return fmt("%+.1f%%", (model / measured - 1) * 100); }

std::string summary_line(const char* what, const ErrorSummary& e) {
  char line[200];
  std::snprintf(line, sizeof line, "%s: %d observations, median %.1f %%, 90th percentile %.1f %%, maximum %.1f %%",
                what, e.n, 100 * e.median, 100 * e.p90, 100 * e.max);
  return line;
}

}  // namespace

std::string calibrate_compile_yaml(const CalibrateCompileResult& r) {
  std::ostringstream y;
  char line[400];
  y << "# Compile-latency parameters (models/compile/compile_model.h). GENERATED by\n"
       "#   build/trnsim calibrate workloads/calibration/compile_observations.yaml --out "
       "workloads/calibration/compile.yaml\n"
       "# do not edit by hand (a test checks this file equals the command's output).\n"
       "# Method: Levenberg-Marquardt on log time with log-normal priors (compile_observations.yaml);\n"
       "# the FlexAttention suite enters as 96 smooth hinge bounds against its budget. Leave-one-out:\n"
       "# each fitted observation predicted by a refit without it; held-out ones are never fitted.\n"
       "# Observations (model / measured - 1): in sample, leave-one-out (held out: one prediction).\n";
  for (const auto& o : r.observations) {
    std::snprintf(line, sizeof line, "#   %-46s %9.1f s  in %9.1f s %7s  %s %7s\n", o.name.c_str(), o.measured_s,
                  o.in_sample_s, pct(o.in_sample_s, o.measured_s).c_str(), o.held_out ? "HELD OUT" : "     loo",
                  pct(o.loo_s, o.measured_s).c_str());
    y << line;
  }
  y << "# " << summary_line("in sample", in_sample_errors(r)) << "\n";
  y << "# " << summary_line("leave-one-out", loo_errors(r)) << "\n";
  y << "# " << summary_line("held out", held_out_errors(r)) << "\n";
  for (const auto& c : r.counts) {
    std::snprintf(line, sizeof line, "#   graphs: %-46s published %3d  model %3d  %+.1f%%\n", c.name.c_str(),
                  c.published, c.modelled, (double(c.modelled) / c.published - 1) * 100);
    y << line;
  }
  y << "# Token-generation HBM read per step (neuron-profile of the NEFF; checked, not fitted): the\n"
       "# graph's weights, KV cache and embedding rows against the measured bytes.\n";
  for (const auto& t : r.traffic) {
    std::snprintf(line, sizeof line, "#   traffic: %-46s measured %6.2f GB  model %6.2f GB  %s%s\n", t.name.c_str(),
                  t.measured_bytes / 1e9, t.modelled_bytes / 1e9, pct(t.modelled_bytes, t.measured_bytes).c_str(),
                  t.moe ? "  MoE: every expert" : "");
    y << line;
  }
  y << "# " << summary_line("traffic, dense", traffic_errors(r, false)) << "\n";
  std::snprintf(line, sizeof line,
                "#   FlexAttention suite: %d of 96 cases agree with the published outcome; %d fail (published: 7)\n",
                r.flex_agree, r.flex_fail);
  y << line;
  y << "# What determines each fitted parameter (the observations' share of its information; under\n"
       "# 50 % it rests on its prior and is an assumption):\n";
  for (const auto& p : r.parameters) {
    std::string by;
    for (const auto& n : p.determined_by) by += (by.empty() ? "" : "; ") + n;
    std::snprintf(line, sizeof line, "#   %-14s data %3.0f %%%s%s\n", p.name.c_str(), 100 * p.data_share,
                  p.assumption() ? "  ASSUMPTION (prior)" : "", by.empty() ? "" : ("  " + by).c_str());
    y << line;
  }
  y << "# Fitted parameters: ln(value) with the fit's standard deviation; the others keep their prior.\n";
  y << "compile_params:\n" << sim::to_yaml(sim::write_config(r.params), 2);
  y << "uncertainty:   # standard deviation of ln(parameter): fit covariance for fitted ones\n";
  for (const auto& p : r.parameters) {
    std::snprintf(line, sizeof line, "  %s: %.3f\n", p.name.c_str(), p.log_sigma);
    y << line;
  }
  return y.str();
}

nlohmann::ordered_json calibrate_compile_json(const CalibrateCompileResult& r) {
  nlohmann::ordered_json js;
  js["observations"] = nlohmann::ordered_json::array();
  for (const auto& o : r.observations)
    js["observations"].push_back({{"name", o.name},
                                  {"kind", o.kind},
                                  {"held_out", o.held_out},
                                  {"measured_s", o.measured_s},
                                  {"in_sample_s", o.in_sample_s},
                                  {"loo_s", o.loo_s},
                                  {"param_log_sigma", o.param_log_sigma},
                                  {"source", o.source}});
  auto summary = [](const ErrorSummary& e) {
    return nlohmann::ordered_json{{"n", e.n}, {"median", e.median}, {"p90", e.p90}, {"max", e.max}};
  };
  js["summary"] = {{"in_sample", summary(in_sample_errors(r))},
                   {"leave_one_out", summary(loo_errors(r))},
                   {"held_out", summary(held_out_errors(r))}};
  js["graph_counts"] = nlohmann::ordered_json::array();
  for (const auto& c : r.counts)
    js["graph_counts"].push_back(
        {{"name", c.name}, {"published", c.published}, {"modelled", c.modelled}, {"source", c.source}});
  js["tkg_traffic"] = nlohmann::ordered_json::array();
  for (const auto& t : r.traffic)
    js["tkg_traffic"].push_back({{"name", t.name},
                                 {"measured_bytes", t.measured_bytes},
                                 {"modelled_bytes", t.modelled_bytes},
                                 {"moe", t.moe},
                                 {"source", t.source}});
  js["tkg_traffic_summary"] = {{"dense", summary(traffic_errors(r, false))}, {"moe", summary(traffic_errors(r, true))}};
  js["flexattention"] = {{"agree", r.flex_agree}, {"fail", r.flex_fail}};
  js["parameters"] = nlohmann::ordered_json::array();
  for (const auto& p : r.parameters)
    js["parameters"].push_back({{"name", p.name},
                                {"log_sigma", p.log_sigma},
                                {"prior_log_sigma", p.prior_log_sigma},
                                {"data_share", p.data_share},
                                {"assumption", p.assumption()},
                                {"determined_by", p.determined_by}});
  return js;
}

void write_calibrate_compile_text(const CalibrateCompileResult& r, FILE* out) {
  std::fprintf(out, "%-46s %10s %10s %8s %10s %8s\n", "observation", "measured", "in sample", "", "loo", "");
  for (const auto& o : r.observations)
    std::fprintf(out, "%-46s %9.1fs %9.1fs %8s %9.1fs %8s%s\n", o.name.c_str(), o.measured_s, o.in_sample_s,
                 pct(o.in_sample_s, o.measured_s).c_str(), o.loo_s, pct(o.loo_s, o.measured_s).c_str(),
                 o.held_out ? "  held out" : "");
  std::fprintf(out, "%s\n%s\n%s\n", summary_line("in sample", in_sample_errors(r)).c_str(),
               summary_line("leave-one-out", loo_errors(r)).c_str(),
               summary_line("held out", held_out_errors(r)).c_str());
  for (const auto& c : r.counts)
    std::fprintf(out, "graphs %-46s published %d, model %d (%+.1f%%)\n", c.name.c_str(), c.published, c.modelled,
                 (double(c.modelled) / c.published - 1) * 100);
  for (const auto& t : r.traffic)
    std::fprintf(out, "traffic %-46s measured %.2f GB, model %.2f GB (%s)%s\n", t.name.c_str(), t.measured_bytes / 1e9,
                 t.modelled_bytes / 1e9, pct(t.modelled_bytes, t.measured_bytes).c_str(),
                 t.moe ? ", MoE: every expert" : "");
  std::fprintf(out, "%s\n", summary_line("traffic, dense", traffic_errors(r, false)).c_str());
  std::fprintf(out, "FlexAttention: %d of 96 agree with the published outcome, %d fail (published 7)\n", r.flex_agree,
               r.flex_fail);
}

}  // namespace trn::app
