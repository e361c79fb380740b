// The trace page (trace_report.h).
#include "sim/app/report/trace_report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

#include "sim/app/report/html_plots.h"
#include "sim/base/config_node.h"

namespace trn::app::report {
namespace {

using Json = nlohmann::json;

constexpr int kColumns = 1200;    // timeline columns over the trace's span
constexpr size_t kRows = 200;     // tracks drawn on the timeline (the busiest; all are in the table)
constexpr size_t kTopOps = 15;    // op names listed by total time
constexpr int kRowHeight = 14;    // px per timeline row
constexpr int kLabelWidth = 260;  // px for the track names left of the timeline

// The categories trnsim writes, in the order of their colours; others share the last colour.
const std::vector<std::string>& categories() {
  static const std::vector<std::string> c{"tensor", "vector", "scalar", "gpsimd", "dma", "collective", "host", "links"};
  return c;
}

int category_index(const std::string& cat) {
  const auto& c = categories();
  const auto it = std::find(c.begin(), c.end(), cat);
  return static_cast<int>(it - c.begin());  // c.size() for any other
}

struct Track {
  int pid = 0, tid = 0;
  std::string name;
  double busy_us = 0;
  size_t ops = 0;
  std::map<std::string, double> by_category;  // busy time per category
  std::vector<std::pair<double, double>> spans;
  std::string category() const {
    std::string best;
    double most = -1;
    for (const auto& [c, t] : by_category)
      if (t > most) most = t, best = c;
    return best;
  }
};

struct OpName {
  double total_us = 0;
  size_t count = 0;
  std::string category;
};

struct Trace {
  std::map<std::pair<int, int>, Track> tracks;
  std::map<std::string, OpName> ops;
  size_t spans = 0, counters = 0;
  double start = 0, end = 0;
};

double number_of(const Json& e, const char* key, const std::string& source, size_t i) {
  const auto it = e.find(key);
  if (it == e.end() || !it->is_number())
    throw sim::ConfigError(sim::Location{source, 0, 0}, "traceEvents[" + std::to_string(i) + "]." + key,
                           "expected a number in a complete event (\"ph\": \"X\")");
  return it->get<double>();
}

int int_of(const Json& e, const char* key) {
  const auto it = e.find(key);
  return it != e.end() && it->is_number_integer() ? it->get<int>() : 0;
}

std::string text_of(const Json& e, const char* key) {
  const auto it = e.find(key);
  return it != e.end() && it->is_string() ? it->get<std::string>() : "";
}

Trace read_trace(const Json& events, const std::string& source) {
  Trace t;
  std::map<int, std::string> processes;
  std::map<std::pair<int, int>, std::string> threads;
  bool first = true;
  for (size_t i = 0; i < events.size(); ++i) {
    const Json& e = events[i];
    if (!e.is_object()) continue;
    const std::string ph = text_of(e, "ph");
    if (ph == "M") {
      const std::string name = e.contains("args") && e["args"].is_object() ? text_of(e["args"], "name") : "";
      if (text_of(e, "name") == "process_name") processes[int_of(e, "pid")] = name;
      if (text_of(e, "name") == "thread_name") threads[{int_of(e, "pid"), int_of(e, "tid")}] = name;
    } else if (ph == "C") {
      ++t.counters;
    } else if (ph == "X") {
      const double ts = number_of(e, "ts", source, i), dur = std::max(0.0, number_of(e, "dur", source, i));
      Track& tr = t.tracks[{int_of(e, "pid"), int_of(e, "tid")}];
      const std::string cat = text_of(e, "cat");
      tr.busy_us += dur;
      ++tr.ops;
      tr.by_category[cat] += dur;
      tr.spans.emplace_back(ts, ts + dur);
      if (cat != "links") {  // a link's busy spans are not ops
        OpName& op = t.ops[text_of(e, "name")];
        op.total_us += dur;
        ++op.count;
        op.category = cat;
      }
      ++t.spans;
      t.start = first ? ts : std::min(t.start, ts);
      t.end = first ? ts + dur : std::max(t.end, ts + dur);
      first = false;
    }
  }
  for (auto& [key, tr] : t.tracks) {
    tr.pid = key.first;
    tr.tid = key.second;
    const auto th = threads.find(key);
    const auto pr = processes.find(key.first);
    tr.name = th != threads.end() ? th->second
                                  : (pr != processes.end() ? pr->second : "pid " + std::to_string(key.first)) +
                                        " tid " + std::to_string(key.second);
  }
  return t;
}

// A duration in microseconds with a unit a reader can compare: us, ms or s.
std::string duration(double us) {
  if (us >= 1e6) return num(us / 1e6, 4) + " s";
  if (us >= 1e3) return num(us / 1e3, 4) + " ms";
  return num(us, 4) + " us";
}

std::vector<const Track*> busiest(const Trace& t) {
  std::vector<const Track*> v;
  for (const auto& [key, tr] : t.tracks) v.push_back(&tr);
  std::stable_sort(v.begin(), v.end(), [](const Track* a, const Track* b) { return a->busy_us > b->busy_us; });
  return v;
}

std::string track_table(const Trace& t) {
  const double span = std::max(1e-9, t.end - t.start);
  std::string s =
      "<table class=\"tracks\"><tr><th>track</th><th>mostly</th><th>busy</th><th>share of the span</th>"
      "<th>ops</th></tr>\n";
  for (const Track* tr : busiest(t)) {
    const double share = tr->busy_us / span;
    const int width = static_cast<int>(std::lround(120 * std::min(1.0, share)));
    s += "<tr><td>" + esc(tr->name) + "</td><td>" + esc(tr->category()) + "</td><td>" + duration(tr->busy_us) +
         "</td><td><svg width=\"124\" height=\"10\"><rect width=\"" + std::to_string(width) +
         "\" height=\"10\" fill=\"" + colour(category_index(tr->category())) + "\"/></svg> " + num(100 * share, 3) +
         " %</td><td>" + std::to_string(tr->ops) + "</td></tr>\n";
  }
  return s + "</table>\n";
}

std::string ops_table(const Trace& t) {
  std::vector<std::pair<std::string, const OpName*>> v;
  for (const auto& [name, op] : t.ops) v.emplace_back(name, &op);
  std::stable_sort(v.begin(), v.end(),
                   [](const auto& a, const auto& b) { return a.second->total_us > b.second->total_us; });
  if (v.size() > kTopOps) v.resize(kTopOps);
  std::string s =
      "<table class=\"ops\"><tr><th>op</th><th>category</th><th>total</th><th>count</th><th>mean</th></tr>\n";
  for (const auto& [name, op] : v)
    s += "<tr><td>" + esc(name) + "</td><td>" + esc(op->category) + "</td><td>" + duration(op->total_us) + "</td><td>" +
         std::to_string(op->count) + "</td><td>" + duration(op->total_us / double(op->count)) + "</td></tr>\n";
  return s + "</table>\n";
}

// One timeline row: the columns any span of the track covers, drawn as runs of rectangles.
std::string timeline_row(const Track& tr, const Trace& t, int y) {
  const double span = std::max(1e-9, t.end - t.start);
  std::vector<char> busy(kColumns, 0);
  for (const auto& [a, b] : tr.spans) {
    const int c0 = std::clamp(static_cast<int>(std::floor((a - t.start) / span * kColumns)), 0, kColumns - 1);
    const int c1 = std::clamp(static_cast<int>(std::ceil((b - t.start) / span * kColumns)), c0 + 1, kColumns);
    std::fill(busy.begin() + c0, busy.begin() + c1, 1);
  }
  std::string s = "<g><title>" + esc(tr.name) + ": busy " + duration(tr.busy_us) + ", " + std::to_string(tr.ops) +
                  " ops</title><text x=\"" + std::to_string(kLabelWidth - 6) + "\" y=\"" +
                  std::to_string(y + kRowHeight - 3) + "\" text-anchor=\"end\">" + esc(tr.name) + "</text>\n";
  const std::string fill = colour(category_index(tr.category()));
  for (int c = 0; c < kColumns;) {
    if (!busy[c]) {
      ++c;
      continue;
    }
    int e = c;
    while (e < kColumns && busy[e]) ++e;
    s += "<rect x=\"" + std::to_string(kLabelWidth + c) + "\" y=\"" + std::to_string(y + 1) + "\" width=\"" +
         std::to_string(e - c) + "\" height=\"" + std::to_string(kRowHeight - 2) + "\" fill=\"" + fill + "\"/>";
    c = e;
  }
  return s + "\n</g>\n";
}

std::string timeline(const Trace& t) {
  std::vector<const Track*> rows = busiest(t);
  const size_t left_out = rows.size() > kRows ? rows.size() - kRows : 0;
  if (left_out) rows.resize(kRows);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Track* a, const Track* b) { return std::tie(a->pid, a->tid) < std::tie(b->pid, b->tid); });
  const int height = static_cast<int>(rows.size()) * kRowHeight + 30;
  const int width = kLabelWidth + kColumns + 20;
  std::string s = "<svg id=\"timeline\" class=\"timeline\" viewBox=\"0 0 " + std::to_string(width) + " " +
                  std::to_string(height) + "\" width=\"" + std::to_string(width) + "\" height=\"" +
                  std::to_string(height) + "\">\n";
  int y = 0;
  for (const Track* tr : rows) {
    s += timeline_row(*tr, t, y);
    y += kRowHeight;
  }
  for (int k = 0; k <= 4; ++k) {  // time axis: five ticks over the span
    const int x = kLabelWidth + kColumns * k / 4;
    s += "<line x1=\"" + std::to_string(x) + "\" y1=\"0\" x2=\"" + std::to_string(x) + "\" y2=\"" +
         std::to_string(y + 4) + "\" class=\"grid\"/><text x=\"" + std::to_string(x) + "\" y=\"" +
         std::to_string(y + 18) + "\" text-anchor=\"" +
         (k == 4   ? "end"
          : k == 0 ? "start"
                   : "middle") +
         "\">" + duration((t.end - t.start) * k / 4) + "</text>\n";
  }
  s += "</svg>\n";
  if (left_out)
    s += "<p class=\"note\">The " + std::to_string(left_out) +
         " least busy tracks are left out of the timeline (they are in the table above).</p>\n";
  return s;
}

