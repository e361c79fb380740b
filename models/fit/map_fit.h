// One fit core for the calibrations (docs/architecture.md, Calibration): the maximum a posteriori
// estimate of positive parameters with log-normal priors, fitted in log space by
// Levenberg-Marquardt to weighted data residuals, with the covariance of the log parameters,
// each observation's share of the information on each parameter, and leave-one-out refits.
//
// The model is a batch evaluator: given several parameter points (ln values) it returns the data
// residuals at each. A calibration that simulates (the runtime fit) evaluates the points' rows in
// forked children at once; one with closed forms (the compile fit) loops. The core appends the
// prior residuals (theta - theta0) / sigma0 itself. Pure C++ with Eigen.
#pragma once

#include <Eigen/Dense>

#include <functional>
#include <string>
#include <vector>

namespace trn::models {

/// A fitted parameter: its prior ln(value) and the width of its log-normal prior.
struct FitParam {
  std::string name;
  double theta0 = 0, sigma0 = 1;
};

struct MapModel {
  std::vector<FitParam> params;
  int rows = 0;  // data residuals
  /// The data residuals (rows values each) at every point of `thetas`.
  std::function<std::vector<Eigen::VectorXd>(const std::vector<Eigen::VectorXd>& thetas)> residuals;
  /// Optional: rounds a point to what the parameter file can hold (the fit then moves on that grid).
  std::function<Eigen::VectorXd(const Eigen::VectorXd&)> round;
  /// Optional: whether parameter `param` acts on data row `row` (its Jacobian entry is 0 if not).
  std::function<bool(size_t row, size_t param)> acts_on;
  /// The names of the data rows (the determination report).
  std::vector<std::string> row_names;
};

struct MapOptions {
  double diff_step = 1e-4;   // forward-difference step in ln(parameter)
  int max_iterations = 100;  // Levenberg-Marquardt steps
  double lambda0 = 1e-3;     // initial damping (relative to the diagonal of J^T J)
  double min_step = 1e-9;    // converged when no parameter moves more (in ln)
  std::function<void(int iteration, double cost_before, double cost_after, double lambda)> on_step;
};

struct MapFit {
  Eigen::VectorXd theta;       // ln parameters at the optimum
  Eigen::VectorXd residuals;   // data rows, then priors
  Eigen::MatrixXd jacobian;    // of `residuals` in theta
  Eigen::MatrixXd covariance;  // (J^T J)^-1 of the ln parameters
  int iterations = 0;
  double cost() const { return residuals.squaredNorm(); }
};

/// The MAP fit of the rows with use[row] (all rows when empty), from `start`.
MapFit map_fit(const MapModel& m, const Eigen::VectorXd& start, const MapOptions& o = {},
               const std::vector<char>& use = {});

/// The priors as a point (theta0 of every parameter).
Eigen::VectorXd prior_point(const MapModel& m);

/// A damped Gauss-Newton step from `f` on the rows with keep[row] and every prior: the
/// linearised refit without the others (lambda 0) or one Levenberg-Marquardt step.
Eigen::VectorXd gauss_newton_step(const MapFit& f, const std::vector<char>& keep, double lambda);

/// Which observations determine one parameter: its posterior sigma, the data's share of the
/// information J^T J holds on it (against the prior's 1 / sigma0^2), and the rows carrying at
/// least 10 % of the data's information, largest first (at most three), then the rest's share.
struct Determination {
  std::string name;
  double log_sigma = 0, prior_log_sigma = 0, data_share = 0;
  std::vector<std::string> determined_by;
  bool assumption() const { return data_share < 0.5; }
};
/// `group(row)`: the name a row's information is counted under (rows of one name add up).
std::vector<Determination> determination(const MapModel& m, const MapFit& f,
                                         const std::function<std::string(size_t row)>& group);

}  // namespace trn::models
