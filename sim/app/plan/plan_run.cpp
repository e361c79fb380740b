// run_plan: enumerate, prune (memory with its headroom, checkpointing dominance, bounds, deadline,
// cost limit), evaluate the survivors best bound first in waves (forked children, reusing the
// sweep database's points whose inputs are unchanged), derive time to train, cost and goodput;
// the ranking is plan_rank.cpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <memory>
#include <limits>
#include <optional>
#include <queue>
#include <set>

#include "sim/app/commands/common.h"
#include "sim/app/commands/documents.h"
#include "sim/app/simulation/fork_eval.h"
#include "sim/app/plan/plan.h"
#include "sim/app/plan/plan_point.h"
#include "sim/app/plan/plan_progress.h"
#include "sim/app/plan/step_bound.h"
#include "sim/app/simulation/step_simulation.h"
#include "sim/app/storage/sweep_store.h"
#include "sim/base/config_loader.h"
#include "sim/base/paths.h"
#include "sim/base/provenance.h"
#include "workloads/compile/first_step.h"
#include "workloads/memory/memory_model.h"
#include "sim/base/shared_helpers.h"

namespace trn::app {
namespace {

using sim::join;

using nlohmann::json;
using sim::ConfigError;
namespace wp = workloads::plan;

constexpr size_t kWave = 4;  // points evaluated between two updates of the best (independent of -j)
// Schedule bounds computed together, in up to -j children (independent of -j, like kWave, so
// that which survivors get a bound, and the counts, do not depend on -j).
constexpr size_t kBoundBatch = 64;
constexpr const char* kSweep = "plan";

// The sweep database's points table (the schema of `trnsim sweep`, storage::SweepStore): one row
// per evaluated point, id "plan:" + the point's --set list, result the point's JSON, stamped with
// the point's inputs_hash and the trnsim version. Without --db nothing is stored or read.
class PointsDb {
 public:
  explicit PointsDb(const std::string& path) {
    if (!path.empty()) store_.emplace(path, "--db " + path);
  }
  /// The stored result of `id` when it was computed from the same inputs (`hash`) by this trnsim;
  /// `stale` is set when a result is stored but its inputs or version differ, or it does not read
  /// as a point's result.
  std::optional<PlanPointResult> get(const std::string& id, const std::string& hash, bool& stale) {
    storage::SweepRow row;
    stale = false;
    if (!store_ || !store_->get(id, row) || row.status != storage::PointStatus::Ok) return std::nullopt;
    const json j = json::parse(row.result, nullptr, false);
    stale =
        !j.is_object() || j.value("inputs_hash", "") != hash || j.value("trnsim_version", "") != sim::trnsim_version();
    if (stale) return std::nullopt;
    try {
      return j.get<PlanPointResult>();
    } catch (const json::exception&) {
      stale = true;  // a row of another shape: simulate the point again
      return std::nullopt;
    }
  }
  void put(const std::string& id, int idx, const std::string& sets, storage::PointStatus status,
           const std::string& result, const std::string& reason) {
    if (store_) store_->put({id, idx, kSweep, sets, status, result, reason, {}});
  }

