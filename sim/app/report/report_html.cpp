// The HTML report: figures built from ReportData with the SVG plot writer.
#include "sim/app/report/report_html.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/app/report/html_plots.h"

namespace trn::app::report {
namespace {

constexpr size_t kMaxStartups = 6;  // startup results drawn (one waterfall / curve each)
constexpr size_t kMaxBars = 40;     // steady steps in the breakdown
constexpr size_t kRoofLabels = 6;   // roofline points named on the plot (all have hover text)

std::string para(const std::string& cls, const std::string& text) {
  return "<p class=\"" + cls + "\">" + text + "</p>\n";
}

std::string figure(const std::string& id, const std::string& title, const std::string& body,
                   const std::string& caption) {
  return "<section class=\"figure\" id=\"fig-" + id + "\">\n<h2>" + esc(title) + "</h2>\n" + body +
         para("caption", caption) + "</section>\n";
}

std::string no_data(const std::string& why) { return para("nodata", "No data for this plot: " + why); }

std::string secs(double s) { return num(s, 4) + " s"; }

// Throughput or MFU against chips, one series per chip generation and mode.
std::string chips_plot(const std::vector<RunPoint>& runs, bool mfu) {
  XYPlot p;
  p.id = mfu ? "mfu" : "throughput";
  p.x_label = "chips (count)";
  p.y_label = mfu ? "MFU (% of dense BF16 peak)" : "throughput (tokens/s)";
  std::vector<std::string> keys;
  struct Pt {
    std::pair<double, double> xy;
    Interval err;
    std::string tip;
  };
  std::map<std::string, std::vector<Pt>> pts;
  for (const auto& r : runs) {
    if (r.chips <= 0) continue;
    std::string key = (r.chip.empty() ? r.system : r.chip) + " " + r.mode;
    if (!pts.count(key)) keys.push_back(key);
    const double y = mfu ? 100 * r.mfu : r.tokens_per_s, k = mfu ? 100 : 1;
    const Interval& iv = mfu ? r.mfu_interval : r.tokens_interval;
    const Interval err{k * iv.first, k * iv.second};
    pts[key].push_back(
        {{double(r.chips), y},
         err,
         r.label + ": " + std::to_string(r.chips) + " chips, " +
             (mfu ? num(y, 3) + " % MFU" : num(y, 4) + " tokens/s") +
             (err.second > err.first ? " (80 %: " + num(err.first, 3) + "-" + num(err.second, 3) + ")" : "")});
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    auto v = pts[keys[i]];
    std::stable_sort(v.begin(), v.end(), [](const Pt& a, const Pt& b) { return a.xy < b.xy; });
    Series s;
    s.name = keys[i];
    s.colour = static_cast<int>(i);
    for (const Pt& q : v) s.pts.push_back(q.xy), s.y_err.push_back(q.err), s.tips.push_back(q.tip);
    p.series.push_back(s);
  }
  return p.series.empty() ? "" : xy_plot(p);
}

// A count with thousands separators: 231368.4 -> "231,368".
std::string grouped(double v) {
  std::string digits = std::to_string(std::llround(std::fabs(v)));
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<size_t>(i), ",");
  return (v < 0 ? "-" : "") + digits;
}

// Whether the runs are two or more points of one chip count (a sweep over systems, layouts or
// modes): against chip count they would stack on one x.
int one_chip_count(const std::vector<RunPoint>& runs) {
  if (runs.size() < 2 || runs[0].chips <= 0) return 0;
  for (const auto& r : runs)
    if (r.chips != runs[0].chips) return 0;
  return runs[0].chips;
}

// Throughput or MFU of each point at one chip count: a bar per point, labelled by what differs
// between the points, coloured by chip generation and mode, with its 80 % interval.
std::string points_bars(const std::vector<RunPoint>& runs, bool mfu) {
  BarPlot p;
  p.id = mfu ? "mfu" : "throughput";
  p.x_label = mfu ? "MFU (% of dense BF16 peak)" : "throughput (tokens/s)";
  for (size_t i = 0; i < runs.size() && i < kMaxBars; ++i) {
    const RunPoint& r = runs[i];
    const std::string key = (r.chip.empty() ? r.system : r.chip) + " " + r.mode;
    auto it = std::find(p.categories.begin(), p.categories.end(), key);
    const int c = static_cast<int>(it - p.categories.begin());
    if (it == p.categories.end()) p.categories.push_back(key);
    const double k = mfu ? 100 : 1, y = k * (mfu ? r.mfu : r.tokens_per_s);
    const Interval& iv = mfu ? r.mfu_interval : r.tokens_interval;
    const std::string value = mfu ? num(y, 3) + " %" : grouped(y) + " tokens/s";
    BarRow row{r.label, {{c, 0, y, r.label + ": " + value}}, value};
    row.err_low = k * iv.first;
    row.err_high = k * iv.second;
    p.rows.push_back(row);
  }
  const std::string note = runs.size() > kMaxBars
                               ? para("note", "The first " + std::to_string(kMaxBars) + " of " +
                                                  std::to_string(runs.size()) + " results are drawn.")
                               : "";
  return bar_plot(p) + note;
}

// Points at one chip count that vary exactly two sweep axes (RunPoint::varied, every pair of
// values at most once): throughput or MFU as a heat map, rows by the first axis and columns by
// the second. Empty when the points are not such a grid or do not fit (bars are drawn instead).
std::string points_heat_map(const std::vector<RunPoint>& runs, bool mfu) {
  HeatMap p;
  p.id = mfu ? "mfu" : "throughput";
  std::vector<std::pair<size_t, size_t>> at;
  for (const auto& r : runs) {
    if (r.varied.size() != 2) return "";
    const std::string &a = r.varied[0], &b = r.varied[1];
    const size_t ea = a.find('='), eb = b.find('=');
    if (ea == std::string::npos || eb == std::string::npos) return "";
    const std::string ka = a.substr(0, ea), kb = b.substr(0, eb);
    if (p.row_label.empty()) p.row_label = ka, p.col_label = kb;
    if (ka != p.row_label || kb != p.col_label) return "";
    auto index = [](std::vector<std::string>& v, const std::string& x) {
      auto it = std::find(v.begin(), v.end(), x);
      if (it == v.end()) return v.push_back(x), v.size() - 1;
      return static_cast<size_t>(it - v.begin());
    };
    at.push_back({index(p.rows, a.substr(ea + 1)), index(p.cols, b.substr(eb + 1))});
  }
  if (p.rows.size() < 2 || p.cols.size() < 2) return "";
  p.values.assign(p.rows.size(), std::vector<double>(p.cols.size(), std::nan("")));
  p.texts.assign(p.rows.size(), std::vector<std::string>(p.cols.size()));
  for (size_t i = 0; i < runs.size(); ++i) {
    auto [r, c] = at[i];
    if (std::isfinite(p.values[r][c])) return "";  // two points in one cell
    p.values[r][c] = mfu ? 100 * runs[i].mfu : runs[i].tokens_per_s;
    p.texts[r][c] = mfu ? num(p.values[r][c], 3) + " %" : grouped(p.values[r][c]);
  }
  return heat_map(p);
}

// Simulated / published throughput against the published figure (log x): the fitted
// (in-sample) ratio and the leave-one-out ratio of every row, agreement at 1 and a +-15 % band;
// with the residuals' `releases`, AWS's figures for the same jobs at other SDK releases against
// the job's one simulation (how far the published figures move on their own).
std::string validation_plot(const std::vector<ValidationPoint>& rows) {
  XYPlot p;
  p.id = "validation";
  p.x_label = "published throughput (tokens/s)";
  p.y_label = "simulated / published";
  p.x_log = true;
  p.y_zero = false;
  Series in, out, rel;
  in.name = "in sample";
  out.name = "left out";
  rel.name = "other SDK releases";
  in.line = out.line = rel.line = false;
  in.colour = 0;
  out.colour = 1;
  rel.colour = 2;
  double lo = 1e300, hi = 0;
  for (const auto& v : rows) {
    lo = std::min(lo, v.published);
    hi = std::max(hi, v.published);
    if (v.release) {
      rel.pts.push_back({v.published, v.simulated / v.published});
      rel.tips.push_back(v.id + " (" + v.of + "'s job): published " + num(v.published, 4) + " tokens/s, simulated " +
                         num(v.simulated, 4) + " (" + num(100 * (v.simulated / v.published - 1), 3) + " %)");
      continue;
    }
    const std::string tag =
        v.id + (v.duplicate ? " (duplicate release)" : "") + ": published " + num(v.published, 4) + " tokens/s, ";
    in.pts.push_back({v.published, v.simulated / v.published});
    in.tips.push_back(tag + "simulated " + num(v.simulated, 4) + " (" + num(100 * (v.simulated / v.published - 1), 3) +
                      " %, in sample)");
    if (v.loo > 0) {
      out.pts.push_back({v.published, v.loo / v.published});
      out.tips.push_back(tag + "simulated " + num(v.loo, 4) + " (" + num(100 * (v.loo / v.published - 1), 3) +
                         " %, left out of the fit)");
    }
  }
  lo /= 1.5;
  hi *= 1.5;
  for (double f : {1.0, 1.15, 0.85}) {
    Series ref;
    ref.name = f == 1.0 ? "agreement" : (f > 1 ? "+15 %" : "-15 %");
    ref.pts = {{lo, f}, {hi, f}};
    ref.markers = false;
    ref.data = false;
    ref.dashed = f != 1.0;
    ref.colour = 7;
    p.series.push_back(ref);
  }
  if (!rel.pts.empty()) p.series.push_back(rel);
  p.series.push_back(in);
  if (!out.pts.empty()) p.series.push_back(out);
  for (const auto& v : rows)
    if (!v.release) p.labels.push_back({v.published, (v.loo > 0 ? v.loo : v.simulated) / v.published, v.id});
  return xy_plot(p);
}

std::string waterfall(const StartupPoint& s, size_t index) {
  BarPlot p;
  p.id = "waterfall-" + std::to_string(index);
  p.x_label = "time since launch (s)";
  auto cat = [&](const std::string& name) {
    auto it = std::find(p.categories.begin(), p.categories.end(), name);
    if (it != p.categories.end()) return static_cast<int>(it - p.categories.begin());
    p.categories.push_back(name);
    return static_cast<int>(p.categories.size()) - 1;
  };
  for (const auto& [name, f] :
       {std::pair<std::string, const FirstStep*>{"eager", &s.eager}, {"compiled", &s.compiled}}) {
    double t = 0;
    for (const auto& [part, v] : f->parts) {
      p.rows.push_back({name + ": " + part,
                        {{cat(part), t, v, name + " " + part + ": " + secs(v) + ", ends at " + secs(t + v)}},
                        num(v, 3) + " s"});
      t += v;
    }
    const Interval& iv = f->total_interval;
    BarRow whole{name + ": whole first step",
                 {{-1, 0, f->total_s, name + " first step: " + secs(f->total_s)}},
                 num(f->total_s, 4) + " s" +
                     (iv.second > iv.first ? " (80 %: " + num(iv.first, 3) + "-" + num(iv.second, 3) + ")" : "")};
    whole.err_low = iv.first;
    whole.err_high = iv.second;
    p.rows.push_back(whole);
  }
  const int total = cat("whole first step");
  for (auto& r : p.rows)
    for (auto& g : r.segments)
      if (g.category < 0) g.category = total;
  return "<h3>" + esc(s.label) + "</h3>\n" + bar_plot(p);
}

std::string breakdown(const std::vector<RunPoint>& runs) {
  BarPlot p;
  p.id = "breakdown";
  p.x_label = "steady step time of rank 0 (s)";
  for (size_t i = 0; i < runs.size() && i < kMaxBars; ++i) {
    const RunPoint& r = runs[i];
    BarRow row{r.label, {}, num(r.step_time_s, 4) + " s"};
    row.err_low = r.step_interval.first;
    row.err_high = r.step_interval.second;
    double t = 0;
    for (const auto& [name, v] : r.breakdown) {
      auto it = std::find(p.categories.begin(), p.categories.end(), name);
      int c = static_cast<int>(it - p.categories.begin());
      if (it == p.categories.end()) p.categories.push_back(name);
      row.segments.push_back(
          {c, t, v, r.label + ": " + name + " " + secs(v) + " (" + num(100 * v / r.step_time_s, 3) + " %)"});
      t += v;
    }
    p.rows.push_back(row);
  }
  std::string note = runs.size() > kMaxBars ? para("note", "The first " + std::to_string(kMaxBars) + " of " +
                                                               std::to_string(runs.size()) + " results are drawn.")
                                            : "";
  return bar_plot(p) + note;
}

std::string roofline(const RunPoint& r, size_t* drawn) {
  XYPlot p;
  p.id = "roofline";
  p.x_log = p.y_log = true;
  p.x_label = "arithmetic intensity (FLOP per byte of HBM traffic)";
  p.y_label = "achieved (FLOP/s)";
  const double ridge = r.peak_flop_rate / r.hbm_bandwidth;
  double lo = ridge, hi = ridge;
  std::vector<std::string> engines;
  std::vector<const RoofOp*> ops;
  for (const auto& o : r.roof) {
    if (o.intensity <= 0 || o.flop_rate <= 0) continue;
    ops.push_back(&o);
    lo = std::min(lo, o.intensity);
    hi = std::max(hi, o.intensity);
    if (std::find(engines.begin(), engines.end(), o.engine) == engines.end()) engines.push_back(o.engine);
  }
  *drawn = ops.size();
  lo /= 4;
  hi *= 4;
  Series roof;
  roof.name = "roof: peak and HBM";
  roof.colour = 8;
  roof.markers = false;
  roof.data = false;
  roof.pts = {{lo, r.hbm_bandwidth * lo}, {ridge, r.peak_flop_rate}, {hi, r.peak_flop_rate}};
  p.series.push_back(roof);
  for (size_t e = 0; e < engines.size(); ++e) {
    Series s;
    s.name = engines[e] + " engine ops";
    s.colour = static_cast<int>(e);
    s.line = false;
    for (const RoofOp* o : ops) {
      if (o->engine != engines[e]) continue;
      s.pts.push_back({o->intensity, o->flop_rate});
      s.tips.push_back(o->name + " (" + o->engine + ", " + num(o->ops, 6) + " ops): " + num(o->intensity, 3) +
                       " FLOP/B, " + si(o->flop_rate, "FLOP/s") + ", " + secs(o->busy_s) + " busy");
    }
    p.series.push_back(s);
  }
  // Names of the busiest points (ops are ordered by busy time); ops at the same place share a label.
  std::vector<std::pair<std::string, std::vector<std::string>>> spots;  // rounded place -> names
  for (const RoofOp* o : ops) {
    std::string key = num(o->intensity, 3) + "," + num(o->flop_rate, 3);
    auto it = std::find_if(spots.begin(), spots.end(), [&](const auto& sp) { return sp.first == key; });
    if (it == spots.end()) {
      if (spots.size() == kRoofLabels) continue;
      spots.push_back({key, {}});
      p.labels.push_back({o->intensity, o->flop_rate, ""});
      it = spots.end() - 1;
    }
    it->second.push_back(o->name);
  }
  for (size_t i = 0; i < spots.size(); ++i) {
    const auto& names = spots[i].second;
    p.labels[i].text = names[0] + (names.size() > 1 ? " (+" + std::to_string(names.size() - 1) + " alike)" : "");
  }
  return xy_plot(p);
}

std::string cumulative(const StartupPoint& s, size_t index) {
  XYPlot p;
  p.id = "cumulative-" + std::to_string(index);
  const bool tokens = s.tokens_per_step > 0;
  const double T = tokens ? s.tokens_per_step : 1;
  p.x_label = "wall time since launch (s)";
  p.y_label = tokens ? "tokens trained (tokens)" : "steps completed (count)";
  const double fe = s.eager.total_s, se = s.eager.steady_s, fc = s.compiled.total_s, sc = s.compiled.steady_s;
  double cross = -1;
  if (se != sc) {
    double t = (fe / se - fc / sc) / (1 / se - 1 / sc);
    if (t >= std::max(fe, fc)) cross = t;
  }
  const double end = cross > 0 ? cross * 1.4 : std::max(fe, fc) * 2.5;
  int c = 0;
  for (const auto& [name, f] :
       {std::pair<std::string, const FirstStep*>{"eager", &s.eager}, {"compiled", &s.compiled}}) {
    Series m;
    m.name = name;
    m.colour = c++;
    const double after = T * (1 + (end - f->total_s) / f->steady_s);
    m.pts = {{0, 0}, {f->total_s, 0}, {f->total_s, T}, {end, after}};
    m.x_err = {{0, 0}, {0, 0}, f->total_interval, {0, 0}};  // when the first step is done
    m.tips = {name + ": launch", name + ": first step running until " + secs(f->total_s),
              name + ": first step done at " + secs(f->total_s),
              name + ": " + si(after) + (tokens ? " tokens" : " steps") + " after " + secs(end) + " (one step per " +
                  secs(f->steady_s) + ")"};
    p.series.push_back(m);
  }
  std::string text;
  if (cross > 0) {
    const double y = T * (1 + (cross - fe) / se);
    std::string steps = s.break_even_steps > 0 ? ", " + num(s.break_even_steps, 6) + " steps" : "";
    p.labels.push_back({cross, y, "break-even: " + num(cross, 4) + " s" + steps});
    text = para("note", "The lines cross after " + num(cross, 4) + " s of wall time (" + si(y) +
                            (tokens ? " tokens" : " steps") + steps + "): a shorter job finishes sooner in " +
                            (fc > fe ? "eager" : "compiled") + " mode, a longer one in " +
                            (fc > fe ? "compiled" : "eager") + " mode.");
  } else {
    const bool c_ahead = fc <= fe && sc <= se, e_ahead = fe <= fc && se <= sc;
    text = para("note", c_ahead   ? "The lines do not cross: compiled mode finishes its first step sooner and runs "
                                    "faster after it, so it is ahead from the start (there is nothing to pay back)."
                        : e_ahead ? "The lines do not cross: eager mode finishes its first step sooner and its steady "
                                    "steps are at least as fast, so compiled mode never pays back its start."
                                  : "The lines do not cross within the plotted time.");
  }
  return "<h3>" + esc(s.label) + "</h3>\n" + xy_plot(p) + text;
}

std::string results_table(const ReportData& d) {
  std::string s;
  if (!d.runs.empty()) {
    s += "<h3>Steady steps (trnsim run)</h3>\n<table><tr><th>point</th><th>system</th><th>chips</th><th>mode</th>"
         "<th>step (s)</th><th>tokens/s</th><th>MFU (%)</th><th>largest part</th></tr>\n";
    for (const auto& r : d.runs) {
      auto top = std::max_element(r.breakdown.begin(), r.breakdown.end(),
                                  [](const auto& a, const auto& b) { return a.second < b.second; });
      s += "<tr><td>" + esc(r.label) + "</td><td>" + esc(r.system) + "</td><td>" +
           (r.chips ? std::to_string(r.chips) : "") + "</td><td>" + esc(r.mode) + "</td><td>" + num(r.step_time_s, 4) +
           "</td><td>" + num(r.tokens_per_s, 5) + "</td><td>" + num(100 * r.mfu, 3) + "</td><td>" +
           (top == r.breakdown.end() ? "" : esc(top->first)) + "</td></tr>\n";
    }
    s += "</table>\n";
  }
  if (!d.startups.empty()) {
    s += "<h3>First steps (trnsim startup)</h3>\n<table><tr><th>point</th><th>first step eager (s)</th>"
         "<th>first step compiled (s)</th><th>steady eager (s)</th><th>steady compiled (s)</th><th>break-even "
         "(steps)</th></tr>\n";
    for (const auto& p : d.startups)
      s += "<tr><td>" + esc(p.label) + "</td><td>" + num(p.eager.total_s, 4) + "</td><td>" +
           num(p.compiled.total_s, 4) + "</td><td>" + num(p.eager.steady_s, 4) + "</td><td>" +
           num(p.compiled.steady_s, 4) + "</td><td>" + (p.break_even_steps > 0 ? num(p.break_even_steps, 6) : "never") +
           "</td></tr>\n";
    s += "</table>\n";
  }
  if (!d.skipped.empty()) {
    s += "<h3>Sweep points without a result</h3>\n<table><tr><th>point</th><th>status</th><th>reason</th></tr>\n";
    for (const auto& k : d.skipped)
      s += "<tr><td>" + esc(k.label) + "</td><td>" + esc(k.status) + "</td><td>" + esc(k.reason) + "</td></tr>\n";
    s += "</table>\n";
  }
  return s;
}

const char* kStyle =
    R"(body{font-family:system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;max-width:840px;margin:24px auto;padding:0 12px;color:#222;line-height:1.45}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}h3{font-size:1em;margin:1.2em 0 .3em}
svg.plot{max-width:100%;height:auto;display:block}.grid{stroke:#e3e3e3}.axis{stroke:#333}
.tick{font-size:11px;fill:#333}.axislabel{font-size:13px;fill:#111}.legend,.note{font-size:11.5px;fill:#222}.rowlabel{font-size:11px;fill:#222}
.leader{stroke:#777;stroke-width:.8}
.caption{background:#f4f6f8;border-left:4px solid #0072B2;padding:6px 10px}.nodata{color:#8a4b00;font-style:italic}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}
#status{font-weight:bold})";

const char* kScript = R"(document.addEventListener("DOMContentLoaded", function () {
  var figs = document.querySelectorAll("section.figure"), ok = 0;
  figs.forEach(function (f) {
    var svgs = f.querySelectorAll("svg.plot"), good = svgs.length > 0;
    svgs.forEach(function (s) { if (!(Number(s.getAttribute("data-points")) > 0)) good = false; });
    f.setAttribute("data-ok", good ? "1" : "0");
    if (good) ok++;
  });
  var b = document.body;
  b.setAttribute("data-plots-ok", String(ok));
  b.setAttribute("data-figures", String(figs.length));
  b.setAttribute("data-js-errors", document.documentElement.getAttribute("data-js-errors"));
  document.getElementById("status").textContent = ok + " of " + figs.length + " figures have data.";
  b.setAttribute("data-ready", "1");
});
)";

// The page up to the figures: head, style, title and the summary of what was read.
std::string page_head(const ReportData& d) {
  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\" data-js-errors=\"0\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>trnsim report: " +
      esc(d.source) +
      "</title>\n<script>window.onerror = function () { var e = document.documentElement; "
      "e.setAttribute(\"data-js-errors\", String(Number(e.getAttribute(\"data-js-errors\")) + 1)); };</script>\n"
      "<style>\n" +
      kStyle + "\n</style>\n</head>\n<body>\n<h1>trnsim report</h1>\n";
  std::string summary = "Source: <code>" + esc(d.source) + "</code>";
  if (d.rows > 0) summary += ", " + std::to_string(d.rows) + " sweep points";
  summary += ": " + std::to_string(d.runs.size()) + " steady-step results (trnsim run), " +
             std::to_string(d.startups.size()) + " first-step results (trnsim startup)" +
             (d.skipped.empty() ? "" : ", " + std::to_string(d.skipped.size()) + " points without a result") +
             (d.validation.empty() ? ""
                                   : ", " + std::to_string(d.validation.size()) +
                                         " rows of the runtime calibration (trnsim calibrate-runtime)") +
             ".";
  for (const auto& [name, shared] : d.sweeps)
    summary += "<br>Sweep <code>" + esc(name) + "</code>" +
               (shared.empty() ? "" : ": every point has " + esc(shared) + " (left out of the labels below)");
  return h + para("summary", summary) + "<p id=\"status\">(the figure check needs JavaScript)</p>\n";
}

// The roofline figure of the first run result that has one.
std::string roofline_section(const ReportData& d) {
  const RunPoint* rl = nullptr;
  for (const auto& r : d.runs)
    if (!rl && r.has_roofline && !r.roof.empty() && r.peak_flop_rate > 0 && r.hbm_bandwidth > 0) rl = &r;
  std::string roof;
  size_t drawn = 0;
  if (rl) {
    roof = roofline(*rl, &drawn);
    roof = para("note", "Ops of " + esc(rl->label) + ", " + esc(rl->roof_scope) + ": peak " +
                            si(rl->peak_flop_rate, "FLOP/s") + ", HBM " + si(rl->hbm_bandwidth, "B/s") + ", ridge at " +
                            num(rl->peak_flop_rate / rl->hbm_bandwidth, 3) + " FLOP/B.") +
           roof;
  }
  return figure(
      "roofline", "Roofline of the workload's ops",
      roof.empty() || drawn == 0 ? no_data("it needs a <code>trnsim run --json</code> result with a roofline section.")
                                 : roof,
      "Each point is one kind of op (summed over layers and micro-batches): its FLOPs per byte moved to or from "
      "HBM against the FLOP/s it achieved. Left of the ridge the sloped roof (HBM bandwidth) limits an op, right "
      "of it the flat roof (peak compute). The gap below the roof is efficiency lost to tiling, pipeline fill "
      "and throttling. Hover over a point for its numbers.");
}

}  // namespace

// Throughput and MFU: against chip count, or a bar per point when every point has one chip
// count (a sweep over systems, layouts or modes).
std::string scaling_figures(const std::vector<RunPoint>& runs, const std::string& need_run,
                            const std::string& no_chips) {
  std::string h;
  const bool one = runs.size() == 1;
  // Points of one chip count (a sweep over systems, layouts or modes) are bars, one per point.
  const int chips = one_chip_count(runs);
  const std::string at = " (every point at " + std::to_string(chips) + " chips)";
  std::string bars_caption =
      "Each bar is one simulated steady step, labelled by what differs between the points, with its 80 % interval "
      "as a whisker. All the points have " +
      std::to_string(chips) + " chips, so against chip count they would stack on one x.";
  // Two sweep axes at one chip count: a heat map, rows by one axis and columns by the other.
  std::string tp = chips ? points_heat_map(runs, false) : chips_plot(runs, false);
  std::string mfu = chips ? points_heat_map(runs, true) : chips_plot(runs, true);
  const bool heat = chips && !tp.empty();
  if (heat)
    bars_caption =
        "Each cell is one simulated steady step: the rows and the columns are the two axes the points vary "
        "(all at " +
        std::to_string(chips) + " chips); darker is higher. Hover over a cell for its numbers.";
  if (chips && tp.empty()) tp = points_bars(runs, false);
  if (chips && mfu.empty()) mfu = points_bars(runs, true);
  h += figure(
      "throughput", chips ? "Throughput of each point" + at : "Throughput against chip count",
      tp.empty() ? no_data(runs.empty() ? need_run : no_chips) : tp,
      chips ? bars_caption
            : "Each point is one simulated steady step; a line joins the results of one chip generation and mode. "
              "With perfect scaling the points of a line would lie on a straight line through the origin: the "
              "shortfall is what communication, bubbles and smaller per-chip batches cost." +
                  std::string(one ? " A single result gives a single point: a sweep over chip counts "
                                    "(e.g. workloads/sweeps/qwen3-32b-chips.yaml) draws the curve."
                                  : ""));
  h += figure("mfu", chips ? "MFU of each point" + at : "MFU against chip count",
              mfu.empty() ? no_data(runs.empty() ? need_run : no_chips) : mfu,
              chips ? bars_caption +
                          " MFU (model FLOPs utilisation) is the model's FLOPs per second divided by the chips' "
                          "published dense BF16 peak; chip generations have different peaks, so compare " +
                          std::string(heat ? "cells of one chip generation." : "bars of one colour.")
                    : "MFU (model FLOPs utilisation) is the model's FLOPs per second divided by the chips' published "
                      "dense BF16 peak. A flat line means the system scales; a falling line shows where communication "
                      "starts to dominate. Chip generations have different peaks, so compare points of one colour.");

  return h;
}

std::string render_html(const ReportData& d) {
  std::string h = page_head(d);
  if (!d.validation.empty())
    h += figure("validation", "Simulated against published throughput (runtime calibration)",
                validation_plot(d.validation),
                "Each row of the calibration data is drawn twice, as simulated over published throughput: in sample "
                "(the parameters were fitted with the row in the data) and left out (the row, and any duplicate "
                "release of it, was left out of the fit, so the figure is a prediction). Points on the solid line "
                "agree exactly; the dashed lines are 15 % either way. Hover over a point for its row." +
                    std::string(std::any_of(d.validation.begin(), d.validation.end(),
                                            [](const ValidationPoint& v) { return v.release; })
                                    ? " Other SDK releases: AWS's figures for the same jobs at other releases, each "
                                      "against its job's one simulation (in sample); the spread of one job's points "
                                      "is how far the published figure moves between releases on its own."
                                    : ""));

  const std::string need_run =
      "it needs <code>trnsim run --json</code> results (a run JSON, or a sweep with "
      "<code>command: run</code>).";
  const std::string need_startup =
      "it needs a <code>trnsim startup --json</code> result (or a sweep with "
      "<code>command: startup</code>).";
  const std::string no_chips =
      "the run results carry no chip count (they were made by an older trnsim; run them again).";
  h += scaling_figures(d.runs, need_run, no_chips);

  const std::string more = d.startups.size() > kMaxStartups
                               ? para("note", "The first " + std::to_string(kMaxStartups) + " of " +
                                                  std::to_string(d.startups.size()) + " startup results are drawn.")
                               : "";
  std::string wf;
  for (size_t i = 0; i < d.startups.size() && i < kMaxStartups; ++i) wf += waterfall(d.startups[i], i);
  if (!wf.empty()) wf += more;
  h += figure("waterfall", "The first step, part by part (waterfall)", wf.empty() ? no_data(need_startup) : wf,
              "Each bar starts where the previous part ended, so the last bar of each mode, the whole first step, is "
              "their sum. Notice which part dominates: compiled mode spends longer compiling whole graphs to get a "
              "faster steady step, and a warm compile cache removes most of the compile bar.");

  h += figure("breakdown", "Where the steady step goes", d.runs.empty() ? no_data(need_run) : breakdown(d.runs),
              "Each bar is one steady training step of rank 0, split into compute, the stretch where ops wait for HBM "
              "(memory_bound), communication not hidden behind compute, host dispatch, pipeline bubble and idle time. "
              "The longest segment is what bounds the step: that is where an optimisation pays.");

  h += roofline_section(d);

  std::string cu;
  for (size_t i = 0; i < d.startups.size() && i < kMaxStartups; ++i) cu += cumulative(d.startups[i], i);
  if (!cu.empty()) cu += more;
  h += figure(
      "cumulative", "Tokens trained against wall time, eager and compiled", cu.empty() ? no_data(need_startup) : cu,
      "Each line stays at zero until its first step ends, then climbs at its steady rate. Compiled mode usually "
      "starts later but climbs faster; where the lines cross is the break-even point. A job shorter than that "
      "is better run eager, a longer one compiled.");

  h += "<section class=\"tables\">\n<h2>Results</h2>\n" + results_table(d) + "</section>\n";
  h += "<script>\n" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace trn::app::report
