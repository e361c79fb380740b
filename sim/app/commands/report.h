// `trnsim report [RESULT.json...] [--db SWEEP.sqlite] --html FILE`: one self-contained HTML
// file with plots of run, startup and sweep results (sim/app/report/). Options in,
// run_report, result out; separate writers.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "sim/app/report/report_data.h"
#include "sim/app/report/trace_report.h"

namespace trn::app {

struct ReportOptions {
  std::vector<std::string> results;  // result JSON files of run / startup / calibrate-runtime
  std::string db;                    // sweep database, empty: none
  std::string html;                  // the page to write
};

struct ReportResult {
  report::ReportData data;
  std::string html;   // the page (not yet written)
  size_t plans = 0;   // plan results (`trnsim plan --json`): the page is the plan view
  size_t traces = 0;  // 1: the input is a trace (`--trace`): the page is the trace view
  report::TraceSummary trace;
};

/// Reads the inputs and renders the page. Throws ConfigError for bad input (nothing to report,
/// an input that is the output, an unreadable or malformed input).
ReportResult run_report(const ReportOptions& o);
void write_report_text(const ReportResult& r, const std::string& html_path, FILE* out);
nlohmann::ordered_json report_json(const ReportResult& r);

}  // namespace trn::app
