// `trnsim calibrate-runtime`: one joint calibration of the workload model's runtime parameters
// (issue 11). Reads workloads/calibration/runtime_observations.yaml: the seed observations
// (Qwen3-32B on 16 Trainium2 chips), the published trn1 tables, and for each fitted parameter a
// log-normal prior and the runs it applies to. Finds the MAP estimate by Levenberg-Marquardt on
//   r = [ ln(simulated / published) / log_sigma  for every row ;  (ln p - ln prior) / prior_sigma ]
// with a forward-difference Jacobian in ln(parameter) (each simulation in a forked child, two at a
// time), then reports for every table row the in-sample error and the leave-one-out error: the
// row (with any duplicate release of the same configuration) is dropped, the fit is redone on the
// linearised problem around the full fit (one Gauss-Newton solve on the remaining rows and the
// priors), and the held-out row is simulated at those parameters.
//
// Writes the runtime file (--out), a JSON document of the rows and errors (--residuals, read by
// `make validate` and `trnsim report`), and with --check re-simulates every row at the shipped
// parameters and compares with the residuals file (a test runs it).
#include "sim/app/calibration/calibrate_runtime.h"

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "models/fit/map_fit.h"
#include "sim/app/simulation/fork_eval.h"
#include "sim/app/simulation/step_simulation.h"
#include "sim/base/config_loader.h"
#include "sim/base/paths.h"
#include "sim/base/units.h"