 private:
  std::optional<storage::SweepStore> store_;
};

std::string base_scenario() { return sim::data_root() + "/workloads/plan/base.yaml"; }

// A point that passed the pruning, with its scenario and bounds.
struct Survivor {
  wp::PlanPoint point;
  std::vector<std::string> sets;  // point sets + the plan's --set
  std::string id;
  std::string hash;  // of what its result is computed from (point_inputs)
  workloads::ScenarioSpec spec;
  double flop_lb = 0;      // rule 5: the FLOP bound on the step
  double step_lb = 0;      // the best bound on the step so far (rule 6 once `scheduled`)
  bool scheduled = false;  // step_lb is the schedule bound (StepBounder)
  double time_lb = 0, cost_lb = 0, price = 0;
  int hosts = 1;
  int64_t steps = 0;
  workloads::MemoryReport memory;
};

// Lower bounds on the time to train and the cost from a bound on the step: steps x step of
// failure-free work through the restart model with no start-up (a restart's start-up taken as
// zero; the model's time grows with the work and with the restart time), plus no first start-up.
void set_bounds(Survivor& sv, double step_lb, const PlanOptions& o) {
  sv.step_lb = step_lb;
  wp::RestartInput in;
  in.work_s = double(sv.steps) * step_lb;
  in.chips = sv.point.chips;
  in.hosts = sv.hosts;
  in.checkpoint_bytes = wp::checkpoint_bytes(sv.spec);
  in.restart_startup_s = 0;
  sv.time_lb = wp::restart_model(in, o.restart).total_s;  // infinite when it never finishes
  sv.cost_lb = sv.time_lb * sv.price * sv.point.instances / 3600.0;
}

// What a point's result is computed from: the resolved scenario (model, system, chip and runtime
// calibration inline) and the compile parameters of its first steps.
std::string point_inputs(const workloads::ScenarioSpec& s, const std::string& compile_params) {
  return "command: plan point\nscenario:\n" + workloads::resolved_yaml(s, "") + "compile_params:\n" + compile_params;
}

// Simulates one point (in a forked child): the steady step and the first step with a cold
// and with a warm compile cache, stamped with the point's inputs hash and this trnsim's
// version (a later plan reuses it only when both match).
PlanPointResult evaluate(const workloads::ScenarioSpec& s, const std::vector<std::string>& sets,
                         const std::string& model, const std::string& hash, double max_memory) {
  StepOptions opt;
  opt.max_memory = max_memory > 0 ? max_memory : default_max_memory();
  StepResult r = simulate(s, opt);
  PlanPointResult p;
  p.inputs_hash = hash;
  p.trnsim_version = sim::trnsim_version();
  p.step_time_s = r.step_time_s;
  p.mfu = r.mfu;
  p.tokens_per_s = r.tokens_per_s;
  p.breakdown = r.breakdown;
  p.per_rank_bytes = r.memory.total;
  p.hbm_capacity_bytes = r.memory.capacity;
  const models::CompileParams params = workloads::load_compile_params();
  for (const bool warm : {false, true}) {
    std::vector<std::string> cs = sets;
    cs.push_back(std::string("compile.cache=") + (warm ? "warm" : "cold"));
    workloads::ScenarioSpec sc = workloads::load_scenario(base_scenario(), cs, model);
    workloads::FirstStep f = workloads::first_step(sc, params, workloads::ExecMode::Compiled, r.step_time_s);
    PlanPointResult::FirstStep& out = warm ? p.warm : p.cold;
    out.total_s = f.total;
    out.parts = f.shown_parts();
  }
  return p;
}

// Fills a candidate from a point's stored result.
PlanCandidate derive(const Survivor& sv, const PlanPointResult& j, const PlanOptions& o) {
  PlanCandidate c;
  c.point = sv.point;
  c.price = sv.price;
  c.hosts = sv.hosts;
  c.tokens_per_step = sv.spec.batch.tokens();
  c.steps = sv.steps;
  c.step_time_s = j.step_time_s;
  c.flop_bound_s = sv.flop_lb;
  c.step_bound_s = sv.scheduled ? sv.step_lb : -1;
  c.mfu = j.mfu;
  c.tokens_per_s = j.tokens_per_s;
  c.step_breakdown = j.breakdown;
  c.per_rank_bytes = j.per_rank_bytes;
  c.hbm_capacity_bytes = j.hbm_capacity_bytes;
  const PlanPointResult::FirstStep& first = j.first_step(o.cache == workloads::CompileCache::Warm);
  c.startup_s = std::max(0.0, first.total_s - c.step_time_s);
  const PlanPointResult::FirstStep& warm = j.warm;
  // A restart: warm compile cache; the weights come from the checkpoint (its read is part of
  // the restart model), so the start-up's own weight initialisation is left out.
  const double weight_init = warm.part(workloads::enum_word(workloads::StartupPart::WeightInit));
  c.restart_startup_s = std::max(0.0, warm.total_s - c.step_time_s - weight_init);
  c.steady_s = double(c.steps) * c.step_time_s;
  c.checkpoint_bytes = wp::checkpoint_bytes(sv.spec);
  wp::RestartInput in;
  in.work_s = c.steady_s;
  in.chips = c.point.chips;
  in.hosts = c.hosts;
  in.checkpoint_bytes = c.checkpoint_bytes;
  in.restart_startup_s = c.restart_startup_s;
  c.restart = wp::restart_model(in, o.restart);
  const double per_s = c.price * c.point.instances / 3600.0;
  c.time_no_failures_s = c.startup_s + c.steady_s;
  c.cost_no_failures_usd = c.time_no_failures_s * per_s;
  c.time_to_train_s = c.startup_s + c.restart.total_s;
  c.cost_usd = c.time_to_train_s * per_s;
  c.goodput = c.restart.finishes ? c.steady_s / c.time_to_train_s : 0;
  c.meets_constraints = c.restart.finishes && (o.deadline_s <= 0 || c.time_to_train_s <= o.deadline_s) &&
                        (o.budget_usd <= 0 || c.cost_usd <= o.budget_usd);
  return c;
}

// What the plan is computed from: the options that change it (not --db or -j, which only save
// time), the prices used, the resolved model and systems, the runtime calibration and the compile
// parameters.
std::string plan_inputs(const PlanOptions& o, const workloads::ModelSpec& model, const PlanResult& res) {
  json opts = {{"tokens", o.tokens},
               {"systems", o.systems},
               {"min_chips", o.min_chips},
               {"max_chips", o.max_chips},
               {"deadline_s", o.deadline_s},
               {"budget_usd", o.budget_usd},
               {"hbm_headroom", o.hbm_headroom},
               {"cache", workloads::enum_word(o.cache)},
               {"global_batches", o.global_batches},
               {"tokens_per_step", o.tokens_per_step},
               {"seq_len", o.seq_len},
               {"batch_tolerance", o.batch_tolerance},
               {"counts", o.pow2_counts ? "pow2" : "all"},
               {"rank_by", rank_word(o.rank_by, o.rank_quantile)},
               {"exhaustive", o.exhaustive},
               {"sets", o.sets}};
  for (const auto& [sys, p] : res.prices) opts["prices"][sys] = p.first;
  opts["restart"] = {o.restart.interruptions_per_chip_hour, o.restart.write_bandwidth, o.restart.read_bandwidth,
                     o.restart.interval_s};
  opts["space"] = {o.space.tp, o.space.pp, o.space.max_fsdp, o.space.microbatch_sequences, o.space.checkpointing};
  std::string text = "command: plan\noptions: " + opts.dump() + "\nmodel:\n" + sim::to_yaml(sim::write_config(model));
  for (const auto& sys : o.systems) text += "system:\n" + models::resolved_yaml(models::load_system(sys, {}), "");
  text += "runtime:\n" + sim::to_yaml(sim::load_config_file(sim::data_root() + "/workloads/calibration/runtime.yaml"));
  text += "compile_params:\n" + sim::to_yaml(sim::write_config(workloads::load_compile_params()));
  if (o.intervals) text += "intervals: " + std::to_string(o.interval_candidates) + "\n" + interval_inputs_text();
  return text;
}

}  // namespace

namespace {

// The price per instance-hour of `sys`: --price, else the public figure; records its source.
// Neither known: an error when the plan needs it (--rank-by cost, --max-cost), else NaN (unknown).
double system_price(const PlanOptions& o, const models::SystemSpec& sys, PlanResult& res) {
  auto known = default_price(sys.name);
  double price = -1;
  std::string source;
  if (auto it = o.prices.find(sys.name); it != o.prices.end())
    price = it->second, source = "--price";
  else if (known.first > 0)
    price = known.first, source = known.second;
  if (price < 0) {
    if (o.rank_by == RankBy::Cost || o.budget_usd > 0)
      throw ConfigError(sim::Location{"--systems", 0, 0}, sys.name,
                        "no public price is known for " + sys.name + ": give one with --price " + sys.name +
                            "=USD_PER_HOUR (" + (o.rank_by == RankBy::Cost ? "--rank-by cost" : "--max-cost") +
                            " needs the price of every system)");
    // Ranked by time or chips with no cost limit: the cost is unknown and printed as such.
    price = std::numeric_limits<double>::quiet_NaN();
    source = "unknown";
  }
  res.prices[sys.name] = {price, source};
  return price;
}

// Where the enumeration of one system stands: its price, the layouts (without their
// checkpointing mode) that already fit with a lighter mode, the smallest out-of-memory point.
struct Pruning {
  std::string compile_params;  // the resolved compile parameters (YAML), for the points' hashes
  double price = 0;
  std::set<std::string> fitted;
  double smallest_oom = std::numeric_limits<double>::infinity();
};

// Rule 4: true (and counted in `deadline` or `budget`) when the bounds on the time to train and
// the cost exceed the deadline or the budget.
bool bounds_over_limits(const PlanOptions& o, double time_lb, double cost_lb, int& deadline, int& budget) {
  if (o.exhaustive) return false;
  if (o.deadline_s > 0 && time_lb > o.deadline_s) {
    ++deadline;
    return true;
  }
  if (o.budget_usd > 0 && cost_lb > o.budget_usd) {
    ++budget;
    return true;
  }
  return false;
}

// Rule 4 on one layout.
bool over_limits(const PlanOptions& o, const Survivor& sv, PlanResult& res) {
  return bounds_over_limits(o, sv.time_lb, sv.cost_lb, res.counts.pruned_deadline, res.counts.pruned_budget);
}

// Fills a survivor's point (`n` instances of `sys`, `seqs` sequences per step, layout `l`) and
// loads its scenario; throws ConfigError for a layout the scenario loader rejects.
void load_point(const PlanOptions& o, const models::SystemSpec& sys, int n, int64_t seqs, const wp::PlanLayout& l,
                Survivor& sv) {
  sv.point.system = sys.name;
  sv.point.instances = n;
  sv.point.chips = sys.chips * n;
  sv.point.global_batch = seqs;
  sv.point.seq_len = o.seq_len;
  sv.point.layout = l;
  sv.sets = sv.point.sets();
  sv.sets.insert(sv.sets.end(), o.sets.begin(), o.sets.end());
  sv.spec = workloads::load_scenario(base_scenario(), sv.sets, o.model);
  sv.hosts = sys.hosts * n;
  sv.steps = static_cast<int64_t>(std::ceil(o.tokens / double(sv.spec.batch.tokens())));
}

// Prunes one layout of `n` instances of `sys` at `seqs` sequences per step without simulating
// (invalid layout, memory, checkpointing dominance, deadline, budget); true if it survives.
bool survives(const PlanOptions& o, const models::SystemSpec& sys, int n, int64_t seqs, const wp::PlanLayout& l,
              Pruning& pr, PlanResult& res, Survivor& sv) {
  ++res.counts.enumerated;
  const std::string key = l.text(false);
  if (!o.exhaustive && pr.fitted.count(key)) {
    ++res.counts.pruned_checkpointing;
    return false;
  }
  try {
    load_point(o, sys, n, seqs, l, sv);
  } catch (const ConfigError&) {
    ++res.counts.invalid;
    return false;
  }
  sv.memory = workloads::memory_per_rank(sv.spec);
  const double usable = sv.memory.capacity * (1 - o.hbm_headroom);  // --hbm-headroom stays free
  if (sv.memory.total > usable) {
    ++res.counts.pruned_memory;
    if (sv.memory.total < pr.smallest_oom) {
      pr.smallest_oom = sv.memory.total;
      res.memory_example = sys.name + " x" + std::to_string(n) + " " + l.text() + ": " + gib(sv.memory.total) +
                           " per rank > " + gib(usable) +
                           (o.hbm_headroom > 0 ? " (" + gib(sv.memory.capacity) + " less the headroom)" : "");
    }
    return false;
  }
  pr.fitted.insert(key);
  sv.id = std::string(kSweep) + ":" + res.model + ";" + join(sv.sets, ";");
  sv.hash = inputs_hash(point_inputs(sv.spec, pr.compile_params));
  sv.price = pr.price;
  sv.flop_lb = wp::step_time_lower_bound(sv.spec, model_flops_per_step(sv.spec));
  set_bounds(sv, sv.flop_lb, o);
  return !over_limits(o, sv, res);
}

// Where a survivor, a system size or a candidate stands in the search order: the figure ranked by
// (a bound on it for a survivor or a size), then for --rank-by chips the time to train (a bound
// for a survivor or a size); compared lexicographically, so that pruning "no better than the
// best" stays exact.
struct SearchKey {
  double primary = std::numeric_limits<double>::infinity(), secondary = 0;
  bool operator<(const SearchKey& o) const {
    return primary != o.primary ? primary < o.primary : secondary < o.secondary;
  }
  bool operator>(const SearchKey& o) const { return o < *this; }
  bool operator!=(const SearchKey& o) const { return primary != o.primary || secondary != o.secondary; }
};

SearchKey key_of(int chips, double time_lb, double cost_lb, RankBy rank_by) {
  if (rank_by == RankBy::Chips) return {double(chips), time_lb};
  return {rank_by == RankBy::Cost ? cost_lb : time_lb, 0};
}

SearchKey bound_key(const Survivor& s, RankBy rank_by) { return key_of(s.point.chips, s.time_lb, s.cost_lb, rank_by); }

SearchKey candidate_key(const PlanCandidate& c, RankBy rank_by) {
  return {plan_metric(c, rank_by), rank_by == RankBy::Chips ? c.time_to_train_s : 0};
}

// One system size of the search: `instances` of systems[system] at `seqs` sequences per step
// (`requested` was asked for; when it has no layout, the nearest batch within --batch-tolerance
// that has one). Its layouts are enumerated only when its bound reaches the front of the search.
struct Size {
  size_t system = 0;
  int instances = 1, chips = 0;
  int64_t requested = 0, seqs = 0;
  std::vector<wp::PlanLayout> layouts;
  double time_lb = 0, cost_lb = 0;  // at most those of every layout (size_bounds)
};

SearchKey size_key(const Size& z, RankBy rank_by) { return key_of(z.chips, z.time_lb, z.cost_lb, rank_by); }

// A size's bounds over all its layouts: rule 5's FLOP bound of its first layout that loads, with
// PP 1 and no checkpointing, through set_bounds. Each layout's bound is that times its bubble
// (m + pp - 1) / m and its recompute factor, both at least 1; the model FLOPs, the chips, the
// efficiency, the steps, the hosts and the checkpoint do not depend on the layout. When no layout
// loads, the bounds stay 0 (every layout is then counted invalid when it is enumerated).
void size_bounds(const PlanOptions& o, const models::SystemSpec& sys, double price, Size& z) {
  for (const auto& l : z.layouts) {
    Survivor sv;
    try {
      load_point(o, sys, z.instances, z.seqs, l, sv);
    } catch (const ConfigError&) {
      continue;
    }
    sv.spec.parallel.pp = 1;
    sv.spec.checkpointing = workloads::Checkpointing::None;
    sv.price = price;
    set_bounds(sv, wp::step_time_lower_bound(sv.spec, model_flops_per_step(sv.spec)), o);
    z.time_lb = sv.time_lb;
    z.cost_lb = sv.cost_lb;
    return;
  }
}

// Rule 4 on a whole size: true (and counted) when its bounds exceed the deadline or the budget.
bool size_over_limits(const PlanOptions& o, const Size& z, PlanResult& res) {
  return bounds_over_limits(o, z.time_lb, z.cost_lb, res.sizes.pruned_deadline, res.sizes.pruned_budget);
}

// The lazy enumeration: the systems, the sizes not yet enumerated (best bound first) and the
// survivors of those that were (a deque: a wave points into it while it grows).
struct Enumeration {
  std::vector<models::SystemSpec> systems;
  std::vector<Size> sizes;
  size_t next = 0;  // sizes[next..] are not enumerated yet
  std::deque<Survivor> survivors;
  std::string compile_params;  // the resolved compile parameters (YAML), for the points' hashes
  double smallest_oom = std::numeric_limits<double>::infinity();
  int layouts_seen = 0;
};

// The sizes of one system: every instance count of the search x every batch asked for, the batch
// moved to the nearest with a layout within --batch-tolerance (or recorded in no_layouts).
void system_sizes(const PlanOptions& o, const workloads::ModelSpec& model, size_t si, Enumeration& en, PlanResult& res,
                  PlanProgress& progress) {
  const models::SystemSpec& sys = en.systems[si];
  const int lnc = sys.chip.cores.default_lnc;
  const int per_instance = sys.chips * (sys.chip.cores.physical / lnc);
  std::vector<int64_t> batches = o.global_batches;
  for (int64_t t : o.tokens_per_step) batches.push_back(t / o.seq_len);
  std::set<std::pair<int, int64_t>> seen;  // two batches asked for may move to the same one
  for (int n : wp::instance_counts(sys.chips, o.min_chips, o.max_chips, o.pow2_counts))
    for (int64_t seqs : batches) {
      progress.enumerating(sys.name, n, en.layouts_seen, static_cast<int>(en.survivors.size()));
      ++res.sizes.considered;
      const int ranks = per_instance * n;
      Size z;
      z.system = si;
      z.instances = n;
      z.chips = sys.chips * n;
      z.requested = seqs;
      z.seqs = wp::nearest_batch_with_layouts(model, o.space, ranks, per_instance, seqs, lnc, o.batch_tolerance);
      if (z.seqs < 0) {
        ++res.sizes.no_layout;
        res.no_layouts.push_back({sys.name, n, z.chips, ranks, seqs,
                                  wp::next_batch_with_layouts(model, o.space, ranks, per_instance, seqs, lnc)});
        continue;
      }
      if (z.seqs != seqs) res.batches_used.push_back({sys.name, n, z.chips, seqs, z.seqs});
      if (!seen.insert({n, z.seqs}).second) continue;
      z.layouts = wp::enumerate_layouts(model, o.space, ranks, per_instance, z.seqs, lnc);
      size_bounds(o, sys, res.prices.at(sys.name).first, z);
      if (!size_over_limits(o, z, res)) en.sizes.push_back(std::move(z));
    }
}

// 1. Every system (its price first: a missing one stops the plan at once) and its sizes, best
// bound first (equal bounds in the order of --systems, then of the instance counts).
Enumeration start_enumeration(const PlanOptions& o, const workloads::ModelSpec& model, PlanResult& res,
                              PlanProgress& progress) {
  Enumeration en;
  en.compile_params = sim::to_yaml(sim::write_config(workloads::load_compile_params()));
  for (const auto& sys_name : o.systems) {
    en.systems.push_back(models::load_system(sys_name, {}));
    system_price(o, en.systems.back(), res);
  }
  for (size_t si = 0; si < en.systems.size(); ++si) system_sizes(o, model, si, en, res, progress);
  std::stable_sort(en.sizes.begin(), en.sizes.end(),
                   [&](const Size& a, const Size& b) { return size_key(a, o.rank_by) < size_key(b, o.rank_by); });
  return en;
}

// Enumerates sizes[next] (rules 1 to 4 on each of its layouts) and puts its survivors in `heap`.
template <class Heap>
void enumerate_size(const PlanOptions& o, Enumeration& en, Heap& heap, PlanResult& res, PlanProgress& progress) {
  const Size& z = en.sizes[en.next++];
  const models::SystemSpec& sys = en.systems[z.system];
  ++res.sizes.enumerated;
  Pruning pr;
  pr.compile_params = en.compile_params;
  pr.price = res.prices.at(sys.name).first;
  pr.smallest_oom = en.smallest_oom;
  for (const auto& l : z.layouts) {
    Survivor sv;
    if (survives(o, sys, z.instances, z.seqs, l, pr, res, sv)) {
      en.survivors.push_back(std::move(sv));
      heap.push(en.survivors.size() - 1);
    }
    progress.enumerating(sys.name, z.instances, ++en.layouts_seen, static_cast<int>(en.survivors.size()));
  }
  en.smallest_oom = pr.smallest_oom;
}

// Simulates the points of one wave not yet in the database (forked, -j at a time) and stores
// them; returns each point's result (none when its simulation failed, and then `errors` says why).
std::vector<std::optional<PlanPointResult>> run_wave(const PlanOptions& o, const std::vector<const Survivor*>& wave,
                                                     PointsDb& db, PlanResult& res, int& idx, PlanProgress& progress,
                                                     std::vector<std::string>& errors, const IntervalRuns* ahead,
                                                     SpareIntervals& spare) {
  errors.assign(wave.size(), "");
  std::vector<std::optional<PlanPointResult>> results(wave.size());
  std::vector<size_t> unsimulated;  // indices into wave of the points the database does not hold
  for (size_t i = 0; i < wave.size(); ++i) {
    bool stale = false;
    if ((results[i] = db.get(wave[i]->id, wave[i]->hash, stale))) {
      ++res.counts.reused;
      continue;
    }
    res.counts.stale += stale;
    unsimulated.push_back(i);
  }
  if (unsimulated.empty()) return results;
  std::vector<std::function<json()>> bodies;
  for (size_t i : unsimulated) {
    const Survivor* s = wave[i];
    const std::string model_arg = o.model;
    const double max_memory = o.max_memory;
    bodies.push_back(
        [s, model_arg, max_memory]() { return json(evaluate(s->spec, s->sets, model_arg, s->hash, max_memory)); });
  }
  if (ahead)
    for (auto& b : ahead->bodies(spare)) bodies.push_back(std::move(b));
  const std::vector<sim::ChildResult> out = run_children(bodies, "plan point", o.jobs);
  if (ahead) {  // kept only when every one of them succeeded (else the intervals run them again)
    std::vector<double> steps;
    for (size_t k = unsimulated.size(); k < out.size() && out[k].ok(); ++k) steps.push_back(out[k].value.get<double>());
    if (steps.size() == out.size() - unsimulated.size()) ahead->keep(steps, spare);
  }
  for (size_t k = 0; k < unsimulated.size(); ++k) {
    const size_t i = unsimulated[k];
    ++res.counts.simulated_now;
    if (!out[k].ok()) {
      const std::string why = "plan point failed: " + out[k].message;
      errors[i] = out[k].message;
      progress.line("trnsim: " + why + "\n");
      // The result column holds JSON on every row, so that json_extract works on all of them.
      db.put(wave[i]->id, idx++, join(wave[i]->sets, ";"), storage::PointStatus::Error,
             json{{"error", {{"message", why}}}}.dump(), why);
      continue;
    }
    results[i] = out[k].value.get<PlanPointResult>();
    db.put(wave[i]->id, idx++, join(wave[i]->sets, ";"), storage::PointStatus::Ok, json(*results[i]).dump(), "");
  }
  return results;
}

// One line on stderr per evaluated point (a plan can take minutes).
void point_line(const PlanCandidate& c, const Survivor& s, PlanProgress& progress) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "plan: %s x%d %s: step %.3f s (bound %.3f s), time to train %.2f d\n",
                s.point.system.c_str(), s.point.instances, s.point.layout.text().c_str(), c.step_time_s, s.step_lb,
                c.time_to_train_s / 86400);
  progress.line(buf);
}

