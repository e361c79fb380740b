// `trnsim plan` (docs/plan.md): which system, how many chips, which layout, how long and at
// what cost to train a model on a token budget, start-up and restarts included.
// PlanOptions -> run_plan -> PlanResult, then the text and JSON writers; the subcommand's
// options are registered by add_plan (sim/app/cli/plan_cli.cpp). The pure search, bounds and
// restart model are in workloads/plan/.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/app/analysis/intervals.h"
#include "sim/app/analysis/step_analysis.h"
#include "workloads/plan/plan_model.h"

namespace trn::app {

/// What `plan` minimises (--rank-by): the time to train, the cost, or the chips (the fewest
/// chips that meet the deadline; among those, the shortest time to train).
enum class RankBy { Time, Cost, Chips };
inline const std::vector<std::string>& enum_words(RankBy) {
  static const std::vector<std::string> w{"time", "cost", "chips"};
  return w;
}

struct PlanOptions {
  std::string model;                 // zoo name, YAML or config.json
  double tokens = 0;                 // training tokens
  std::vector<std::string> systems;  // hw/configs/systems names
  int min_chips = 1, max_chips = 1024;
  double deadline_s = 0;                 // 0: none
  double budget_usd = 0;                 // --max-cost, USD; 0: none
  double hbm_headroom = 0.05;            // share of each rank's HBM a candidate must leave free (--hbm-headroom)
  std::map<std::string, double> prices;  // USD per instance-hour, per system (given)
  workloads::CompileCache cache = workloads::CompileCache::Cold;  // compile cache at the first start-up: cold | warm
  std::vector<int64_t> global_batches;                            // sequences per step (empty: tokens_per_step)
  std::vector<int64_t> tokens_per_step;                           // alternative (empty with global_batches)
  double batch_tolerance = 0.15;  // a batch with no layout: the nearest one within this share (--batch-tolerance)
  bool pow2_counts = true;        // --counts pow2 (the default): powers of two of instances; all: every count
  int64_t seq_len = 4096;
  int jobs = 1;
  std::string db;  // sweep database (SQLite points table); empty: none
  RankBy rank_by = RankBy::Time;
  double rank_quantile = 0;       // --rank-by time@Q: rank by the Q quantile of the interval (0: the prediction)
  bool exhaustive = false;        // no bound or dominance pruning (memory only)
  bool intervals = true;          // 80 % intervals on the best candidates (docs/model.md 12)
  int interval_candidates = 3;    // how many of the best get them
  double max_memory = 0;          // bytes a point's simulation may estimate to hold (0: half the machine's RAM)
  std::vector<std::string> sets;  // --set overrides applied to every point
  workloads::plan::RestartParams restart;
  workloads::plan::SearchSpace space;
};

/// One simulated (or reused) point with everything derived from it.
struct PlanCandidate {
  workloads::plan::PlanPoint point;
  double price = 0;  // USD per instance-hour (NaN: unknown, then the costs are NaN too)
  int hosts = 1;
  int64_t tokens_per_step = 0, steps = 0;
  double step_time_s = 0, mfu = 0, tokens_per_s = 0;
  double flop_bound_s = 0;       // rule 5's bound on the step (docs/plan.md section 2)
  double step_bound_s = -1;      // rule 6's schedule bound on the step (-1: not computed)
  StepBreakdown step_breakdown;  // seconds per category, rank 0
  double per_rank_bytes = 0, hbm_capacity_bytes = 0;
  double startup_s = 0;          // first start-up (overhead beyond one steady step)
  double restart_startup_s = 0;  // start-up of a restart: warm cache, weights from the checkpoint
  double steady_s = 0;           // steps x step time
  double checkpoint_bytes = 0;
  workloads::plan::RestartResult restart;
  double time_no_failures_s = 0, cost_no_failures_usd = 0;
  double time_to_train_s = 0, cost_usd = 0;
  double goodput = 0;  // steady_s / time_to_train_s
  bool pareto = false;
  bool meets_constraints = true;                                   // deadline and budget
  std::string why;                                                 // why it lost to the winner (empty for the winner)
  PredictionInterval step_interval, time_interval, cost_interval;  // valid for the best few, with intervals
  bool interval_done = false;                                      // its interval was computed (or tried)
};

struct PlanResult {
  std::string model;
  double tokens = 0;
  RankBy rank_by = RankBy::Time;
  double rank_quantile = 0;  // 0: ranked by the predicted figure
  workloads::CompileCache cache = workloads::CompileCache::Cold;
  std::vector<std::string> systems;
  std::map<std::string, std::pair<double, std::string>> prices;  // system -> (USD/h, source); NaN: unknown
  workloads::plan::RestartParams restart;
  std::vector<PlanCandidate> candidates;  // feasible, best first
  struct Counts {
    int enumerated = 0, invalid = 0, pruned_memory = 0, pruned_checkpointing = 0, pruned_bound = 0, pruned_deadline = 0,
        pruned_budget = 0, bounded = 0, bound_failed = 0, evaluated = 0, simulated_now = 0, reused = 0, stale = 0,
        failed = 0, over_constraints = 0;  // stale: stored points whose inputs changed, simulated again
  } counts;
  std::string memory_example;  // the smallest job pruned by memory, for the summary
  // A point whose simulation failed, with its bound: when the bound is not above the winner's
  // figure (or there is no winner), the point might have won, and the answer may be wrong.
  struct FailedPoint {
    std::string system, layout, message;
    int instances = 0, chips = 0;
    double step_bound_s = 0, time_bound_s = 0, cost_bound_usd = 0;
    bool could_win = false;
  };
  std::vector<FailedPoint> failed_points;
  // A system size and global batch with no layout at all (nothing divides the batch), and the
  // next larger global batch that has one (-1: none up to 4x).
  struct NoLayouts {
    std::string system;
    int instances = 0, chips = 0, ranks = 0;
    int64_t global_batch = 0, next_batch = -1;
  };
  std::vector<NoLayouts> no_layouts;
  // A system size where the global batch asked for has no layout and the nearest batch within
  // --batch-tolerance that has one is used instead.
  struct BatchUsed {
    std::string system;
    int instances = 0, chips = 0;
    int64_t requested = 0, used = 0;
  };
  std::vector<BatchUsed> batches_used;
  double batch_tolerance = 0.15;
  bool pow2_counts = true;
  // System sizes (system x instance count x global batch) of the search: each one's layouts are
  // enumerated only when a bound over all of them (the FLOP bound without bubble or recompute)
  // can still meet the limits and beat the best; the others are pruned whole.
  struct Sizes {
    int considered = 0, no_layout = 0, pruned_deadline = 0, pruned_budget = 0, pruned_bound = 0, enumerated = 0;
  } sizes;
  std::string inputs_hash;  // of the options, model, systems and calibrations (documents.h)
  double hbm_headroom = 0.05;
  std::string tie;  // the best two candidates' intervals overlap: what the plan says about it (empty: no tie)
  nlohmann::ordered_json question;  // every input (plan_question), so that the JSON can be rerun
  std::string command;              // the command line that asks the same question (plan_command_line)
};

PlanResult run_plan(const PlanOptions& o);
/// Every input of the plan (model, tokens, systems, chip range, deadline, cost limit, batches,
/// search space, prices given, --set, restarts), as the plan JSON records it (plan_question.cpp).
nlohmann::ordered_json plan_question(const PlanOptions& o);
/// The `trnsim plan` command line that asks `o` again, every option spelled out.
std::string plan_command_line(const PlanOptions& o);
/// Steps re-simulated for candidates' intervals ahead of time, by candidate (its point's --set
/// list joined by ';'): per fitted runtime parameter moved, the step (seconds).
using SpareIntervals = std::map<std::string, std::vector<std::pair<std::string, double>>>;
/// The re-simulations behind some candidates' intervals, as bodies for forked children, and the
/// intervals made from their steps (plan_intervals.cpp).
struct IntervalRuns {
  IntervalRuns(const PlanOptions& o, const std::vector<const PlanCandidate*>& cs);
  /// One body per candidate that `have` does not hold and per moved parameter, in order; each
  /// returns the step (JSON number).
  std::vector<std::function<nlohmann::json()>> bodies(const SpareIntervals& have) const;
  /// Files the steps of bodies(into) (in order) under their candidates.
  void keep(const std::vector<double>& steps, SpareIntervals& into) const;
  /// Sets the intervals of `cs` (the candidates of the constructor) from `steps`.
  void apply(const SpareIntervals& steps, const std::vector<PlanCandidate*>& cs) const;

