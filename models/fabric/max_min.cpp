// Progressive filling for weighted max-min fairness, event-driven.
//
// All unfrozen flows rise together, so a flow's rate is the common fill level at the moment
// it freezes. Resource j with unfrozen weight w_j and spare capacity c_j saturates at level
// L + c_j / w_j; an indexed min-heap keyed by that level (an entry moves when w_j changes)
// gives the next saturation. Freezing a flow touches only its own resources (resource -> flow
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
  saturated_.assign(nt, 0);
  return active;
}

void MaxMinSolver::LevelHeap::reset(const std::vector<int32_t>& global, size_t n) {
  global_ = &global;
  level_.resize(n);
  pos_.assign(n, kAbsent);
  heap_.clear();
}

void MaxMinSolver::LevelHeap::heapify() {
  if (heap_.size() < 2) return;
  for (size_t i = (heap_.size() - 2) / 4 + 1; i-- > 0;) down(static_cast<uint32_t>(i));
}

void MaxMinSolver::LevelHeap::set(uint32_t l, double level) {
  if (pos_[l] == kAbsent) {
    set_unordered(l, level);
    up(pos_[l]);
    return;
  }
  const double old = level_[l];
  level_[l] = level;
  if (level < old)
    up(pos_[l]);
  else
    down(pos_[l]);
}

void MaxMinSolver::LevelHeap::erase(uint32_t l) {
  const uint32_t i = pos_[l];
  if (i == kAbsent) return;
  pos_[l] = kAbsent;
  const uint32_t last = heap_.back();
  heap_.pop_back();
  if (i == heap_.size()) return;
  heap_[i] = last;
  pos_[last] = i;
  up(i);
  down(pos_[last]);
}

void MaxMinSolver::LevelHeap::up(uint32_t i) {
  const uint32_t n = heap_[i];
  while (i > 0) {
    const uint32_t p = (i - 1) / 4;
    if (!less(n, heap_[p])) break;
    heap_[i] = heap_[p];
    pos_[heap_[i]] = i;
    i = p;
  }
  heap_[i] = n;
  pos_[n] = i;
}

void MaxMinSolver::LevelHeap::down(uint32_t i) {
  const uint32_t n = heap_[i], size = static_cast<uint32_t>(heap_.size());
  for (;;) {
    const uint32_t c0 = 4 * i + 1;
    if (c0 >= size) break;
    uint32_t best = c0;
    for (uint32_t c = c0 + 1; c < c0 + 4 && c < size; ++c)
      if (less(heap_[c], heap_[best])) best = c;
    if (!less(heap_[best], n)) break;
    heap_[i] = heap_[best];
    pos_[heap_[i]] = i;
    i = best;
  }
  heap_[i] = n;
  pos_[n] = i;
}

double MaxMinSolver::fill(const Flows& flows, std::vector<double>& rates, size_t& active) {
  const size_t nt = touched_.size();
  heap_.reset(touched_, nt);
  for (size_t l = 0; l < nt; ++l)
    if (loaded(l)) heap_.set_unordered(static_cast<uint32_t>(l), saturation_level(l));
  heap_.heapify();
  double level = 0.0;
  requeue_.assign(nt, 0);
  changed_.clear();
  while (active > 0 && !heap_.empty()) {
    const uint32_t first = heap_.top();
    level = std::max(level, saturation_level(first));
    heap_.pop();
    // Saturate it and every resource within rounding of saturation at this level.
    batch_.assign(1, static_cast<int32_t>(first));
    while (!heap_.empty()) {
      const size_t l = heap_.top();
      const double left = remaining_[l] - (level - base_[l]) * weight_sum_[l];
      if (left > cap_[l] * 1e-12) break;
      batch_.push_back(static_cast<int32_t>(l));
      heap_.pop();
    }
    freeze_batch(flows, rates, level, active);
    // Every resource whose unfrozen weight changed in this batch moves to its new level (its
    // state is final for the batch), or leaves the heap when no unfrozen flow loads it.
    for (int32_t c : changed_) {
      const size_t l = static_cast<size_t>(c);
      requeue_[l] = 0;
      if (loaded(l))
        heap_.set(static_cast<uint32_t>(l), saturation_level(l));
      else
        heap_.erase(static_cast<uint32_t>(l));
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