// One schedule bound as JSON: {"bound": seconds} or {"error": why}.
json bound_of(const Survivor& s, StepBounder& bounder) {
  try {
    return json{{"bound", bounder.step_lower_bound(s.spec)}};
  } catch (const std::exception& e) {
    return json{{"error", std::string(e.what())}};
  }
}

// Rule 6: replaces each survivor's FLOP bound by its schedule bound (StepBounder), the larger
// of the two; a schedule that cannot be built keeps the FLOP bound (counted as failed). With
// -j above 1 the batch is split between that many forked children (the bounds are pure
// functions of the survivor, and doubles cross the pipe exactly, so the result is the same);
// each child starts from the parent's topologies (StepBounder::prepare).
void schedule_bounds(const std::vector<Survivor*>& batch, StepBounder& bounder, const PlanOptions& o, PlanResult& res,
                     PlanProgress& progress) {
  std::vector<json> out;
  const size_t children = std::min(batch.size(), static_cast<size_t>(std::max(1, o.jobs)));
  if (children <= 1) {
    for (Survivor* s : batch) out.push_back(bound_of(*s, bounder));
  } else {
    for (Survivor* s : batch) bounder.prepare(s->spec);
    std::vector<std::function<json()>> bodies;
    for (size_t c = 0; c < children; ++c)
      bodies.push_back([&batch, &bounder, c, children]() {
        json a = json::array();
        for (size_t i = c; i < batch.size(); i += children) a.push_back(bound_of(*batch[i], bounder));
        return a;
      });
    const std::vector<sim::ChildResult> r = run_children(bodies, "plan schedule bounds", o.jobs);
    out.resize(batch.size());
    for (size_t c = 0; c < children; ++c)
      for (size_t i = c, k = 0; i < batch.size(); i += children, ++k)
        out[i] = r[c].ok() ? r[c].value.at(k) : json{{"error", r[c].message}};
  }
  for (size_t i = 0; i < batch.size(); ++i) {
    Survivor& s = *batch[i];
    s.scheduled = true;
    ++res.counts.bounded;
    if (out[i].contains("bound")) {
      set_bounds(s, std::max(s.flop_lb, out[i].at("bound").get<double>()), o);
      continue;
    }
    ++res.counts.bound_failed;
    progress.line("plan: no schedule bound for " + s.point.system + " x" + std::to_string(s.point.instances) + " " +
                  s.point.layout.text() + ": " + out[i].at("error").get<std::string>() + "\n");
  }
}