  std::vector<std::string> keys;
  std::vector<workloads::ScenarioSpec> specs;
  std::vector<std::vector<std::pair<std::string, workloads::ScenarioSpec>>> moved;
};
/// The re-simulations of the intervals of the best candidates among `evaluated` (those that meet
/// the constraints, ranked by the prediction) that `spare` does not hold, for the search's last
/// wave (nothing left to enumerate or bound after it) to run in the cores its `wave` points leave
/// idle: the simulations the intervals would run after the search, so the output does not change;
/// a candidate that the wave's points push out of the best few got its interval simulated for
/// nothing, on a core that would have been idle. None with a quantile ranking (its intervals are
/// part of the search), without intervals, or when the wave fills the -j cores.
std::unique_ptr<IntervalRuns> intervals_ahead(const PlanOptions& o, const std::vector<PlanCandidate>& evaluated,
                                              size_t wave, const SpareIntervals& spare);
/// The 80 % intervals of the best o.interval_candidates candidates (each one's job re-simulated
/// with every fitted runtime parameter that acts on it moved by its sigma, forked children) and
/// whether the best two overlap (plan_intervals.cpp). With o.rank_quantile, the candidates are
/// ranked by that quantile, and intervals are computed until the best few all have one. Steps in
/// `spare` (simulated ahead by the search's last wave) are taken instead of simulated again.
void set_plan_intervals(const PlanOptions& o, PlanResult& res, const SpareIntervals* spare = nullptr);
/// The intervals of `cs` (forked children, o.jobs at a time; those in `spare` not simulated
/// again); each is marked interval_done.
void compute_plan_intervals(const PlanOptions& o, const std::vector<PlanCandidate*>& cs,
                            const SpareIntervals* spare = nullptr);
/// What `rank_by` minimises for a candidate: its time to train, its cost or its chips (plan_rank.cpp).
double plan_metric(const PlanCandidate& c, RankBy rank_by);
/// Whether `a` ranks before `b`: by ranked_metric; by chips, equal counts by the time to train;
/// then by the layout's text.
bool ranks_before(const PlanCandidate& a, const PlanCandidate& b, RankBy rank_by, double quantile);
/// The figure the plan ranks by: plan_metric, or with `quantile` (0.5 to 1) and an interval, that
/// quantile of the figure's log-normal interval (the steady part moves, start-up and restarts stay).
/// Without an interval it is plan_metric, which is never above the quantile for quantile >= 0.5.
double ranked_metric(const PlanCandidate& c, RankBy rank_by, double quantile);
/// The ranking word: "time", "cost", or with a quantile "time@0.9".
std::string rank_word(RankBy rank_by, double quantile);
/// Sorts res.candidates by ranked_metric (ties by the layout) and says again why each lost.
void rerank_plan_candidates(const PlanOptions& o, PlanResult& res);
/// The candidates of `evaluated` that meet the deadline and the cost limit into res.candidates,
/// best first (ties by the layout), the Pareto front of time and cost marked, and why each
/// runner-up lost to the winner; the others are counted in res.counts.over_constraints.
void rank_plan_candidates(const PlanOptions& o, std::vector<PlanCandidate> evaluated, PlanResult& res);
std::string plan_text(const PlanResult& r);
nlohmann::ordered_json plan_json(const PlanResult& r);

/// `trnsim report` on plan JSON: the plan's HTML view.
bool is_plan_json(const nlohmann::json& j);
std::string render_plan_html(const std::vector<nlohmann::json>& plans);

/// The documented public on-demand price of a system in USD per instance-hour and its source
/// tag (docs/plan.md section 5), or {-1, ""} when none is known.
std::pair<double, std::string> default_price(const std::string& system);

}  // namespace trn::app
