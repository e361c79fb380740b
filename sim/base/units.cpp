// Unit tables and the parser/printer for physical quantities.
#include "sim/base/units.h"

#include <array>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace trn::sim {
namespace {

struct Unit {
  const char* name;
  double factor;       // multiply by this to get SI base units
  bool listed = true;  // named in dim_expectation(); false for the long spellings of days and weeks
};

const std::vector<Unit>& units_of(Dim dim) {
  static const std::vector<Unit> time = {{"s", 1.0},
                                         {"ms", 1e-3},
                                         {"us", 1e-6},
                                         {"\xC2\xB5s", 1e-6},
                                         {"ns", 1e-9},
                                         {"ps", 1e-12},
                                         {"min", 60.0},
                                         {"h", 3600.0},
                                         // Durations of a training job (plan --deadline 30d). Accepted, not
                                         // listed in the expected-unit messages, which keep the short list.
                                         {"d", 86400.0, false},
                                         {"day", 86400.0, false},
                                         {"days", 86400.0, false},
                                         {"w", 604800.0, false},
                                         {"week", 604800.0, false},
                                         {"weeks", 604800.0, false}};
  static const std::vector<Unit> bytes = {{"B", 1.0},
                                          {"KB", 1e3},
                                          {"MB", 1e6},
                                          {"GB", 1e9},
                                          {"TB", 1e12},
                                          {"PB", 1e15},
                                          {"KiB", 1024.0},
                                          {"MiB", 1048576.0},
                                          {"GiB", 1073741824.0},
                                          {"TiB", 1099511627776.0},
                                          {"PiB", 1125899906842624.0}};
  static const std::vector<Unit> bw = {{"B/s", 1.0},         {"KB/s", 1e3},           {"MB/s", 1e6},
                                       {"GB/s", 1e9},        {"TB/s", 1e12},          {"KiB/s", 1024.0},
                                       {"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0}, {"TiB/s", 1099511627776.0},
                                       {"bps", 0.125},       {"Kbps", 125.0},         {"Mbps", 125e3},
                                       {"Gbps", 125e6},      {"Tbps", 125e9}};
  static const std::vector<Unit> freq = {{"Hz", 1.0}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
  static const std::vector<Unit> flops = {{"FLOPS", 1.0}, {"GFLOPS", 1e9}, {"TFLOPS", 1e12}, {"PFLOPS", 1e15}};
  switch (dim) {
    case Dim::Time: return time;
    case Dim::Bytes: return bytes;
    case Dim::Bandwidth: return bw;
    case Dim::Frequency: return freq;
    case Dim::FlopRate: return flops;
  }
  return time;
}

// Units used for printing, largest first (decimal family).
const std::vector<Unit>& print_units(Dim dim, bool binary) {
  static const std::vector<Unit> time = {{"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};
  static const std::vector<Unit> bytes_dec = {{"PB", 1e15}, {"TB", 1e12}, {"GB", 1e9},
                                              {"MB", 1e6},  {"KB", 1e3},  {"B", 1.0}};
  static const std::vector<Unit> bytes_bin = {
      {"PiB", 1125899906842624.0}, {"TiB", 1099511627776.0}, {"GiB", 1073741824.0},
      {"MiB", 1048576.0},          {"KiB", 1024.0},          {"B", 1.0}};
  static const std::vector<Unit> bw = {{"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6}, {"KB/s", 1e3}, {"B/s", 1.0}};
  static const std::vector<Unit> freq = {{"GHz", 1e9}, {"MHz", 1e6}, {"kHz", 1e3}, {"Hz", 1.0}};
  static const std::vector<Unit> flops = {{"PFLOPS", 1e15}, {"TFLOPS", 1e12}, {"GFLOPS", 1e9}, {"FLOPS", 1.0}};
  switch (dim) {
    case Dim::Time: return time;
    case Dim::Bytes: return binary ? bytes_bin : bytes_dec;
    case Dim::Bandwidth: return bw;
    case Dim::Frequency: return freq;
    case Dim::FlopRate: return flops;
  }
  return time;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<Dim> dim_of_unit(std::string_view u) {
  for (Dim d : {Dim::Time, Dim::Bytes, Dim::Bandwidth, Dim::Frequency, Dim::FlopRate})
    for (const Unit& x : units_of(d))
      if (u == x.name) return d;
  return std::nullopt;
}

const char* dim_name(Dim d) {
  switch (d) {
    case Dim::Time: return "a time";
    case Dim::Bytes: return "a size in bytes";
    case Dim::Bandwidth: return "a bandwidth";
    case Dim::Frequency: return "a frequency";
    case Dim::FlopRate: return "a FLOP rate";
  }
  return "?";
}

bool is_binary_multiple(double v) {
  if (v < 1024.0 || v != std::floor(v)) return false;
  return std::fmod(v, 1024.0) == 0.0;
}

}  // namespace

std::string dim_expectation(Dim dim) {
  std::string s = std::string(dim_name(dim)) + " with a unit (";
  bool first = true;
  for (const Unit& u : units_of(dim)) {
    if (!u.listed) continue;
    s += (first ? "" : ", ") + std::string(u.name);
    first = false;
  }
  return s + ")";
}

double largest_quantity(Dim dim) {
  switch (dim) {
    case Dim::Time: return 1e9;
    case Dim::Bytes: return 1152921504606846976.0;  // 2^60
    case Dim::Bandwidth: return 1e18;
    case Dim::Frequency: return 1e12;
    case Dim::FlopRate: return 1e21;
  }
  return 0.0;
}

std::string format_double_exact(double value) {
  std::array<char, 64> buf{};
  auto res = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  return std::string(buf.data(), res.ptr);
}

std::optional<double> parse_quantity(std::string_view text, Dim dim, std::string* why) {
  std::string_view s = trim(text);
  if (s.empty()) {
    if (why) *why = "empty value";
    return std::nullopt;
  }
  // Split number and unit: the number ends at the first char that cannot be part of it.
  size_t i = 0;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '-' || s[i] == '+' ||
                          s[i] == 'e' || s[i] == 'E')) {
    // 'e' only counts as exponent if followed by digit/sign
    if ((s[i] == 'e' || s[i] == 'E') && !(i + 1 < s.size() && (std::isdigit(static_cast<unsigned char>(s[i + 1])) ||
                                                               s[i + 1] == '-' || s[i + 1] == '+')))
      break;
    ++i;
  }
  std::string num(s.substr(0, i));
  std::string_view unit = trim(s.substr(i));
  if (num.empty()) {
    if (why) *why = "'" + std::string(s) + "' does not start with a number";
    return std::nullopt;
  }
  char* end = nullptr;
  double x = std::strtod(num.c_str(), &end);
  if (end != num.c_str() + num.size() || !std::isfinite(x)) {
    if (why) *why = "'" + num + "' is not a number";
    return std::nullopt;
  }
  if (unit.empty()) {
    if (why) *why = "bare number '" + std::string(s) + "' has no unit";
    return std::nullopt;
  }
  for (const Unit& u : units_of(dim)) {
    if (unit == u.name) {
      double v = x * u.factor;
      if (!std::isfinite(v)) {
        if (why) *why = "'" + std::string(s) + "' overflows";
        return std::nullopt;
      }
      return v;
    }
  }
  if (why) {
    auto other = dim_of_unit(unit);
    if (other)
      *why = "unit '" + std::string(unit) + "' is " + dim_name(*other) + ", not " + dim_name(dim);
    else
      *why = "unknown unit '" + std::string(unit) + "'";
  }
  return std::nullopt;
}

std::string format_quantity(double value, Dim dim, int digits) {
  bool binary = dim == Dim::Bytes && is_binary_multiple(value);
  const auto& us = print_units(dim, binary);
  const Unit* pick = &us.back();
  for (const Unit& u : us) {
    if (std::fabs(value) >= u.factor) {
      pick = &u;
      break;
    }
  }
  if (value == 0.0) pick = &us.back();
  double x = value / pick->factor;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g %s", digits, x, pick->name);
  return buf;
}

std::string format_quantity_exact(double value, Dim dim) {
  // Among units giving a mantissa in [1e-3, 1e6), the shortest text that reads back exactly.
  std::string best;
  std::vector<Unit> candidates = print_units(dim, false);
  if (dim == Dim::Bytes) {
    const auto& bin = print_units(dim, true);
    candidates.insert(candidates.end(), bin.begin(), bin.end());
  }
  for (const Unit& u : candidates) {
    double x = value / u.factor;
    if (value != 0.0 && (std::fabs(x) < 1e-3 || std::fabs(x) >= 1e6)) continue;
    // The division can leave a last-digit error (3.177e-5 s / 1e-6 = 31.769999999999996):
    // the fewest significant digits whose text reads back as `value`, else the exact mantissa.
    std::string text;
    for (int digits = 1; digits <= 17 && text.empty(); ++digits) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*g %s", digits, x, u.name);
      if (std::strchr(buf, 'e')) continue;  // 4e+01: a longer plain mantissa reads better
      auto back = parse_quantity(buf, dim, nullptr);
      if (back && *back == value) text = buf;
    }
    if (text.empty()) text = format_double_exact(x) + " " + u.name;
    auto back = parse_quantity(text, dim, nullptr);
    if (back && *back == value && (best.empty() || text.size() < best.size())) best = text;
  }
  if (!best.empty()) return best;
  for (const Unit& u : print_units(dim, false))
    if (u.factor == 1.0) return format_double_exact(value) + " " + u.name;
  return format_double_exact(value);
}

}  // namespace trn::sim