// The next wave: up to kWave survivors, best bound first, each with its schedule bound; every
// survivor left whose bound is not below `best` is pruned (rule 5/6) and the heap emptied. A size
// is enumerated when its bound is not above the front's and not above `best`: its survivors'
// bounds are at least its own, so the sizes left when the search ends are above `best`.
template <class Heap>
std::vector<const Survivor*> next_wave(Heap& heap, Enumeration& en, const SearchKey& best, StepBounder& bounder,
                                       const PlanOptions& o, PlanResult& res, PlanProgress& progress) {
  auto lb = [&](const Survivor& s) { return bound_key(s, o.rank_by); };
  std::vector<const Survivor*> wave;
  while (wave.size() < kWave) {
    while (en.next < en.sizes.size()) {
      const SearchKey k = size_key(en.sizes[en.next], o.rank_by);
      if ((!o.exhaustive && k > best) || (!heap.empty() && k > lb(en.survivors[heap.top()]))) break;
      enumerate_size(o, en, heap, res, progress);
    }
    if (heap.empty()) break;
    Survivor& s = en.survivors[heap.top()];
    // The smallest bound left is above the best time (cost): none of them can win, nor tie
    // (a tie would be ranked by the layout's text, so a bound equal to the best is kept).
    if (!o.exhaustive && lb(s) > best) {
      res.counts.pruned_bound += static_cast<int>(heap.size());
      while (!heap.empty()) heap.pop();
      break;
    }
    const size_t i = heap.top();
    heap.pop();
    if (!s.scheduled) {  // bound it and the unbounded ones next in line, then put them back in place
      std::vector<size_t> batch = {i};
      while (batch.size() < kBoundBatch && !heap.empty()) {
        const Survivor& t = en.survivors[heap.top()];
        if (t.scheduled || (!o.exhaustive && lb(t) > best)) break;
        batch.push_back(heap.top());
        heap.pop();
      }
      std::vector<Survivor*> ss;
      for (size_t b : batch) ss.push_back(&en.survivors[b]);
      schedule_bounds(ss, bounder, o, res, progress);
      progress.searching(res.counts.bounded, static_cast<int>(en.survivors.size()), res.counts.evaluated,
                         static_cast<int>(heap.size() + batch.size() + wave.size()), 0);
      for (size_t b : batch)
        if (!over_limits(o, en.survivors[b], res)) heap.push(b);
      continue;
    }
    wave.push_back(&s);
  }
  return wave;
}

