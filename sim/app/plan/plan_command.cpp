// `trnsim plan`: the text and JSON writers and the default prices (docs/plan.md); the options are
// parsed in sim/app/cli/plan_cli.cpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <tuple>

#include "sim/app/commands/common.h"
#include "sim/app/commands/documents.h"
#include "sim/app/plan/plan.h"
#include "sim/base/config_node.h"
#include "sim/base/output_file.h"
#include "sim/base/units.h"

namespace trn::app {
namespace {

// Appends printf-formatted text (a line of the plan's text, at most 1 KiB) to `out`.
template <class... Args>
void appendf(std::string& out, const char* fmt, Args... args) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, fmt, args...);
  out += buf;
}

using sim::ConfigError;

std::string days(double s) {
  char buf[32];
  if (!std::isfinite(s)) return "never";
  std::snprintf(buf, sizeof buf, "%.2f d", s / 86400);
  return buf;
}

std::string usd(double x) {
  char buf[32];
  if (!std::isfinite(x)) return "-";
  if (x >= 1e6)
    std::snprintf(buf, sizeof buf, "$%.3f M", x / 1e6);
  else
    std::snprintf(buf, sizeof buf, "$%.0f", x);
  return buf;
}

}  // namespace

std::pair<double, std::string> default_price(const std::string& system) {
  // Public on-demand prices, USD per instance-hour, us-east-1 (docs/plan.md section 5).
  static const std::map<std::string, std::pair<double, std::string>> prices = {
      {"trn1.32xlarge", {21.50, "T10"}},
      {"trn2.48xlarge", {35.76, "T9"}},
      // Sold through Capacity Blocks only: priced as its four trn2.48xlarge-class servers (DERIVED, assumption).
      {"trn2-ultraserver", {4 * 35.76, "T9, DERIVED: 4 x trn2.48xlarge"}}};
  const auto it = prices.find(system);
  return it == prices.end() ? std::pair<double, std::string>{-1, ""} : it->second;
}

namespace {

// One line per system size whose global batch no layout divides, with the next batch that fits.
std::string no_layouts_text(const PlanResult& r) {
  std::string out;
  for (const auto& z : r.no_layouts) {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "  no layout    %s x%d (%d chips, %d ranks) at %lld sequences per step: no TP x PP x FSDP x DP of "
                  "the search divides the batch%s\n",
                  z.system.c_str(), z.instances, z.chips, z.ranks, static_cast<long long>(z.global_batch),
                  z.next_batch > 0 ? ("; the next global batch with layouts is " + std::to_string(z.next_batch) +
                                      " (--global-batch " + std::to_string(z.next_batch) + ")")
                                         .c_str()
                                   : "");
    out += buf;
  }
  return out;
}

// The global batch asked for where a point uses another (batches_used), else -1.
int64_t batch_asked(const PlanResult& r, const workloads::plan::PlanPoint& p) {
  for (const auto& b : r.batches_used)
    if (b.system == p.system && b.instances == p.instances && b.used == p.global_batch) return b.requested;
  return -1;
}

// "x1-x3,x5": instance counts as runs.
std::string count_runs(const std::vector<int>& counts) {
  std::string out;
  for (size_t i = 0; i < counts.size();) {
    size_t j = i;
    while (j + 1 < counts.size() && counts[j + 1] == counts[j] + 1) ++j;
    out += (out.empty() ? "x" : ",x") + std::to_string(counts[i]) + (j > i ? "-x" + std::to_string(counts[j]) : "");
    i = j + 1;
  }
  return out;
}

// One line per system: its price and where it comes from, or that it is unknown (ranked by time
// or chips, none needed) and how to give one.
std::string prices_text(const PlanResult& r) {
  std::string out;
  char buf[512];
  for (const auto& [sys, p] : r.prices) {
    if (std::isfinite(p.first))
      std::snprintf(buf, sizeof buf, "  price        %s: $%.2f per instance-hour (%s)\n", sys.c_str(), p.first,
                    p.second.c_str());
    else
      std::snprintf(buf, sizeof buf,
                    "  price        %s: unknown, so its costs print as - (give one with --price %s=USD_PER_HOUR)\n",
                    sys.c_str(), sys.c_str());
    out += buf;
  }
  return out;
}

