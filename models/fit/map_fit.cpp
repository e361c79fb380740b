// The calibrations' fit core (see map_fit.h).
#include "models/fit/map_fit.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace trn::models {
namespace {

using Eigen::Index;

Index idx(size_t i) { return static_cast<Index>(i); }

Eigen::VectorXd rounded(const MapModel& m, const Eigen::VectorXd& th) { return m.round ? m.round(th) : th; }

// Data rows (zero where not used), then the priors.
Eigen::VectorXd full_residuals(const MapModel& m, const Eigen::VectorXd& th, const Eigen::VectorXd& data,
                               const std::vector<char>& use) {
  const size_t n = m.params.size();
  Eigen::VectorXd r = Eigen::VectorXd::Zero(m.rows + idx(n));
  for (int i = 0; i < m.rows; ++i)
    if (use[static_cast<size_t>(i)]) r[i] = data[i];
  for (size_t j = 0; j < n; ++j) r[m.rows + idx(j)] = (th[idx(j)] - m.params[j].theta0) / m.params[j].sigma0;
  return r;
}

// Forward-difference Jacobian at `th` (whose data residuals are `base`), all columns' points
// evaluated in one batch.
Eigen::MatrixXd jacobian(const MapModel& m, const Eigen::VectorXd& th, const Eigen::VectorXd& base,
                         const std::vector<char>& use, double step) {
  const size_t n = m.params.size();
  std::vector<Eigen::VectorXd> points;
  std::vector<double> h(n);
  for (size_t j = 0; j < n; ++j) {
    Eigen::VectorXd t = th;
    t[idx(j)] += step;
    t = rounded(m, t);
    h[j] = t[idx(j)] - th[idx(j)];
    points.push_back(t);
  }
  const std::vector<Eigen::VectorXd> at = m.residuals(points);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(m.rows + idx(n), idx(n));
  for (size_t j = 0; j < n; ++j) {
    for (int i = 0; i < m.rows; ++i) {
      const size_t row = static_cast<size_t>(i);
      if (!use[row] || (m.acts_on && !m.acts_on(row, j)) || h[j] == 0) continue;
      J(i, idx(j)) = (at[j][i] - base[i]) / h[j];
    }
    J(m.rows + idx(j), idx(j)) = 1.0 / m.params[j].sigma0;
  }
  return J;
}

}  // namespace

Eigen::VectorXd prior_point(const MapModel& m) {
  Eigen::VectorXd th(idx(m.params.size()));
  for (size_t j = 0; j < m.params.size(); ++j) th[idx(j)] = m.params[j].theta0;
  return th;
}

Eigen::VectorXd gauss_newton_step(const MapFit& f, const std::vector<char>& keep, double lambda) {
  Eigen::MatrixXd J = f.jacobian;
  Eigen::VectorXd r = f.residuals;
  for (size_t i = 0; i < keep.size(); ++i)
    if (!keep[i]) {
      J.row(idx(i)).setZero();
      r[idx(i)] = 0;
    }
  Eigen::MatrixXd A = J.transpose() * J;
  const Eigen::VectorXd d = A.diagonal();
  for (Index j = 0; j < A.rows(); ++j) A(j, j) += lambda * d[j];
  return -A.ldlt().solve(J.transpose() * r);
}

MapFit map_fit(const MapModel& m, const Eigen::VectorXd& start, const MapOptions& o, const std::vector<char>& use_in) {
  const std::vector<char> use = use_in.empty() ? std::vector<char>(static_cast<size_t>(m.rows), 1) : use_in;
  MapFit f;
  f.theta = rounded(m, start);
  Eigen::VectorXd data = m.residuals({f.theta})[0];
  f.residuals = full_residuals(m, f.theta, data, use);
  f.jacobian = jacobian(m, f.theta, data, use, o.diff_step);
  double lambda = o.lambda0;
  std::vector<char> keep(use.begin(), use.end());
  keep.resize(static_cast<size_t>(m.rows) + m.params.size(), 1);
  for (; f.iterations < o.max_iterations; ++f.iterations) {
    const Eigen::VectorXd t = rounded(m, f.theta + gauss_newton_step(f, keep, lambda));
    if ((t - f.theta).cwiseAbs().maxCoeff() < o.min_step) break;  // converged (on the rounding grid)
    const Eigen::VectorXd data2 = m.residuals({t})[0];
    const Eigen::VectorXd r2 = full_residuals(m, t, data2, use);
    if (o.on_step) o.on_step(f.iterations + 1, f.cost(), r2.squaredNorm(), lambda);
    if (r2.squaredNorm() < f.cost()) {
      f.theta = t;
      f.residuals = r2;
      f.jacobian = jacobian(m, t, data2, use, o.diff_step);
      lambda = std::max(1e-6, lambda / 10);
    } else {
      lambda *= 10;
      if (lambda > 1e4) break;
    }
  }
  const Index n = idx(m.params.size());
  f.covariance = (f.jacobian.transpose() * f.jacobian).ldlt().solve(Eigen::MatrixXd::Identity(n, n));
  return f;
}

std::vector<Determination> determination(const MapModel& m, const MapFit& f,
                                         const std::function<std::string(size_t row)>& group) {
  std::vector<Determination> out;
  for (size_t j = 0; j < m.params.size(); ++j) {
    Determination d;
    d.name = m.params[j].name;
    d.prior_log_sigma = m.params[j].sigma0;
    d.log_sigma = std::sqrt(std::max(0.0, f.covariance(idx(j), idx(j))));
    std::map<std::string, double> info;
    double data = 0;
    for (int i = 0; i < m.rows; ++i) {
      const double v = f.jacobian(i, idx(j)) * f.jacobian(i, idx(j));
      if (v == 0) continue;
      info[group(static_cast<size_t>(i))] += v;
      data += v;
    }
    d.data_share = data / (data + 1.0 / (d.prior_log_sigma * d.prior_log_sigma));
    std::vector<std::pair<double, std::string>> by;
    for (const auto& [name, v] : info) by.push_back({v, name});
    std::sort(by.begin(), by.end(), [](const auto& a, const auto& b) {
      return a.first > b.first || (a.first == b.first && a.second < b.second);
    });
    double named = 0;
    for (const auto& [v, name] : by)
      if (d.determined_by.size() < 3 && v >= 0.1 * data) {
        d.determined_by.push_back(name);
        named += v;
      }
    const size_t rest = by.size() - d.determined_by.size();
    if (data > 0 && data - named >= 0.1 * data)
      d.determined_by.push_back(std::to_string(rest) + (d.determined_by.empty() ? "" : " other") + " figures (" +
                                std::to_string(static_cast<int>(std::lround(100 * (data - named) / data))) +
                                " % of the data's information)");
    out.push_back(d);
  }
  return out;
}

}  // namespace trn::models
