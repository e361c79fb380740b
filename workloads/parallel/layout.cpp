// Layout implementation.
#include "workloads/parallel/layout.h"

namespace trn::workloads {

Layout::Layout(const ParallelSpec& p) : tp_(p.tp), fsdp_(p.fsdp), dp_(p.dp), pp_(p.pp), ep_(p.ep) {}

Coord Layout::coord(int rank) const {
  Coord c;
  c.t = rank % tp_;
  rank /= tp_;
  c.f = rank % fsdp_;
  rank /= fsdp_;
  c.d = rank % dp_;
  c.p = rank / dp_;
  return c;
}

int Layout::group_leader(GroupKind g, int r) const {
  const Coord c = coord(r);
  switch (g) {
    case GroupKind::None: return r;
    case GroupKind::Tp: return rank({0, c.f, c.d, c.p});
    case GroupKind::Fsdp: return rank({c.t, 0, c.d, c.p});
    case GroupKind::Dp: return rank({c.t, c.f, 0, c.p});
    case GroupKind::Ep: {
      const int base = ((c.f + fsdp_ * c.d) / ep_) * ep_;
      return rank({c.t, base % fsdp_, base / fsdp_, c.p});
    }
    case GroupKind::Pp: return -1;
  }
  return -1;
}

std::vector<int> Layout::group(GroupKind g, int r, bool forward) const {
  Coord c = coord(r);
  std::vector<int> out;
  switch (g) {
    case GroupKind::None: out.push_back(r); break;
    case GroupKind::Tp:
      for (int t = 0; t < tp_; ++t) out.push_back(rank({t, c.f, c.d, c.p}));
      break;
    case GroupKind::Fsdp:
      for (int f = 0; f < fsdp_; ++f) out.push_back(rank({c.t, f, c.d, c.p}));
      break;
    case GroupKind::Dp:
      for (int d = 0; d < dp_; ++d) out.push_back(rank({c.t, c.f, d, c.p}));
      break;
    case GroupKind::Ep: {
      int e = c.f + fsdp_ * c.d, base = (e / ep_) * ep_;
      for (int i = base; i < base + ep_; ++i) out.push_back(rank({c.t, i % fsdp_, i / fsdp_, c.p}));
      break;
    }
    case GroupKind::Pp: {
      int other = c.p + (forward ? 1 : -1);
      if (other < 0 || other >= pp_) {
        out.push_back(r);
        break;
      }
      out.push_back(r);
      out.push_back(rank({c.t, c.f, c.d, other}));
      break;
    }
  }
  return out;
}

std::vector<int> Layout::representatives() const {
  std::vector<int> out;
  for (int p = 0; p < pp_; ++p)
    for (int t = 0; t < tp_; ++t) out.push_back(rank({t, 0, 0, p}));
  return out;
}

std::vector<int> Layout::stage_representatives() const {
  std::vector<int> out;
  for (int p = 0; p < pp_; ++p) out.push_back(rank({0, 0, 0, p}));
  return out;
}

std::vector<int> Layout::all_ranks() const {
  std::vector<int> out(static_cast<size_t>(world()));
  for (int r = 0; r < world(); ++r) out[static_cast<size_t>(r)] = r;
  return out;
}

}  // namespace trn::workloads
