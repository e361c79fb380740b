// Strict typed reading (ConfigReader) and writing (ConfigWriter) of spec structs.
#include "sim/base/config_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace trn::sim {

std::string FieldSpec::range_text() const {
  std::string r;
  if (!choices.empty()) {
    r = "one of ";
    for (size_t i = 0; i < choices.size(); ++i) r += (i ? ", " : "") + choices[i];
    return r;
  }
  auto num = [](double x) { return format_double_exact(x); };
  if (min && max) return (min_exclusive ? "> " : ">= ") + num(*min) + " and <= " + num(*max);
  if (min) return (min_exclusive ? "> " : ">= ") + num(*min);
  if (max) return "<= " + num(*max);
  return "";
}

namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

bool parse_bool(const std::string& s, bool* out) {
  if (s == "true" || s == "True" || s == "yes") {
    *out = true;
    return true;
  }
  if (s == "false" || s == "False" || s == "no") {
    *out = false;
    return true;
  }
  return false;
}

const char* example_of(Dim d) {
  switch (d) {
    case Dim::Time: return "1.5 us";
    case Dim::Bytes: return "96 GiB";
    case Dim::Bandwidth: return "2.9 TB/s";
    case Dim::Frequency: return "2.4 GHz";
    case Dim::FlopRate: return "79 TFLOPS";
  }
  return "";
}

}  // namespace

