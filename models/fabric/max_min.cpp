// Progressive filling for weighted max-min fairness, event-driven.
//
// All unfrozen flows rise together, so a flow's rate is the common fill level at the moment
// it freezes. Resource j with unfrozen weight w_j and spare capacity c_j saturates at level
// L + c_j / w_j; a min-heap keyed by that level (lazily invalidated when w_j changes) gives
// the next saturation. Freezing a flow touches only its own resources (resource -> flow
// lists in CSR form), and only resources some flow uses are visited. Cost per solve:
// O(F x hops x log T) for T touched resources, instead of O(saturation rounds x
// (F x hops + R)) for the textbook loop, which test/unit/max_min_test.cpp keeps as a
// reference and checks against on random networks.
#include "models/fabric/max_min.h"

#include <algorithm>
#include <limits>

namespace trn::models {

// One flow alone: it freezes at the lowest saturation level over its resources,
// 0 + capacity / weight (weights of a resource used twice add up, in use order), or at 0
// when no resource bounds it; the same arithmetic as the general loop below.
void MaxMinSolver::solve_one(const std::vector<double>& capacity, const std::vector<ResourceUse>& uses, double m,
                             double& rate) {
  double best = 0.0;
  int32_t best_res = 0;
  bool any = false;
  for (size_t i = 0; i < uses.size(); ++i) {
    const int32_t r = uses[i].resource;
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) seen = uses[j].resource == r;
    if (seen) continue;
    double w = 0.0;
    for (size_t j = i; j < uses.size(); ++j)
      if (uses[j].resource == r) w += m * uses[j].weight;
    if (!(w > 0.0)) continue;
    const double level = 0.0 + capacity[static_cast<size_t>(r)] / w;
    if (!any || level < best || (level == best && r < best_res)) {
      best = level;
      best_res = r;
      any = true;
    }
  }
  rate = any ? std::max(0.0, best) : 0.0;
}

void MaxMinSolver::solve(const std::vector<double>& capacity, const Flows& flows, std::vector<double>& rates,
                         double unbounded_rate) {
  mult_ = nullptr;
  solve_classes(capacity, flows, rates, unbounded_rate);
}

void MaxMinSolver::solve(const std::vector<double>& capacity, const Flows& flows,
                         const std::vector<uint32_t>& multiplicity, std::vector<double>& rates, double unbounded_rate) {
  mult_ = &multiplicity;
  solve_classes(capacity, flows, rates, unbounded_rate);
  mult_ = nullptr;
}

void MaxMinSolver::solve_classes(const std::vector<double>& capacity, const Flows& flows, std::vector<double>& rates,
                                 double unbounded_rate) {
  const size_t nf = flows.size();
  rates.assign(nf, 0.0);
  if (nf == 0) return;
  if (nf == 1) {
    if (flows[0]->empty())
      rates[0] = unbounded_rate;
    else
      solve_one(capacity, *flows[0], mult(0), rates[0]);
    return;
  }
  size_t active = index_flows(capacity, flows, rates, unbounded_rate);
  const double level = fill(flows, rates, active);
  // Flows bounded by no resource (zero-weight uses only) keep the last level.
  if (active > 0)
    for (size_t f = 0; f < nf; ++f)
      if (!frozen_[f]) rates[f] = level;
  for (int32_t r : touched_) local_[static_cast<size_t>(r)] = -1;
}