namespace trn::app {
namespace {

using sim::F;

/// The runtime parameters a calibration fits, named by their keys under `runtime.` (the words
/// are read by the observation file's loader and printed in every output).
enum class RuntimeParam { KernelEfficiency, XlaKernelEfficiency, EagerDispatch, LazyTrace, LazyTraceTensor };
const std::vector<std::string>& enum_words(RuntimeParam) {
  static const std::vector<std::string> w{"kernel_efficiency", "xla_kernel_efficiency", "eager_dispatch", "lazy_trace",
                                          "lazy_trace_tensor"};
  return w;
}

/// A time (its prior and value carry a unit) rather than an efficiency in (0, 1].
bool is_time(RuntimeParam p) {
  return p == RuntimeParam::EagerDispatch || p == RuntimeParam::LazyTrace || p == RuntimeParam::LazyTraceTensor;
}

struct RuntimeObservation {
  std::string name, scenario, source;
  std::vector<std::string> set;
  double tokens_per_s = 0, log_sigma = 0.1;
  template <class V>
  void visit(V& v) {
    v.field("name", name, F("label"));
    v.field("scenario", scenario, F("scenario name or path"));
    v.field("set", set, F("--set assignments applied to the scenario").optional());
    v.field("tokens_per_s", tokens_per_s, F("measured throughput, tokens per second").gt(0));
    v.field("log_sigma", log_sigma, F("uncertainty of ln(value)").gt(0));
    v.field("source", source, F("where the figure comes from"));
  }
};

struct TableRef {
  std::string file;
  double log_sigma = 0.1;
  template <class V>
  void visit(V& v) {
    v.field("file", file, F("table of published rows (path from the repository root)"));
    v.field("log_sigma", log_sigma, F("uncertainty of ln(value) of every row").gt(0));
  }
};

struct Parameter {
  RuntimeParam name = RuntimeParam::KernelEfficiency;
  std::string prior, applies, provenance;
  double log_sigma = 1;
  template <class V>
  void visit(V& v) {
    v.field("name", name, F("runtime parameter"));
    v.field("prior", prior, F("prior median: a number, or a time with a unit"));
    v.field("log_sigma", log_sigma, F("sigma of ln(value) of the prior").gt(0));
    v.field("applies", applies, F("the runs the parameter acts on"));
    v.field("provenance", provenance, F("what the parameter is and where its prior comes from"));
  }
};

struct RuntimeObservationFile {
  std::vector<RuntimeObservation> observations;
  std::vector<TableRef> tables;
  std::vector<Parameter> parameters;
  template <class V>
  void visit(V& v) {
    v.list("observations", observations, F("measured throughputs"));
    v.list("tables", tables, F("tables of published rows"));
    v.list("parameters", parameters, F("fitted parameters with priors"));
  }
};

// One row of workloads/validation/trn1-training.yaml (fields documented there).
struct TableRow {
  std::string id, scenario, framework, metric, source, sdk, sdk_commit, sdk_date, duplicate_of, kind;
  double value = 0, tokens_per_s = 0, step_time_s = 0;
  bool duplicate_release = false;
  template <class V>
  void visit(V& v) {
    v.field("id", id, F("row id"));
    v.field("scenario", scenario, F("scenario file"));
    v.field("framework", framework, F("framework"));
    v.field("metric", metric, F("metric").one_of({"seq_per_s"}));
    v.field("value", value, F("published figure").gt(0));
    v.field("tokens_per_s", tokens_per_s, F("published tokens per second").gt(0));
    v.field("source", source, F("source"));
    v.field("sdk", sdk, F("SDK release (empty: not stated)"));
    v.field("sdk_commit", sdk_commit, F("documentation commit").optional());
    v.field("sdk_date", sdk_date, F("documentation date").optional());
    v.field("duplicate_release", duplicate_release, F("same configuration in another release"));
    v.field("duplicate_of", duplicate_of, F("the row it repeats").optional());
    v.field("kind", kind, F("table_row | example_log").one_of({"table_row", "example_log"}));
    v.field("step_time_s", step_time_s, F("published step time of an example log, seconds").gt(0).optional());
  }
};

struct Table {
  std::string system;
  std::vector<TableRow> rows;
  template <class V>
  void visit(V& v) {
    v.field("system", system, F("instance type"));
    v.list("rows", rows, F("published rows"));
  }
};

struct Row {
  std::string id, scenario, fold, source;
  std::vector<std::string> sets;
  double measured = 0, log_sigma = 0.1;
  bool table = false, duplicate = false;
  size_t sim = 0;  // index of the row whose simulation this one shares (duplicate releases)
  bool eager = false, xla = false;
};

struct Param {
  RuntimeParam param = RuntimeParam::KernelEfficiency;
  std::string applies, provenance;
  bool time = false;
  double theta0 = 0, sigma0 = 1;  // ln(prior median), sigma of ln
  const std::string& name() const { return sim::word_of(param); }
  bool acts_on(const Row& r) const {
    using workloads::ExecMode;
    using workloads::Frontend;
    const auto acting = workloads::RuntimeSpec::acting(r.eager ? ExecMode::Eager : ExecMode::Compiled,
                                                       r.xla ? Frontend::Xla : Frontend::TorchNeuron);
    return std::find(acting.begin(), acting.end(), name()) != acting.end();
  }
  // The value as written in the runtime file (rounded), and as a --set assignment.
  double rounded(double value) const { return time ? std::round(value * 1e8) / 1e8 : std::round(value * 1e4) / 1e4; }
  std::string text(double value) const {
    char b[64];
    if (time)
      std::snprintf(b, sizeof b, "%.2f us", rounded(value) * 1e6);
    else
      std::snprintf(b, sizeof b, "%.4f", rounded(value));
    return b;
  }
};

// A forked child's work: simulate the scenario with the assignments, send back tokens/s.
std::function<double()> throughput_body(const std::string& scenario, const std::vector<std::string>& sets) {
  return [scenario, sets]() { return simulate(workloads::load_scenario(scenario, sets), StepOptions{}).tokens_per_s; };
}

struct Problem {
  std::vector<Row> rows;
  std::vector<Param> params;
  int jobs = 2;
  std::map<std::string, double> cache;  // (row, parameter text) -> simulated tokens/s
  int simulations = 0;
  workloads::RuntimeSpec shipped;  // the runtime parameters the scenarios load today

