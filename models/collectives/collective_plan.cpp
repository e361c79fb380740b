// Collective algorithm planners (see collective_plan.h).
#include "models/collectives/collective_plan.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace trn::models {
namespace {

constexpr double kMeshMax = 1e6;  // S22: mesh below 1 MB
constexpr double kRdhMax = 56e6;  // S22: rdh from 1 MB to 56 MB

bool is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

enum class Kind { RS, AG, AR, A2A };

// Accumulates transfers; joins phases with per-rank barrier nodes.
class Builder {
 public:
  CollectivePlan plan;
  explicit Builder(int ranks) : barrier_(static_cast<size_t>(ranks), -1), incoming_(static_cast<size_t>(ranks)) {}

  void reserve(size_t more) {  // room for `more` transfers, growing geometrically
    const size_t need = plan.transfers.size() + more;
    if (need > plan.transfers.capacity()) plan.transfers.reserve(std::max(need, 2 * plan.transfers.capacity()));
  }
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

// `rings` rings (ring: 1; kangaring and rdh's fallback: from PlanOptions::channels).
int ring_phase(Builder& b, const std::vector<int>& ranks, double bytes, Kind kind, const PlanOptions& opt, int rings) {
  const int n = static_cast<int>(ranks.size());
  if (n <= 1) return 0;
  const int channels = std::max(1, rings);
  const double per_channel = bytes / channels;
  const double segment = per_channel / n;
  int k = static_cast<int>(std::ceil(segment / opt.max_chunk_bytes));
  k = std::clamp(k, 1, std::max(1, opt.max_chunks));
  const double chunk = segment / k;
  const int rs_steps = (kind == Kind::AG) ? 0 : n - 1;
  const int total = (kind == Kind::AR) ? 2 * (n - 1) : n - 1;
  // prev[ch][i][c]: transfer sent by position i in the previous step.
  std::vector<int32_t> prev(static_cast<size_t>(channels * n * k), -1), cur(prev.size(), -1);
  b.reserve(static_cast<size_t>(total) * prev.size());
  auto at = [&](int ch, int i, int c) {
    using Z = size_t;  // widened before multiplying
    return (Z(ch) * Z(n) + Z(i)) * Z(k) + Z(c);
  };
  for (int s = 0; s < total; ++s) {
    for (int ch = 0; ch < channels; ++ch) {
      int dir = (ch % 2 == 0) ? 1 : -1;
      for (int i = 0; i < n; ++i) {
        int to = (i + dir + n) % n, from = (i - dir + n) % n;
        for (int c = 0; c < k; ++c) {
          DepList deps;
          if (s > 0) deps.push_back(prev[at(ch, from, c)]);
          cur[at(ch, i, c)] = b.add(ranks[static_cast<size_t>(i)], ranks[static_cast<size_t>(to)], chunk, s < rs_steps,
                                    std::move(deps));
        }
      }
    }
    std::swap(prev, cur);
  }
  return total;
}

int mesh_phase(Builder& b, const std::vector<int>& ranks, double bytes, Kind kind) {
  const int n = static_cast<int>(ranks.size());
  if (n <= 1) return 0;
  auto one = [&](bool reduce) {
    for (int i = 0; i < n; ++i)
      for (int off = 1; off < n; ++off)
        b.add(ranks[static_cast<size_t>(i)], ranks[static_cast<size_t>((i + off) % n)], bytes / n, reduce, {});
  };
  if (kind == Kind::AR) {
    one(true);
    b.new_phase();
    one(false);
    return 2;
  }
  one(kind == Kind::RS);
  return 1;
}

int rdh_phase(Builder& b, const std::vector<int>& ranks, double bytes, Kind kind) {
  const int n = static_cast<int>(ranks.size());
  if (n <= 1) return 0;
  int lg = 0;
  while ((1 << lg) < n) ++lg;
  std::vector<int32_t> last_in(static_cast<size_t>(n), -1), next(static_cast<size_t>(n), -1);
  int steps = 0;
  auto step = [&](int d, double sz, bool reduce) {
    for (int p = 0; p < n; ++p) {
      int q = p ^ d;
      DepList deps;
      if (last_in[static_cast<size_t>(p)] >= 0) deps.push_back(last_in[static_cast<size_t>(p)]);
      next[static_cast<size_t>(q)] =
          b.add(ranks[static_cast<size_t>(p)], ranks[static_cast<size_t>(q)], sz, reduce, deps);
    }
    last_in = next;
    ++steps;
  };
  if (kind == Kind::RS || kind == Kind::AR)
    for (int i = 0; i < lg; ++i) step(n >> (i + 1), bytes / std::pow(2.0, i + 1), true);
  if (kind == Kind::AG || kind == Kind::AR)
    for (int i = 0; i < lg; ++i) step(1 << i, bytes / n * std::pow(2.0, i), false);
  return steps;
}

// The ranks of an RDH group by chip, when they form S22's shape: C chips (a power of two) whose
// hypercube labels span a sub-cube, each holding the same power-of-two number L of the ranks.
// chip[c][j] is the j-th rank (plan-local) of the chip at sub-cube index c.
struct CubeShape {
  std::vector<std::vector<int>> chip;
};

bool cube_shape(const std::vector<int>& ranks, const PlanOptions& opt, CubeShape& out) {
  if (opt.rank_chip.empty() || opt.rank_cube.empty()) return false;
  std::map<int, std::vector<int>> by_chip;  // global chip -> its ranks, in plan order
  for (int r : ranks) {
    const size_t i = static_cast<size_t>(r);
    if (i >= opt.rank_chip.size() || i >= opt.rank_cube.size() || opt.rank_cube[i] < 0) return false;
    by_chip[opt.rank_chip[i]].push_back(r);
  }
  auto label_of = [&](const std::vector<int>& rs) { return opt.rank_cube[static_cast<size_t>(rs[0])]; };
  const int chips = static_cast<int>(by_chip.size());
  const size_t local = by_chip.begin()->second.size();
  if (!is_pow2(chips) || !is_pow2(static_cast<int>(local))) return false;
  const int l0 = label_of(by_chip.begin()->second);
  int mask = 0;
  std::map<int, int> chip_at;  // sub-cube index -> global chip
  for (const auto& [chip, rs] : by_chip) {
    if (rs.size() != local) return false;
    mask |= label_of(rs) ^ l0;
  }
  int bits = 0;
  for (int m = mask; m; m &= m - 1) ++bits;
  if ((1 << bits) != chips) return false;
  for (const auto& [chip, rs] : by_chip) {
    int idx = 0, out_bit = 0;  // the label's bits under the mask, packed
    for (int bit = 0; (mask >> bit) != 0; ++bit)
      if (mask & (1 << bit)) idx |= (((label_of(rs) ^ l0) >> bit) & 1) << out_bit++;
    if (!chip_at.emplace(idx, chip).second) return false;  // two chips with one label
  }
  out.chip.clear();
  for (const auto& [idx, chip] : chip_at) out.chip.push_back(by_chip[chip]);
  return true;
}

// S22's RDH on chips: reduce-scatter = a reduction inside each chip (each of its L ranks keeps
// the 1/L of the buffer for its inter-chip group) then recursive halving between chips, one
// torus axis a step; all-gather = recursive doubling between chips then a broadcast inside
// each chip; all-reduce = both. Per rank it moves what the flat form moves, (n-1)/n of the
// buffer each way, but every inter-chip step is one hop.
int rdh_cube_phase(Builder& b, const CubeShape& cube, double bytes, Kind kind) {
  const int C = static_cast<int>(cube.chip.size()), L = static_cast<int>(cube.chip[0].size());
  int lg = 0, top = 0;
  while ((1 << lg) < C) ++lg;
  for (const auto& rs : cube.chip)
    for (int r : rs) top = std::max(top, r);
  // Everything each rank has received so far: a send waits for all of it (a step's data is
  // complete only when every earlier step's share has arrived).
  std::vector<DepList> in(static_cast<size_t>(top) + 1);
  int steps = 0;
  auto step = [&](const std::vector<std::pair<int, int>>& pairs, double sz, bool reduce) {
    std::vector<std::pair<int, int32_t>> got;  // (receiver, transfer), added after the step
    for (const auto& [src, dst] : pairs)
      got.emplace_back(dst, b.add(src, dst, sz, reduce, in[static_cast<size_t>(src)]));
    for (const auto& [dst, t] : got) in[static_cast<size_t>(dst)].push_back(t);
    ++steps;
  };
  auto local = [&](double sz, bool reduce) {  // every rank of a chip to each other one
    if (L < 2) return;
    std::vector<std::pair<int, int>> pairs;
    for (const auto& rs : cube.chip)
      for (int a = 0; a < L; ++a)
        for (int o = 1; o < L; ++o)
          pairs.emplace_back(rs[static_cast<size_t>(a)], rs[static_cast<size_t>((a + o) % L)]);
    step(pairs, sz, reduce);
  };
  // Step i of group j (the chips' j-th ranks) crosses axis (i + j lg / L) mod lg: the groups
  // start on different axes, so the L ranks of a chip do not all load the same link in a step
  // (S22: the contention "only happens in some of the cases").
  auto between = [&](int i, bool halving, double sz, bool reduce) {
    std::vector<std::pair<int, int>> pairs;
    for (int c = 0; c < C; ++c)
      for (int j = 0; j < L; ++j) {
        const int axis = (i + j * lg / L) % lg;
        const int d = 1 << (halving ? lg - 1 - axis : axis);
        pairs.emplace_back(cube.chip[static_cast<size_t>(c)][static_cast<size_t>(j)],
                           cube.chip[static_cast<size_t>(c ^ d)][static_cast<size_t>(j)]);
      }
    step(pairs, sz, reduce);
  };
  if (kind == Kind::RS || kind == Kind::AR) {
    local(bytes / L, true);
    for (int i = 0; i < lg; ++i) between(i, true, bytes / L / std::pow(2.0, i + 1), true);
  }
  if (kind == Kind::AG || kind == Kind::AR) {
    for (int i = 0; i < lg; ++i) between(i, false, bytes / (double(L) * C) * std::pow(2.0, i), false);
    local(bytes / L, false);
  }
  return steps;
}

int phase(Builder& b, Algorithm a, const std::vector<int>& ranks, double bytes, Kind kind, const PlanOptions& opt) {
  if (kind == Kind::A2A) return mesh_phase(b, ranks, bytes, Kind::A2A);
  switch (a) {
    case Algorithm::Mesh: return mesh_phase(b, ranks, bytes, kind);
    case Algorithm::Rdh: {
      CubeShape cube;
      if (cube_shape(ranks, opt, cube)) return rdh_cube_phase(b, cube, bytes, kind);
      if (is_pow2(static_cast<int>(ranks.size()))) return rdh_phase(b, ranks, bytes, kind);
      return ring_phase(b, ranks, bytes, kind, opt, opt.channels);
    }
    case Algorithm::Ring: return ring_phase(b, ranks, bytes, kind, opt, 1);
    case Algorithm::KangaRing: return ring_phase(b, ranks, bytes, kind, opt, std::max(2, opt.channels));
  }
  return 0;
}

Kind kind_of(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::AllReduce: return Kind::AR;
    case CollectiveOp::AllGather: return Kind::AG;
    case CollectiveOp::ReduceScatter: return Kind::RS;
    case CollectiveOp::AllToAll: return Kind::A2A;
    case CollectiveOp::SendRecv: return Kind::AG;
  }
  return Kind::AR;
}

int max_rank(const std::vector<int>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

}  // namespace

bool parse_collective_op(const std::string& s, CollectiveOp* out) {
  static const std::map<std::string, CollectiveOp> m = {{"all-reduce", CollectiveOp::AllReduce},
                                                        {"allreduce", CollectiveOp::AllReduce},
                                                        {"allr", CollectiveOp::AllReduce},
                                                        {"all-gather", CollectiveOp::AllGather},
                                                        {"allgather", CollectiveOp::AllGather},
                                                        {"allg", CollectiveOp::AllGather},
                                                        {"reduce-scatter", CollectiveOp::ReduceScatter},
                                                        {"reducescatter", CollectiveOp::ReduceScatter},
                                                        {"redsct", CollectiveOp::ReduceScatter},
                                                        {"all-to-all", CollectiveOp::AllToAll},
                                                        {"alltoall", CollectiveOp::AllToAll},
                                                        {"alltoall2", CollectiveOp::AllToAll}};
  auto it = m.find(s);
  if (it == m.end()) return false;
  *out = it->second;
  return true;
}

const char* collective_op_name(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::AllReduce: return "all-reduce";
    case CollectiveOp::AllGather: return "all-gather";
    case CollectiveOp::ReduceScatter: return "reduce-scatter";
    case CollectiveOp::AllToAll: return "all-to-all";
    case CollectiveOp::SendRecv: return "send-recv";
  }
  return "?";
}

