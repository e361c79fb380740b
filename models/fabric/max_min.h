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
  // Indexed 4-ary min-heap of the touched resources (local numbers) by the level at which each
  // saturates, ties broken by the global resource index (a total order, so the saturation
  // order does not depend on the heap's layout); one entry per resource, moved in place when
  // its unfrozen weight changes.
  class LevelHeap {
   public:
    void reset(const std::vector<int32_t>& global, size_t n);
    bool empty() const { return heap_.empty(); }
    uint32_t top() const { return heap_.front(); }
    void set(uint32_t l, double level);  // insert or move
    void erase(uint32_t l);
    void pop() { erase(heap_.front()); }
    void heapify();  // after set_unordered() calls, before any other use
    void set_unordered(uint32_t l, double level) {
      level_[l] = level;
      pos_[l] = static_cast<uint32_t>(heap_.size());
      heap_.push_back(l);
    }

   private:
    static constexpr uint32_t kAbsent = 0xffffffffu;
    bool less(uint32_t a, uint32_t b) const {
      return level_[a] != level_[b] ? level_[a] < level_[b] : (*global_)[a] < (*global_)[b];
    }
    void up(uint32_t i);
    void down(uint32_t i);
    const std::vector<int32_t>* global_ = nullptr;
    std::vector<double> level_;
    std::vector<uint32_t> pos_, heap_;
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
  // Local resource l carries unfrozen weight (it has a saturation level), and that level.
  bool loaded(size_t l) const { return count_[l + 1] > 0 && weight_sum_[l] > 0.0; }
  double saturation_level(size_t l) const { return base_[l] + remaining_[l] / weight_sum_[l]; }
  // Scratch space, kept between calls to avoid reallocation. Per-resource arrays are
  // indexed by the local number of a touched resource; local_ maps global -> local (-1).
  std::vector<double> remaining_, weight_sum_, base_, cap_;
  std::vector<char> frozen_, saturated_, requeue_;
  std::vector<size_t> count_, start_, fill_;
  std::vector<int32_t> members_, batch_, local_, touched_, changed_;
  LevelHeap heap_;
  const std::vector<uint32_t>* mult_ = nullptr;  // multiplicity per flow of the current solve (nullptr: 1)
};

}  // namespace trn::models