// The points whose simulation failed: how many, and those whose bound is not above the winner's
// figure (or all, with no winner), which might have won: then the answer may be wrong.
std::string failed_text(const PlanResult& r) {
  if (r.failed_points.empty()) return "";
  std::vector<const PlanResult::FailedPoint*> could;
  for (const auto& f : r.failed_points)
    if (f.could_win) could.push_back(&f);
  std::string out = "  failed       " + std::to_string(r.failed_points.size()) + " point" +
                    (r.failed_points.size() == 1 ? "" : "s") + " could not be simulated; ";
  if (could.empty()) return out + "the bound of each is above the winner's figure, so none of them could have won\n";
  out += std::to_string(could.size()) + (could.size() == 1 ? " has a bound" : " have bounds") + " not above " +
         (r.candidates.empty() ? "any feasible figure (there is no winner)" : "the winner's figure") +
         ": the answer may be wrong (fix what the message says, e.g. a larger --max-memory, and plan again)\n";
  constexpr size_t kShown = 5;
  for (size_t i = 0; i < could.size() && i < kShown; ++i) {
    const auto& f = *could[i];
    char buf[256];
    std::snprintf(buf, sizeof buf, "               %s x%d %s: step bound %.3f s: ", f.system.c_str(), f.instances,
                  f.layout.c_str(), f.step_bound_s);
    out += buf + f.message + "\n";
  }
  if (could.size() > kShown)
    out += "               ... and " + std::to_string(could.size() - kShown) + " more (--json)\n";
  return out;
}

// The system sizes and the batches moved within --batch-tolerance: one line per system, batch
// asked for and batch used, with the instance counts that use it.
std::string sizes_text(const PlanResult& r) {
  const auto& z = r.sizes;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "  sizes        %d system sizes (%s instance count from --min-chips to --max-chips, per system and "
                "batch): %d without a layout, %d pruned by the deadline, %d by the cost limit, %d by the bound, %d "
                "enumerated\n",
                z.considered, r.pow2_counts ? "every power-of-two" : "every", z.no_layout, z.pruned_deadline,
                z.pruned_budget, z.pruned_bound, z.enumerated);
  std::string out = buf;
  std::map<std::tuple<std::string, int64_t, int64_t>, std::vector<int>> moved;  // (system, asked, used) -> counts
  for (const auto& b : r.batches_used) moved[{b.system, b.requested, b.used}].push_back(b.instances);
  for (const auto& [k, counts] : moved) {
    std::snprintf(buf, sizeof buf,
                  "  batch        %s %s: %lld sequences per step instead of %lld, the nearest with a layout "
                  "(--batch-tolerance %s%%)\n",
                  std::get<0>(k).c_str(), count_runs(counts).c_str(), static_cast<long long>(std::get<2>(k)),
                  static_cast<long long>(std::get<1>(k)), sim::format_double_exact(100 * r.batch_tolerance).c_str());
    out += buf;
  }
  return out;
}

}  // namespace

namespace {
// The search's counts: layouts, bounds, evaluated points, those over the limits, the failed ones.
std::string search_text(const PlanResult& r) {
  std::string out;
  auto line = [&out](const char* fmt, auto... args) { appendf(out, fmt, args...); };
  const auto& n = r.counts;
  line(
      "  search       %d layouts: %d invalid, %d pruned by memory (%g%% HBM headroom), %d by checkpointing dominance, "
      "%d by the bound, %d by the deadline, %d by the cost limit\n",
      n.enumerated, n.invalid, n.pruned_memory, 100 * r.hbm_headroom, n.pruned_checkpointing, n.pruned_bound,
      n.pruned_deadline, n.pruned_budget);
  line("  bounds       %d schedule bounds computed%s\n", n.bounded,
       n.bound_failed ? (" (" + std::to_string(n.bound_failed) + " failed: FLOP bound kept)").c_str() : "");
  line("  evaluated    %d points (%d simulated now, %d reused from the database%s)%s\n", n.evaluated, n.simulated_now,
       n.reused, n.stale ? (", " + std::to_string(n.stale) + " stored with other inputs simulated again").c_str() : "",
       n.failed ? (", " + std::to_string(n.failed) + " failed").c_str() : "");
  if (n.over_constraints)
    line("  excluded     %d evaluated points over the deadline or cost limit\n", n.over_constraints);
  out += failed_text(r);
  return out;
}
}  // namespace