// Ranked by a quantile (0.5 or more) of the intervals: the pruning threshold is the best
// quantile known, starting with that of the candidate with the best prediction so far (its
// interval computed once). It bounds the winner's quantile from above, and a survivor's bound on
// its prediction bounds its quantile from below, so pruning stays exact.
double quantile_threshold(const PlanOptions& o, std::vector<PlanCandidate>& evaluated) {
  PlanCandidate* lead = nullptr;
  for (auto& c : evaluated)
    if (c.meets_constraints && (!lead || plan_metric(c, o.rank_by) < plan_metric(*lead, o.rank_by))) lead = &c;
  if (!lead) return std::numeric_limits<double>::infinity();
  if (!lead->interval_done) compute_plan_intervals(o, {lead});
  double best = std::numeric_limits<double>::infinity();
  for (const auto& c : evaluated)
    if (c.meets_constraints && c.interval_done) best = std::min(best, ranked_metric(c, o.rank_by, o.rank_quantile));
  return best;
}

// A point whose simulation failed, and why.
struct FailedSurvivor {
  const Survivor* survivor = nullptr;
  std::string message;
};

// The winner's figure as the search pruned against it: its prediction, or the quantile ranked by.
SearchKey winner_key(const PlanOptions& o, const PlanCandidate& c) {
  SearchKey k = candidate_key(c, o.rank_by);
  if (o.rank_quantile > 0 && c.interval_done) k.primary = ranked_metric(c, o.rank_by, o.rank_quantile);
  return k;
}

