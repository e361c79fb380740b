// PlanBuilder: what every collective algorithm (models/collectives/algorithm.h) writes its
// transfers into. It appends transfers to a CollectivePlan and joins phases with per-rank
// barrier nodes: after new_phase(), a rank's next transfer waits for everything it received
// in the phases before. Given a PlanSymmetry (PlanOptions::quotient) it builds the plan's
// quotient instead (quotient_sink.h): only the kept transfers are stored, and a phase over a
// group of ranks outside the representative instances may be skipped (skip).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "models/collectives/collective_plan.h"
#include "models/collectives/quotient_sink.h"

namespace trn::models {

/// What one phase of a plan does to its buffer: all-reduce is a reduce-scatter then an
/// all-gather; all-to-all phases always run as mesh (build_phase).
enum class PhaseKind { ReduceScatter, AllGather, AllReduce, AllToAll };

class PlanBuilder {
 public:
  CollectivePlan plan;
  /// `ranks`: one more than the largest plan-local rank index the phases use. `quotient`: build
  /// the plan's quotient under it (it outlives the builder; nullptr: the whole plan).
  explicit PlanBuilder(int ranks, const PlanSymmetry* quotient = nullptr)
      : barrier_(static_cast<size_t>(ranks), -1), incoming_(static_cast<size_t>(ranks)) {
    if (quotient) {
      sink_ = std::make_unique<QuotientSink>(*quotient);
      phantom_.assign(static_cast<size_t>(ranks), 0);
      partial_ = true;
      reserve_ = !quotient->local;  // without a local part, a kept group keeps all its transfers
    }
  }

  /// Room for `more` transfers, growing geometrically (a quotient with a local part: as they
  /// come, most of them being dropped).
  void reserve(size_t more) {
    if (!reserve_) return;
    const size_t need = plan.transfers.size() + more;
    if (need > plan.transfers.capacity()) plan.transfers.reserve(std::max(need, 2 * plan.transfers.capacity()));
  }
  /// Appends a transfer of `bytes` from `src` to `dst` (plan-local ranks) after `deps` and after
  /// the source's barrier (the end of its previous phase); returns its id (its index in the
  /// plan, unless a quotient is built).
  int32_t add(int src, int dst, double bytes, bool reduce, DepList deps, uint32_t repeat = 1) {
    if (barrier_[static_cast<size_t>(src)] >= 0) deps.push_back(barrier_[static_cast<size_t>(src)]);
    plan.full_transfers += repeat;
    Transfer t;
    t.src = src;
    t.dst = dst;
    t.bytes = bytes;
    t.reduce = reduce;
    t.repeat = repeat;
    t.deps = std::move(deps);
    const int32_t id = emit(std::move(t), false);
    incoming_[static_cast<size_t>(dst)].push_back(id);
    return id;
  }

  const std::vector<int32_t>& barriers() const { return barrier_; }
  void set_barriers(std::vector<int32_t> b) { barrier_ = std::move(b); }

  /// Building a quotient: a phase over `ranks` alone may be left out, all its transfers being
  /// images of transfers the quotient keeps (QuotientSink::outside).
  bool skippable(const std::vector<int>& ranks) const { return sink_ && sink_->outside(ranks); }
  /// Leaves out a phase over the skippable `ranks` of `transfers` transfers (those of the same
  /// phase over a group the quotient keeps): counted in the plan's full size, and every rank of
  /// `ranks` gets the barrier node it would have got at the phase's end (a dropped one).
  void skip(const std::vector<int>& ranks, uint64_t transfers) {
    plan.full_transfers += transfers;
    sink_->skipped();
    if (ranks.size() >= 2)
      for (int r : ranks) phantom_[static_cast<size_t>(r)] = 1;
  }