std::string collective_op_names() { return "all-reduce, all-gather, reduce-scatter, all-to-all"; }

bool parse_algorithm(const std::string& s, Algorithm* out) {
  static const std::map<std::string, Algorithm> m = {{"ring", Algorithm::Ring},
                                                     {"kangaring", Algorithm::KangaRing},
                                                     {"mesh", Algorithm::Mesh},
                                                     {"rdh", Algorithm::Rdh}};
  auto it = m.find(s);
  if (it == m.end()) return false;
  *out = it->second;
  return true;
}

const char* algorithm_name(Algorithm a) {
  switch (a) {
    case Algorithm::Ring: return "ring";
    case Algorithm::KangaRing: return "kangaring";
    case Algorithm::Mesh: return "mesh";
    case Algorithm::Rdh: return "rdh";
  }
  return "?";
}

double busbw_factor(CollectiveOp op, int ranks) {
  double n = ranks;
  if (ranks <= 1 || op == CollectiveOp::SendRecv) return 1.0;
  return op == CollectiveOp::AllReduce ? 2.0 * (n - 1) / n : (n - 1) / n;
}

double CollectivePlan::bytes_moved() const {
  double b = 0;
  for (const auto& t : transfers) b += t.bytes;
  return b;
}

Algorithm choose_intra(CollectiveOp op, double bytes, int ranks, Algorithm large_algorithm) {
  if (op == CollectiveOp::AllToAll || bytes < kMeshMax) return Algorithm::Mesh;
  if (bytes <= kRdhMax && is_pow2(ranks)) return Algorithm::Rdh;
  return large_algorithm;
}

