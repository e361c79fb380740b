// Layout: where each rank sits in the parallel grid and which ranks form each group.
// rank = t + tp * (f + fsdp * (d + dp * p)): TP fastest (inside a chip), then FSDP, then
// DP, then pipeline stages slowest (across instances when there are several).
#pragma once

#include <vector>

#include "workloads/graph/training_graph.h"
#include "workloads/scenario/scenario_spec.h"

namespace trn::workloads {

struct Coord {
  int t = 0, f = 0, d = 0, p = 0;
};

class Layout {
 public:
  explicit Layout(const ParallelSpec& p);
  int world() const { return tp_ * fsdp_ * dp_ * pp_; }
  int stages() const { return pp_; }
  /// Ranks per pipeline stage (stage p holds ranks p * per_stage() .. (p + 1) * per_stage() - 1).
  int per_stage() const { return tp_ * fsdp_ * dp_; }
  int rank(const Coord& c) const { return c.t + tp_ * (c.f + fsdp_ * (c.d + dp_ * c.p)); }
  Coord coord(int rank) const;
  /// Members of `rank`'s group of a kind, in a canonical order (same on every member).
  /// Pp groups are {rank, next stage} (`forward`) or {rank, previous stage}.
  std::vector<int> group(GroupKind g, int rank, bool forward = true) const;
  /// The first (and lowest) member of `rank`'s group of a kind whose groups partition the ranks
  /// (None, Tp, Fsdp, Dp, Ep): equal for two ranks exactly when their groups are equal. -1 for
  /// Pp, whose groups overlap.
  int group_leader(GroupKind g, int rank) const;
  /// One representative rank per class of identical ranks: f = 0, d = 0, every t and p.
  std::vector<int> representatives() const;
  /// One rank per pipeline stage (t = f = d = 0): every rank of a stage runs the same program
  /// on the same shapes (the symmetry reduction, docs/workloads.md 1.6).
  std::vector<int> stage_representatives() const;
  /// Every rank, 0 .. world-1 (the full simulation the representatives are checked against).
  std::vector<int> all_ranks() const;

 private:
  int tp_, fsdp_, dp_, pp_, ep_;
};

}  // namespace trn::workloads