std::string nearest_word(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::numeric_limits<size_t>::max();
  for (const auto& c : candidates) {
    size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  size_t limit = std::max<size_t>(2, word.size() / 3);
  return best_d <= limit ? best : "";
}

ConfigReader::ConfigReader(const ConfigNode& node, std::string path) : node_(node), path_(std::move(path)) {}

std::string ConfigReader::child_path(const char* key) const {
  return path_.empty() ? std::string(key) : path_ + "." + key;
}

void ConfigReader::fail(const ConfigNode& n, const char* key, const std::string& msg) const {
  throw ConfigError(n.loc, child_path(key), msg);
}

const ConfigNode* ConfigReader::get(const char* key, const FieldSpec& s) {
  known_.push_back(key);
  const ConfigNode* n = node_.find(key);
  if (!n) {
    // Reported by finish(), after unknown keys: a misspelt key also looks missing.
    if (s.required) missing_.push_back(std::string(key) + "' (" + s.doc + ")");
    return nullptr;
  }
  if (n->kind == ConfigNode::Kind::Null) fail(*n, key, "has no value (" + s.doc + ")");
  return n;
}

void ConfigReader::check_range(const ConfigNode& n, const char* key, double x, const FieldSpec& s,
                               const std::string& shown) const {
  bool ok = true;
  if (s.min) ok = ok && (s.min_exclusive ? x > *s.min : x >= *s.min);
  if (s.max) ok = ok && x <= *s.max;
  if (!ok) fail(n, key, "value " + shown + " is out of range: expected " + s.range_text());
}

double ConfigReader::number(const ConfigNode& n, const char* key, const FieldSpec& s) const {
  if (!n.is_scalar() || n.quoted)
    fail(n, key,
         "expected a number (" + s.doc + "), found " + (n.quoted ? "the string \"" + n.scalar + "\"" : n.kind_name()));
  char* end = nullptr;
  double x = std::strtod(n.scalar.c_str(), &end);
  if (n.scalar.empty() || end != n.scalar.c_str() + n.scalar.size() || !std::isfinite(x))
    fail(n, key, "expected a number (" + s.doc + "), found '" + n.scalar + "'");
  check_range(n, key, x, s, n.scalar);
  return x;
}

double ConfigReader::quantity(const ConfigNode& n, const char* key, Dim d, const FieldSpec& s) const {
  if (!n.is_scalar()) fail(n, key, "expected " + dim_expectation(d) + ", found " + n.kind_name());
  std::string why;
  auto v = parse_quantity(n.scalar, d, &why);
  if (!v) fail(n, key, why + "; expected " + dim_expectation(d) + ", e.g. \"" + example_of(d) + "\"");
  check_range(n, key, *v, s, "'" + n.scalar + "'");
  if (std::fabs(*v) > largest_quantity(d))
    fail(n, key, "value '" + n.scalar + "' is too large: expected at most " + format_quantity(largest_quantity(d), d));
  return *v;
}

void ConfigReader::field(const char* key, double& out, const FieldSpec& s) {
  if (const ConfigNode* n = get(key, s)) out = number(*n, key, s);
}

void ConfigReader::field(const char* key, int64_t& out, const FieldSpec& s) {
  const ConfigNode* n = get(key, s);
  if (!n) return;
  double x = number(*n, key, s);
  if (x != std::floor(x)) fail(*n, key, "expected a whole number (" + s.doc + "), found '" + n->scalar + "'");
  if (std::fabs(x) > 9.0e15)
    fail(*n, key, "value " + n->scalar + " is out of range: expected a whole number of at most 9e15");
  out = static_cast<int64_t>(x);
}

void ConfigReader::field(const char* key, int& out, const FieldSpec& s) {
  int64_t v = out;
  const ConfigNode* n = node_.find(key);
  field(key, v, s);
  if (n && (v > std::numeric_limits<int>::max() || v < std::numeric_limits<int>::min()))
    fail(*n, key,
         "value " + n->scalar + " is out of range: expected " + std::to_string(std::numeric_limits<int>::min()) +
             " to " + std::to_string(std::numeric_limits<int>::max()));
  out = static_cast<int>(v);
}

void ConfigReader::field(const char* key, bool& out, const FieldSpec& s) {
  const ConfigNode* n = get(key, s);
  if (!n) return;
  if (!n->is_scalar() || n->quoted || !parse_bool(n->scalar, &out))
    fail(*n, key, "expected true or false (" + s.doc + "), found '" + n->scalar + "'");
}

void ConfigReader::field(const char* key, std::string& out, const FieldSpec& s) {
  const ConfigNode* n = get(key, s);
  if (!n) return;
  if (!n->is_scalar()) fail(*n, key, "expected a string (" + s.doc + "), found " + n->kind_name());
  if (!s.choices.empty() && std::find(s.choices.begin(), s.choices.end(), n->scalar) == s.choices.end()) {
    std::string near = nearest_word(n->scalar, s.choices);
    fail(*n, key,
         "unknown value '" + n->scalar + "': expected " + s.range_text() +
             (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
  out = n->scalar;
}

void ConfigReader::field(const char* key, std::vector<int64_t>& out, const FieldSpec& s) {
  const ConfigNode* n = get(key, s);
  if (!n) return;
  if (!n->is_list()) fail(*n, key, "expected a list of whole numbers (" + s.doc + ")");
  out.clear();
  for (const auto& item : n->list) {
    double x = number(item, key, s);
    if (x != std::floor(x)) fail(item, key, "expected a whole number, found '" + item.scalar + "'");
    if (std::fabs(x) > 9.0e15)
      fail(item, key, "value " + item.scalar + " is out of range: expected a whole number of at most 9e15");
    out.push_back(static_cast<int64_t>(x));
  }
}

void ConfigReader::field(const char* key, std::vector<double>& out, const FieldSpec& s) {
  const ConfigNode* n = get(key, s);
  if (!n) return;
  if (!n->is_list()) fail(*n, key, "expected a list of numbers (" + s.doc + ")");
  out.clear();
  for (const auto& item : n->list) out.push_back(number(item, key, s));
}

void ConfigReader::field(const char* key, std::vector<std::string>& out, const FieldSpec& s) {
  const ConfigNode* n = get(key, s);
  if (!n) return;
  if (!n->is_list()) fail(*n, key, "expected a list of strings (" + s.doc + ")");
  out.clear();
  for (const auto& item : n->list) {
    if (!item.is_scalar()) fail(item, key, "expected a string in the list");
    out.push_back(item.scalar);
  }
}

void ConfigReader::finish() const {
  for (const auto& e : node_.map) {
    if (std::find(known_.begin(), known_.end(), e.key) != known_.end()) continue;
    std::string near = nearest_word(e.key, known_);
    std::string p = child_path(e.key.c_str());
    std::string msg = "unknown key '" + e.key + "'";
    if (!near.empty())
      msg += " (did you mean '" + near + "'?)";
    else {
      msg += "; valid keys here: ";
      for (size_t i = 0; i < known_.size(); ++i) msg += (i ? ", " : "") + known_[i];
    }
    throw ConfigError(e.key_loc, p, msg);
  }
  if (!missing_.empty()) {
    std::string key = missing_.front().substr(0, missing_.front().find('\''));
    throw ConfigError(node_.loc, child_path(key.c_str()), "missing key '" + missing_.front());
  }
}

ConfigNode ConfigWriter::scalar(const std::string& text, bool quoted) {
  ConfigNode n;
  n.kind = ConfigNode::Kind::Scalar;
  n.scalar = text;
  n.quoted = quoted;
  return n;
}

void ConfigWriter::put(const char* key, ConfigNode n) { node.set(key, std::move(n), Location{}); }

void ConfigWriter::field(const char* key, const double& v, const FieldSpec&) {
  put(key, scalar(format_double_exact(v), false));
}
void ConfigWriter::field(const char* key, const int64_t& v, const FieldSpec&) {
  put(key, scalar(std::to_string(v), false));
}
void ConfigWriter::field(const char* key, const int& v, const FieldSpec&) {
  put(key, scalar(std::to_string(v), false));
}
void ConfigWriter::field(const char* key, const bool& v, const FieldSpec&) {
  put(key, scalar(v ? "true" : "false", false));
}
void ConfigWriter::field(const char* key, const std::string& v, const FieldSpec&) { put(key, scalar(v, false)); }
void ConfigWriter::field(const char* key, const std::vector<int64_t>& v, const FieldSpec&) {
  ConfigNode l;
  l.kind = ConfigNode::Kind::List;
  for (auto x : v) l.list.push_back(scalar(std::to_string(x), false));
  put(key, std::move(l));
}
void ConfigWriter::field(const char* key, const std::vector<double>& v, const FieldSpec&) {
  ConfigNode l;
  l.kind = ConfigNode::Kind::List;
  for (auto x : v) l.list.push_back(scalar(format_double_exact(x), false));
  put(key, std::move(l));
}
void ConfigWriter::field(const char* key, const std::vector<std::string>& v, const FieldSpec&) {
  ConfigNode l;
  l.kind = ConfigNode::Kind::List;
  for (const auto& x : v) l.list.push_back(scalar(x, false));
  put(key, std::move(l));
}

}  // namespace trn::sim
