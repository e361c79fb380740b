// Inline SVG plots for the HTML report: an x-y plot (linear or log axes, lines and markers)
// and a horizontal bar plot (stacked bars and waterfalls). Pure string building with fixed
// number formatting, so the same data gives byte-identical SVG. Every <svg class="plot">
// carries data-points (how many data marks it draws), which the report's script checks.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace trn::app::report {

/// Escapes &, <, >, " and ' for HTML text and attribute values.
std::string esc(const std::string& s);
/// A number with `digits` significant digits ("%.*g"), locale-independent.
std::string num(double v, int digits = 4);
/// A number with an SI prefix and up to three significant digits: 1.5e12 -> "1.5 T".
std::string si(double v);
/// The same with up to `digits` significant digits.
std::string si_digits(double v, int digits);
/// The same with a space and a unit: (1.5e12, "FLOP/s") -> "1.5 TFLOP/s".
std::string si(double v, const std::string& unit);
/// The colour of series or category `i` (a colour-blind-safe palette, cycled).
const char* colour(int i);

struct Series {
  std::string name;                            // legend text
  std::vector<std::pair<double, double>> pts;  // (x, y) in data units
  std::vector<std::string> tips;               // hover text per point (optional)
  // Error bars: each point's 80 % interval (low, high) in data units, per point (optional; a
  // point whose pair is not finite or not ordered has none). Drawn as class "errbar".
  std::vector<std::pair<double, double>> y_err, x_err;
  bool line = true, markers = true, dashed = false;
  bool data = true;  // false: a reference line (roof), not counted
  int colour = 0;
};

struct Label {  // a marked and annotated point
  double x = 0, y = 0;
  std::string text;
};

struct XYPlot {
  std::string id, x_label, y_label;  // axis labels carry their units
  bool x_log = false, y_log = false;
  bool x_zero = true, y_zero = true;  // linear axes start at zero
  std::vector<Series> series;
  std::vector<Label> labels;
};

/// An <svg class="plot"> with axes, ticks, grid, series, labelled points and a legend.
std::string xy_plot(const XYPlot& p);

struct Segment {
  int category = 0;  // index into BarPlot::categories (fixes the colour)
  double start = 0, length = 0;
  std::string tip;
};

struct BarRow {
  std::string label;
  std::vector<Segment> segments;
  std::string end_text;  // printed after the bar's end (e.g. the total)
  // The 80 % interval of the bar's end (e.g. a predicted total), drawn as a whisker of class
  // "errbar"; err_high <= err_low: none.
  double err_low = 0, err_high = 0;
};

struct BarPlot {
  std::string id, x_label;
  std::vector<std::string> categories;  // legend, in colour order
  std::vector<BarRow> rows;
};

/// An <svg class="plot"> of horizontal bars made of segments along a linear x axis.
std::string bar_plot(const BarPlot& p);

struct HeatMap {
  std::string id, row_label, col_label;         // what the rows and the columns vary
  std::vector<std::string> rows, cols;          // their values, top to bottom and left to right
  std::vector<std::vector<double>> values;      // [row][col]; NaN: no point there
  std::vector<std::vector<std::string>> texts;  // [row][col]: the cell's text (and hover)
};

/// An <svg class="plot"> grid of cells, each shaded by its value (light: low, dark: high) and
/// labelled with its text; a scale of the lowest and highest value under it. Empty when a
/// column's values do not fit their cell width (the caller then draws bars).
std::string heat_map(const HeatMap& p);

}  // namespace trn::app::report