  std::vector<double> values(const Eigen::VectorXd& th) const {
    std::vector<double> v;
    for (size_t j = 0; j < params.size(); ++j)
      v.push_back(params[j].rounded(std::exp(th[static_cast<Eigen::Index>(j)])));
    return v;
  }
  Eigen::VectorXd round(const Eigen::VectorXd& th) const {
    Eigen::VectorXd out = th;
    auto v = values(th);
    for (size_t j = 0; j < v.size(); ++j) out[static_cast<Eigen::Index>(j)] = std::log(v[j]);
    return out;
  }
  std::vector<std::string> sets(const Row& r, const std::vector<double>& v) const {
    std::vector<std::string> s = r.sets;
    for (size_t j = 0; j < params.size(); ++j)
      if (params[j].acts_on(r)) s.push_back("runtime." + params[j].name() + "=" + params[j].text(v[j]));
    return s;
  }
  std::string key(const Row& r, const std::vector<double>& v) const {
    std::string k = rows[r.sim].id;
    for (const auto& s : sets(rows[r.sim], v)) k += "|" + s;
    return k;
  }

  // Simulated tokens/s of each (row index, parameter values) request, simulating what the cache
  // does not hold, `jobs` children at a time.
  std::vector<double> simulate_rows(const std::vector<std::pair<size_t, std::vector<double>>>& req) {
    std::vector<std::string> keys, order;  // order: uncached keys, first occurrence first
    std::vector<std::function<double()>> bodies;
    for (const auto& [i, v] : req) {
      const Row& r = rows[rows[i].sim];
      std::string k = key(r, v);
      keys.push_back(k);
      if (cache.count(k) || std::find(order.begin(), order.end(), k) != order.end()) continue;
      order.push_back(k);
      bodies.push_back(throughput_body(r.scenario, sets(r, v)));
    }
    auto out = run_in_children(bodies, "runtime calibration step", jobs);
    simulations += static_cast<int>(out.size());
    for (size_t i = 0; i < out.size(); ++i) cache[order[i]] = out[i];
    std::vector<double> res;
    for (const auto& k : keys) res.push_back(cache.at(k));
    return res;
  }

