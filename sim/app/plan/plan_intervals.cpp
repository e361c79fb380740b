// The 80 % intervals of `trnsim plan`'s best candidates and the tie between the best two
// (plan.h; docs/model.md section 12, docs/plan.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "sim/app/commands/common.h"
#include "sim/app/plan/plan.h"
#include "sim/app/simulation/fork_eval.h"
#include "sim/app/simulation/step_simulation.h"
#include "sim/base/paths.h"
#include "sim/base/shared_helpers.h"
#include "sim/base/units.h"

namespace trn::app {
namespace {

// The interval of a figure that moves with the steady part of the time: `steady` seconds of
// `total` scale with the step time's interval, the rest (start-up, restarts) stays.
PredictionInterval with_steady(const PredictionInterval& step, double step_time, double total, double steady,
                               double scale) {
  PredictionInterval iv = step;
  iv.low = (total - steady + steady * step.low / step_time) * scale;
  iv.high = (total - steady + steady * step.high / step_time) * scale;
  return iv;
}

// A candidate's key in SpareIntervals: its point's --set list.
std::string interval_key(const PlanCandidate& c) { return sim::join(c.point.sets(), ";"); }

}  // namespace

IntervalRuns::IntervalRuns(const PlanOptions& o, const std::vector<const PlanCandidate*>& cs) {
  const std::string base = sim::data_root() + "/workloads/plan/base.yaml";
  for (const PlanCandidate* c : cs) {
    std::vector<std::string> sets = c->point.sets();
    sets.insert(sets.end(), o.sets.begin(), o.sets.end());
    keys.push_back(interval_key(*c));
    specs.push_back(workloads::load_scenario(base, sets, o.model));
    moved.push_back(runtime_perturbations(specs.back()));
  }
}

std::vector<std::function<nlohmann::json()>> IntervalRuns::bodies(const SpareIntervals& have) const {
  std::vector<std::function<nlohmann::json()>> out;
  for (size_t i = 0; i < moved.size(); ++i) {
    if (have.count(keys[i])) continue;
    for (const auto& p : moved[i]) {
      const workloads::ScenarioSpec* s = &p.second;
      out.push_back([s]() {
        StepOptions opt;
        opt.max_memory = default_max_memory();
        return nlohmann::json(simulate(*s, opt).step_time_s);
      });
    }
  }
  return out;
}

void IntervalRuns::keep(const std::vector<double>& steps, SpareIntervals& into) const {
  size_t k = 0;
  for (size_t i = 0; i < moved.size(); ++i) {
    if (into.count(keys[i])) continue;  // bodies(into) made none for it
    std::vector<std::pair<std::string, double>>& out = into[keys[i]];
    for (const auto& p : moved[i]) out.emplace_back(p.first, steps[k++]);
  }
}

void IntervalRuns::apply(const SpareIntervals& steps, const std::vector<PlanCandidate*>& cs) const {
  const IntervalModel model = load_interval_model();
  for (size_t i = 0; i < cs.size(); ++i) {
    PlanCandidate& c = *cs[i];
    c.interval_done = true;
    c.step_interval = steady_step_interval(model, specs[i], c.step_time_s, steps.at(keys[i]));
    if (!std::isfinite(c.time_to_train_s)) continue;
    c.time_interval = with_steady(c.step_interval, c.step_time_s, c.time_to_train_s, c.steady_s, 1.0);
    if (std::isfinite(c.cost_usd))  // no interval for a cost that is unknown (no price)
      c.cost_interval = with_steady(c.step_interval, c.step_time_s, c.time_to_train_s, c.steady_s,
                                    c.time_to_train_s > 0 ? c.cost_usd / c.time_to_train_s : 0);
  }
}

std::unique_ptr<IntervalRuns> intervals_ahead(const PlanOptions& o, const std::vector<PlanCandidate>& evaluated,
                                              size_t wave, const SpareIntervals& spare) {
  if (!o.intervals || o.rank_quantile > 0 || static_cast<int>(wave) >= o.jobs) return nullptr;
  std::vector<const PlanCandidate*> best;
  for (const auto& c : evaluated)
    if (c.meets_constraints) best.push_back(&c);
  std::stable_sort(best.begin(), best.end(),
                   [&](const PlanCandidate* a, const PlanCandidate* b) { return ranks_before(*a, *b, o.rank_by, 0); });
  best.resize(std::min(best.size(), static_cast<size_t>(std::max(0, o.interval_candidates))));
  best.erase(std::remove_if(best.begin(), best.end(),
                            [&](const PlanCandidate* c) { return spare.count(interval_key(*c)) > 0; }),
             best.end());
  if (best.empty()) return nullptr;
  return std::make_unique<IntervalRuns>(o, best);
}

void compute_plan_intervals(const PlanOptions& o, const std::vector<PlanCandidate*>& cs, const SpareIntervals* spare) {
  if (cs.empty()) return;
  const IntervalRuns runs(o, {cs.begin(), cs.end()});
  SpareIntervals steps = spare ? *spare : SpareIntervals{};
  // The steps the search's last wave did not simulate ahead, simulated now.
  std::vector<double> out;
  for (const sim::ChildResult& r : run_children(runs.bodies(steps), "plan interval", std::max(1, o.jobs))) {
    if (!r.ok()) rethrow(r, "plan interval");
    out.push_back(r.value.get<double>());
  }
  runs.keep(out, steps);
  runs.apply(steps, cs);
}

void set_plan_intervals(const PlanOptions& o, PlanResult& res, const SpareIntervals* spare) {
  const size_t n = std::min<size_t>(res.candidates.size(), static_cast<size_t>(std::max(0, o.interval_candidates)));
  if (n == 0) return;
  // Ranked by a quantile: a candidate without an interval stands at its prediction, never above
  // its quantile (quantile >= 0.5), so once the best n all have intervals no other can pass them.
  for (;;) {
    if (o.rank_quantile > 0) rerank_plan_candidates(o, res);
    std::vector<PlanCandidate*> without_interval;
    for (size_t i = 0; i < n; ++i)
      if (!res.candidates[i].interval_done) without_interval.push_back(&res.candidates[i]);
    if (without_interval.empty()) break;
    compute_plan_intervals(o, without_interval, spare);
  }
  if (n < 2) return;
  // By chips, two candidates tie only on as many chips, by their time to train.
  if (o.rank_by == RankBy::Chips && res.candidates[0].point.chips != res.candidates[1].point.chips) return;
  const bool cost = o.rank_by == RankBy::Cost;
  const RankBy by = o.rank_by == RankBy::Chips ? RankBy::Time : o.rank_by;  // what the interval is of
  const PredictionInterval& a = cost ? res.candidates[0].cost_interval : res.candidates[0].time_interval;
  const PredictionInterval& b = cost ? res.candidates[1].cost_interval : res.candidates[1].time_interval;
  if (a.valid && b.valid && b.low < a.high) {
    char buf[300];
    std::snprintf(buf, sizeof buf,
                  "tie within the model's error: the %.0f %% intervals of the %s of #1 and #2 overlap "
                  "(%.3g-%.3g and %.3g-%.3g%s); the difference, %+.1f %%, is smaller than the model can tell",
                  100 * a.level, cost ? "cost" : "time to train", cost ? a.low : a.low / 86400,
                  cost ? a.high : a.high / 86400, cost ? b.low : b.low / 86400, cost ? b.high : b.high / 86400,
                  cost ? " USD" : " days",
                  100 * (ranked_metric(res.candidates[1], by, o.rank_quantile) /
                             ranked_metric(res.candidates[0], by, o.rank_quantile) -
                         1));
    res.tie = buf;
  }
}

}  // namespace trn::app
