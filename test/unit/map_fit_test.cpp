// The calibrations' fit core (models/fit/map_fit.h) on synthetic models whose parameters are
// known: it recovers them, reports their uncertainty and what determines them, and refits
// without a row. Runs in milliseconds, so the fit itself is tested in `make test`.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/fit/map_fit.h"

using namespace trn;

namespace {

// y = A * x^B observed at x = 1..8, exactly (noise-free), with broad priors; a third
// parameter C acts on no row.
models::MapModel power_law(double A, double B) {
  models::MapModel m;
  m.params = {{"A", std::log(1.0), 3.0}, {"B", std::log(1.0), 3.0}, {"C", std::log(2.0), 0.5}};
  m.rows = 8;
  for (int i = 1; i <= 8; ++i) m.row_names.push_back("x=" + std::to_string(i));
  m.residuals = [A, B](const std::vector<Eigen::VectorXd>& thetas) {
    std::vector<Eigen::VectorXd> out;
    for (const auto& th : thetas) {
      Eigen::VectorXd r(8);
      for (int i = 1; i <= 8; ++i) {
        const double model = std::exp(th[0]) * std::pow(i, std::exp(th[1]));
        r[i - 1] = (std::log(model) - std::log(A * std::pow(i, B))) / 0.1;
      }
      out.push_back(r);
    }
    return out;
  };
  return m;
}

}  // namespace

TEST_CASE("map_fit recovers known parameters of a synthetic model", "[fit]") {
  const models::MapModel m = power_law(3.5, 1.7);
  const models::MapFit f = models::map_fit(m, models::prior_point(m));
  CHECK(std::exp(f.theta[0]) == Approx(3.5).epsilon(1e-3));
  CHECK(std::exp(f.theta[1]) == Approx(1.7).epsilon(1e-3));
  CHECK(std::exp(f.theta[2]) == Approx(2.0).epsilon(1e-9));  // no data: stays at its prior
  CHECK(f.covariance(2, 2) == Approx(0.25));                 // and keeps the prior's width
  CHECK(f.covariance(0, 0) < 0.01);
}

TEST_CASE("map_fit: what determines each parameter", "[fit]") {
  const models::MapModel m = power_law(3.5, 1.7);
  const models::MapFit f = models::map_fit(m, models::prior_point(m));
  const auto d = models::determination(m, f, [&m](size_t row) { return m.row_names[row]; });
  REQUIRE(d.size() == 3);
  CHECK(d[0].data_share > 0.99);
  CHECK_FALSE(d[0].assumption());
  CHECK(d[2].data_share == 0);
  CHECK(d[2].assumption());
  CHECK(d[2].determined_by.empty());
  // B's information grows with ln x: the largest x carries most of it.
  REQUIRE_FALSE(d[1].determined_by.empty());
  CHECK(d[1].determined_by[0] == "x=8");
}

TEST_CASE("map_fit: leave a row out, by refit and by one Gauss-Newton step", "[fit]") {
  models::MapModel m = power_law(3.5, 1.7);
  // Row 4 (x = 5) is an outlier: 30 % high.
  auto base = m.residuals;
  m.residuals = [base](const std::vector<Eigen::VectorXd>& thetas) {
    auto out = base(thetas);
    for (auto& r : out) r[4] -= std::log(1.3) / 0.1;
    return out;
  };
  const models::MapFit all = models::map_fit(m, models::prior_point(m));
  std::vector<char> use(8, 1);
  use[4] = 0;
  const models::MapFit without = models::map_fit(m, all.theta, {}, use);
  CHECK(std::exp(without.theta[0]) == Approx(3.5).epsilon(1e-3));  // the others are exact
  CHECK(std::exp(without.theta[1]) == Approx(1.7).epsilon(1e-3));
  std::vector<char> keep(8 + 3, 1);
  keep[4] = 0;
  const Eigen::VectorXd linear = all.theta + models::gauss_newton_step(all, keep, 0);
  CHECK(std::exp(linear[1]) == Approx(1.7).epsilon(2e-2));  // the linearised refit lands close
  CHECK(all.cost() > without.cost());
}

TEST_CASE("map_fit moves on the parameter file's grid when it rounds", "[fit]") {
  models::MapModel m = power_law(3.5, 1.7);
  m.round = [](const Eigen::VectorXd& th) {  // two decimals of each value
    Eigen::VectorXd out = th;
    for (Eigen::Index j = 0; j < th.size(); ++j) out[j] = std::log(std::round(std::exp(th[j]) * 100) / 100);
    return out;
  };
  models::MapOptions o;
  o.diff_step = 0.03;
  const models::MapFit f = models::map_fit(m, models::prior_point(m), o);
  CHECK(std::exp(f.theta[0]) == Approx(3.5).margin(0.011));
  CHECK(std::exp(f.theta[1]) == Approx(1.7).margin(0.011));
  const double v = std::exp(f.theta[1]) * 100;
  CHECK(std::fabs(v - std::round(v)) < 1e-6);
}
