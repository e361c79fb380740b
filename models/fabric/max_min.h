// Weighted max-min fair bandwidth sharing (progressive filling), the flow-level model of
// links, DMA engines and HBM stacks shared by concurrent transfers.
//
// Each flow uses a set of resources; on resource j a flow moving at rate r consumes
// weight x r of the capacity (weight 2 models a reduction that runs at half the copy
// rate). Rates are raised together until a resource saturates; flows through it freeze;
// repeat. The result is Pareto-efficient and fair, and never oversubscribes a resource.
#pragma once

#include <cstdint>
#include <functional>
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
  void solve(const std::vector<double>& capacity, const std::vector<const std::vector<ResourceUse>*>& flows,
             std::vector<double>& rates, double unbounded_rate = 1e18);
  /// The same for classes of identical flows: `flows[i]` stands for `multiplicity[i]` flows
  /// over the same resources, which max-min fairness gives one rate (they freeze together), so
  /// class i loads each of its resources with multiplicity[i] x weight. `rates[i]` is the rate
  /// of each flow of the class: that of the flows solved one by one, and bit for bit the same
  /// where the weights are small integers (their sums are exact in any order).
  void solve(const std::vector<double>& capacity, const std::vector<const std::vector<ResourceUse>*>& flows,
             const std::vector<uint32_t>& multiplicity, std::vector<double>& rates, double unbounded_rate = 1e18);

 private:
  struct Entry {
    double level;      // fill level at which the resource saturates
    int32_t resource;  // global index: ties break on it, so the order is deterministic
    int32_t local;     // index into the touched resources of this solve
    uint32_t version;  // stale when the resource's unfrozen weight changed since
    bool operator>(const Entry& o) const { return level != o.level ? level > o.level : resource > o.resource; }
  };
  using Flows = std::vector<const std::vector<ResourceUse>*>;
  void solve_classes(const std::vector<double>& capacity, const Flows& flows, std::vector<double>& rates,
                     double unbounded_rate);
  void solve_one(const std::vector<double>& capacity, const std::vector<ResourceUse>& uses, double m, double& rate);
  double mult(size_t f) const { return mult_ ? static_cast<double>((*mult_)[f]) : 1.0; }
  // The steps of solve(): number the touched resources and index their flows (returns the
  // flows to fill), raise the level until every flow froze (returns the last level), freeze
  // the flows of the saturated resources in batch_.
  size_t index_flows(const std::vector<double>& capacity, const Flows& flows, std::vector<double>& rates,
                     double unbounded_rate);
  double fill(const Flows& flows, std::vector<double>& rates, size_t& active);
  void freeze_batch(const Flows& flows, std::vector<double>& rates, double level, size_t& active);
  void push(size_t l);               // a heap entry for local resource l at its current state
  bool valid(const Entry& e) const;  // not saturated and not stale
  // Scratch space, kept between calls to avoid reallocation. Per-resource arrays are
  // indexed by the local number of a touched resource; local_ maps global -> local (-1).
  std::vector<double> remaining_, weight_sum_, base_, cap_;
  std::vector<char> frozen_, saturated_, requeue_;
  std::vector<size_t> count_, start_, fill_;
  std::vector<int32_t> members_, batch_, local_, touched_, changed_;
  std::vector<uint32_t> version_;
  std::vector<Entry> heap_;
  const std::vector<uint32_t>* mult_ = nullptr;  // multiplicity per flow of the current solve (nullptr: 1)
};

}  // namespace trn::models
