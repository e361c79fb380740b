// `trnsim calibrate-collectives`: fits the two calibrated collective parameters (collective
// DMA engines per core, launch overhead) to the 2-rank nccom-test example, with residuals on
// the fitting points and on held-out points. Options in, run_calibrate_collectives, result
// out; the writers give hw/configs/calibration/collectives.yaml and JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace trn::app {

struct CalibrateCollectivesOptions {};

struct CollectiveResidual {
  std::string label;
  bool fitted = false;  // false: held out
  double measured_s = 0, simulated_s = 0;
};

struct CalibrateCollectivesResult {
  int dma_engines_per_core = 0;
  double launch_overhead_s = 0;
  std::vector<CollectiveResidual> residuals;  // every data point at the fitted values
};

/// Fits and evaluates (each simulation in a forked child).
CalibrateCollectivesResult run_calibrate_collectives(const CalibrateCollectivesOptions& o = {});
/// The calibration file (YAML with its data, method and residuals as comments).
std::string calibrate_collectives_yaml(const CalibrateCollectivesResult& r);
nlohmann::ordered_json calibrate_collectives_json(const CalibrateCollectivesResult& r);

}  // namespace trn::app