// Wheel: zoom the time axis around the pointer; double click: the whole span again.
const char* kTraceScript = R"(
(function () {
  var svg = document.getElementById("timeline");
  if (!svg) return;
  var full = svg.viewBox.baseVal, w0 = full.width, h = full.height, x = 0, w = w0;
  function set() { svg.setAttribute("viewBox", x + " 0 " + w + " " + h); }
  svg.addEventListener("wheel", function (ev) {
    ev.preventDefault();
    var r = svg.getBoundingClientRect(), at = x + (ev.clientX - r.left) / r.width * w;
    var f = ev.deltaY < 0 ? 0.8 : 1.25;
    w = Math.min(w0, Math.max(20, w * f));
    x = Math.min(w0 - w, Math.max(0, at - (at - x) * f));
    set();
  });
  svg.addEventListener("dblclick", function () { x = 0; w = w0; set(); });
  document.body.setAttribute("data-ready", "1");
})();
)";

const char* kTraceStyle = R"(
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 13px; }
td, th { padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: left; }
svg.timeline { font-size: 11px; border: 1px solid #ccc; max-width: 100%; height: auto; }
svg.timeline .grid { stroke: #bbb; stroke-dasharray: 2 3; }
.note { color: #555; font-size: 13px; }
.legend span { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 12px; vertical-align: middle; }
)";

std::string legend() {
  std::string s = "<p class=\"legend\">";
  for (size_t i = 0; i < categories().size(); ++i)
    s += "<span style=\"background:" + std::string(colour(static_cast<int>(i))) + "\"></span>" + categories()[i];
  return s + "<span style=\"background:" + colour(static_cast<int>(categories().size())) + "\"></span>other</p>\n";
}

}  // namespace

bool is_trace_json(const Json& j) {
  if (j.is_object()) return j.contains("traceEvents") && j["traceEvents"].is_array();
  return j.is_array() && !j.empty() && j[0].is_object() && j[0].contains("ph");
}

std::string render_trace_html(const Json& j, const std::string& source, TraceSummary* summary) {
  const Json& events = j.is_object() ? j["traceEvents"] : j;
  const Trace t = read_trace(events, source);
  if (t.spans == 0)
    throw sim::ConfigError(sim::Location{source, 0, 0}, "traceEvents",
                           "the trace has no complete events (\"ph\": \"X\") to draw");
  if (summary) *summary = {t.spans, t.tracks.size(), t.counters, t.start, t.end};
  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>trnsim trace: " + esc(source) +
      "</title>\n<style>" + kTraceStyle + "</style>\n</head>\n<body>\n<h1>trnsim trace</h1>\n";
  h += "<p>Source: <code>" + esc(source) + "</code>: " + std::to_string(t.spans) + " ops on " +
       std::to_string(t.tracks.size()) + " tracks from " + duration(t.start) + " to " + duration(t.end) + " (" +
       std::to_string(t.counters) +
       " counter samples, not drawn). Each track is one in-order queue: a rank's engine, DMA or collective queue, "
       "its host, or a link of the fabric.</p>\n";
  h += "<h2>Where each track spends the time</h2>\n" + track_table(t);
  h += "<h2>The ops that take the most time</h2>\n" + ops_table(t);
  h += "<h2>Timeline</h2>\n<p class=\"note\">Each row is a track, " + std::to_string(kColumns) +
       " columns over the span (" + duration((t.end - t.start) / kColumns) +
       " each): a column is filled when an op covers any of it. Scroll to zoom the time axis, double-click for the "
       "whole span; hover a row for its busy time. For single ops, open the trace in a Perfetto UI served "
       "locally (docs/tutorial.md).</p>\n" +
       legend() + timeline(t);
  h += "<script>" + std::string(kTraceScript) + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace trn::app::report
