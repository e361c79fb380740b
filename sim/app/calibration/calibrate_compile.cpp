// `trnsim calibrate OBSERVATIONS.yaml`: fits the compile-latency parameters by
// Levenberg-Marquardt (Eigen) on log time with priors, using pass/fail observations (the
// FlexAttention suite) as smooth hinge bounds, and writes the parameter file with the
// data, the command, the residuals and each parameter's uncertainty (from the fit
// covariance in log space, or its prior when it is not fitted).
#include "sim/app/calibration/calibrate_compile.h"

#include <Eigen/Dense>
#include <unsupported/Eigen/NonLinearOptimization>
#include <unsupported/Eigen/NumericalDiff>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>

#include "sim/app/simulation/fork_eval.h"
#include "sim/app/simulation/step_simulation.h"
#include "sim/base/config_loader.h"
#include "sim/base/paths.h"
#include "workloads/compile/first_step.h"
#include "workloads/compile/flex_suite.h"

namespace trn::app {
namespace {

using sim::F;

/// What an observation measured: the whole first step or its compile phase.
enum class Measured { FirstStep, Compile };
const std::vector<std::string>& enum_words(Measured) {
  static const std::vector<std::string> w{"first_step", "compile"};
  return w;
}

struct Observation {
  std::string name, scenario, source;
  Measured quantity = Measured::FirstStep;
  workloads::ExecMode mode = workloads::ExecMode::Compiled;
  std::vector<std::string> set;
  sim::Time value{0};
  double log_sigma = 0.1;
  template <class V>
  void visit(V& v) {
    v.field("name", name, F("label"));
    v.field("scenario", scenario, F("scenario name or path"));
    v.field("set", set, F("--set assignments applied to the scenario").optional());
    v.field("mode", mode, F("execution mode"));
    v.field("quantity", quantity, F("what was measured"));
    v.field("value", value, F("measured time").gt(0));
    v.field("log_sigma", log_sigma, F("uncertainty of ln(value)").gt(0));
    v.field("source", source, F("where the figure comes from"));
  }
};

struct FlexObservations {
  sim::Time budget{600};
  double softness = 0.05;
  std::string source;
  template <class V>
  void visit(V& v) {
    v.field("budget", budget, F("compile budget of each test (assumption)").gt(0));
    v.field("softness", softness, F("log-width of the hinge on each pass/fail bound").gt(0));
    v.field("source", source, F("where the outcome comes from"));
  }
};

struct ObservationFile {
  std::vector<Observation> observations;
  FlexObservations flexattention;
  models::CompileParams prior;
  template <class V>
  void visit(V& v) {
    v.list("observations", observations, F("measured first steps and compile times"));
    v.section("flexattention", flexattention, F("the Trainium3 FlexAttention suite outcome"));
    v.section("prior", prior, F("prior (starting) value of every parameter"));
  }
};

// Collects pointers to every numeric parameter by name.
struct Refs {
  std::vector<std::pair<std::string, double*>> refs;
  template <sim::Dim D>
  void field(const char* k, sim::Quantity<D>& q, const sim::FieldSpec&) {
    refs.push_back({k, &q.v});
  }
  void field(const char* k, double& x, const sim::FieldSpec&) { refs.push_back({k, &x}); }
};

double softplus(double x) { return x > 30 ? x : std::log1p(std::exp(x)); }

double round_sig(double x, int digits) {
  if (x == 0) return 0;
  double m = std::pow(10.0, digits - 1 - std::floor(std::log10(std::fabs(x))));
  return std::round(x * m) / m;
}

struct Problem {
  std::vector<Observation> obs;
  std::vector<workloads::ScenarioSpec> specs;
  std::vector<double> steady;
  FlexObservations flex;
  std::vector<workloads::FlexCase> cases;
  models::CompileParams base;
  std::vector<std::string> names;      // fitted parameters
  std::vector<double> theta0, sigma0;  // prior log value and log sigma of each

