// `trnsim report PLAN.json --html FILE`: the plan view: the Pareto plot (time vs cost), the
// time-to-train breakdown of the top candidates, and a table a manager can read.
#include <cmath>
#include <tuple>

#include "sim/app/plan/plan.h"
#include "sim/app/report/html_plots.h"

namespace trn::app {

bool is_plan_json(const nlohmann::json& j) {
  return j.is_object() && j.contains("plan") && j.contains("candidates") && j["candidates"].is_array();
}

namespace {

using report::esc;
using report::num;

// A candidate's interval KEY (low, high) times `scale`, or {0, 0} without one.
std::pair<double, double> interval_of(const nlohmann::json& c, const char* key, double scale) {
  if (!c.contains(key)) return {0, 0};
  return {c[key]["low"].get<double>() * scale, c[key]["high"].get<double>() * scale};
}

// Dollars as a manager reads them: $950, $12.3 k, $1.47 M; "-" when unknown (a system without
// a price).
std::string money(double usd) {
  if (!std::isfinite(usd)) return "-";
  if (usd >= 1e6) return "$" + num(usd / 1e6, 3) + " M";
  if (usd >= 1e4) return "$" + num(usd / 1e3, 3) + " k";
  return "$" + num(usd, 4);
}

// The question's deadline (days) and cost limit (USD), NaN when the plan has none.
std::pair<double, double> limits_of(const nlohmann::json& meta) {
  const double nan = std::nan("");
  if (!meta.contains("question")) return {nan, nan};
  const auto& q = meta["question"];
  auto get = [&](const char* k, double scale) {
    return q.contains(k) && q[k].is_number() ? q[k].get<double>() * scale : nan;
  };
  return {get("deadline_s", 1.0 / 86400), get("max_cost_usd", 1.0)};
}

// The deadline as a vertical and the cost limit as a horizontal dashed line, so that a reader
// sees how far inside them the candidates lie; a limit far beyond every candidate (past 1.5
// times the last one, and past half the candidates' span beyond it) would squeeze them into a
// corner, so it is named in the returned note instead.
std::string add_limits(report::XYPlot& xy, const nlohmann::json& meta) {
  const auto [deadline, budget] = limits_of(meta);
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  for (const auto& se : xy.series)
    for (const auto& [x, y] : se.pts) {
      x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
  if (x0 > x1) return "";
  auto near = [](double v, double lo, double hi) { return v <= std::max(hi + 0.5 * (hi - lo), 1.5 * hi); };
  const bool draw_d = std::isfinite(deadline) && near(deadline, x0, x1);
  const bool draw_b = std::isfinite(budget) && near(budget, y0, y1);
  if (draw_d) x0 = std::min(x0, deadline), x1 = std::max(x1, deadline);
  if (draw_b) y0 = std::min(y0, budget), y1 = std::max(y1, budget);
  auto line = [&](const std::string& name, std::pair<double, double> a, std::pair<double, double> b, int colour) {
    report::Series se;
    se.name = name;
    se.pts = {a, b};
    se.markers = false;
    se.dashed = true;
    se.data = false;
    se.colour = colour;
    xy.series.push_back(se);
  };
  if (draw_d) line("deadline " + num(deadline, 3) + " d", {deadline, y0}, {deadline, y1}, 5);
  if (draw_b) line("cost limit " + money(budget), {x0, budget}, {x1, budget}, 7);
  std::string note;
  if (std::isfinite(deadline) && !draw_d)
    note += "The deadline, " + num(deadline, 3) +
            " days, is far to the right of every candidate (the slowest: " + num(x1, 3) + " days). ";
  if (std::isfinite(budget) && !draw_b)
    note += "The cost limit, " + money(budget) + ", is far above every candidate (the dearest: " + money(y1) + "). ";
  return note.empty() ? "" : "<p class=\"note\">" + esc(note) + "Not drawn, so that the candidates stay apart.</p>\n";
}

// The Pareto plot: every candidate, the front as a line, the question's limits as dashed lines.
std::string pareto_plot(const nlohmann::json& cands, int pi, const nlohmann::json& meta) {
  std::string h;
  report::XYPlot xy;
  xy.id = "pareto" + std::to_string(pi);
  xy.x_label = "time to train (days)";
  xy.y_label = "cost (USD)";
  xy.x_zero = xy.y_zero = false;
  report::Series all, front;
  all.name = "candidates";
  all.line = false;
  front.name = "Pareto front";
  front.colour = 1;
  for (const auto& c : cands) {
    if (c["time_to_train_s"].is_null() || c["cost_usd"].is_null()) continue;
    const double d = c["time_to_train_s"].get<double>() / 86400, usd = c["cost_usd"].get<double>();
    const std::string tip = c["system"].get<std::string>() + " x" + std::to_string(c["instances"].get<int>()) + " " +
                            c["layout"]["text"].get<std::string>();
    report::Series& se = c["pareto"].get<bool>() ? front : all;
    se.pts.push_back({d, usd});
    se.tips.push_back(tip);
    // The 80 % intervals of the best few (plan.h): time as x, cost as y error bars.
    se.x_err.push_back(interval_of(c, "time_to_train_s_interval", 1.0 / 86400));
    se.y_err.push_back(interval_of(c, "cost_usd_interval", 1.0));
  }
  // Systems without a known price (ranked by time or chips) have no cost: not plotted.
  if (all.pts.empty() && front.pts.empty())
    return "<p>No candidate has a known cost: no plot of time against cost.</p>\n";
  if (!all.pts.empty()) xy.series.push_back(all);
  xy.series.push_back(front);
  const std::string note = add_limits(xy, meta);
  if (!cands[0]["time_to_train_s"].is_null() && !cands[0]["cost_usd"].is_null())
    xy.labels.push_back(
        {cands[0]["time_to_train_s"].get<double>() / 86400, cands[0]["cost_usd"].get<double>(), "winner"});
  h += "<h3>Time against cost</h3>\n" + report::xy_plot(xy) + "\n" + note;
  return h;
}

// The time-to-train breakdown of the top candidates.
std::string breakdown_plot(const nlohmann::json& cands, int pi) {
  std::string h;
  report::BarPlot bp;
  bp.id = "breakdown" + std::to_string(pi);
  bp.x_label = "time to train (days)";
  bp.categories = {"steady", "first start-up", "restarts", "lost work", "checkpoint writes"};
  const char* keys[] = {"steady", "first_startup", "restarts", "lost_work", "checkpoint_writes"};
  for (size_t i = 0; i < cands.size() && i < 8; ++i) {
    const auto& c = cands[i];
    report::BarRow row;
    row.label = std::to_string(i + 1) + ". " + c["system"].get<std::string>() + " " +
                std::to_string(c["chips"].get<int>()) + " chips";
    double t = 0;
    for (int k = 0; k < 5; ++k) {
      const double v = c["breakdown_s"][keys[k]].get<double>() / 86400;
      row.segments.push_back({k, t, v, bp.categories[size_t(k)] + ": " + num(v, 3) + " d"});
      t += v;
    }
    row.end_text = num(t, 3) + " d";
    std::tie(row.err_low, row.err_high) = interval_of(c, "time_to_train_s_interval", 1.0 / 86400);
    bp.rows.push_back(row);
  }
  h += "<h3>Where the time goes</h3>\n" + report::bar_plot(bp) + "\n";
  return h;
}

// The question the plan answers (its JSON's plan.question, when it has one): systems, chips,
// deadline, cost limit, batch, and the command that asks it again.
std::string question_text(const nlohmann::json& meta) {
  if (!meta.contains("question")) return "";
  const auto& q = meta["question"];
  std::string systems;
  for (const auto& s : q["systems"]) systems += (systems.empty() ? "" : ", ") + s.get<std::string>();
  std::string batch;
  for (const auto& b : q.contains("global_batches") ? q["global_batches"] : q["tokens_per_step"])
    batch += (batch.empty() ? "" : ", ") + std::to_string(b.get<long long>());
  std::string h =
      "<p class=\"question\">Systems: " + esc(systems) + "; " + std::to_string(q["min_chips"].get<int>()) + " to " +
      std::to_string(q["max_chips"].get<int>()) + " chips; deadline: " +
      (q["deadline_s"].is_null() ? std::string("none") : num(q["deadline_s"].get<double>() / 86400, 4) + " days") +
      "; cost limit: " + (q["max_cost_usd"].is_null() ? std::string("none") : money(q["max_cost_usd"].get<double>())) +
      "; " + (q.contains("global_batches") ? "global batch " : "tokens per step ") + esc(batch) + " (sequences of " +
      std::to_string(q["seq_len"].get<long long>()) + " tokens).</p>\n";
  if (meta.contains("command"))
    h += "<p class=\"command\"><code>" + esc(meta["command"].get<std::string>()) + "</code></p>\n";
  return h;
}

// The table a manager can read: the candidates, best first.
std::string candidate_table(const nlohmann::json& cands) {
  std::string h;
  h += "<h3>Candidates, best first</h3>\n<table>\n<tr><th>#</th><th class=\"l\">system</th><th>chips</th>"
       "<th class=\"l\">layout</th><th>step (s)</th><th>MFU</th><th>start-up (min)</th><th>time to train (days)</th>"
       "<th>cost</th><th>goodput</th><th class=\"l\">why it lost</th></tr>\n";
  for (size_t i = 0; i < cands.size(); ++i) {
    const auto& c = cands[i];
    h += std::string("<tr") + (i == 0 ? " class=\"win\"" : "") + "><td>" + std::to_string(i + 1) +
         (c["pareto"].get<bool>() ? "*" : "") + "</td><td class=\"l\">" + esc(c["system"].get<std::string>()) +
         "</td><td>" + std::to_string(c["chips"].get<int>()) + "</td><td class=\"l\">" +
         esc(c["layout"]["text"].get<std::string>()) + "</td><td>" + num(c["step_time_s"].get<double>(), 4) +
         "</td><td>" + num(100 * c["mfu"].get<double>(), 3) + "%</td><td>" + num(c["startup_s"].get<double>() / 60, 3) +
         "</td><td>" + num(c["time_to_train_s"].get<double>() / 86400, 4) + "</td><td>" +
         money(c["cost_usd"].is_null() ? std::nan("") : c["cost_usd"].get<double>()) + "</td><td>" +
         num(100 * c["goodput"].get<double>(), 3) + "%</td><td class=\"l\">" +
         esc(i == 0 ? std::string("winner") : c["why_lost"].get<std::string>()) + "</td></tr>\n";
  }
  h += "</table>\n<p>* on the Pareto front (no other candidate is both faster and cheaper).</p>\n";
  return h;
}

// "llama3.1-70b on 1e+12 tokens on trn2.48xlarge, trn2-ultraserver, ranked by time".
std::string plan_title(const nlohmann::json& meta) {
  std::string systems;
  if (meta.contains("systems"))
    for (const auto& x : meta["systems"]) systems += (systems.empty() ? "" : ", ") + x.get<std::string>();
  return meta["model"].get<std::string>() + " on " + num(meta["tokens"].get<double>(), 4) + " tokens" +
         (systems.empty() ? "" : " on " + systems) + ", ranked by " + meta["rank_by"].get<std::string>();
}

// Several plans in one figure: each plan's candidates (with a known cost) in its colour, named
// "plan K" in the legend and in full below; every plan's own figures follow.
std::string overlay(const std::vector<nlohmann::json>& plans) {
  if (plans.size() < 2) return "";
  report::XYPlot xy;
  xy.id = "pareto-all";
  xy.x_label = "time to train (days)";
  xy.y_label = "cost (USD)";
  xy.x_zero = xy.y_zero = false;
  std::string names;
  for (size_t k = 0; k < plans.size(); ++k) {
    report::Series se;
    se.name = "plan " + std::to_string(k + 1);
    se.line = false;
    se.colour = static_cast<int>(k);
    for (const auto& c : plans[k]["candidates"]) {
      if (c["time_to_train_s"].is_null() || c["cost_usd"].is_null()) continue;
      se.pts.push_back({c["time_to_train_s"].get<double>() / 86400, c["cost_usd"].get<double>()});
      se.tips.push_back(se.name + ": " + c["system"].get<std::string>() + " x" +
                        std::to_string(c["instances"].get<int>()) + " " + c["layout"]["text"].get<std::string>());
    }
    names += "<li>plan " + std::to_string(k + 1) + ": " + esc(plan_title(plans[k]["plan"])) +
             (se.pts.empty() ? " (no candidate with a known cost)" : "") + "</li>\n";
    if (!se.pts.empty()) xy.series.push_back(std::move(se));
  }
  if (xy.series.empty()) return "";
  return "<h2>The plans together</h2>\n<h3>Time against cost, every plan</h3>\n" + report::xy_plot(xy) + "\n<ul>\n" +
         names + "</ul>\n";
}

}  // namespace

std::string render_plan_html(const std::vector<nlohmann::json>& plans) {
  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>trnsim plan</title>\n<style>\n"
      "body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
      "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
      "td.l,th.l{text-align:left}tr.win{background:#eef7ee}svg.plot{max-width:100%}\n"
      "</style>\n</head>\n<body>\n<h1>trnsim plan</h1>\n";
  h += overlay(plans);
  int pi = 0;
  for (const auto& p : plans) {
    const auto& meta = p["plan"];
    const auto& cands = p["candidates"];
    h += "<h2>" + (plans.size() > 1 ? "Plan " + std::to_string(&p - &plans[0] + 1) + ": " : std::string()) +
         esc(plan_title(meta)) + "</h2>\n" + question_text(meta);
    if (cands.empty()) {
      h += "<p>No feasible candidate.</p>\n";
      continue;
    }
    h += pareto_plot(cands, pi, meta) + breakdown_plot(cands, pi) + candidate_table(cands);
    ++pi;
  }
  h += "</body>\n</html>\n";
  return h;
}

}  // namespace trn::app
