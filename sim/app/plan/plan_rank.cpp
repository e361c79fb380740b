// The ranking of `trnsim plan` (plan.h): the evaluated candidates that meet the deadline and the
// cost limit, best first, the Pareto front of time and cost, and why each runner-up lost to the
// winner.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/app/plan/plan.h"
#include "sim/base/config_reader.h"

namespace trn::app {

double plan_metric(const PlanCandidate& c, RankBy rank_by) {
  if (rank_by == RankBy::Chips) return c.point.chips;
  return rank_by == RankBy::Cost ? c.cost_usd : c.time_to_train_s;
}

bool ranks_before(const PlanCandidate& a, const PlanCandidate& b, RankBy rank_by, double quantile) {
  const double ma = ranked_metric(a, rank_by, quantile), mb = ranked_metric(b, rank_by, quantile);
  if (ma != mb) return ma < mb;
  if (rank_by == RankBy::Chips && a.time_to_train_s != b.time_to_train_s) return a.time_to_train_s < b.time_to_train_s;
  return a.point.sets() < b.point.sets();
}

double ranked_metric(const PlanCandidate& c, RankBy rank_by, double quantile) {
  const double point = plan_metric(c, rank_by);
  if (quantile <= 0 || rank_by == RankBy::Chips || !c.step_interval.valid || !std::isfinite(c.time_to_train_s) ||
      c.time_to_train_s <= 0)
    return point;
  // The step at the quantile of its log-normal interval; as with_steady (plan_intervals.cpp)
  // the steady steps move with it and the start-up and restarts stay.
  const double z = two_sided_z(2 * quantile - 1);
  const double steady = c.steady_s * std::exp(z * c.step_interval.log_sigma);
  const double time = c.time_to_train_s - c.steady_s + steady;
  return rank_by == RankBy::Cost ? time * c.cost_usd / c.time_to_train_s : time;
}

std::string rank_word(RankBy rank_by, double quantile) {
  if (quantile <= 0) return sim::word_of(rank_by);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s@%g", sim::word_of(rank_by).c_str(), quantile);
  return buf;
}

namespace {

namespace wp = workloads::plan;

double share(const PlanCandidate& c, StepCategory k) {
  return c.step_time_s > 0 ? c.step_breakdown[k] / c.step_time_s : 0;
}

// Why `c` lost to `w`: the step category whose share grew most, or price and start-up. Ranked by
// chips: more chips, or as many and a longer time to train (then why, as ranked by time).
std::string why_lost(const PlanCandidate& c, const PlanCandidate& w, RankBy rank_by, double quantile) {
  char buf[256];
  if (rank_by == RankBy::Chips) {
    if (c.point.chips == w.point.chips) return why_lost(c, w, RankBy::Time, 0);
    std::snprintf(buf, sizeof buf, "%+d chips: %d vs %d", c.point.chips - w.point.chips, c.point.chips, w.point.chips);
    return buf;
  }
  const double dm = ranked_metric(c, rank_by, quantile) / ranked_metric(w, rank_by, quantile) - 1;
  std::string head;
  std::snprintf(buf, sizeof buf, "%+.1f%% %s", 100 * dm, rank_word(rank_by, quantile).c_str());
  head = buf;
  // The step categories that can explain a loss, and how the reason names them.
  static const std::pair<StepCategory, const char*> categories[] = {
      {StepCategory::PipelineBubble, "bubble"},
      {StepCategory::ExposedCommunication, "exposed communication"},
      {StepCategory::HostDispatch, "host_dispatch"},
      {StepCategory::MemoryBound, "memory_bound"},
      {StepCategory::Idle, "idle"}};
  const std::pair<StepCategory, const char*>* best = nullptr;
  double best_d = 0.02;  // a share must grow by 2 points of the step to be named
  for (const auto& k : categories) {
    const double d = share(c, k.first) - share(w, k.first);
    if (d > best_d) best_d = d, best = &k;
  }
  if (best) {
    std::snprintf(buf, sizeof buf, "%s: %s %.0f%% of the step vs %.0f%%", head.c_str(), best->second,
                  100 * share(c, best->first), 100 * share(w, best->first));
    return buf;
  }
  if (c.point.layout.checkpointing != workloads::Checkpointing::None &&
      c.point.layout.checkpointing != w.point.layout.checkpointing)
    return head + ": recompute (" + workloads::enum_word(c.point.layout.checkpointing) +
           " checkpointing, needed to fit memory)";
  if (rank_by == RankBy::Time && c.point.chips < w.point.chips)
    return head + ": fewer chips (" + std::to_string(c.point.chips) + " vs " + std::to_string(w.point.chips) + ")";
  if (rank_by == RankBy::Cost && c.mfu < w.mfu) {
    std::snprintf(buf, sizeof buf, "%s: lower MFU (%.1f%% vs %.1f%%)", head.c_str(), 100 * c.mfu, 100 * w.mfu);
    return buf;
  }
  if (rank_by == RankBy::Cost &&
      c.price * c.point.instances / c.point.chips > w.price * w.point.instances / w.point.chips * 1.001)
    return head + ": higher price per chip-hour";
  // What the extra time is mostly made of: the steady steps, or start-up, restarts, lost work
  // and checkpoint writes.
  const double extra_steady = c.steady_s - w.steady_s;
  const double extra_rest = (c.time_to_train_s - c.steady_s) - (w.time_to_train_s - w.steady_s);
  if (extra_rest > extra_steady) {
    std::snprintf(buf, sizeof buf, "%s: longer start-up and restarts (%+.0f s)", head.c_str(), extra_rest);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%s: slower step (%.3f s vs %.3f s per token-normalised step)", head.c_str(),
                c.step_time_s / double(c.tokens_per_step) * double(w.tokens_per_step), w.step_time_s);
  return buf;
}

}  // namespace

// 3. Feasible candidates, best first; the Pareto front; why each runner-up lost.
void rank_plan_candidates(const PlanOptions& o, std::vector<PlanCandidate> evaluated, PlanResult& res) {
  for (auto& c : evaluated)
    if (c.meets_constraints)
      res.candidates.push_back(std::move(c));
    else
      ++res.counts.over_constraints;
  std::stable_sort(res.candidates.begin(), res.candidates.end(),
                   [&](const PlanCandidate& a, const PlanCandidate& b) { return ranks_before(a, b, o.rank_by, 0); });
  std::vector<std::pair<double, double>> tc;
  for (const auto& c : res.candidates) tc.push_back({c.time_to_train_s, c.cost_usd});
  for (size_t i : wp::pareto_front(tc)) res.candidates[i].pareto = true;
  for (size_t i = 1; i < res.candidates.size(); ++i)
    res.candidates[i].why = why_lost(res.candidates[i], res.candidates[0], o.rank_by, 0);
}

void rerank_plan_candidates(const PlanOptions& o, PlanResult& res) {
  std::stable_sort(res.candidates.begin(), res.candidates.end(), [&](const PlanCandidate& a, const PlanCandidate& b) {
    return ranks_before(a, b, o.rank_by, o.rank_quantile);
  });
  for (size_t i = 0; i < res.candidates.size(); ++i)
    res.candidates[i].why = i ? why_lost(res.candidates[i], res.candidates[0], o.rank_by, o.rank_quantile) : "";
}

}  // namespace trn::app
