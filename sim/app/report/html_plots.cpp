// Inline SVG plots: axes with "nice" ticks, x-y plots and horizontal bar plots.
#include "sim/app/report/html_plots.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <cstdio>

namespace trn::app::report {
namespace {

constexpr double kW = 800;        // SVG width, px
constexpr double kLegendW = 190;  // legend column at the right
constexpr double kTop = 14, kBottom = 54;

std::string px(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string truncate(const std::string& s, size_t n) { return s.size() <= n ? s : s.substr(0, n - 1) + "\u2026"; }

// `s` in lines of at most `width` characters, broken at spaces (a longer word gets a line of
// its own, whole): nothing is cut.
std::vector<std::string> wrap(const std::string& s, size_t width) {
  std::vector<std::string> out(1);
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find(' ', i);
    if (j == std::string::npos) j = s.size();
    const std::string word = s.substr(i, j - i);
    if (!out.back().empty() && out.back().size() + 1 + word.size() > width) out.emplace_back();
    out.back() += (out.back().empty() ? "" : " ") + word;
    i = j + 1;
  }
  return out;
}

struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  std::vector<double> ticks;
  std::vector<std::string> labels;  // one per tick, all distinct (tick_labels)
  double frac(double v) const {
    if (log) return (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
    return (v - lo) / (hi - lo);
  }
};

double nice_step(double span) {
  double raw = span / 5, p = std::pow(10.0, std::floor(std::log10(raw))), m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * p;
}

Axis make_ticks(const std::vector<double>& values, bool log, bool zero) {
  Axis a;
  a.log = log;
  std::vector<double> v;
  for (double x : values)
    if (std::isfinite(x) && (!log || x > 0)) v.push_back(x);
  if (log) {
    double lo = v.empty() ? 1 : *std::min_element(v.begin(), v.end());
    double hi = v.empty() ? 10 : *std::max_element(v.begin(), v.end());
    int d0 = static_cast<int>(std::floor(std::log10(lo) + 1e-9)),
        d1 = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
    if (d1 <= d0) d1 = d0 + 1;
    a.lo = std::pow(10.0, d0);
    a.hi = std::pow(10.0, d1);
    const int every = (d1 - d0) > 8 ? 2 : 1;
    for (int d = d0; d <= d1; d += every) a.ticks.push_back(std::pow(10.0, d));
    return a;
  }
  double lo = v.empty() ? 0 : *std::min_element(v.begin(), v.end());
  double hi = v.empty() ? 1 : *std::max_element(v.begin(), v.end());
  if (zero) lo = std::min(lo, 0.0), hi = std::max(hi, 0.0);
  if (hi == lo) {
    double pad = lo == 0 ? 1 : std::fabs(lo) / 2;
    hi += pad;
    if (lo != 0) lo -= pad;  // (with zero on the axis, lo == hi only when both are 0)
  }
  double step = nice_step(hi - lo);
  a.lo = std::floor(lo / step + 1e-9) * step;
  a.hi = std::ceil(hi / step - 1e-9) * step;
  for (int i = 0; a.lo + i * step <= a.hi + step * 1e-6; ++i) {
    double t = a.lo + i * step;
    a.ticks.push_back(std::fabs(t) < step * 1e-9 ? 0 : t);
  }
  return a;
}

// The ticks' labels with an SI prefix, with as many significant digits as it takes (3 to 8) for
// no two to read the same: 1.115M and 1.12M rather than 1.12M twice.
std::vector<std::string> tick_labels(const std::vector<double>& ticks) {
  std::vector<std::string> out;
  for (int digits = 3; digits <= 8; ++digits) {
    out.clear();
    for (double t : ticks) out.push_back(si_digits(t, digits));
    bool distinct = true;
    for (size_t i = 1; i < out.size(); ++i) distinct = distinct && out[i] != out[i - 1];
    if (distinct) break;
  }
  return out;
}

Axis make_axis(const std::vector<double>& values, bool log, bool zero) {
  Axis a = make_ticks(values, log, zero);
  a.labels = tick_labels(a.ticks);
  return a;
}
// The opening tag; `points` is the number of data marks the script checks.
std::string svg_open(const std::string& id, double h, int points) {
  return "<svg class=\"plot\" id=\"" + esc(id) + "\" data-points=\"" + std::to_string(points) + "\" viewBox=\"0 0 " +
         px(kW) + " " + px(h) + "\" width=\"" + px(kW) + "\" height=\"" + px(h) +
         "\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n";
}

// Grid, ticks and labels of an x axis at the bottom of [x0,x1] x [y0,y1].
std::string x_axis(const Axis& a, const std::string& label, double x0, double x1, double y0, double y1) {
  std::string s;
  for (size_t i = 0; i < a.ticks.size(); ++i) {
    const double t = a.ticks[i];
    double x = x0 + a.frac(t) * (x1 - x0);
    s += "<line class=\"grid\" x1=\"" + px(x) + "\" y1=\"" + px(y0) + "\" x2=\"" + px(x) + "\" y2=\"" + px(y1) + "\"/>";
    s += "<text class=\"tick\" x=\"" + px(x) + "\" y=\"" + px(y1 + 16) + "\" text-anchor=\"middle\">" +
         esc(i < a.labels.size() ? a.labels[i] : si(t)) + "</text>\n";
  }
  s += "<line class=\"axis\" x1=\"" + px(x0) + "\" y1=\"" + px(y1) + "\" x2=\"" + px(x1) + "\" y2=\"" + px(y1) + "\"/>";
  s += "<text class=\"axislabel\" x=\"" + px((x0 + x1) / 2) + "\" y=\"" + px(y1 + 40) + "\" text-anchor=\"middle\">" +
       esc(label) + "</text>\n";
  return s;
}

struct Item {
  std::string name;
  int colour;
  char kind;  // 'l' line, 'o' marker, 'r' box
};

std::string legend(const std::vector<Item>& items, double x, double y) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) {
    double yy = y + 18 * static_cast<double>(i);
    const char* c = colour(items[i].colour);
    if (items[i].kind == 'o')
      s += "<circle cx=\"" + px(x + 9) + "\" cy=\"" + px(yy) + "\" r=\"5\" fill=\"" + c + "\"/>";
    else if (items[i].kind == 'l')
      s += "<line x1=\"" + px(x) + "\" y1=\"" + px(yy) + "\" x2=\"" + px(x + 18) + "\" y2=\"" + px(yy) +
           "\" stroke=\"" + c + "\" stroke-width=\"3\"/>";
    else
      s += "<rect x=\"" + px(x + 2) + "\" y=\"" + px(yy - 6) + "\" width=\"14\" height=\"12\" fill=\"" + c + "\"/>";
    s += "<text class=\"legend\" x=\"" + px(x + 24) + "\" y=\"" + px(yy + 4) + "\">" +
         esc(truncate(items[i].name, 24)) + "<title>" + esc(items[i].name) + "</title></text>\n";
  }
  return s;
}

}  // namespace