size_t MaxMinSolver::index_flows(const std::vector<double>& capacity, const Flows& flows, std::vector<double>& rates,
                                 double unbounded_rate) {
  const size_t nf = flows.size();
  if (local_.size() < capacity.size()) local_.resize(capacity.size(), -1);
  // Local numbering of the touched resources, in order of first use; the unfrozen weight and
  // flow count of each (count_[l + 1]).
  touched_.clear();
  weight_sum_.clear();
  count_.assign(1, 0);
  frozen_.assign(nf, 0);
  size_t active = 0;
  for (size_t f = 0; f < nf; ++f) {
    if (flows[f]->empty()) {
      rates[f] = unbounded_rate;
      frozen_[f] = 1;
      continue;
    }
    ++active;
    const double m = mult(f);
    for (const auto& u : *flows[f]) {
      int32_t& l = local_[static_cast<size_t>(u.resource)];
      if (l < 0) {
        l = static_cast<int32_t>(touched_.size());
        touched_.push_back(u.resource);
        weight_sum_.push_back(0.0);
        count_.push_back(0);
      }
      weight_sum_[static_cast<size_t>(l)] += m * u.weight;
      ++count_[static_cast<size_t>(l) + 1];
    }
  }
  const size_t nt = touched_.size();
  // CSR: flows of local resource l are members_[start_[l] .. start_[l+1]).
  start_.resize(nt + 1);
  start_[0] = 0;
  for (size_t l = 0; l < nt; ++l) start_[l + 1] = start_[l] + count_[l + 1];
  members_.resize(start_[nt]);
  fill_.assign(start_.begin(), start_.end());
  for (size_t f = 0; f < nf; ++f)
    if (!frozen_[f])
      for (const auto& u : *flows[f])
        members_[fill_[static_cast<size_t>(local_[static_cast<size_t>(u.resource)])]++] = static_cast<int32_t>(f);
  // count_[l + 1] is now the number of unfrozen flows on l.
  remaining_.resize(nt);
  cap_.resize(nt);
  for (size_t l = 0; l < nt; ++l) remaining_[l] = cap_[l] = capacity[static_cast<size_t>(touched_[l])];
  base_.assign(nt, 0.0);
  version_.assign(nt, 0);
  saturated_.assign(nt, 0);
  return active;
}

void MaxMinSolver::push(size_t l) {
  heap_.push_back(Entry{base_[l] + remaining_[l] / weight_sum_[l], touched_[l], static_cast<int32_t>(l), version_[l]});
  std::push_heap(heap_.begin(), heap_.end(), std::greater<>());  // a min-heap on (level, global resource index)
}

bool MaxMinSolver::valid(const Entry& e) const {
  const size_t l = static_cast<size_t>(e.local);
  return !saturated_[l] && e.version == version_[l];
}

double MaxMinSolver::fill(const Flows& flows, std::vector<double>& rates, size_t& active) {
  const size_t nt = touched_.size();
  const std::greater<> later;
  heap_.clear();
  for (size_t l = 0; l < nt; ++l)
    if (count_[l + 1] > 0 && weight_sum_[l] > 0.0) push(l);
  double level = 0.0;
  requeue_.assign(nt, 0);
  changed_.clear();
  while (active > 0 && !heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    Entry e = heap_.back();
    heap_.pop_back();
    if (!valid(e)) continue;
    level = std::max(level, e.level);
    // Saturate e and every resource within rounding of saturation at this level.
    batch_.assign(1, e.local);
    while (!heap_.empty()) {
      const Entry& top = heap_.front();
      const size_t l = static_cast<size_t>(top.local);
      if (valid(top)) {
        const double left = remaining_[l] - (level - base_[l]) * weight_sum_[l];
        if (left > cap_[l] * 1e-12) break;
        batch_.push_back(top.local);
      }
      std::pop_heap(heap_.begin(), heap_.end(), later);
      heap_.pop_back();
    }
    freeze_batch(flows, rates, level, active);
    // One fresh heap entry per resource whose unfrozen weight changed in this batch (its
    // state is final for the batch; earlier entries of it go stale).
    for (int32_t c : changed_) {
      const size_t l = static_cast<size_t>(c);
      requeue_[l] = 0;
      ++version_[l];
      if (count_[l + 1] > 0 && weight_sum_[l] > 0.0) push(l);
    }
    changed_.clear();
  }
  return level;
}

void MaxMinSolver::freeze_batch(const Flows& flows, std::vector<double>& rates, double level, size_t& active) {
  for (int32_t s : batch_) saturated_[static_cast<size_t>(s)] = 1;
  for (int32_t s : batch_) {
    for (size_t k = start_[static_cast<size_t>(s)]; k < start_[static_cast<size_t>(s) + 1]; ++k) {
      const size_t f = static_cast<size_t>(members_[k]);
      if (frozen_[f]) continue;
      frozen_[f] = 1;
      rates[f] = level;
      --active;
      const double m = mult(f);
      for (const auto& u : *flows[f]) {
        const size_t l = static_cast<size_t>(local_[static_cast<size_t>(u.resource)]);
        if (saturated_[l]) continue;
        remaining_[l] -= (level - base_[l]) * weight_sum_[l];
        base_[l] = level;
        weight_sum_[l] -= m * u.weight;
        --count_[l + 1];
        if (!requeue_[l]) {
          requeue_[l] = 1;
          changed_.push_back(static_cast<int32_t>(l));
        }
      }
    }
  }
}

}  // namespace trn::models
