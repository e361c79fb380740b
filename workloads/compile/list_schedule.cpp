// The compiler's order of a segment's ops (see list_schedule.h).
#include "workloads/compile/list_schedule.h"

#include <algorithm>
#include <map>
#include <utility>

namespace trn::workloads {

bool in_segment(const GraphOp& g, SegmentKind k) {
  return (g.phase != Phase::Forward) == k.backward && (k.last_micro || !g.once_per_step);
}

std::vector<Vertex> program_order(const TrainingGraph& t, SegmentKind k, bool prefetch) {
  std::vector<Vertex> out;
  std::map<Phase, size_t> last_prefetch;  // position in `out` after the last prefetched gather
  for (Vertex v : t.order) {
    const GraphOp& g = t.g[v];
    if (!in_segment(g, k)) continue;
    const bool prefetchable = g.kind == OpKind::Collective && g.prefetchable;
    if (prefetch && prefetchable && last_prefetch.count(g.phase)) {
      size_t pos = last_prefetch[g.phase];
      out.insert(out.begin() + static_cast<std::ptrdiff_t>(pos), v);
      last_prefetch[g.phase] = pos + 1;
      continue;
    }
    out.push_back(v);
    if (prefetchable) last_prefetch[g.phase] = out.size();
  }
  return out;
}

std::vector<Vertex> list_schedule(const Graph& g, const std::vector<Vertex>& order,
                                  const std::vector<LaneEstimate>& estimates) {
  using Lane = std::pair<models::Engine, int>;
  const size_t n = order.size();
  std::map<Vertex, size_t> index;
  for (size_t i = 0; i < n; ++i) index[order[i]] = i;
  std::vector<std::vector<size_t>> succ(n);
  std::vector<int> waiting(n, 0);
  std::vector<double> ready_at(n, 0);
  for (size_t i = 0; i < n; ++i) {
    for (auto e : boost::make_iterator_range(boost::in_edges(order[i], g))) {
      auto it = index.find(boost::source(e, g));
      if (it == index.end() || g[e].sequence) continue;
      succ[it->second].push_back(i);
      ++waiting[i];
    }
  }
  auto lane = [&](size_t i) { return Lane{estimates[i].engine, estimates[i].queue}; };
  std::map<Lane, double> lane_free;
  std::vector<size_t> ready;
  for (size_t i = 0; i < n; ++i)
    if (waiting[i] == 0) ready.push_back(i);
  std::vector<Vertex> out;
  out.reserve(n);
  while (!ready.empty()) {
    size_t best = 0;
    double best_start = 0;
    for (size_t r = 0; r < ready.size(); ++r) {
      const size_t i = ready[r];
      const double start = std::max(ready_at[i], lane_free[lane(i)]);
      if (r == 0 || start < best_start || (start == best_start && i < ready[best])) best = r, best_start = start;
    }
    const size_t i = ready[best];
    ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(best));
    const double finish = best_start + estimates[i].duration_s;
    lane_free[lane(i)] = finish;
    out.push_back(order[i]);
    for (size_t j : succ[i]) {
      ready_at[j] = std::max(ready_at[j], finish);
      if (--waiting[j] == 0) ready.push_back(j);
    }
  }
  return out;
}

}  // namespace trn::workloads