std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::string si(double v) { return si_digits(v, 3); }

std::string si_digits(double v, int digits) {
  static const std::pair<double, const char*> prefixes[] = {
      {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto& [scale, p] : prefixes)
    if (std::fabs(v) >= scale) return num(v / scale, digits) + p;
  return num(v, digits);
}

std::string si(double v, const std::string& unit) {
  std::string t = si(v);
  size_t n = t.find_first_of("PTGMk");
  return n == std::string::npos ? t + " " + unit : t.substr(0, n) + " " + t.substr(n) + unit;
}

const char* colour(int i) {
  static const char* palette[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9",
                                  "#D55E00", "#F0E442", "#7F3C8D", "#999999", "#332288"};
  const int n = sizeof palette / sizeof palette[0];
  return palette[((i % n) + n) % n];
}

// The y axis of an x-y plot: grid lines and ticks at `ay`'s ticks, the axis line and its label.
std::string y_axis(const Axis& ay, const std::string& label, double x0, double x1, double y0, double y1) {
  std::string s;
  for (size_t i = 0; i < ay.ticks.size(); ++i) {
    const double t = ay.ticks[i];
    double y = y1 - ay.frac(t) * (y1 - y0);
    s += "<line class=\"grid\" x1=\"" + px(x0) + "\" y1=\"" + px(y) + "\" x2=\"" + px(x1) + "\" y2=\"" + px(y) + "\"/>";
    // Centred on its grid line, but never below the x axis, where the first x tick's label is.
    s += "<text class=\"tick\" x=\"" + px(x0 - 6) + "\" y=\"" + px(std::min(y + 4, y1)) + "\" text-anchor=\"end\">" +
         esc(ay.labels[i]) + "</text>\n";
  }
  s += "<line class=\"axis\" x1=\"" + px(x0) + "\" y1=\"" + px(y0) + "\" x2=\"" + px(x0) + "\" y2=\"" + px(y1) + "\"/>";
  s += "<text class=\"axislabel\" transform=\"translate(16 " + px((y0 + y1) / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">" + esc(label) + "</text>\n";
  return s;
}

namespace {

bool has_err(const std::vector<std::pair<double, double>>& err, size_t i) {
  return i < err.size() && std::isfinite(err[i].first) && std::isfinite(err[i].second) && err[i].first < err[i].second;
}

// The error bars of a series: a line from low to high through each point with 4-px caps.
std::string error_bars(const Series& se, const std::function<double(double)>& X, const std::function<double(double)>& Y,
                       const std::function<bool(double, double)>& visible) {
  std::string s;
  const std::string c = colour(se.colour);
  auto bar = [&](double xa, double ya, double xb, double yb, bool vertical) {
    s += "<path class=\"errbar\" stroke=\"" + c + "\" stroke-width=\"1.5\" fill=\"none\" d=\"M" + px(xa) + " " +
         px(ya) + "L" + px(xb) + " " + px(yb);
    if (vertical)
      s += "M" + px(xa - 4) + " " + px(ya) + "h8M" + px(xb - 4) + " " + px(yb) + "h8";
    else
      s += "M" + px(xa) + " " + px(ya - 4) + "v8M" + px(xb) + " " + px(yb - 4) + "v8";
    s += "\"/>\n";
  };
  for (size_t i = 0; i < se.pts.size(); ++i) {
    const auto& [x, y] = se.pts[i];
    if (!visible(x, y)) continue;
    if (has_err(se.y_err, i) && visible(x, se.y_err[i].first))
      bar(X(x), Y(se.y_err[i].first), X(x), Y(se.y_err[i].second), true);
    if (has_err(se.x_err, i) && visible(se.x_err[i].first, y))
      bar(X(se.x_err[i].first), Y(y), X(se.x_err[i].second), Y(y), false);
  }
  return s;
}

// What an x-y plot's axes must show (points, error bars, labels), its data marks and legend.
void plot_extent(const XYPlot& p, std::vector<double>& xs, std::vector<double>& ys, int& points,
                 std::vector<Item>& items) {
  for (const auto& s : p.series) {
    for (const auto& [x, y] : s.pts) xs.push_back(x), ys.push_back(y);
    for (size_t i = 0; i < s.pts.size(); ++i) {
      if (has_err(s.y_err, i)) ys.push_back(s.y_err[i].first), ys.push_back(s.y_err[i].second);
      if (has_err(s.x_err, i)) xs.push_back(s.x_err[i].first), xs.push_back(s.x_err[i].second);
    }
    if (s.data) points += static_cast<int>(s.pts.size());
    if (!s.name.empty()) items.push_back({s.name, s.colour, s.line ? 'l' : 'o'});
  }
  for (const auto& l : p.labels) xs.push_back(l.x), ys.push_back(l.y);
}

}  // namespace

std::string xy_plot(const XYPlot& p) {
  std::vector<double> xs, ys;
  int points = 0;
  std::vector<Item> items;
  plot_extent(p, xs, ys, points, items);
  const Axis ax = make_axis(xs, p.x_log, p.x_zero), ay = make_axis(ys, p.y_log, p.y_zero);
  const double h = 400, x0 = 78, x1 = kW - (items.empty() ? 24 : kLegendW), y0 = kTop, y1 = h - kBottom;
  auto X = [&](double v) { return x0 + ax.frac(v) * (x1 - x0); };
  auto Y = [&](double v) { return y1 - ay.frac(v) * (y1 - y0); };
  auto visible = [&](double x, double y) {
    return std::isfinite(x) && std::isfinite(y) && (!p.x_log || x > 0) && (!p.y_log || y > 0);
  };
  std::string s = svg_open(p.id, h, points);
  s += y_axis(ay, p.y_label, x0, x1, y0, y1);
  s += x_axis(ax, p.x_label, x0, x1, y0, y1);
  for (const auto& se : p.series) {
    const char* c = colour(se.colour);
    if (se.line && se.pts.size() > 1) {
      s += "<polyline fill=\"none\" stroke=\"" + std::string(c) + "\" stroke-width=\"2.5\"" +
           (se.dashed ? " stroke-dasharray=\"6 4\"" : "") + " points=\"";
      for (const auto& [x, y] : se.pts)
        if (visible(x, y)) s += px(X(x)) + "," + px(Y(y)) + " ";
      s += "\"/>\n";
    }
    s += error_bars(se, X, Y, visible);
    if (!se.markers) continue;
    for (size_t i = 0; i < se.pts.size(); ++i) {
      const auto& [x, y] = se.pts[i];
      if (!visible(x, y)) continue;
      s += "<circle class=\"mark\" cx=\"" + px(X(x)) + "\" cy=\"" + px(Y(y)) + "\" r=\"5\" fill=\"" + c + "\"><title>" +
           esc(i < se.tips.size() ? se.tips[i] : se.name + ": " + si(x) + ", " + si(y)) + "</title></circle>\n";
    }
  }
  // Labels: each text goes to the first slot above or below its point that overlaps no text
  // placed before it (boxes estimated at 6.2 px per character), with a leader line when moved.
  struct Box {
    double a, b, c, d;
  };
  std::vector<Box> placed;  // texts so far, and the marks they must not cover
  for (const auto& se : p.series)
    if (se.markers)
      for (const auto& [x, y] : se.pts)
        if (visible(x, y)) placed.push_back({X(x) - 6, Y(y) - 6, X(x) + 6, Y(y) + 6});
  for (const auto& l : p.labels)
    if (visible(l.x, l.y)) placed.push_back({X(l.x) - 9, Y(l.y) - 9, X(l.x) + 9, Y(l.y) + 9});
  for (const auto& l : p.labels) {
    if (!visible(l.x, l.y)) continue;
    const double x = X(l.x), y = Y(l.y), w = 6.2 * static_cast<double>(l.text.size());
    const bool right = x < (x0 + x1) / 2;
    const double tx = right ? x + 12 : x - 12, left = right ? tx : tx - w;
    double ty = y - 10;
    for (int k = 0; k < 40; ++k) {
      const int step = (k + 1) / 2;  // 1, 1, 2, 2, ...: alternately above and below
      double cand = y - 10 + (k % 2 ? 1 : -1) * 15.0 * step;
      if (cand - 11 < y0 || cand > y1) continue;
      bool clash = false;
      for (const Box& o : placed) clash = clash || (left < o.c && left + w > o.a && cand - 11 < o.d && cand + 2 > o.b);
      if (!clash) {
        ty = cand;
        break;
      }
    }
    placed.push_back({left, ty - 11, left + w, ty + 2});
    s += "<circle cx=\"" + px(x) + "\" cy=\"" + px(y) +
         "\" r=\"8\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"/>";
    if (ty != y - 10)
      s += "<line class=\"leader\" x1=\"" + px(x) + "\" y1=\"" + px(y) + "\" x2=\"" + px(tx) + "\" y2=\"" + px(ty - 4) +
           "\"/>";
    s += "<text class=\"note\" x=\"" + px(tx) + "\" y=\"" + px(ty) + "\" text-anchor=\"" + (right ? "start" : "end") +
         "\">" + esc(l.text) + "</text>\n";
  }
  s += legend(items, x1 + 16, y0 + 10);
  return s + "</svg>\n";
}

// Row labels: 11-px text in the 258 px left of the axis, about 6.3 px a character; a longer
// label wraps onto more lines and every row grows to the tallest label.
constexpr double kBarX0 = 270, kLabelLine = 12, kBarH = 18;
constexpr size_t kLabelChars = 40;
// End texts: 11.5-px notes, about 6.6 px a character.
double note_w(const std::string& s) { return 6.6 * static_cast<double>(s.size()) + 4; }

// The values the bar axis must reach: every bar's end and whisker, stretched so that the text
// after the bar ends left of the legend (at X(v) + 5 + its width <= x1 on an axis from 0).
std::vector<double> bar_extent(const BarPlot& p, double plot_w) {
  std::vector<double> xs = {0};
  for (const auto& r : p.rows) {
    double end = 0;
    for (const auto& g : r.segments) end = std::max(end, g.start + g.length);
    if (r.err_high > r.err_low) end = std::max(end, r.err_high);
    const double room = plot_w - 5 - note_w(r.end_text);
    xs.push_back(end * (room > plot_w / 4 ? plot_w / room : 4.0));
  }
  return xs;
}

std::string bar_plot(const BarPlot& p) {
  int points = 0;
  for (const auto& r : p.rows)
    for (const auto& g : r.segments)
      if (g.length > 0) ++points;
  const double x0 = kBarX0, x1 = kW - kLegendW, y0 = kTop;
  const Axis ax = make_axis(bar_extent(p, x1 - x0), false, true);
  std::vector<std::vector<std::string>> labels;
  size_t most = 1;
  for (const auto& r : p.rows) most = std::max(most, labels.emplace_back(wrap(r.label, kLabelChars)).size());
  const double row_h = std::max(24.0, kLabelLine * static_cast<double>(most) + 10);
  const double y1 = y0 + row_h * static_cast<double>(std::max<size_t>(p.rows.size(), 1)) + 6;
  const double h = std::max(y1 + kBottom, y0 + 18.0 * static_cast<double>(p.categories.size()) + 20);
  auto X = [&](double v) { return x0 + ax.frac(v) * (x1 - x0); };
  std::string s = svg_open(p.id, h, points);
  s += x_axis(ax, p.x_label, x0, x1, y0, y1);
  for (size_t i = 0; i < p.rows.size(); ++i) {
    const BarRow& r = p.rows[i];
    const double mid = y0 + 4 + row_h * static_cast<double>(i) + (row_h - 6) / 2, y = mid - kBarH / 2;
    const std::vector<std::string>& lines = labels[i];
    s += "<text class=\"rowlabel\" x=\"" + px(x0 - 8) + "\" y=\"" + px(mid + 4) + "\" text-anchor=\"end\">";
    for (size_t k = 0; k < lines.size(); ++k) {
      const double ly = mid + 4 + kLabelLine * (static_cast<double>(k) - static_cast<double>(lines.size() - 1) / 2);
      s += "<tspan x=\"" + px(x0 - 8) + "\" y=\"" + px(ly) + "\">" + esc(lines[k]) + "</tspan>";
    }
    s += "<title>" + esc(r.label) + "</title></text>\n";
    double end = 0;
    for (const auto& g : r.segments) {
      if (g.length <= 0) continue;
      const double a = X(g.start), b = X(g.start + g.length);
      s += "<rect class=\"mark\" x=\"" + px(a) + "\" y=\"" + px(y) + "\" width=\"" + px(std::max(b - a, 0.5)) +
           "\" height=\"" + px(kBarH) + "\" fill=\"" + colour(g.category) + "\"><title>" + esc(g.tip) +
           "</title></rect>\n";
      end = std::max(end, b);
    }
    if (r.err_high > r.err_low) {  // the whisker, through the bar's middle
      const double a = X(r.err_low), b = X(r.err_high), m = mid;
      s += "<path class=\"errbar\" stroke=\"#000\" stroke-width=\"1.5\" fill=\"none\" d=\"M" + px(a) + " " + px(m) +
           "H" + px(b) + "M" + px(a) + " " + px(m - 5) + "v10M" + px(b) + " " + px(m - 5) +
           "v10\"><title>80 % interval: " + num(r.err_low, 4) + "-" + num(r.err_high, 4) + "</title></path>\n";
      end = std::max(end, b);
    }
    if (!r.end_text.empty())
      s += "<text class=\"note\" x=\"" + px(std::max(end, x0) + 5) + "\" y=\"" + px(mid + 4) + "\">" + esc(r.end_text) +
           "</text>\n";
  }
  s += "<line class=\"axis\" x1=\"" + px(x0) + "\" y1=\"" + px(y0) + "\" x2=\"" + px(x0) + "\" y2=\"" + px(y1) +
       "\"/>\n";
  std::vector<Item> items;
  for (size_t i = 0; i < p.categories.size(); ++i) items.push_back({p.categories[i], static_cast<int>(i), 'r'});
  s += legend(items, x1 + 16, y0 + 10);
  return s + "</svg>\n";
}

}  // namespace trn::app::report

namespace trn::app::report {

namespace {

// Width of a text at the report's 12-px sans-serif, estimated per character.
double text_w(const std::string& s) { return 7.0 * static_cast<double>(s.size()); }

// A blue from light (t = 0) to dark (t = 1), and the text colour that reads on it.
std::string shade(double t) {
  const int r = static_cast<int>(std::lround(222 - t * (222 - 8))),
            g = static_cast<int>(std::lround(235 - t * (235 - 69))),
            b = static_cast<int>(std::lround(247 - t * (247 - 148)));
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
  return buf;
}

}  // namespace

std::string heat_map(const HeatMap& p) {
  double lo = 1e300, hi = -1e300, row_w = text_w(p.row_label);
  int points = 0;
  for (const auto& row : p.values)
    for (double v : row)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v), ++points;
  for (const auto& r : p.rows) row_w = std::max(row_w, text_w(r));
  const double x0 = std::min(row_w + 24, 300.0), x1 = kW - 24, y0 = kTop + 36, cell_h = 36;
  const double cell_w = (x1 - x0) / static_cast<double>(std::max<size_t>(p.cols.size(), 1));
  for (size_t c = 0; c < p.cols.size(); ++c) {
    if (text_w(p.cols[c]) > cell_w - 8) return "";
    for (const auto& row : p.texts)
      if (c < row.size() && text_w(row[c]) > cell_w - 8) return "";
  }
  for (const auto& r : p.rows)
    if (text_w(r) > x0 - 16) return "";
  const double y1 = y0 + cell_h * static_cast<double>(p.rows.size()), h = y1 + 64;
  std::string s = svg_open(p.id, h, points);
  s += "<text class=\"axislabel\" x=\"" + px((x0 + x1) / 2) + "\" y=\"" + px(kTop + 6) + "\" text-anchor=\"middle\">" +
       esc(p.col_label) + "</text>\n";
  s += "<text class=\"axislabel\" x=\"" + px(x0 - 8) + "\" y=\"" + px(kTop + 6) + "\" text-anchor=\"end\">" +
       esc(p.row_label) + "</text>\n";
  for (size_t c = 0; c < p.cols.size(); ++c)
    s += "<text class=\"tick\" x=\"" + px(x0 + cell_w * (static_cast<double>(c) + 0.5)) + "\" y=\"" + px(y0 - 8) +
         "\" text-anchor=\"middle\">" + esc(p.cols[c]) + "</text>\n";
  for (size_t r = 0; r < p.rows.size(); ++r) {
    const double y = y0 + cell_h * static_cast<double>(r);
    s += "<text class=\"rowlabel\" x=\"" + px(x0 - 8) + "\" y=\"" + px(y + cell_h / 2 + 4) + "\" text-anchor=\"end\">" +
         esc(p.rows[r]) + "</text>\n";
    for (size_t c = 0; c < p.cols.size(); ++c) {
      const double v = r < p.values.size() && c < p.values[r].size() ? p.values[r][c] : std::nan("");
      const double x = x0 + cell_w * static_cast<double>(c);
      const std::string text = r < p.texts.size() && c < p.texts[r].size() ? p.texts[r][c] : "";
      if (!std::isfinite(v)) {
        s += "<rect x=\"" + px(x + 1) + "\" y=\"" + px(y + 1) + "\" width=\"" + px(cell_w - 2) + "\" height=\"" +
             px(cell_h - 2) + "\" fill=\"#f4f4f4\"><title>no point</title></rect>\n";
        continue;
      }
      const double t = hi > lo ? (v - lo) / (hi - lo) : 1;
      s += "<rect class=\"mark\" x=\"" + px(x + 1) + "\" y=\"" + px(y + 1) + "\" width=\"" + px(cell_w - 2) +
           "\" height=\"" + px(cell_h - 2) + "\" fill=\"" + shade(t) + "\"><title>" +
           esc(p.rows[r] + ", " + p.cols[c] + ": " + text) + "</title></rect>\n";
      s += "<text class=\"cell\" x=\"" + px(x + cell_w / 2) + "\" y=\"" + px(y + cell_h / 2 + 4) +
           "\" text-anchor=\"middle\" fill=\"" + (t > 0.55 ? "#ffffff" : "#222222") + "\">" + esc(text) + "</text>\n";
    }
  }
  // The scale: light is the lowest value, dark the highest.
  const double sy = y1 + 18, sw = std::min(240.0, x1 - x0);
  for (int i = 0; i < 12; ++i)
    s += "<rect x=\"" + px(x0 + sw * i / 12.0) + "\" y=\"" + px(sy) + "\" width=\"" + px(sw / 12.0 + 0.5) +
         "\" height=\"10\" fill=\"" + shade(i / 11.0) + "\"/>";
  s += "<text class=\"note\" x=\"" + px(x0) + "\" y=\"" + px(sy + 26) + "\">lowest " + esc(si(lo)) + "</text>";
  s += "<text class=\"note\" x=\"" + px(x0 + sw) + "\" y=\"" + px(sy + 26) + "\" text-anchor=\"end\">highest " +
       esc(si(hi)) + "</text>\n</svg>\n";
  return s;
}

}  // namespace trn::app::report
