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
#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "sim/app/commands.h"
#include "sim/app/fork_eval.h"
#include "sim/app/step_simulation.h"
#include "sim/base/config_loader.h"
#include "sim/base/output_file.h"
#include "sim/base/paths.h"
#include "sim/base/units.h"

namespace trn::app {
namespace {

using sim::F;

constexpr const char* kObservations = "workloads/calibration/runtime_observations.yaml";

struct Observation {
  std::string name, scenario, source;
  std::vector<std::string> set;
  double tokens_per_s = 0, log_sigma = 0.1;
  template <class V> void visit(V& v) {
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
  template <class V> void visit(V& v) {
    v.field("file", file, F("table of published rows (path from the repository root)"));
    v.field("log_sigma", log_sigma, F("uncertainty of ln(value) of every row").gt(0));
  }
};

struct Parameter {
  std::string name, prior, applies, provenance;
  double log_sigma = 1;
  template <class V> void visit(V& v) {
    v.field("name", name, F("runtime parameter").one_of({"kernel_efficiency", "xla_kernel_efficiency",
                                                           "eager_dispatch", "lazy_trace"}));
    v.field("prior", prior, F("prior median: a number, or a time with a unit"));
    v.field("log_sigma", log_sigma, F("sigma of ln(value) of the prior").gt(0));
    v.field("applies", applies, F("the runs the parameter acts on"));
    v.field("provenance", provenance, F("what the parameter is and where its prior comes from"));
  }
};

struct ObservationFile {
  std::vector<Observation> observations;
  std::vector<TableRef> tables;
  std::vector<Parameter> parameters;
  template <class V> void visit(V& v) {
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
  template <class V> void visit(V& v) {
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
  template <class V> void visit(V& v) {
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
  std::string name, applies, provenance;
  bool time = false;
  double theta0 = 0, sigma0 = 1;  // ln(prior median), sigma of ln
  bool acts_on(const Row& r) const {
    if (name == "kernel_efficiency") return r.eager || !r.xla;
    if (name == "xla_kernel_efficiency" || name == "lazy_trace") return !r.eager && r.xla;
    return r.eager;  // eager_dispatch
  }
  // The value as written in the runtime file (rounded), and as a --set assignment.
  double rounded(double value) const {
    return time ? std::round(value * 1e8) / 1e8 : std::round(value * 1e4) / 1e4;
  }
  std::string text(double value) const {
    char b[64];
    if (time) std::snprintf(b, sizeof b, "%.2f us", rounded(value) * 1e6);
    else std::snprintf(b, sizeof b, "%.4f", rounded(value));
    return b;
  }
};

// A forked child's work: simulate the scenario with the assignments, send back tokens/s.
std::function<std::string()> throughput_body(const std::string& scenario, const std::vector<std::string>& sets) {
  return [scenario, sets]() -> std::string {
    char b[64];
    std::snprintf(b, sizeof b, "%.17g", simulate(workloads::load_scenario(scenario, sets), StepOptions{}).tokens_per_s);
    return b;
  };
}

struct Problem {
  std::vector<Row> rows;
  std::vector<Param> params;
  int jobs = 2;
  std::map<std::string, double> cache;  // (row, parameter text) -> simulated tokens/s
  int simulations = 0;

  std::vector<double> values(const Eigen::VectorXd& th) const {
    std::vector<double> v;
    for (size_t j = 0; j < params.size(); ++j) v.push_back(params[j].rounded(std::exp(th[static_cast<Eigen::Index>(j)])));
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
      if (params[j].acts_on(r)) s.push_back("runtime." + params[j].name + "=" + params[j].text(v[j]));
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
    std::vector<std::function<std::string()>> bodies;
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
    for (size_t i = 0; i < out.size(); ++i) cache[order[i]] = std::stod(out[i]);
    std::vector<double> res;
    for (const auto& k : keys) res.push_back(cache.at(k));
    return res;
  }

  // Residual vector: every row, then the priors.
  Eigen::VectorXd residuals(const Eigen::VectorXd& th, const std::vector<double>& sim) const {
    Eigen::VectorXd r(static_cast<Eigen::Index>(rows.size() + params.size()));
    for (size_t i = 0; i < rows.size(); ++i)
      r[static_cast<Eigen::Index>(i)] = std::log(sim[i] / rows[i].measured) / rows[i].log_sigma;
    for (size_t j = 0; j < params.size(); ++j)
      r[static_cast<Eigen::Index>(rows.size() + j)] = (th[static_cast<Eigen::Index>(j)] - params[j].theta0) / params[j].sigma0;
    return r;
  }
  std::vector<double> all(const Eigen::VectorXd& th) {
    std::vector<std::pair<size_t, std::vector<double>>> req;
    auto v = values(th);
    for (size_t i = 0; i < rows.size(); ++i) req.push_back({i, v});
    return simulate_rows(req);
  }
  // Forward-difference Jacobian of the residuals in ln(parameter); a parameter's column is zero
  // on the rows it does not act on (it is not read there).
  Eigen::MatrixXd jacobian(const Eigen::VectorXd& th, const std::vector<double>& base) {
    const Eigen::Index n = static_cast<Eigen::Index>(params.size());
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(rows.size()) + n, n);
    std::vector<std::pair<size_t, std::vector<double>>> req;
    std::vector<std::pair<size_t, size_t>> where;  // (row, parameter)
    std::vector<double> step(params.size());
    for (size_t j = 0; j < params.size(); ++j) {
      Eigen::VectorXd t = th;
      t[static_cast<Eigen::Index>(j)] += 0.03;
      t = round(t);
      step[j] = t[static_cast<Eigen::Index>(j)] - th[static_cast<Eigen::Index>(j)];
      for (size_t i = 0; i < rows.size(); ++i)
        if (params[j].acts_on(rows[i])) {
          req.push_back({i, values(t)});
          where.push_back({i, j});
        }
    }
    auto sim = simulate_rows(req);
    for (size_t k = 0; k < sim.size(); ++k) {
      auto [i, j] = where[k];
      J(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
          std::log(sim[k] / base[i]) / rows[i].log_sigma / step[j];
    }
    for (Eigen::Index j = 0; j < n; ++j)
      J(static_cast<Eigen::Index>(rows.size()) + j, j) = 1.0 / params[static_cast<size_t>(j)].sigma0;
    return J;
  }
};

// Gauss-Newton step on the rows with keep[i] (and every prior), damped by lambda.
Eigen::VectorXd gn_step(const Eigen::MatrixXd& J, const Eigen::VectorXd& r, const std::vector<bool>& keep,
                        double lambda) {
  Eigen::MatrixXd Jk = J;
  Eigen::VectorXd rk = r;
  for (size_t i = 0; i < keep.size(); ++i)
    if (!keep[i]) {
      Jk.row(static_cast<Eigen::Index>(i)).setZero();
      rk[static_cast<Eigen::Index>(i)] = 0;
    }
  Eigen::MatrixXd A = Jk.transpose() * Jk;
  Eigen::VectorXd d = A.diagonal();
  for (Eigen::Index j = 0; j < A.rows(); ++j) A(j, j) += lambda * d[j];
  return -A.ldlt().solve(Jk.transpose() * rk);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Problem load_problem(const std::string& file, int jobs) {
  sim::ConfigNode root = sim::load_config_file(file);
  ObservationFile of;
  sim::read_config(root, of);
  Problem pb;
  pb.jobs = jobs;
  auto classify = [](Row& r, const std::string& where, const std::string& key) {
    workloads::ScenarioSpec s;
    try {
      s = workloads::load_scenario(r.scenario, r.sets);
    } catch (const sim::ConfigError& e) {
      throw sim::ConfigError(sim::Location{where, 0, 0}, key, e.what());
    }
    r.eager = s.mode == workloads::ExecMode::Eager;
    r.xla = s.compile.frontend == workloads::Frontend::Xla;
  };
  for (size_t i = 0; i < of.observations.size(); ++i) {
    const Observation& o = of.observations[i];
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
  for (size_t j = 0; j < of.parameters.size(); ++j) {
    const Parameter& p = of.parameters[j];
    Param q;
    q.name = p.name;
    q.applies = p.applies;
    q.provenance = p.provenance;
    std::string why;
    const sim::Location at{file, 0, 0};
    const std::string key = "parameters[" + std::to_string(j) + "].prior";
    double v = 0;
    if (p.name == "eager_dispatch" || p.name == "lazy_trace") {
      q.time = true;
      auto t = sim::parse_quantity(p.prior, sim::Dim::Time, &why);
      if (!t || !(*t > 0)) throw sim::ConfigError(at, key, "expected a positive time with a unit, found '" + p.prior + "'");
      v = *t;
    } else {
      char* end = nullptr;
      v = std::strtod(p.prior.c_str(), &end);
      if (p.prior.empty() || *end != '\0' || !(v > 0) || v > 1)
        throw sim::ConfigError(at, key, "expected an efficiency in (0, 1], found '" + p.prior + "'");
    }
    q.theta0 = std::log(v);
    q.sigma0 = p.log_sigma;
    pb.params.push_back(q);
  }
  return pb;
}

std::string pct(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%+.1f%%", 100 * x);
  return b;
}

// Re-simulates every row at the shipped parameters (runtime.yaml: no fitted value is set)
// and compares with the residuals file; the number of rows that differ.
int check_residuals(const Problem& pb, const std::string& path, int jobs) {
  std::ifstream in(path);
  if (!in) throw sim::ConfigError(sim::Location{path, 0, 0}, "--check", "cannot read the residuals file");
  nlohmann::json doc;
  try {
    in >> doc;
  } catch (const std::exception& e) {
    throw sim::ConfigError(sim::Location{path, 0, 0}, "--check", std::string("not JSON: ") + e.what());
  }
  std::vector<std::function<std::string()>> bodies;
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
  auto out = run_in_children(bodies, "runtime calibration check", jobs);
  int bad = 0;
  for (size_t i = 0; i < pb.rows.size(); ++i) {
    double want = -1;
    for (const auto& jr : doc.value("rows", nlohmann::json::array()))
      if (jr.value("id", "") == pb.rows[i].id) want = jr.value("simulated_tokens_per_s", -1.0);
    double got = std::stod(out[slot[i]]);
    bool ok = want > 0 && std::fabs(got / want - 1) < 1e-6;
    bad += !ok;
    std::printf("%-20s simulated %12.1f tokens/s  recorded %12.1f  %s\n", pb.rows[i].id.c_str(), got, want,
                ok ? "ok" : "DIFFERS");
  }
  if (bad) std::printf("%d rows differ from %s: rerun `trnsim calibrate-runtime` (docs/validation.md)\n", bad,
                       path.c_str());
  return bad;
}

struct Fit {
  Eigen::VectorXd th, r;       // ln parameters (rounded), residuals
  Eigen::MatrixXd J, cov;       // Jacobian at th, covariance of ln parameters
  std::vector<double> sim;      // simulated tokens/s of every row at th
  int iterations = 0;
};

// MAP fit: Levenberg-Marquardt from the priors.
Fit fit_map(Problem& pb) {
  Fit f;
  const Eigen::Index n = static_cast<Eigen::Index>(pb.params.size());
  Eigen::VectorXd& th = f.th;
  th.resize(n);
  for (Eigen::Index j = 0; j < n; ++j) th[j] = pb.params[static_cast<size_t>(j)].theta0;
  th = pb.round(th);
  std::vector<double>& sim = f.sim;
  sim = pb.all(th);
  Eigen::VectorXd& r = f.r;
  r = pb.residuals(th, sim);
  double cost = r.squaredNorm();
  const std::vector<bool> keep_all(pb.rows.size(), true);
  double lambda = 1e-3;
  Eigen::MatrixXd& J = f.J;
  J = pb.jacobian(th, sim);
  int& iterations = f.iterations;
  for (; iterations < 12; ++iterations) {
    Eigen::VectorXd step = gn_step(J, r, keep_all, lambda);
    Eigen::VectorXd t = pb.round(th + step);
    if ((t - th).cwiseAbs().maxCoeff() < 2e-3) break;  // converged: below the rounding of the file
    std::vector<double> s2 = pb.all(t);
    Eigen::VectorXd r2 = pb.residuals(t, s2);
    std::fprintf(stderr, "calibrate-runtime: iteration %d, cost %.4f -> %.4f (lambda %.0e)\n", iterations + 1, cost,
                 r2.squaredNorm(), lambda);
    if (r2.squaredNorm() < cost) {
      th = t;
      sim = s2;
      r = r2;
      cost = r2.squaredNorm();
      lambda = std::max(1e-6, lambda / 10);
      J = pb.jacobian(th, sim);
    } else {
      lambda *= 10;
      if (lambda > 1e4) break;
    }
  }
  f.cov = (J.transpose() * J).ldlt().solve(Eigen::MatrixXd::Identity(n, n));
  return f;
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
    std::vector<bool> keep(pb.rows.size(), true);
    for (size_t i = 0; i < pb.rows.size(); ++i) keep[i] = pb.rows[i].fold != f;
    Eigen::VectorXd t = pb.round(fit.th + gn_step(fit.J, fit.r, keep, 0));
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


}  // namespace

Runner add_calibrate_runtime(CLI::App* app) {
  struct Opts {
    std::string out, residuals, check, observations = kObservations;
    int jobs = 2;
  };
  auto o = std::make_shared<Opts>();
  auto* c = app->add_subcommand("calibrate-runtime",
                                "Fit the runtime parameters jointly to the seed and the published trn1 tables (MAP "
                                "with priors), with leave-one-out errors; write the runtime calibration file");
  c->add_option("--observations", o->observations, "Data and priors (default: " + std::string(kObservations) + ")");
  c->add_option("--out", o->out, "Write the runtime YAML to FILE (default: standard output)");
  c->add_option("--residuals", o->residuals, "Write the rows, in-sample and leave-one-out errors as JSON to FILE");
  c->add_option("--check", o->check,
                "Re-simulate every row at the shipped parameters and compare with this residuals JSON (exit 1 "
                "when a figure differs); fits nothing");
  c->add_option("-j,--jobs", o->jobs, "Simulations at a time (default: 2)")->check(CLI::Range(1, 64));
  return [o]() -> int {
    if (!o->out.empty()) sim::check_writable(o->out, "--out");
    if (!o->residuals.empty()) sim::check_writable(o->residuals, "--residuals");
    std::string obs_path = o->observations;
    if (obs_path == kObservations) obs_path = sim::data_root() + "/" + kObservations;
    Problem pb = load_problem(obs_path, o->jobs);

    if (!o->check.empty()) return check_residuals(pb, o->check, o->jobs) ? 1 : 0;

    const Fit f = fit_map(pb);
    const Loo l = leave_one_out(pb, f);

    const std::vector<double> best = pb.values(f.th);
    // Reports.
    std::vector<double> in_err, loo_err;
    nlohmann::json rows = nlohmann::json::array();
    std::ostringstream table;
    char line[320];
    for (size_t i = 0; i < pb.rows.size(); ++i) {
      const Row& row = pb.rows[i];
      const double e = f.sim[i] / row.measured - 1;
      nlohmann::json jr{{"id", row.id},
                        {"scenario", row.scenario.rfind(sim::data_root() + "/", 0) == 0
                                         ? row.scenario.substr(sim::data_root().size() + 1)
                                         : row.scenario},
                        {"set", row.sets},
                        {"source", row.source},
                        {"group", row.table ? "table" : "seed"},
                        {"duplicate_release", row.duplicate},
                        {"published_tokens_per_s", row.measured},
                        {"simulated_tokens_per_s", f.sim[i]},
                        {"in_sample_error", e}};
      std::string loo_text = "fitted (seed)";
      if (l.sim.count(i)) {
        const double le = l.sim.at(i) / row.measured - 1;
        jr["loo_simulated_tokens_per_s"] = l.sim.at(i);
        jr["loo_error"] = le;
        nlohmann::json fv;
        for (size_t j = 0; j < pb.params.size(); ++j) fv[pb.params[j].name] = l.fold_values.at(row.fold)[j];
        jr["loo_parameters"] = fv;
        loo_text = pct(le);
        if (!row.duplicate) {
          in_err.push_back(std::fabs(e));
          loo_err.push_back(std::fabs(le));
        }
      }
      rows.push_back(jr);
      std::snprintf(line, sizeof line, "#   %-20s published %10.0f  simulated %10.0f  in-sample %7s  leave-one-out %s%s\n",
                    row.id.c_str(), row.measured, f.sim[i], pct(e).c_str(), loo_text.c_str(),
                    row.duplicate ? "  (duplicate release)" : "");
      table << line;
    }
    const double loo_med = median(loo_err), loo_max = loo_err.empty() ? 0 : *std::max_element(loo_err.begin(), loo_err.end());
    const double in_med = median(in_err), in_max = in_err.empty() ? 0 : *std::max_element(in_err.begin(), in_err.end());

    std::ostringstream y;
    y << "# Runtime parameters of the workload model, merged under every scenario (override with\n"
         "# --set runtime.KEY=VALUE). GENERATED by\n"
         "#   build/trnsim calibrate-runtime --out workloads/calibration/runtime.yaml \\\n"
         "#       --residuals workloads/calibration/runtime_residuals.json\n"
         "# from workloads/calibration/runtime_observations.yaml (data, priors, provenance); do not edit\n"
         "# the fitted values by hand (test/cli/runtime_calibration_current.sh re-simulates every row).\n"
         "#\n"
         "# Method: MAP fit, Levenberg-Marquardt on ln(simulated / published) / sigma with log-normal\n"
         "# priors, from the priors; "
      << f.iterations << " iterations, " << pb.simulations
      << " simulations. Leave-one-out: each table row (with its\n"
         "# duplicate release) dropped, the linearised fit redone without it, the row simulated at the result.\n"
         "# Residuals in tokens/s (simulated / published - 1):\n"
      << table.str();
    std::snprintf(line, sizeof line,
                  "# Table rows that are not duplicate releases (%zu): in-sample median %.1f %%, max %.1f %%;\n"
                  "# leave-one-out median %.1f %%, max %.1f %%.\n",
                  loo_err.size(), 100 * in_med, 100 * in_max, 100 * loo_med, 100 * loo_max);
    y << line;
    y << "# Parameters: fitted value, prior median and sigma of ln, and the fit's sigma of ln (covariance).\n";
    y << "runtime:\n";
    nlohmann::json params = nlohmann::json::array();
    for (size_t j = 0; j < pb.params.size(); ++j) {
      const Param& p = pb.params[j];
      const double prior = std::exp(p.theta0);
      const double sd = std::sqrt(std::max(0.0, f.cov(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(j))));
      std::string v = p.time ? "\"" + p.text(best[j]) + "\"" : p.text(best[j]);
      std::snprintf(line, sizeof line, "  %s: %s", p.name.c_str(), v.c_str());
      y << line << std::string(std::max<size_t>(1, 36 - std::string(line).size()), ' ');
      std::snprintf(line, sizeof line, "# fitted; prior %s, sigma %.2f; fit sigma %.3f\n",
                    p.time ? sim::format_quantity(prior, sim::Dim::Time).c_str() : p.text(prior).c_str(), p.sigma0, sd);
      y << line;
      y << "    # " << p.provenance << "; acts on " << p.applies << "\n";
      params.push_back({{"name", p.name}, {"value", best[j]}, {"prior", prior}, {"prior_log_sigma", p.sigma0},
                        {"fit_log_sigma", sd}, {"applies", p.applies}, {"provenance", p.provenance}});
    }
    y << "  compiled_launch: \"100 us\"         # assumption: host launch of one compiled region (NEFF execute)\n";
    y << "  workspace: \"2 GiB\"                # assumption: runtime scratch, collective buffers, instructions\n";
    nlohmann::json doc{{"kind", "runtime-calibration"},
                       {"command", "trnsim calibrate-runtime"},
                       {"parameters", params},
                       {"rows", rows},
                       {"summary",
                        {{"rows", loo_err.size()},
                         {"in_sample_median", in_med},
                         {"in_sample_max", in_max},
                         {"loo_median", loo_med},
                         {"loo_max", loo_max}}}};
    std::vector<std::pair<std::string, std::string>> files;
    std::vector<std::string> opts;
    if (!o->out.empty()) {
      files.push_back({o->out, y.str()});
      opts.push_back("--out");
    }
    if (!o->residuals.empty()) {
      files.push_back({o->residuals, doc.dump(1) + "\n"});
      opts.push_back("--residuals");
    }
    if (o->out.empty()) std::fputs(y.str().c_str(), stdout);
    if (!files.empty()) sim::write_files_atomic(files, opts);
    return 0;
  };
}

}  // namespace trn::app
