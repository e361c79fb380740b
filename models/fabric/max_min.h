// Weighted max-min fair bandwidth sharing (progressive filling), the flow-level model of
// links, DMA engines and HBM stacks shared by concurrent transfers.
//
// Each flow uses a set of resources; on resource j a flow moving at rate r consumes
// weight x r of the capacity (weight 2 models a reduction that runs at half the copy
// rate). Rates are raised together until a resource saturates; flows through it freeze;
// repeat. The result is Pareto-efficient and fair, and never oversubscribes a resource.
#pragma once

#include <cstdint>
#include <vector>

namespace trn::models {

struct ResourceUse {
  int32_t resource = 0;
  double weight = 1.0;
};

class MaxMinSolver {
 public:
  /// `capacity[j]` in bytes/s. Flows are given as spans of ResourceUse.
  /// Writes one rate per flow into `rates` (bytes/s). A flow with no resources gets
  /// `unbounded_rate`.
  void solve(const std::vector<double>& capacity,
             const std::vector<const std::vector<ResourceUse>*>& flows, std::vector<double>& rates,
             double unbounded_rate = 1e18);

 private:
  std::vector<double> remaining_, weight_sum_;
  std::vector<char> frozen_, saturated_;
  std::vector<int32_t> touched_;
};

}  // namespace trn::models
