// PlanBuilder: what every collective algorithm (models/collectives/algorithm.h) writes its
// transfers into. It appends transfers to a CollectivePlan and joins phases with per-rank
// barrier nodes: after new_phase(), a rank's next transfer waits for everything it received
// in the phases before.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "models/collectives/collective_plan.h"

namespace trn::models {

/// What one phase of a plan does to its buffer: all-reduce is a reduce-scatter then an
/// all-gather; all-to-all phases always run as mesh (build_phase).
enum class PhaseKind { ReduceScatter, AllGather, AllReduce, AllToAll };

class PlanBuilder {
 public:
  CollectivePlan plan;
  /// `ranks`: one more than the largest plan-local rank index the phases use.
  explicit PlanBuilder(int ranks) : barrier_(static_cast<size_t>(ranks), -1), incoming_(static_cast<size_t>(ranks)) {}

  /// Room for `more` transfers, growing geometrically.
  void reserve(size_t more) {
    const size_t need = plan.transfers.size() + more;
    if (need > plan.transfers.capacity()) plan.transfers.reserve(std::max(need, 2 * plan.transfers.capacity()));
  }
  /// Appends a transfer of `bytes` from `src` to `dst` (plan-local ranks) after `deps` and after
  /// the source's barrier (the end of its previous phase); returns its index.
  int32_t add(int src, int dst, double bytes, bool reduce, DepList deps) {
    if (barrier_[static_cast<size_t>(src)] >= 0) deps.push_back(barrier_[static_cast<size_t>(src)]);
    Transfer t;
    t.src = src;
    t.dst = dst;
    t.bytes = bytes;
    t.reduce = reduce;
    t.deps = std::move(deps);
    plan.transfers.push_back(std::move(t));
    int32_t id = static_cast<int32_t>(plan.transfers.size()) - 1;
    incoming_[static_cast<size_t>(dst)].push_back(id);
    return id;
  }

  const std::vector<int32_t>& barriers() const { return barrier_; }
  void set_barriers(std::vector<int32_t> b) { barrier_ = std::move(b); }

  /// Ends a phase: every rank that received something gets a barrier node on all of it.
  void new_phase() {
    for (size_t r = 0; r < incoming_.size(); ++r) {
      if (incoming_[r].empty()) continue;
      Transfer t;
      t.src = t.dst = static_cast<int32_t>(r);
      t.barrier = true;
      t.deps = incoming_[r];
      if (barrier_[r] >= 0) t.deps.push_back(barrier_[r]);
      plan.transfers.push_back(std::move(t));
      barrier_[r] = static_cast<int32_t>(plan.transfers.size()) - 1;
      incoming_[r].clear();
    }
  }

 private:
  std::vector<int32_t> barrier_;
  std::vector<std::vector<int32_t>> incoming_;
};

}  // namespace trn::models