std::string plan_text(const PlanResult& r) {
  std::string out;
  auto line = [&out](const char* fmt, auto... args) { appendf(out, fmt, args...); };
  std::string ranked = r.rank_by == RankBy::Cost    ? "cost"
                       : r.rank_by == RankBy::Chips ? "the fewest chips within the deadline, then time to train"
                                                    : "time to train";
  if (r.rank_quantile > 0)
    ranked += " at the " + sim::format_double_exact(100 * r.rank_quantile) + " % quantile of its interval";
  line("plan: %s on %.4g tokens, ranked by %s, first start-up with a %s compile cache\n", r.model.c_str(), r.tokens,
       ranked.c_str(), workloads::enum_word(r.cache).c_str());
  out += prices_text(r) + sizes_text(r);
  out += search_text(r);
  if (!r.memory_example.empty()) line("  memory       closest miss: %s\n", r.memory_example.c_str());
  out += no_layouts_text(r);
  line("  restarts     %.3g interruptions per chip-hour, checkpoint write %s, read %s per host, interval %s\n",
       r.restart.interruptions_per_chip_hour,
       sim::format_quantity(r.restart.write_bandwidth, sim::Dim::Bandwidth).c_str(),
       sim::format_quantity(r.restart.read_bandwidth, sim::Dim::Bandwidth).c_str(),
       r.restart.interval_s > 0 ? sim::format_quantity(r.restart.interval_s, sim::Dim::Time).c_str() : "Young/Daly");
  if (r.candidates.empty()) {
    out += "  no feasible candidate\n";
    return out;
  }
  line("  %-4s %-17s %5s %-44s %9s %6s %9s %10s %12s %7s %s\n", "rank", "system", "chips", "layout", "step (s)", "MFU",
       "start (s)", "time", "cost", "goodput", "pareto");
  for (size_t i = 0; i < r.candidates.size(); ++i) {
    const auto& c = r.candidates[i];
    if (i >= 10 && !c.pareto) continue;
    line("  %-4zu %-17s %5d %-44s %9.3f %5.1f%% %9.0f %10s %12s %6.1f%% %s\n", i + 1, c.point.system.c_str(),
         c.point.chips, (c.point.layout.text() + " gb" + std::to_string(c.point.global_batch)).c_str(), c.step_time_s,
         100 * c.mfu, c.startup_s, days(c.time_to_train_s).c_str(), usd(c.cost_usd).c_str(), 100 * c.goodput,
         c.pareto ? "*" : "");
  }
  const auto& w = r.candidates[0];
  const int64_t asked = batch_asked(r, w.point);
  line("  winner: %s x%d (%d chips), %s, %lld sequences x %lld tokens per step%s\n", w.point.system.c_str(),
       w.point.instances, w.point.chips, w.point.layout.text().c_str(), static_cast<long long>(w.point.global_batch),
       static_cast<long long>(w.point.seq_len),
       asked > 0 ? (" (" + std::to_string(asked) + " asked for has no layout on it; --batch-tolerance)").c_str() : "");
  line("    step %.3f s, MFU %.1f%%, %.0f tokens/s, %lld steps; memory %s of %s per rank\n", w.step_time_s, 100 * w.mfu,
       w.tokens_per_s, static_cast<long long>(w.steps), gib(w.per_rank_bytes).c_str(),
       gib(w.hbm_capacity_bytes).c_str());
  line("    start-up %.0f s; restart %.0f s (warm cache %.0f s + checkpoint read %.0f s)\n", w.startup_s,
       w.restart.restart_s, w.restart_startup_s, w.restart.read_s);
  line("    checkpoint %s every %.0f min (write %.0f s); expected %.1f interruptions (MTBF %.1f h)\n",
       gib(w.checkpoint_bytes).c_str(), w.restart.interval_s / 60, w.restart.write_s, w.restart.failures,
       w.restart.mtbf_s / 3600);
  line("    time to train %s (%s without failures); cost %s (%s); goodput %.1f%%\n", days(w.time_to_train_s).c_str(),
       days(w.time_no_failures_s).c_str(), usd(w.cost_usd).c_str(), usd(w.cost_no_failures_usd).c_str(),
       100 * w.goodput);
  if (w.time_interval.valid)  // no cost interval when the price is unknown
    line("    80 %% intervals: time to train %s-%s, cost %s, step %.3f-%.3f s\n", days(w.time_interval.low).c_str(),
         days(w.time_interval.high).c_str(),
         w.cost_interval.valid ? (usd(w.cost_interval.low) + "-" + usd(w.cost_interval.high)).c_str() : "unknown",
         w.step_interval.low, w.step_interval.high);
  for (const auto& why : w.step_interval.why) line("    interval wider: %s\n", why.c_str());
  if (!r.tie.empty()) line("    %s\n", r.tie.c_str());
  line("    breakdown: steady %s, first start-up %.0f s, restarts %.0f s, lost work %.0f s, checkpoint writes %.0f s\n",
       days(w.steady_s).c_str(), w.startup_s, w.restart.restarts_s, w.restart.lost_s, w.restart.checkpoint_s);
  if (r.candidates.size() > 1) out += "  runners-up\n";
  for (size_t i = 1; i < r.candidates.size() && i < 6; ++i)
    line("    %zu. %s x%d %s: %s\n", i + 1, r.candidates[i].point.system.c_str(), r.candidates[i].point.instances,
         r.candidates[i].point.layout.text().c_str(), r.candidates[i].why.c_str());
  return out;
}