// The failed points, each with whether it might have won: its bound is not above the winner's
// figure (by the key the search pruned with), or nothing won.
void record_failed(const PlanOptions& o, const std::vector<FailedSurvivor>& failed, PlanResult& res) {
  for (const auto& f : failed) {
    const Survivor& s = *f.survivor;
    PlanResult::FailedPoint p;
    p.system = s.point.system;
    p.layout = s.point.layout.text();
    p.message = f.message;
    p.instances = s.point.instances;
    p.chips = s.point.chips;
    p.step_bound_s = s.step_lb;
    p.time_bound_s = s.time_lb;
    p.cost_bound_usd = s.cost_lb;
    p.could_win = res.candidates.empty() || !(bound_key(s, o.rank_by) > winner_key(o, res.candidates[0]));
    res.failed_points.push_back(std::move(p));
  }
}

// 2. Best bound first (A*-like: a survivor gets its schedule bound when it first reaches the
// front, then goes back in line); evaluates in waves of kWave, pruning what cannot beat the
// best so far. The order and the pruning depend on the inputs only, not on -j.
std::vector<PlanCandidate> evaluate_survivors(const PlanOptions& o, Enumeration& en, PointsDb& db, PlanResult& res,
                                              PlanProgress& progress, std::vector<FailedSurvivor>& failed,
                                              SpareIntervals& spare) {
  auto lb = [&](const Survivor& s) { return bound_key(s, o.rank_by); };
  auto later = [&](size_t a, size_t b) {
    const Survivor &x = en.survivors[a], &y = en.survivors[b];
    return lb(x) != lb(y) ? lb(x) > lb(y) : x.id > y.id;
  };
  std::priority_queue<size_t, std::vector<size_t>, decltype(later)> heap(later);
  StepBounder bounder;
  SearchKey best;
  std::vector<PlanCandidate> evaluated;
  int idx = 0;
  for (;;) {
    const std::vector<const Survivor*> wave = next_wave(heap, en, best, bounder, o, res, progress);
    if (wave.empty()) break;
    progress.searching(res.counts.bounded, static_cast<int>(en.survivors.size()), res.counts.evaluated,
                       static_cast<int>(heap.size() + wave.size()), static_cast<int>(wave.size()));
    std::vector<std::string> errors;
    // The last wave: no survivor left in line, and no size left that could still be enumerated.
    const bool last = heap.empty() &&
                      (en.next >= en.sizes.size() || (!o.exhaustive && size_key(en.sizes[en.next], o.rank_by) > best));
    const std::unique_ptr<IntervalRuns> ahead = last ? intervals_ahead(o, evaluated, wave.size(), spare) : nullptr;
    const std::vector<std::optional<PlanPointResult>> results =
        run_wave(o, wave, db, res, idx, progress, errors, ahead.get(), spare);
    for (size_t i = 0; i < wave.size(); ++i) {
      if (!results[i]) {
        ++res.counts.failed;
        failed.push_back({wave[i], errors[i]});
        continue;
      }
      ++res.counts.evaluated;
      PlanCandidate c = derive(*wave[i], *results[i], o);
      point_line(c, *wave[i], progress);
      if (c.meets_constraints) best = std::min(best, candidate_key(c, o.rank_by));
      evaluated.push_back(std::move(c));
    }
    if (o.rank_quantile > 0 && !o.exhaustive) best = {quantile_threshold(o, evaluated), 0};
  }
  res.sizes.pruned_bound += static_cast<int>(en.sizes.size() - en.next);  // all above the best (next_wave)
  return evaluated;
}

}  // namespace