  std::vector<double> all(const Eigen::VectorXd& th) {
    std::vector<std::pair<size_t, std::vector<double>>> req;
    auto v = values(th);
    for (size_t i = 0; i < rows.size(); ++i) req.push_back({i, v});
    return simulate_rows(req);
  }
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The fitted parameters: names, priors (a time or an efficiency) and their log sigma.
std::vector<Param> read_params(const RuntimeObservationFile& of, const std::string& file) {
  std::vector<Param> params;
  for (size_t j = 0; j < of.parameters.size(); ++j) {
    const Parameter& p = of.parameters[j];
    Param q;
    q.param = p.name;
    q.applies = p.applies;
    q.provenance = p.provenance;
    std::string why;
    const sim::Location at{file, 0, 0};
    const std::string key = "parameters[" + std::to_string(j) + "].prior";
    double v = 0;
    if (is_time(p.name)) {
      q.time = true;
      auto t = sim::parse_quantity(p.prior, sim::Dim::Time, &why);
      if (!t || !(*t > 0))
        throw sim::ConfigError(at, key, "expected a positive time with a unit, found '" + p.prior + "'");
      v = *t;
    } else {
      char* end = nullptr;
      v = std::strtod(p.prior.c_str(), &end);
      if (p.prior.empty() || *end != '\0' || !(v > 0) || v > 1)
        throw sim::ConfigError(at, key, "expected an efficiency in (0, 1], found '" + p.prior + "'");
    }
    q.theta0 = std::log(v);
    q.sigma0 = p.log_sigma;
    params.push_back(q);
  }
  return params;
}

Problem load_problem(const std::string& file, int jobs) {
  sim::ConfigNode root = sim::load_config_file(file);
  RuntimeObservationFile of;
  sim::read_config(root, of);
  Problem pb;
  pb.jobs = jobs;
  auto classify = [&pb](Row& r, const std::string& where, const std::string& key) {
    workloads::ScenarioSpec s;
    try {
      s = workloads::load_scenario(r.scenario, r.sets);
    } catch (const sim::ConfigError& e) {
      throw sim::ConfigError(sim::Location{where, 0, 0}, key, e.what());
    }
    r.eager = s.mode == workloads::ExecMode::Eager;
    r.xla = s.compile.frontend == workloads::Frontend::Xla;
    pb.shipped = s.runtime;
  };
  for (size_t i = 0; i < of.observations.size(); ++i) {
    const RuntimeObservation& o = of.observations[i];
    Row r;
    r.id = o.name;
    r.scenario = o.scenario;
    r.sets = o.set;
    r.measured = o.tokens_per_s;
    r.log_sigma = o.log_sigma;
    r.fold = o.name;
    r.source = o.source;
    r.sim = pb.rows.size();
    classify(r, file, "observations[" + std::to_string(i) + "].scenario");
    pb.rows.push_back(r);
  }
  for (const auto& t : of.tables) {
    const std::string path = sim::data_root() + "/" + t.file;
    Table tab;
    sim::read_config(sim::load_config_file(path), tab);
    std::map<std::string, size_t> by_id;
    for (size_t i = 0; i < tab.rows.size(); ++i) {
      const TableRow& tr = tab.rows[i];
      Row r;
      r.id = tr.id;
      r.scenario = sim::data_root() + "/" + tr.scenario;
      r.measured = tr.tokens_per_s;
      r.log_sigma = t.log_sigma;
      r.table = true;
      r.duplicate = tr.duplicate_release;
      r.source = tr.source + " (SDK " + tr.sdk + ")";
      r.fold = tr.duplicate_of.empty() ? tr.id : tr.duplicate_of;
      r.sim = pb.rows.size();
      if (!tr.duplicate_of.empty()) {
        if (!by_id.count(tr.duplicate_of))
          throw sim::ConfigError(sim::Location{path, 0, 0}, "rows[" + std::to_string(i) + "].duplicate_of",
                                 "names row '" + tr.duplicate_of + "', which is not listed before it");
        r.sim = by_id[tr.duplicate_of];  // the same configuration: one simulation serves both
      }
      by_id[tr.id] = pb.rows.size();
      classify(r, path, "rows[" + std::to_string(i) + "].scenario");
      pb.rows.push_back(r);
    }
  }
  pb.params = read_params(of, file);
  return pb;
}

std::string pct(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%+.1f%%", 100 * x);
  return b;
}

// The fit: the core's result (models/fit/map_fit.h) and every row's simulated tokens/s at it.
struct Fit {
  models::MapFit map;
  std::vector<double> sim;
};

// The fit core's view of the problem: a row per table or seed row, ln(simulated / published)
// over its log sigma, every point's rows simulated in one batch of forked children (cached);
// parameters move on the runtime file's rounding grid and act only on the rows they apply to.
models::MapModel map_model(Problem& pb) {
  models::MapModel m;
  for (const auto& p : pb.params) m.params.push_back({p.name(), p.theta0, p.sigma0});
  m.rows = static_cast<int>(pb.rows.size());
  for (const auto& r : pb.rows) m.row_names.push_back(r.id);
  m.residuals = [&pb](const std::vector<Eigen::VectorXd>& thetas) {
    std::vector<std::pair<size_t, std::vector<double>>> req;
    for (const auto& th : thetas) {
      const std::vector<double> v = pb.values(th);
      for (size_t i = 0; i < pb.rows.size(); ++i) req.push_back({i, v});
    }
    const std::vector<double> sim = pb.simulate_rows(req);
    std::vector<Eigen::VectorXd> out;
    for (size_t k = 0; k < thetas.size(); ++k) {
      Eigen::VectorXd r(static_cast<Eigen::Index>(pb.rows.size()));
      for (size_t i = 0; i < pb.rows.size(); ++i)
        r[static_cast<Eigen::Index>(i)] =
            std::log(sim[k * pb.rows.size() + i] / pb.rows[i].measured) / pb.rows[i].log_sigma;
      out.push_back(r);
    }
    return out;
  };
  m.round = [&pb](const Eigen::VectorXd& th) { return pb.round(th); };
  m.acts_on = [&pb](size_t row, size_t param) { return pb.params[param].acts_on(pb.rows[row]); };
  return m;
}

// The value of fitted parameter `p` in `rt`.
double runtime_value(workloads::RuntimeSpec rt, RuntimeParam p) { return *rt.calibrated(sim::word_of(p)); }

// Levenberg-Marquardt from `th0` (ln parameters): steps of 0.03 in ln(parameter) on the file's
// grid, at most 12 iterations, converged when no parameter moves by the file's rounding.
Fit levenberg_marquardt(Problem& pb, const Eigen::VectorXd& th0) {
  models::MapOptions o;
  o.diff_step = 0.03;
  o.max_iterations = 12;
  o.min_step = 2e-3;
  o.on_step = [](int it, double before, double after, double lambda) {
    std::fprintf(stderr, "calibrate-runtime: iteration %d, cost %.4f -> %.4f (lambda %.0e)\n", it, before, after,
                 lambda);
  };
  Fit f;
  f.map = models::map_fit(map_model(pb), th0, o);
  f.sim = pb.all(f.map.theta);
  return f;
}

// MAP fit: Levenberg-Marquardt from the priors and from the shipped parameters; the lower cost
// wins. The simulated throughput is not smooth in every parameter (a host that paces the step
// only above some lazy_trace: below it the row does not respond, and a forward difference
// there sees a zero column), so one start can stall on a flat side of such a kink.
Fit fit_map(Problem& pb) {
  const Eigen::Index n = static_cast<Eigen::Index>(pb.params.size());
  Eigen::VectorXd prior(n), shipped(n);
  bool have_shipped = true;
  for (Eigen::Index j = 0; j < n; ++j) {
    const Param& p = pb.params[static_cast<size_t>(j)];
    prior[j] = p.theta0;
    const double v = runtime_value(pb.shipped, p.param);
    have_shipped = have_shipped && v > 0;
    shipped[j] = v > 0 ? std::log(v) : p.theta0;
  }
  std::fprintf(stderr, "calibrate-runtime: start 1 of %d, the priors\n", have_shipped ? 2 : 1);
  Fit best = levenberg_marquardt(pb, prior);
  if (!have_shipped || (pb.round(shipped) - pb.round(prior)).cwiseAbs().maxCoeff() < 2e-3) return best;
  std::fprintf(stderr, "calibrate-runtime: start 2 of 2, the shipped parameters\n");
  Fit other = levenberg_marquardt(pb, shipped);
  if (other.map.cost() < best.map.cost()) {
    other.map.iterations += best.map.iterations;
    return other;
  }
  best.map.iterations += other.map.iterations;
  return best;
}

struct Loo {
  std::map<std::string, std::vector<double>> fold_values;  // fold -> its refitted parameter values
  std::map<size_t, double> sim;                            // held-out row -> simulated tokens/s
};

// Leave-one-out: per fold (a row and its duplicate releases), the linearised refit without
// it, then the held-out rows simulated at the refitted parameters.
Loo leave_one_out(Problem& pb, const Fit& fit) {
  Loo l;
  std::vector<std::string> folds;
  for (const auto& row : pb.rows)
    if (row.table && std::find(folds.begin(), folds.end(), row.fold) == folds.end()) folds.push_back(row.fold);
  auto& fold_values = l.fold_values;
  std::vector<std::pair<size_t, std::vector<double>>> req;
  std::vector<size_t> req_row;
  for (const auto& f : folds) {
    std::vector<char> keep(pb.rows.size() + pb.params.size(), 1);
    for (size_t i = 0; i < pb.rows.size(); ++i) keep[i] = pb.rows[i].fold != f;
    Eigen::VectorXd t = pb.round(fit.map.theta + models::gauss_newton_step(fit.map, keep, 0));
    fold_values[f] = pb.values(t);
    for (size_t i = 0; i < pb.rows.size(); ++i)
      if (!keep[i]) {
        req.push_back({i, fold_values[f]});
        req_row.push_back(i);
      }
  }
  std::vector<double> loo_sim = pb.simulate_rows(req);
  for (size_t k = 0; k < req_row.size(); ++k) l.sim[req_row[k]] = loo_sim[k];
  return l;
}

std::string data_path(const std::string& observations) {
  return observations == kRuntimeObservations ? sim::data_root() + "/" + kRuntimeObservations : observations;
}

std::string relative_scenario(const std::string& scenario) {
  return scenario.rfind(sim::data_root() + "/", 0) == 0 ? scenario.substr(sim::data_root().size() + 1) : scenario;
}

// The rows at the fit and left out, and the summary of the table rows' errors.
void report_rows(const Problem& pb, const Fit& f, const Loo& l, CalibrateRuntimeResult& res) {
  std::vector<double> in_err, loo_err;
  for (size_t i = 0; i < pb.rows.size(); ++i) {
    const Row& row = pb.rows[i];
    RuntimeRow r;
    r.id = row.id;
    r.scenario = relative_scenario(row.scenario);
    r.source = row.source;
    r.fold = row.fold;
    r.sets = row.sets;
    r.table = row.table;
    r.duplicate = row.duplicate;
    r.published = row.measured;
    r.simulated = f.sim[i];
    r.in_sample_error = f.sim[i] / row.measured - 1;
    if (l.sim.count(i)) {
      r.has_loo = true;
      r.loo_simulated = l.sim.at(i);
      r.loo_error = l.sim.at(i) / row.measured - 1;
      r.loo_parameters = l.fold_values.at(row.fold);
      if (!row.duplicate) {
        in_err.push_back(std::fabs(r.in_sample_error));
        loo_err.push_back(std::fabs(r.loo_error));
      }
    }
    res.rows.push_back(r);
  }
  res.summary_rows = loo_err.size();
  res.loo_median = median(loo_err);
  res.loo_max = loo_err.empty() ? 0 : *std::max_element(loo_err.begin(), loo_err.end());
  res.in_sample_median = median(in_err);
  res.in_sample_max = in_err.empty() ? 0 : *std::max_element(in_err.begin(), in_err.end());
}

void report_parameters(const Problem& pb, const Fit& f, CalibrateRuntimeResult& res) {
  const std::vector<double> best = pb.values(f.map.theta);
  for (size_t j = 0; j < pb.params.size(); ++j) {
    const Param& p = pb.params[j];
    RuntimeParameter q;
    q.name = p.name();
    q.applies = p.applies;
    q.provenance = p.provenance;
    q.value = best[j];
    q.prior = std::exp(p.theta0);
    q.prior_log_sigma = p.sigma0;
    q.fit_log_sigma =
        std::sqrt(std::max(0.0, f.map.covariance(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(j))));
    q.value_text = p.time ? "\"" + p.text(best[j]) + "\"" : p.text(best[j]);
    q.prior_text = p.time ? sim::format_quantity(q.prior, sim::Dim::Time) : p.text(q.prior);
    res.parameters.push_back(q);
  }
}

}  // namespace

CalibrateRuntimeResult run_calibrate_runtime(const CalibrateRuntimeOptions& o) {
  Problem pb = load_problem(data_path(o.observations), o.jobs);
  const Fit f = fit_map(pb);
  const Loo l = leave_one_out(pb, f);
  CalibrateRuntimeResult res;
  res.iterations = f.map.iterations;
  res.simulations = pb.simulations;
  report_rows(pb, f, l, res);
  report_parameters(pb, f, res);
  return res;
}

namespace {

std::string residual_table(const CalibrateRuntimeResult& r) {
  std::ostringstream table;
  char line[320];
  for (const auto& row : r.rows) {
    std::snprintf(
        line, sizeof line, "#   %-20s published %10.0f  simulated %10.0f  in-sample %7s  leave-one-out %s%s\n",
        row.id.c_str(), row.published, row.simulated, pct(row.in_sample_error).c_str(),
        row.has_loo ? pct(row.loo_error).c_str() : "fitted (seed)", row.duplicate ? "  (duplicate release)" : "");
    table << line;
  }
  return table.str();
}

}  // namespace

std::string calibrate_runtime_yaml(const CalibrateRuntimeResult& r) {
  std::ostringstream y;
  char line[320];
  y << "# Runtime parameters of the workload model, merged under every scenario (override with\n"
       "# --set runtime.KEY=VALUE). GENERATED by\n"
       "#   build/trnsim calibrate-runtime --out workloads/calibration/runtime.yaml \\\n"
       "#       --residuals workloads/calibration/runtime_residuals.json\n"
       "# from workloads/calibration/runtime_observations.yaml (data, priors, provenance); do not edit\n"
       "# the fitted values by hand (test/cli/runtime_calibration_current.sh re-simulates every row).\n"
       "#\n"
       "# Method: MAP fit, Levenberg-Marquardt on ln(simulated / published) / sigma with log-normal\n"
       "# priors, from the priors and from the previously shipped values (the lower cost wins); "
    << r.iterations << " iterations, " << r.simulations
    << " simulations. Leave-one-out: each table row (with its\n"
       "# duplicate release) dropped, the linearised fit redone without it, the row simulated at the result.\n"
       "# Residuals in tokens/s (simulated / published - 1):\n"
    << residual_table(r);
  std::snprintf(line, sizeof line,
                "# Table rows that are not duplicate releases (%zu): in-sample median %.1f %%, max %.1f %%;\n"
                "# leave-one-out median %.1f %%, max %.1f %%.\n",
                r.summary_rows, 100 * r.in_sample_median, 100 * r.in_sample_max, 100 * r.loo_median, 100 * r.loo_max);
  y << line;
  y << "# Parameters: fitted value, prior median and sigma of ln, and the fit's sigma of ln (covariance).\n";
  y << "runtime:\n";
  for (const auto& p : r.parameters) {
    std::snprintf(line, sizeof line, "  %s: %s", p.name.c_str(), p.value_text.c_str());
    y << line << std::string(std::max<size_t>(1, 36 - std::string(line).size()), ' ');
    std::snprintf(line, sizeof line, "# fitted; prior %s, sigma %.2f; fit sigma %.3f\n", p.prior_text.c_str(),
                  p.prior_log_sigma, p.fit_log_sigma);
    y << line;
    y << "    # " << p.provenance << "; acts on " << p.applies << "\n";
  }
  const bool tensor_fitted = std::any_of(r.parameters.begin(), r.parameters.end(), [](const auto& p) {
    return p.name == sim::word_of(RuntimeParam::LazyTraceTensor);
  });
  if (!tensor_fitted)
    y << "  lazy_trace_tensor: \"1 ms\"         # assumption: host trace of one parameter tensor's optimizer step, "
         "every step (about 14 aten ops at about 70 us; docs/model.md 11.9; not fitted: see docs/validation.md)\n";
  y << "  compiled_launch: \"100 us\"         # assumption: host launch of one compiled region (NEFF execute)\n";
  y << "  workspace: \"2 GiB\"                # assumption: runtime scratch, collective buffers, instructions\n";
  return y.str();
}

nlohmann::json calibrate_runtime_json(const CalibrateRuntimeResult& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : r.rows) {
    nlohmann::json jr{{"id", row.id},
                      {"scenario", row.scenario},
                      {"set", row.sets},
                      {"source", row.source},
                      {"group", row.table ? "table" : "seed"},
                      {"duplicate_release", row.duplicate},
                      {"published_tokens_per_s", row.published},
                      {"simulated_tokens_per_s", row.simulated},
                      {"in_sample_error", row.in_sample_error}};
    if (row.has_loo) {
      jr["loo_simulated_tokens_per_s"] = row.loo_simulated;
      jr["loo_error"] = row.loo_error;
      nlohmann::json fv;
      for (size_t j = 0; j < r.parameters.size(); ++j) fv[r.parameters[j].name] = row.loo_parameters[j];
      jr["loo_parameters"] = fv;
    }
    rows.push_back(jr);
  }
  nlohmann::json params = nlohmann::json::array();
  for (const auto& p : r.parameters)
    params.push_back({{"name", p.name},
                      {"value", p.value},
                      {"prior", p.prior},
                      {"prior_log_sigma", p.prior_log_sigma},
                      {"fit_log_sigma", p.fit_log_sigma},
                      {"applies", p.applies},
                      {"provenance", p.provenance}});
  return nlohmann::json{{"kind", "runtime-calibration"},
                        {"command", "trnsim calibrate-runtime"},
                        {"parameters", params},
                        {"rows", rows},
                        {"summary",
                         {{"rows", r.summary_rows},
                          {"in_sample_median", r.in_sample_median},
                          {"in_sample_max", r.in_sample_max},
                          {"loo_median", r.loo_median},
                          {"loo_max", r.loo_max}}}};
}

// Re-simulates every row at the shipped parameters (runtime.yaml: no fitted value is set)
// and compares with the residuals file.
RuntimeCheckResult run_calibrate_runtime_check(const CalibrateRuntimeOptions& o, const std::string& path) {
  Problem pb = load_problem(data_path(o.observations), o.jobs);
  std::ifstream in(path);
  if (!in) throw sim::ConfigError(sim::Location{path, 0, 0}, "--check", "cannot read the residuals file");
  nlohmann::json doc;
  try {
    in >> doc;
  } catch (const std::exception& e) {
    throw sim::ConfigError(sim::Location{path, 0, 0}, "--check", std::string("not JSON: ") + e.what());
  }
  std::vector<std::function<double()>> bodies;
  std::vector<size_t> slot(pb.rows.size());
  for (size_t i = 0; i < pb.rows.size(); ++i) {
    const Row& r = pb.rows[i];
    if (r.sim != i) {  // a duplicate release: the same simulation as its original
      slot[i] = slot[r.sim];
      continue;
    }
    slot[i] = bodies.size();
    bodies.push_back(throughput_body(r.scenario, r.sets));
  }
  auto out = run_in_children(bodies, "runtime calibration check", o.jobs);
  RuntimeCheckResult res;
  res.residuals = path;
  for (size_t i = 0; i < pb.rows.size(); ++i) {
    RuntimeCheckRow row;
    row.id = pb.rows[i].id;
    for (const auto& jr : doc.value("rows", nlohmann::json::array()))
      if (jr.value("id", "") == row.id) row.recorded = jr.value("simulated_tokens_per_s", -1.0);
    row.simulated = out[slot[i]];
    row.ok = row.recorded > 0 && std::fabs(row.simulated / row.recorded - 1) < 1e-6;
    res.differing += !row.ok;
    res.rows.push_back(row);
  }
  return res;
}

void write_runtime_check_text(const RuntimeCheckResult& r, FILE* out) {
  for (const auto& row : r.rows)
    std::fprintf(out, "%-20s simulated %12.1f tokens/s  recorded %12.1f  %s\n", row.id.c_str(), row.simulated,
                 row.recorded, row.ok ? "ok" : "DIFFERS");
  if (r.differing)
    std::fprintf(out, "%d rows differ from %s: rerun `trnsim calibrate-runtime` (docs/validation.md)\n", r.differing,
                 r.residuals.c_str());
}

nlohmann::ordered_json runtime_check_json(const RuntimeCheckResult& r) {
  nlohmann::ordered_json js;
  js["residuals"] = r.residuals;
  js["differing"] = r.differing;
  js["rows"] = nlohmann::ordered_json::array();
  for (const auto& row : r.rows)
    js["rows"].push_back({{"id", row.id},
                          {"simulated_tokens_per_s", row.simulated},
                          {"recorded_tokens_per_s", row.recorded},
                          {"ok", row.ok}});
  return js;
}

}  // namespace trn::app
