// A timeline trace (Chrome/Perfetto JSON, as `trnsim run|startup --trace` writes it) as one
// self-contained HTML page a student can open offline (issue 32, item 3): busy time and op
// count per track (rank and engine queue, link), the ops that take the most time, and a
// timeline of the trace: one row per track, drawn at a fixed number of columns over the time
// span (a column is busy when any op covers part of it), zoomable with the mouse wheel. No
// network, no external script; the same trace gives byte-identical HTML.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace trn::app::report {

/// Whether `j` is a trace: an object with a "traceEvents" list, or a list of events (objects
/// with "ph").
bool is_trace_json(const nlohmann::json& j);

/// What the page was made from (for the command's text and JSON).
struct TraceSummary {
  size_t spans = 0, tracks = 0, counters = 0;
  double start_us = 0, end_us = 0;
};

/// The page of trace `j` read from `source`. Throws sim::ConfigError naming `source` when an
/// event is malformed (a span without a number "ts" or "dur").
std::string render_trace_html(const nlohmann::json& j, const std::string& source, TraceSummary* summary);

}  // namespace trn::app::report
