// `trnsim report` (report.h): reads the results, renders the page.
#include "sim/app/commands/report.h"

#include <filesystem>
#include <fstream>

#include "sim/app/plan/plan.h"
#include "sim/app/report/report_data.h"
#include "sim/app/report/report_html.h"
#include "sim/app/report/trace_report.h"
#include "sim/base/config_node.h"

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

ReportResult run_report(const ReportOptions& o) {
  if (o.results.empty() && o.db.empty())
    throw sim::ConfigError(sim::Location{"report", 0, 0}, "",
                           "nothing to report: give result JSON files and/or --db SWEEP.sqlite");
  std::vector<std::string> inputs = o.results;
  if (!o.db.empty()) inputs.push_back(o.db);
  for (const auto& in : inputs)
    if (same_file(in, o.html))
      throw sim::ConfigError(sim::Location{"--html " + o.html, 0, 0}, "", "is also an input file");
  ReportResult r;
  // Plans (`trnsim plan --json`) have their own view (sim/app/plan/plan_report.cpp), and so do
  // traces (`--trace`, sim/app/report/trace_report.cpp).
  std::vector<nlohmann::json> plans;
  for (const auto& path : o.results) {
    std::ifstream in(path);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded()) continue;
    if (is_plan_json(j)) {
      plans.push_back(std::move(j));
      continue;
    }
    if (!report::is_trace_json(j)) continue;
    if (o.results.size() != 1 || !o.db.empty())
      throw sim::ConfigError(sim::Location{path, 0, 0}, "",
                             "is a trace: give it alone (trnsim report TRACE.json --html FILE), one trace per page");
    report::TraceSummary t;
    r.html = report::render_trace_html(j, path, &t);
    r.trace = t;
    r.traces = 1;
    return r;
  }
  if (!plans.empty()) {
    if (plans.size() != o.results.size() || !o.db.empty())
      throw sim::ConfigError(sim::Location{"report", 0, 0}, "",
                             "plan results (trnsim plan --json) cannot be mixed with other results in one report");
    r.plans = plans.size();
    r.html = render_plan_html(plans);
    return r;
  }
  for (const auto& path : o.results) append(r.data, report::load_result_json(path));
  if (!o.db.empty()) append(r.data, report::load_sweep_db(o.db));
  r.html = report::render_html(r.data);
  return r;
}

void write_report_text(const ReportResult& r, const std::string& html_path, FILE* out) {
  const auto& d = r.data;
  if (r.plans > 0) {
    std::fprintf(out, "report: %zu plans; wrote %s\n", r.plans, html_path.c_str());
    return;
  }
  if (r.traces > 0) {
    std::fprintf(out, "report: a trace of %zu ops on %zu tracks, %.6g ms; wrote %s\n", r.trace.spans, r.trace.tracks,
                 (r.trace.end_us - r.trace.start_us) / 1e3, html_path.c_str());
    return;
  }
  std::fprintf(out, "report: %zu steady-step results, %zu first-step results%s%s; wrote %s\n", d.runs.size(),
               d.startups.size(),
               d.skipped.empty() ? "" : (", " + std::to_string(d.skipped.size()) + " points without a result").c_str(),
               d.validation.empty() ? "" : (", " + std::to_string(d.validation.size()) + " validation rows").c_str(),
               html_path.c_str());
}

nlohmann::ordered_json report_json(const ReportResult& r) {
  const auto& d = r.data;
  return {{"source", d.source},
          {"plans", r.plans},
          {"traces", r.traces},
          {"steady_step_results", d.runs.size()},
          {"first_step_results", d.startups.size()},
          {"points_without_result", d.skipped.size()},
          {"validation_rows", d.validation.size()},
          {"sweep_rows", d.rows}};
}

}  // namespace trn::app