  /// Building a quotient: its symmetry; else nullptr.
  const PlanSymmetry* quotient() const { return sink_ ? &sink_->symmetry() : nullptr; }
  /// Building a quotient: no rank of `ranks` is kept, so nothing kept receives from a phase over
  /// them alone, and it may be left out (skip) like a skippable one.
  bool none_kept(const std::vector<int>& ranks) const {
    if (!sink_) return false;
    for (int r : ranks)
      if (sink_->keeps(r)) return false;
    return true;
  }
  /// Building a quotient: the position in `ranks` of their one kept rank when they lie one per
  /// instance the plan spans, in order of instance position (either way round), all at the same
  /// place inside their instance and representatives of the local symmetry, every other one in
  /// an instance whose representative is the kept one's: a phase over them that is invariant
  /// under cyclic shifts of the positions (ring, mesh) has its dropped transfers' images among
  /// the kept rank's own. Else -1.
  int shift_representative(const std::vector<int>& ranks) const {
    const int n = static_cast<int>(ranks.size());
    const PlanSymmetry* s = quotient();
    if (!s || n < 2 || s->ni != n) return -1;
    const int p0 = s->pos_q[static_cast<size_t>(ranks[0])];
    const int turn = ((s->pos_q[static_cast<size_t>(ranks[1])] - p0) % n + n) % n == 1 ? 1 : -1;
    return kept_position(ranks, [&](int i, size_t q) { return ((s->pos_q[q] - p0 - turn * i) % n + n) % n == 0; });
  }
  /// Building a quotient: as shift_representative, for a phase invariant under XOR of the
  /// positions (recursive halving-doubling over a power-of-two count of instances): the ranks lie
  /// one per instance in order of instance position.
  int xor_representative(const std::vector<int>& ranks) const {
    const int n = static_cast<int>(ranks.size());
    const PlanSymmetry* s = quotient();
    if (!s || n < 2 || s->ni != n || !s->xor_possible()) return -1;
    return kept_position(ranks, [&](int i, size_t q) { return s->pos_q[q] == i; });
  }
  /// Building a quotient by images: kept rank `r` receives transfer `id` (the image of what it
  /// receives), for its barrier at the phase's end.
  void receive_image(int r, int32_t id) { incoming_[static_cast<size_t>(r)].push_back(id); }
  /// Building a quotient by images (ring.cpp, mesh.cpp), once the kept rank `ranks[kept]` has
  /// its transfers: the `per_rank` transfers of every other rank of the phase are their images
  /// and are not built, and each other rank gets the barrier node it would have got at the
  /// phase's end (a dropped one).
  void by_images(const std::vector<int>& ranks, int kept, uint64_t per_rank) {
    plan.full_transfers += per_rank * (ranks.size() - 1);
    for (size_t i = 0; i < ranks.size(); ++i)
      if (static_cast<int>(i) != kept) phantom_[static_cast<size_t>(ranks[i])] = 1;
  }

  /// Ends a phase: every rank that received something gets a barrier node on all of it.
  void new_phase() {
    for (size_t r = 0; r < incoming_.size(); ++r) {
      const bool phantom = partial_ && phantom_[r];
      if (incoming_[r].empty() && !phantom) continue;
      if (phantom && !sink_->keeps(static_cast<int>(r))) {  // counted only (QuotientSink::phantom)
        barrier_[r] = sink_->phantom(static_cast<int32_t>(r));
        incoming_[r].clear();
        phantom_[r] = 0;
        continue;
      }
      Transfer t;
      t.src = t.dst = static_cast<int32_t>(r);
      t.barrier = true;
      t.deps = incoming_[r];
      if (barrier_[r] >= 0) t.deps.push_back(barrier_[r]);
      barrier_[r] = emit(std::move(t), phantom);
      incoming_[r].clear();
      if (phantom) phantom_[r] = 0;
    }
  }

  /// The plan (or its quotient, its dependencies on dropped transfers moved to their images;
  /// std::logic_error when the plan is not invariant under the symmetry). Once.
  CollectivePlan finish() {
    if (sink_) {
      sink_->finish(plan);
      plan.quotient = true;
    }
    return std::move(plan);
  }

 private:
  // Stores t (or, building a quotient, drops it); its id. `phantom`: a barrier node standing
  // for skipped transfers (its dependencies are not all known).
  int32_t emit(Transfer&& t, bool phantom) {
    if (sink_) {
      if (!sink_->keeps(t.src))
        return sink_->drop(t.src, t.dst, t.bytes, t.reduce, t.barrier,
                           phantom ? QuotientSink::kUnknownDeps : static_cast<uint32_t>(t.deps.size()));
      const int32_t id = sink_->keep(plan.transfers.size());
      plan.transfers.push_back(std::move(t));
      return id;
    }
    plan.transfers.push_back(std::move(t));
    return static_cast<int32_t>(plan.transfers.size()) - 1;
  }

  // shift_representative and xor_representative: the position of the one kept rank of `ranks`
  // (a quotient's, one per spanned instance) when every position i holds a plan rank q with
  // in_place(i, q), all at the same place inside their instance and representatives of the
  // local symmetry, every other one in an instance whose representative is the kept one's.
  template <class InPlace>
  int kept_position(const std::vector<int>& ranks, InPlace in_place) const {
    const PlanSymmetry* s = quotient();
    const int n = static_cast<int>(ranks.size());
    auto at = [&](int i) { return static_cast<size_t>(ranks[static_cast<size_t>(i)]); };
    int kept = -1;
    for (int i = 0; i < n; ++i) {
      const size_t q = at(i);
      if (s->local_q[q] != s->local_q[at(0)] || s->h[q] != 0 || !in_place(i, q)) return -1;
      if (s->kept(q)) {
        if (kept >= 0) return -1;
        kept = i;
      }
    }
    if (kept < 0) return -1;
    for (int i = 0; i < n; ++i)
      if (i != kept && (s->in_rep[at(i)] || s->to_q[at(i)] != s->pos_q[at(kept)])) return -1;
    return kept;
  }

  std::vector<int32_t> barrier_;
  std::vector<std::vector<int32_t>> incoming_;
  std::unique_ptr<QuotientSink> sink_;
  std::vector<char> phantom_;  // skipped ranks that get a barrier node at the phase's end
  bool partial_ = false;       // building a quotient
  bool reserve_ = true;
};

}  // namespace trn::models