PlanResult run_plan(const PlanOptions& o) {
  PlanResult res;
  res.tokens = o.tokens;
  res.rank_by = o.rank_by;
  res.rank_quantile = o.rank_quantile;
  res.question = plan_question(o);
  res.command = plan_command_line(o);
  res.cache = o.cache;
  res.systems = o.systems;
  res.restart = o.restart;
  res.hbm_headroom = o.hbm_headroom;
  res.batch_tolerance = o.batch_tolerance;
  res.pow2_counts = o.pow2_counts;
  PointsDb db(o.db);
  std::vector<std::string> model_sets;
  for (const auto& s : o.sets)
    if (s.rfind("model.", 0) == 0) model_sets.push_back(s.substr(6));
  const workloads::ModelSpec model = workloads::load_model(o.model, model_sets);
  res.model = model.name;
  PlanProgress progress;
  Enumeration en = start_enumeration(o, model, res, progress);
  std::vector<FailedSurvivor> failed;
  SpareIntervals spare;
  rank_plan_candidates(o, evaluate_survivors(o, en, db, res, progress, failed, spare), res);
  if (o.intervals) {
    progress.phase("80 % intervals of the best candidates (one simulation per fitted parameter)");
    set_plan_intervals(o, res, &spare);
  }
  record_failed(o, failed, res);  // against the final winner (a quantile ranking re-ranks above)
  res.inputs_hash = inputs_hash(plan_inputs(o, model, res));
  return res;
}

}  // namespace trn::app