namespace {

// One candidate of the plan's JSON document.
nlohmann::ordered_json candidate_json(const PlanCandidate& c) {
  using J = nlohmann::ordered_json;
  auto fin = [](double x) { return std::isfinite(x) ? J(x) : J(nullptr); };
  const auto& l = c.point.layout;
  J j;
  j["system"] = c.point.system;
  j["instances"] = c.point.instances;
  j["chips"] = c.point.chips;
  j["layout"] = {{"tp", l.tp},
                 {"pp", l.pp},
                 {"microbatches", l.microbatches},
                 {"dp", l.dp},
                 {"fsdp", l.fsdp},
                 {"zero", l.zero},
                 {"ep", l.ep},
                 {"checkpointing", workloads::enum_word(l.checkpointing)},
                 {"lnc", l.lnc},
                 {"text", l.text()}};
  j["global_batch"] = c.point.global_batch;
  j["seq_len"] = c.point.seq_len;
  j["tokens_per_step"] = c.tokens_per_step;
  j["steps"] = c.steps;
  j["step_time_s"] = c.step_time_s;
  j["step_bounds_s"] = {{"flops", c.flop_bound_s}, {"schedule", c.step_bound_s >= 0 ? J(c.step_bound_s) : J(nullptr)}};
  j["mfu"] = c.mfu;
  j["tokens_per_s"] = c.tokens_per_s;
  for (const auto& [k, v] : c.step_breakdown.named()) j["step_breakdown_s"][k] = v;
  j["startup_s"] = c.startup_s;
  j["restart_startup_s"] = c.restart_startup_s;
  if (c.step_interval.valid) j["step_time_s_interval"] = interval_json(c.step_interval);
  j["time_to_train_s"] = fin(c.time_to_train_s);
  if (c.time_interval.valid) j["time_to_train_s_interval"] = interval_json(c.time_interval);
  j["time_to_train_no_failures_s"] = c.time_no_failures_s;
  j["cost_usd"] = fin(c.cost_usd);
  if (c.cost_interval.valid) j["cost_usd_interval"] = interval_json(c.cost_interval);
  j["cost_no_failures_usd"] = fin(c.cost_no_failures_usd);
  j["price_usd_per_instance_hour"] = fin(c.price);
  j["goodput"] = c.goodput;
  j["breakdown_s"] = {{"steady", c.steady_s},
                      {"first_startup", c.startup_s},
                      {"restarts", c.restart.restarts_s},
                      {"lost_work", c.restart.lost_s},
                      {"checkpoint_writes", c.restart.checkpoint_s}};
  j["checkpoint"] = {{"bytes", json_count(c.checkpoint_bytes)},
                     {"interval_s", fin(c.restart.interval_s)},
                     {"write_s", c.restart.write_s},
                     {"read_s", c.restart.read_s},
                     {"count", c.restart.checkpoints}};
  j["interruptions"] = {
      {"mtbf_s", fin(c.restart.mtbf_s)}, {"expected", c.restart.failures}, {"restart_s", c.restart.restart_s}};
  j["memory"] = {{"per_rank_bytes", json_count(c.per_rank_bytes)},
                 {"hbm_capacity_bytes", json_count(c.hbm_capacity_bytes)}};
  j["pareto"] = c.pareto;
  j["why_lost"] = c.why;
  return j;
}

}  // namespace