  models::CompileParams params(const Eigen::VectorXd& th) const {
    models::CompileParams p = base;
    Refs r;
    p.visit(r);
    for (size_t i = 0; i < names.size(); ++i)
      for (auto& [k, ptr] : r.refs)
        if (k == names[i]) *ptr = std::exp(th[static_cast<Eigen::Index>(i)]);
    return p;
  }
  double predict(const models::CompileParams& p, size_t i) const {
    auto f = workloads::first_step(specs[i], p, obs[i].mode, steady[i]);
    return obs[i].quantity == Measured::Compile ? f.compile.wall_s : f.total;
  }
  int values() const { return static_cast<int>(obs.size() + cases.size() + names.size()); }
  void residuals(const Eigen::VectorXd& th, Eigen::VectorXd& r) const {
    models::CompileParams p = params(th);
    Eigen::Index k = 0;
    for (size_t i = 0; i < obs.size(); ++i)
      r[k++] = (std::log(std::max(1e-9, predict(p, i))) - std::log(obs[i].value.v)) / obs[i].log_sigma;
    const double lb = std::log(flex.budget.v);
    for (const auto& c : cases) {
      models::CompileJob j;
      j.units = c.units;
      double lc = std::log(std::max(1e-9, models::compile_seconds(p, j)));
      double x = workloads::flex_published_fail(c) ? (lb - lc) : (lc - lb);  // > 0 means on the wrong side
      r[k++] = softplus(x / flex.softness) * flex.softness / 0.05;
    }
    for (size_t i = 0; i < names.size(); ++i) r[k++] = (th[static_cast<Eigen::Index>(i)] - theta0[i]) / sigma0[i];
  }
};

struct Functor {
  using Scalar = double;
  enum { InputsAtCompileTime = Eigen::Dynamic, ValuesAtCompileTime = Eigen::Dynamic };
  using InputType = Eigen::VectorXd;
  using ValueType = Eigen::VectorXd;
  using JacobianType = Eigen::MatrixXd;
  const Problem* pb;
  int n;
  Functor(const Problem& p, int inputs) : pb(&p), n(inputs) {}
  int inputs() const { return n; }
  int values() const { return pb->values(); }
  int operator()(const Eigen::VectorXd& x, Eigen::VectorXd& f) const {
    pb->residuals(x, f);
    return 0;
  }
};

// `prior_log_sigma` (parameter -> log sigma) names the fitted parameters and their priors.
void read_prior_sigmas(const sim::ConfigNode& root, const sim::ConfigNode& sig_node, Problem& pb) {
  Refs refs;
  pb.base.visit(refs);
  if (sig_node.kind == sim::ConfigNode::Kind::Null)
    throw sim::ConfigError(root.loc, "prior_log_sigma", "missing map of parameter -> log sigma");
  if (!sig_node.is_map())
    throw sim::ConfigError(sig_node.loc, "prior_log_sigma",
                           "expected a map of parameter -> log sigma, found " + sig_node.kind_name());
  for (const auto& e : sig_node.map) {
    double* ptr = nullptr;
    for (auto& [k, p] : refs.refs)
      if (k == e.key) ptr = p;
    if (!ptr) throw sim::ConfigError(e.key_loc, "prior_log_sigma." + e.key, "unknown parameter '" + e.key + "'");
    char* end = nullptr;
    double sg = std::strtod(e.value.scalar.c_str(), &end);
    if (!e.value.is_scalar() || e.value.quoted || e.value.scalar.empty() || *end != '\0' || !(sg > 0) ||
        !std::isfinite(sg))
      throw sim::ConfigError(
          e.value.loc, "prior_log_sigma." + e.key,
          "expected a positive number (log-normal sigma of the prior), found '" + e.value.scalar + "'");
    if (!(*ptr > 0)) throw sim::ConfigError(e.key_loc, "prior." + e.key, "a fitted parameter needs a positive prior");
    pb.names.push_back(e.key);
    pb.theta0.push_back(std::log(*ptr));
    pb.sigma0.push_back(sg);
  }
}

// The scenario of each observation, errors naming the observation.
void load_observed_scenarios(const sim::ConfigNode& root, Problem& pb) {
  for (size_t i = 0; i < pb.obs.size(); ++i) {
    const Observation& o = pb.obs[i];
    std::vector<std::string> sets = o.set;
    sets.push_back("mode=" + sim::word_of(o.mode));
    const sim::ConfigNode& item = root.find("observations")->list[i];
    const sim::ConfigNode* at = item.find("scenario");
    const sim::Location where = at ? at->loc : item.loc;
    const std::string key = "observations[" + std::to_string(i) + "].scenario";
    const std::string path = sim::resolve_named_config(o.scenario, "workloads/scenarios", "scenario", where, key);
    try {
      pb.specs.push_back(workloads::load_scenario(path, sets));
    } catch (const sim::ConfigError& e) {  // name the observation, then the scenario's own error
      throw sim::ConfigError(where, key, e.what());
    }
  }
}

Problem load_problem(const std::string& file) {
  sim::ConfigNode root = sim::load_config_file(file);
  ObservationFile of;
  // `prior_log_sigma` lists the fitted parameters; read it apart from the typed fields.
  sim::ConfigNode sig_node;
  if (const sim::ConfigNode* sg = root.find("prior_log_sigma")) sig_node = *sg;
  root.erase("prior_log_sigma");
  sim::read_config(root, of);
  Problem pb;
  pb.obs = of.observations;
  pb.flex = of.flexattention;
  pb.cases = workloads::flex_suite();
  pb.base = of.prior;
  read_prior_sigmas(root, sig_node, pb);
  load_observed_scenarios(root, pb);
  return pb;
}

}  // namespace

CalibrateCompileResult run_calibrate_compile(const CalibrateCompileOptions& opt) {
  Problem pb = load_problem(opt.observations);
  for (size_t i = 0; i < pb.obs.size(); ++i) {  // every input is checked before the first simulation
    const Observation& o = pb.obs[i];
    const auto& spec = pb.specs[i];
    pb.steady.push_back(
        o.quantity == Measured::FirstStep
            ? run_in_child([&]() -> std::vector<double> { return {simulate(spec, StepOptions{}).step_time_s}; },
                           "steady step for " + o.name)[0]
            : 0.0);
  }
  const int n = static_cast<int>(pb.names.size());
  Eigen::VectorXd x(n);
  for (int i = 0; i < n; ++i) x[i] = pb.theta0[static_cast<size_t>(i)];
  Functor fn(pb, n);
  Eigen::NumericalDiff<Functor> nd(fn);
  Eigen::LevenbergMarquardt<Eigen::NumericalDiff<Functor>> lm(nd);
  lm.parameters.maxfev = 4000;
  lm.minimize(x);
  // Round the fitted values (4 significant digits) and report residuals with them.
  CalibrateCompileResult r;
  r.params = pb.params(x);
  Refs refs;
  r.params.visit(refs);
  for (auto& [k, ptr] : refs.refs)
    for (const auto& name : pb.names)
      if (k == name) *ptr = round_sig(*ptr, 4);
  Eigen::MatrixXd jac(pb.values(), n);
  nd.df(x, jac);
  Eigen::MatrixXd cov = (jac.transpose() * jac).ldlt().solve(Eigen::MatrixXd::Identity(n, n));
  for (size_t i = 0; i < pb.obs.size(); ++i)
    r.residuals.push_back({pb.obs[i].name, pb.obs[i].value.v, pb.predict(r.params, i)});
  for (const auto& c : workloads::run_flex_suite(r.params, pb.flex.budget.v, 1.0)) {
    r.flex_agree += (c.pass != workloads::flex_published_fail(c.c));
    r.flex_fail += !c.pass;
  }
  for (int i = 0; i < n; ++i)
    r.uncertainty.push_back({pb.names[static_cast<size_t>(i)], round_sig(std::sqrt(std::max(0.0, cov(i, i))), 3)});
  return r;
}

std::string calibrate_compile_yaml(const CalibrateCompileResult& r) {
  std::ostringstream y;
  char line[256];
  y << "# Compile-latency parameters (models/compile/compile_model.h). GENERATED by\n"
       "#   build/trnsim calibrate workloads/calibration/compile_observations.yaml --out "
       "workloads/calibration/compile.yaml\n"
       "# do not edit by hand (a test checks this file equals the command's output).\n"
       "# Method: Levenberg-Marquardt on log time with log-normal priors (compile_observations.yaml);\n"
       "# the FlexAttention suite enters as 96 smooth hinge bounds against its budget.\n"
       "# Residuals on the observations (simulated / measured - 1):\n";
  for (const auto& o : r.residuals) {
    std::snprintf(line, sizeof line, "#   %-44s measured %9.1f s  model %9.1f s  %+6.1f%%\n", o.name.c_str(),
                  o.measured_s, o.model_s, (o.model_s / o.measured_s - 1) * 100);
    y << line;
  }
  std::snprintf(line, sizeof line,
                "#   FlexAttention suite: %d of 96 cases agree with the published outcome; %d fail (published: 7)\n",
                r.flex_agree, r.flex_fail);
  y << line;
  y << "# Fitted parameters: ln(value) with the fit's standard deviation; the others keep their prior.\n";
  y << "compile_params:\n" << sim::to_yaml(sim::write_config(r.params), 2);
  y << "uncertainty:   # standard deviation of ln(parameter): fit covariance for fitted ones\n";
  for (const auto& [name, sigma] : r.uncertainty) {
    std::snprintf(line, sizeof line, "  %s: %.3f\n", name.c_str(), sigma);
    y << line;
  }
  return y.str();
}

nlohmann::ordered_json calibrate_compile_json(const CalibrateCompileResult& r) {
  nlohmann::ordered_json js;
  js["residuals"] = nlohmann::ordered_json::array();
  for (const auto& o : r.residuals)
    js["residuals"].push_back({{"name", o.name}, {"measured_s", o.measured_s}, {"model_s", o.model_s}});
  js["flexattention"] = {{"agree", r.flex_agree}, {"fail", r.flex_fail}};
  for (const auto& [name, sigma] : r.uncertainty) js["uncertainty"][name] = sigma;
  return js;
}

}  // namespace trn::app
