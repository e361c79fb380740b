// The intervals of `trnsim startup` (startup_intervals.h).
#include "sim/app/commands/startup_intervals.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "sim/base/config_reader.h"
#include "sim/base/units.h"

namespace trn::app {
namespace {

// The inclusive lower bound the field `key` declares (alpha and k_first: 1), if any.
struct LowerBound {
  const std::string& key;
  std::optional<double> min;
  template <class T>
  void field(const char* k, T&, const sim::FieldSpec& s) {
    if (key == k && s.min && !s.min_exclusive) min = s.min;
  }
};

// A standard normal deviate stream that is the same on every machine and compiler: SplitMix64
// and Box-Muller (std::normal_distribution's algorithm is the library's choice).
class Normals {
 public:
  explicit Normals(uint64_t seed) : state_(seed) {}
  double next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = (static_cast<double>(bits() >> 11) + 0.5) / 9007199254740992.0;
    const double u2 = (static_cast<double>(bits() >> 11) + 0.5) / 9007199254740992.0;
    const double r = std::sqrt(-2 * std::log(u1)), a = 6.283185307179586 * u2;
    spare_ = r * std::sin(a);
    has_spare_ = true;
    return r * std::cos(a);
  }

 private:
  uint64_t bits() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t state_;
  double spare_ = 0;
  bool has_spare_ = false;
};

// One mode's linearisation: the change of ln(first step) along each compile axis, and of
// ln(first step) and ln(steady step) with each runtime parameter; the structural and distance
// sigmas of both.
struct ModeLinear {
  double first = 0, steady = 0;
  std::vector<double> axes;
  std::vector<std::pair<std::string, double>> first_rt, steady_rt;
  double first_other = 0, steady_other = 0;  // structural and distance together
};

double root_sum_squares(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

ModeLinear linearise(const workloads::ScenarioSpec& sc, workloads::ExecMode mode, const workloads::FirstStep& fs,
                     double steady, const models::CompileParams& params, const IntervalModel& model,
                     const PerturbedSteps& moved, PredictionInterval& first_iv, PredictionInterval& steady_iv) {
  ModeLinear m;
  const double first = fs.total;
  m.first = first;
  m.steady = steady;
  // The inventory and host inputs once; the compile model is then a closed form of the parameters.
  const workloads::FirstStepInputs in = workloads::first_step_inputs(sc, mode, steady);
  const double f0 = workloads::first_step(in, params).total;
  const FitSpread& cf = model.compile;
  for (const auto& p : along_axes(cf, params)) m.axes.push_back(std::log(workloads::first_step(in, p).total / f0));
  std::vector<double> dfs;
  for (const auto& [name, s] : moved) {
    m.first_rt.emplace_back(name, std::log(workloads::first_step(sc, params, mode, s).total / f0));
    m.steady_rt.emplace_back(name, std::log(s / steady));
    dfs.push_back(m.first_rt.back().second);
  }
  std::vector<double> all = m.axes;
  all.insert(all.end(), dfs.begin(), dfs.end());
  const std::vector<std::string> why_c = uncovered(cf, "compile", sc);
  // The compile fit's residuals are compile times (and two whole first steps): its structural
  // error acts on the compile part, a share of the first step.
  const double compile_share = fs.total > 0 ? fs.part(workloads::StartupPart::Compile) / fs.total : 1.0;
  const double stc = cf.structural_log_sigma * compile_share;
  first_iv = log_normal_interval(first, model.level, root_sum_squares(all), stc, stc * std::sqrt(double(why_c.size())));
  first_iv.by_param.emplace_back("compile parameters", root_sum_squares(m.axes));
  for (const auto& x : m.first_rt) first_iv.by_param.push_back(x);
  first_iv.why = why_c;
  steady_iv = steady_step_interval(model, sc, steady, moved);
  m.first_other = std::hypot(first_iv.structural, first_iv.distance);
  m.steady_other = std::hypot(steady_iv.structural, steady_iv.distance);
  return m;
}

double runtime_change(const std::vector<std::pair<std::string, double>>& v, const std::string& name) {
  for (const auto& [n, d] : v)
    if (n == name) return d;
  return 0;
}

// The break-even point's quantiles over 4,000 draws of the linearised model: the compile axes
// and runtime parameters shared by both modes, each mode's structural and distance terms apart.
BreakEvenInterval break_even_interval(const ModeLinear& e, const ModeLinear& c, double level) {
  std::vector<std::string> names;
  for (const auto& [n, d] : e.first_rt) names.push_back(n);
  for (const auto& [n, d] : c.first_rt)
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  Normals z(20261204);
  const int draws = 4000;
  const double never = std::numeric_limits<double>::infinity();
  std::vector<double> steps;
  for (int i = 0; i < draws; ++i) {
    double lfe = 0, lfc = 0, lse = 0, lsc = 0;
    for (size_t k = 0; k < std::max(e.axes.size(), c.axes.size()); ++k) {
      const double x = z.next();
      lfe += k < e.axes.size() ? x * e.axes[k] : 0;
      lfc += k < c.axes.size() ? x * c.axes[k] : 0;
    }
    for (const auto& n : names) {
      const double x = z.next();
      lfe += x * runtime_change(e.first_rt, n);
      lfc += x * runtime_change(c.first_rt, n);
      lse += x * runtime_change(e.steady_rt, n);
      lsc += x * runtime_change(c.steady_rt, n);
    }
    lfe += z.next() * e.first_other;
    lfc += z.next() * c.first_other;
    lse += z.next() * e.steady_other;
    lsc += z.next() * c.steady_other;
    const double fe = e.first * std::exp(lfe), fc = c.first * std::exp(lfc);
    const double se = e.steady * std::exp(lse), sc = c.steady * std::exp(lsc);
    steps.push_back(sc < se ? std::max(1.0, std::ceil(1 + (fc - fe) / (se - sc))) : never);
  }
  std::sort(steps.begin(), steps.end());
  auto quantile = [&](double q) { return steps[std::min<size_t>(steps.size() - 1, size_t(q * steps.size()))]; };
  BreakEvenInterval b;
  b.valid = true;
  b.level = level;
  b.low = quantile((1 - level) / 2);
  b.high = quantile((1 + level) / 2);
  b.never = std::isinf(b.high);
  if (b.never) b.high = 0;
  if (std::isinf(b.low)) b.low = 0;
  return b;
}

}  // namespace

models::CompileParams scaled(const models::CompileParams& p, const std::string& key, double factor) {
  sim::ConfigNode n = sim::write_config(p);
  models::CompileParams out = p;
  sim::ConfigNode* f = n.find(key);
  if (!f) return out;
  std::string why;
  if (auto q = sim::parse_quantity(f->scalar, sim::Dim::Time, &why)) {
    f->scalar = sim::format_quantity_exact(*q * factor, sim::Dim::Time);
  } else if (auto bw = sim::parse_quantity(f->scalar, sim::Dim::Bandwidth, &why)) {
    f->scalar = sim::format_quantity_exact(*bw * factor, sim::Dim::Bandwidth);
  } else if (auto b = sim::parse_quantity(f->scalar, sim::Dim::Bytes, &why)) {
    f->scalar = sim::format_quantity_exact(*b * factor, sim::Dim::Bytes);
  } else {
    LowerBound bound{key, std::nullopt};
    out.visit(bound);
    const double x = std::stod(f->scalar) * factor;
    f->scalar = sim::format_double_exact(bound.min ? std::max(*bound.min, x) : x);
  }
  sim::read_config(n, out);
  return out;
}

std::vector<models::CompileParams> along_axes(const FitSpread& fit, const models::CompileParams& params) {
  std::vector<models::CompileParams> out;
  for (const auto& axis : fit.parameter_axes) {
    models::CompileParams p = params;
    for (size_t j = 0; j < axis.shifts.size() && j < fit.parameters.size(); ++j)
      p = scaled(p, fit.parameters[j], std::exp(axis.shifts[j]));
    out.push_back(p);
  }
  return out;
}

void set_startup_intervals(StartupResult& r, const models::CompileParams& params, const IntervalModel& model,
                           const PerturbedSteps& eager, const PerturbedSteps& compiled) {
  ModeLinear e, c;
  if (r.has_eager)
    e = linearise(r.eager_scenario, workloads::ExecMode::Eager, r.eager, r.steady_eager, params, model, eager,
                  r.first_eager, r.steady_eager_iv);
  if (r.has_compiled)
    c = linearise(r.compiled_scenario, workloads::ExecMode::Compiled, r.compiled, r.steady_compiled, params, model,
                  compiled, r.first_compiled, r.steady_compiled_iv);
  if (r.has_eager && r.has_compiled) r.break_even = break_even_interval(e, c, model.level);
}

}  // namespace trn::app
