// QuotientSink: the quotient of a collective plan under a PlanSymmetry, made while the plan is
// built (a PlanBuilder given PlanOptions::quotient), so that a plan of millions of transfers
// never exists whole. It yields the plan hw::quotient_plan makes of the whole plan, transfer
// for transfer: the transfers whose source a PlanSymmetry keeps, in plan order, with each
// dependency on a dropped transfer moved to that transfer's image (sorted, without repeats).
//
// While building, a transfer gets an id (what PlanBuilder::add returns and dependencies name):
// kept transfers are stored in the plan; a dropped one is remembered only by its source,
// destination, place among the transfers between the two, size, kind and dependency count, to
// find and check its image at the end (finish). A group of ranks wholly outside the
// representative instances may be skipped whole (PlanBuilder::skip): its transfers get no id,
// and nothing kept can depend on them; nor on the barrier nodes its ranks get at the phase's
// end (phantom), which share one id and are only counted.
#pragma once

#include <cstdint>
#include <vector>

#include "models/collectives/collective_plan.h"
#include "models/collectives/plan_symmetry.h"

namespace trn::models {

class QuotientSink {
 public:
  /// Dependency count of a dropped barrier whose incoming transfers were skipped (unknown).
  static constexpr uint32_t kUnknownDeps = UINT32_MAX;

  explicit QuotientSink(const PlanSymmetry& sym) : sym_(sym) {}
  const PlanSymmetry& symmetry() const { return sym_; }
  /// A transfer from plan rank `src` is kept.
  bool keeps(int src) const { return sym_.kept(static_cast<size_t>(src)); }
  /// No rank of `ranks` lies in a representative instance: a phase over them only alone may be
  /// skipped (its transfers are images of the representative instance's).
  bool outside(const std::vector<int>& ranks) const;
  /// The id of a kept transfer, stored as transfer `index` of the plan.
  int32_t keep(size_t index) {
    ids_.push_back(static_cast<int32_t>(index));
    return static_cast<int32_t>(ids_.size()) - 1;
  }
  /// The id of a dropped transfer; `ndeps`: its dependency count, or kUnknownDeps.
  int32_t drop(int32_t src, int32_t dst, double bytes, bool reduce, bool barrier, uint32_t ndeps);
  /// Transfers were skipped without ids (PlanBuilder::skip).
  void skipped() { skipped_ = true; }
  /// The id of a phantom barrier node of the dropped plan rank `rank`: the barrier it would
  /// get at the end of a phase that was skipped or built by images. Nothing kept depends on it
  /// (a kept transfer's barrier is its source's, and a kept source is never phantom), so every
  /// phantom shares one id, found in no image; only its place among `rank`'s own transfers is
  /// counted, O(1) per rank and phase (finish throws if a kept transfer names it).
  int32_t phantom(int32_t rank);
  /// Moves the kept transfers' dependencies to ids in the plan, dropped ones to their images'.
  /// Throws SymmetryError when a dropped transfer has no image of the same size, kind and
  /// dependency count by cyclic shift nor by XOR of the instance positions (the plan is not
  /// invariant under the symmetry).
  void finish(CollectivePlan& plan);

 private:
  struct Dropped {
    int32_t src, dst, occurrence;  // the occurrence-th transfer from src to dst
    uint32_t ndeps;
    double bytes;
    bool reduce, barrier;
  };
  // Per dropped transfer, the plan index of its image (XOR or shift); false when one has none.
  bool map_dropped(const CollectivePlan& plan, bool use_xor, std::vector<int32_t>& rep) const;

  const PlanSymmetry& sym_;
  std::vector<int32_t> ids_;  // per id: plan index (kept) or -1 - index into dropped_
  std::vector<Dropped> dropped_;
  PairIds pairs_{256};  // (src, dst) of dropped transfers
  std::vector<int32_t> pair_count_;
  std::vector<int32_t> phantoms_;  // per plan rank: its phantom barriers so far
  int32_t phantom_id_ = -1;        // the id every phantom barrier shares (-1: none yet)
  bool skipped_ = false;
};

}  // namespace trn::models