Algorithm choose_inter(CollectiveOp op, double bytes, int ranks) {
  if (op == CollectiveOp::AllToAll || bytes < kMeshMax) return Algorithm::Mesh;
  if (bytes <= kRdhMax && is_pow2(ranks)) return Algorithm::Rdh;
  return Algorithm::Ring;
}

CollectivePlan plan_flat(CollectiveOp op, Algorithm algo, double bytes, const std::vector<int>& order,
                         const PlanOptions& opt) {
  Builder b(max_rank(order) + 1);
  if (op == CollectiveOp::SendRecv) {
    if (order.size() >= 2) b.add(0, 1, bytes, false, {});
    b.plan.steps = 1;
    b.plan.algorithm = "p2p";
    return std::move(b.plan);
  }
  b.plan.steps = phase(b, algo, order, bytes, kind_of(op), opt);
  b.plan.algorithm = op == CollectiveOp::AllToAll ? "mesh" : algorithm_name(algo);
  if (algo == Algorithm::Rdh && !is_pow2(static_cast<int>(order.size())) && op != CollectiveOp::AllToAll)
    b.plan.algorithm = "kangaring (rdh needs a power-of-two group)";
  return std::move(b.plan);
}

namespace {
// One piece of a hierarchical plan, appended to `b`. Its first phase starts after the
// barriers in b (the previous piece's first phase); returns this piece's first-phase
// barriers so that the next piece's first phase queues behind it.
std::vector<int32_t> hierarchical_piece(Builder& b, CollectiveOp op, double bytes,
                                        const std::vector<std::vector<int>>& groups, Algorithm large_algorithm,
                                        const PlanOptions& opt, const Algorithm* force_intra) {
  std::vector<int32_t> first_phase_end;
  const size_t local = groups.empty() ? 0 : groups[0].size();
  const int inst = static_cast<int>(groups.size());
  auto intra_algo = [&](double sz, Kind k) {
    if (force_intra) return *force_intra;
    return choose_intra(k == Kind::A2A ? CollectiveOp::AllToAll : CollectiveOp::AllReduce, sz, static_cast<int>(local),
                        large_algorithm);
  };
  auto intra = [&](double sz, Kind k) {
    Algorithm a = intra_algo(sz, k);
    int steps = 0;
    for (const auto& g : groups) steps = std::max(steps, phase(b, a, g, sz, k, opt));
    b.new_phase();
    if (first_phase_end.empty()) first_phase_end = b.barriers();
    return std::make_pair(steps, a);
  };
  auto inter = [&](double sz, Kind k) {
    Algorithm a = choose_inter(CollectiveOp::AllReduce, sz, inst);
    int steps = 0;
    for (size_t j = 0; j < local; ++j) {
      std::vector<int> ranks;
      for (const auto& g : groups) ranks.push_back(g[j]);
      steps = std::max(steps, phase(b, a, ranks, sz, k, opt));
    }
    b.new_phase();
    if (first_phase_end.empty()) first_phase_end = b.barriers();
    return std::make_pair(steps, a);
  };
  std::string name;
  auto label = [&](const char* what, Algorithm a) {
    name += (name.empty() ? "" : "+") + std::string(what) + ":" + algorithm_name(a);
  };
  const double per_local = bytes / static_cast<double>(local ? local : 1);
  switch (op) {
    case CollectiveOp::AllReduce: {
      auto p1 = intra(bytes, Kind::RS);
      auto p2 = inter(per_local, Kind::AR);
      auto p3 = intra(bytes, Kind::AG);
      b.plan.steps = p1.first + p2.first + p3.first;
      label("intra-rs", p1.second);
      label("inter-ar", p2.second);
      label("intra-ag", p3.second);
      break;
    }
    case CollectiveOp::AllGather: {
      auto p1 = inter(per_local, Kind::AG);
      auto p2 = intra(bytes, Kind::AG);
      b.plan.steps = p1.first + p2.first;
      label("inter-ag", p1.second);
      label("intra-ag", p2.second);
      break;
    }
    case CollectiveOp::ReduceScatter: {
      auto p1 = intra(bytes, Kind::RS);
      auto p2 = inter(per_local, Kind::RS);
      b.plan.steps = p1.first + p2.first;
      label("intra-rs", p1.second);
      label("inter-rs", p2.second);
      break;
    }
    case CollectiveOp::SendRecv:
    case CollectiveOp::AllToAll: {
      std::vector<int> all;
      for (const auto& g : groups) all.insert(all.end(), g.begin(), g.end());
      b.plan.steps = mesh_phase(b, all, bytes, Kind::A2A);
      b.new_phase();
      name = "mesh";
      break;
    }
  }
  b.plan.algorithm = "hier(" + name + ")";
  return first_phase_end;
}
}  // namespace

CollectivePlan plan_hierarchical(CollectiveOp op, double bytes, const std::vector<std::vector<int>>& groups,
                                 Algorithm large_algorithm, const PlanOptions& opt, const Algorithm* force_intra) {
  int total = 0;
  for (const auto& g : groups) total = std::max(total, max_rank(g) + 1);
  Builder b(total);
  int pieces = 1;
  if (op != CollectiveOp::AllToAll && opt.min_piece_bytes > 0)
    pieces = std::clamp(static_cast<int>(bytes / opt.min_piece_bytes), 1, std::max(1, opt.pipeline_pieces));
  std::vector<int32_t> start(static_cast<size_t>(total), -1);
  for (int p = 0; p < pieces; ++p) {
    b.set_barriers(start);
    start = hierarchical_piece(b, op, bytes / pieces, groups, large_algorithm, opt, force_intra);
    // Every piece has the first one's transfers (the same phases over the same groups).
    if (p == 0 && pieces > 1) b.plan.transfers.reserve(b.plan.transfers.size() * static_cast<size_t>(pieces));
  }
  if (pieces > 1) b.plan.algorithm += " x" + std::to_string(pieces) + " pipelined";
  return std::move(b.plan);
}

}  // namespace trn::models