nlohmann::ordered_json plan_json(const PlanResult& r) {
  using J = nlohmann::ordered_json;
  J js;
  js["plan"] = {{"model", r.model},
                {"tokens", json_count(r.tokens)},
                {"rank_by", rank_word(r.rank_by, r.rank_quantile)},
                {"cache", workloads::enum_word(r.cache)},
                {"systems", r.systems},
                {"hbm_headroom", r.hbm_headroom},
                {"command", r.command},
                {"question", r.question}};
  js["plan"]["batch_tolerance"] = r.batch_tolerance;
  js["plan"]["counts"] = r.pow2_counts ? "pow2" : "all";
  for (const auto& [sys, p] : r.prices)
    js["plan"]["prices_usd_per_instance_hour"][sys] = {{"usd", std::isfinite(p.first) ? J(p.first) : J(nullptr)},
                                                       {"source", p.second}};
  js["plan"]["restart"] = {
      {"interruptions_per_chip_hour", r.restart.interruptions_per_chip_hour},
      {"checkpoint_write_B_per_s_per_host", r.restart.write_bandwidth},
      {"checkpoint_read_B_per_s_per_host", r.restart.read_bandwidth},
      {"checkpoint_interval_s", r.restart.interval_s > 0 ? J(r.restart.interval_s) : J("young_daly")}};
  const auto& n = r.counts;
  js["search"] = {{"enumerated", n.enumerated},
                  {"invalid", n.invalid},
                  {"pruned_memory", n.pruned_memory},
                  {"pruned_checkpointing", n.pruned_checkpointing},
                  {"pruned_bound", n.pruned_bound},
                  {"pruned_deadline", n.pruned_deadline},
                  {"pruned_budget", n.pruned_budget},
                  {"schedule_bounds", n.bounded},
                  {"schedule_bounds_failed", n.bound_failed},
                  {"evaluated", n.evaluated},
                  {"simulated_now", n.simulated_now},
                  {"reused", n.reused},
                  {"stale", n.stale},
                  {"failed", n.failed},
                  {"over_constraints", n.over_constraints},
                  {"memory_closest_miss", r.memory_example}};
  js["search"]["no_layouts"] = J::array();
  for (const auto& z : r.no_layouts)
    js["search"]["no_layouts"].push_back({{"system", z.system},
                                          {"instances", z.instances},
                                          {"chips", z.chips},
                                          {"ranks", z.ranks},
                                          {"global_batch", z.global_batch},
                                          {"next_global_batch", z.next_batch > 0 ? J(z.next_batch) : J(nullptr)}});
  const auto& z = r.sizes;
  js["search"]["sizes"] = {{"considered", z.considered},           {"no_layout", z.no_layout},
                           {"pruned_deadline", z.pruned_deadline}, {"pruned_budget", z.pruned_budget},
                           {"pruned_bound", z.pruned_bound},       {"enumerated", z.enumerated}};
  js["search"]["failed_points"] = J::array();
  for (const auto& f : r.failed_points)
    js["search"]["failed_points"].push_back(
        {{"system", f.system},
         {"instances", f.instances},
         {"chips", f.chips},
         {"layout", f.layout},
         {"step_bound_s", f.step_bound_s},
         {"time_bound_s", f.time_bound_s},
         {"cost_bound_usd", std::isfinite(f.cost_bound_usd) ? J(f.cost_bound_usd) : J(nullptr)},
         {"could_win", f.could_win},
         {"message", f.message}});
  js["search"]["batches_used"] = J::array();
  for (const auto& b : r.batches_used)
    js["search"]["batches_used"].push_back({{"system", b.system},
                                            {"instances", b.instances},
                                            {"chips", b.chips},
                                            {"global_batch_asked", b.requested},
                                            {"global_batch_used", b.used}});
  J cands = J::array();
  for (const auto& c : r.candidates) {
    cands.push_back(candidate_json(c));
    const int64_t asked = batch_asked(r, c.point);
    cands.back()["global_batch_asked"] = asked > 0 ? asked : c.point.global_batch;
    const double v = ranked_metric(c, r.rank_by, r.rank_quantile);
    if (r.rank_quantile > 0 && std::isfinite(v)) cands.back()["rank_value"] = v;
  }
  js["candidates"] = cands;
  js["tie"] = r.tie.empty() ? J(nullptr) : J(r.tie);
  return stamped(Document::Plan, r.inputs_hash, js);
}

}  // namespace trn::app
