// The one interface of a collective algorithm: its name, the plan it builds (chunked
// point-to-point transfers with dependencies, which the fabric simulates and
// collective_bound.h bounds from below) and its closed-form time estimate (what the
// lowering's list scheduler assumes). One file per algorithm (ring.cpp, kangaring.cpp,
// mesh.cpp, rdh.cpp), registered in algorithm_list.h; which one runs is selection.h's
// choice, and hierarchical.cpp composes them across instances.
#pragma once

#include <string>
#include <vector>

#include "models/collectives/collective_plan.h"
#include "models/collectives/plan_builder.h"

namespace trn::models {

/// One tier of links as a closed form sees it: the bandwidth a rank gets (B/s) and one hop's
/// latency (s).
struct LinkTier {
  double bandwidth = 0, latency = 0;
};

class CollectiveAlgorithm {
 public:
  virtual ~CollectiveAlgorithm() = default;
  /// The name `--algorithm` takes and plan labels show.
  virtual const char* name() const = 0;
  /// Appends one phase of `kind` over `ranks` (plan-local rank indices, in ring order) to `b`,
  /// `bytes` being the phase's buffer (nccom-test semantics, collective_plan.h); returns the
  /// sequential communication steps on its critical path; with fewer than two ranks nothing
  /// (0). All-to-all phases go to mesh's whatever the algorithm (build_phase).
  virtual int build(PlanBuilder& b, const std::vector<int>& ranks, double bytes, PhaseKind kind,
                    const PlanOptions& opt) const = 0;
  /// The plan's label for a flat group of `ranks` ranks (CollectivePlan::algorithm): the name,
  /// or what runs instead when the algorithm cannot (rdh on a group that is not a power of two).
  virtual std::string label(int ranks) const { return name(); }
  /// Closed-form time of `op` over `ranks` ranks on one tier: per-rank traffic / bandwidth plus
  /// latency per step. No contention, no DMA issue costs.
  virtual double estimate(CollectiveOp op, int ranks, double bytes, const LinkTier& tier) const = 0;
};

/// The registered algorithm behind `a` (algorithm_list.h).
const CollectiveAlgorithm& algorithm(Algorithm a);
/// Every registered algorithm, in registration order.
std::vector<Algorithm> registered_algorithms();
/// The registered algorithms' names, comma-separated, in registration order.
std::string algorithm_names(const char* separator = ", ");

/// One phase of `kind` over `ranks` by algorithm `a` (all-to-all: always mesh).
int build_phase(PlanBuilder& b, Algorithm a, const std::vector<int>& ranks, double bytes, PhaseKind kind,
                const PlanOptions& opt);

/// The share of the buffer each rank sends: 2(n-1)/n for all-reduce, 1 for send-recv, (n-1)/n
/// otherwise (the built-in algorithms all move that much from each rank; their steps differ).
double per_rank_share(CollectiveOp op, int ranks);

/// The ring's phase with `rings` rings (odd rings run the other way), which kangaring and rdh's
/// fallback share, and its closed form: per_rank_share / bandwidth plus one latency per step of
/// one half (n-1).
int ring_phase(PlanBuilder& b, const std::vector<int>& ranks, double bytes, PhaseKind kind, const PlanOptions& opt,
               int rings);
double ring_estimate(CollectiveOp op, int ranks, double bytes, const LinkTier& tier);

}  // namespace trn::models
