// Progressive filling for weighted max-min fairness.
#include "models/fabric/max_min.h"

#include <algorithm>
#include <limits>

namespace trn::models {

void MaxMinSolver::solve(const std::vector<double>& capacity,
                         const std::vector<const std::vector<ResourceUse>*>& flows,
                         std::vector<double>& rates, double unbounded_rate) {
  const size_t nf = flows.size();
  rates.assign(nf, 0.0);
  if (nf == 0) return;
  remaining_ = capacity;
  weight_sum_.assign(capacity.size(), 0.0);
  saturated_.assign(capacity.size(), 0);
  frozen_.assign(nf, 0);
  touched_.clear();
  size_t active = 0;
  for (size_t f = 0; f < nf; ++f) {
    if (flows[f]->empty()) {
      rates[f] = unbounded_rate;
      frozen_[f] = 1;
      continue;
    }
    ++active;
    for (const auto& u : *flows[f]) {
      if (weight_sum_[u.resource] == 0.0) touched_.push_back(u.resource);
      weight_sum_[u.resource] += u.weight;
    }
  }
  std::sort(touched_.begin(), touched_.end());
  while (active > 0) {
    // Largest common increment before some resource saturates.
    double inc = std::numeric_limits<double>::infinity();
    for (int32_t j : touched_) {
      if (saturated_[j] || weight_sum_[j] <= 0.0) continue;
      inc = std::min(inc, remaining_[j] / weight_sum_[j]);
    }
    if (!(inc < std::numeric_limits<double>::infinity())) break;
    for (size_t f = 0; f < nf; ++f)
      if (!frozen_[f]) rates[f] += inc;
    for (int32_t j : touched_) {
      if (saturated_[j]) continue;
      remaining_[j] -= inc * weight_sum_[j];
      if (remaining_[j] <= capacity[j] * 1e-12) saturated_[j] = 1;
    }
    // Freeze flows crossing a saturated resource.
    for (size_t f = 0; f < nf; ++f) {
      if (frozen_[f]) continue;
      bool hit = false;
      for (const auto& u : *flows[f]) hit = hit || saturated_[u.resource];
      if (!hit) continue;
      frozen_[f] = 1;
      --active;
      for (const auto& u : *flows[f]) weight_sum_[u.resource] -= u.weight;
    }
  }
}

}  // namespace trn::models
