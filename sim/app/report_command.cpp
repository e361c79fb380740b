// `trnsim report [RESULT.json...] [--db SWEEP.sqlite] --html FILE`: one self-contained HTML
// file with plots of run, startup and sweep results (sim/app/report/).
#include <cstdio>
#include <filesystem>
#include <memory>

#include <fstream>

#include "sim/app/commands.h"
#include "sim/app/plan/plan.h"
#include "sim/app/report/report_data.h"
#include "sim/app/report/report_html.h"
#include "sim/base/config_node.h"
#include "sim/base/output_file.h"

namespace trn::app {
namespace {

void append(report::ReportData& to, report::ReportData from) {
  to.source += (to.source.empty() ? "" : ", ") + from.source;
  to.rows += from.rows;
  to.sweeps.insert(to.sweeps.end(), from.sweeps.begin(), from.sweeps.end());
  to.runs.insert(to.runs.end(), from.runs.begin(), from.runs.end());
  to.startups.insert(to.startups.end(), from.startups.begin(), from.startups.end());
  to.skipped.insert(to.skipped.end(), from.skipped.begin(), from.skipped.end());
  to.validation.insert(to.validation.end(), from.validation.begin(), from.validation.end());
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code e1, e2;
  auto pa = std::filesystem::weakly_canonical(a, e1), pb = std::filesystem::weakly_canonical(b, e2);
  return !e1 && !e2 && pa == pb;
}

}  // namespace

Runner add_report(CLI::App* app) {
  struct Opts {
    std::vector<std::string> results;
    std::string db, html;
  };
  auto o = std::make_shared<Opts>();
  auto* c = app->add_subcommand("report", "Plot run, startup and sweep results into one self-contained HTML file");
  c->add_option("results", o->results,
                "Result files of `trnsim run --json` or `trnsim startup --json` (default: none)");
  c->add_option("--db", o->db, "Sweep database written by `trnsim sweep` (SQLite; default: none)");
  c->add_option("--html", o->html,
                "Write the report to FILE: one HTML file with inline SVG plots, no network needed (required; no default)")
      ->required();
  return [o]() -> int {
    if (o->results.empty() && o->db.empty())
      throw sim::ConfigError(sim::Location{"report", 0, 0}, "",
                             "nothing to report: give result JSON files and/or --db SWEEP.sqlite");
    sim::check_writable(o->html, "--html");
    std::vector<std::string> inputs = o->results;
    if (!o->db.empty()) inputs.push_back(o->db);
    for (const auto& in : inputs)
      if (same_file(in, o->html))
        throw sim::ConfigError(sim::Location{"--html " + o->html, 0, 0}, "", "is also an input file");
    // Plans (`trnsim plan --json`) have their own view (sim/app/plan/plan_report.cpp).
    std::vector<nlohmann::json> plans;
    for (const auto& r : o->results) {
      std::ifstream in(r);
      nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
      if (!j.is_discarded() && is_plan_json(j)) plans.push_back(std::move(j));
    }
    if (!plans.empty()) {
      if (plans.size() != o->results.size() || !o->db.empty())
        throw sim::ConfigError(sim::Location{"report", 0, 0}, "",
                               "plan results (trnsim plan --json) cannot be mixed with other results in one report");
      sim::write_files_atomic({{o->html, render_plan_html(plans)}}, {"--html"});
      std::printf("report: %zu plans; wrote %s\n", plans.size(), o->html.c_str());
      return 0;
    }
    report::ReportData d;
    for (const auto& r : o->results) append(d, report::load_result_json(r));
    if (!o->db.empty()) append(d, report::load_sweep_db(o->db));
    sim::write_files_atomic({{o->html, report::render_html(d)}}, {"--html"});
    std::printf("report: %zu steady-step results, %zu first-step results%s%s; wrote %s\n", d.runs.size(),
                d.startups.size(),
                d.skipped.empty() ? "" : (", " + std::to_string(d.skipped.size()) + " points without a result").c_str(),
                d.validation.empty() ? "" : (", " + std::to_string(d.validation.size()) + " validation rows").c_str(),
                o->html.c_str());
    return 0;
  };
}

}  // namespace trn::app
