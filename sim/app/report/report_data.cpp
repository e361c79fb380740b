// Reading run / startup result JSON and sweep databases for the report.
#include "sim/app/report/report_data.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/app/storage/sweep_store.h"
#include "sim/base/config_node.h"
#include "sim/base/config_reader.h"

namespace trn::app::report {
namespace {

using Json = nlohmann::ordered_json;  // keeps the order of breakdown categories and parts
using sim::ConfigError;
using sim::Location;

// Typed access to a result JSON; errors name the file (or database row) and the key.
struct Reader {
  std::string where;

  [[noreturn]] void fail(const std::string& key, const std::string& msg) const {
    throw ConfigError(Location{where, 0, 0}, key, msg);
  }
  const Json* find(const Json& j, const std::string& path) const {
    const Json* cur = &j;
    size_t start = 0;
    while (start <= path.size()) {
      size_t dot = path.find('.', start);
      std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      if (!cur->is_object() || !cur->contains(key)) return nullptr;
      cur = &(*cur)[key];
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    return cur;
  }
  const Json& at(const Json& j, const std::string& path) const {
    const Json* v = find(j, path);
    if (!v) fail(path, "missing key (is this a trnsim result, or was it cut short?)");
    return *v;
  }
  double number(const Json& j, const std::string& path) const {
    const Json& v = at(j, path);
    if (!v.is_number() || !std::isfinite(v.get<double>())) fail(path, "expected a number, found " + v.dump());
    return v.get<double>();
  }
  std::string text(const Json& j, const std::string& path) const {
    const Json& v = at(j, path);
    if (!v.is_string()) fail(path, "expected a string, found " + v.dump());
    return v.get<std::string>();
  }
  Parts parts(const Json& j, const std::string& path) const {
    const Json& v = at(j, path);
    if (!v.is_object()) fail(path, "expected an object of numbers");
    Parts out;
    for (const auto& [k, x] : v.items()) {
      if (!x.is_number() || !std::isfinite(x.get<double>()))
        fail(path + "." + k, "expected a number, found " + x.dump());
      out.push_back({k, x.get<double>()});
    }
    return out;
  }
  // The interval written beside a figure (`KEY_interval`: {low, high, ...}), or {0, 0}.
  Interval interval(const Json& j, const std::string& path) const {
    if (!find(j, path)) return {0, 0};
    const double lo = number(j, path + ".low"), hi = number(j, path + ".high");
    if (!(lo <= hi)) fail(path, "expected low <= high");
    return {lo, hi};
  }
};

RunPoint read_run(const Reader& r, const Json& j) {
  RunPoint p;
  p.scenario = r.text(j, "scenario");
  p.mode = r.text(j, "mode");
  p.step_time_s = r.number(j, "steady.step_time_s");
  p.tokens_per_s = r.number(j, "steady.tokens_per_s");
  p.mfu = r.number(j, "steady.mfu");
  p.step_interval = r.interval(j, "steady.step_time_s_interval");
  p.tokens_interval = r.interval(j, "steady.tokens_per_s_interval");
  p.mfu_interval = r.interval(j, "steady.mfu_interval");
  p.breakdown = r.parts(j, "steady.breakdown");
  if (r.find(j, "system")) {
    p.system = r.text(j, "system.name");
    p.chip = r.text(j, "system.chip");
    p.chips = static_cast<int>(r.number(j, "system.chips"));
  }
  if (const Json* rl = r.find(j, "roofline")) {
    p.has_roofline = true;
    p.roof_scope = r.text(*rl, "scope");
    p.peak_flop_rate = r.number(*rl, "peak_bf16_flop_per_s");
    p.hbm_bandwidth = r.number(*rl, "hbm_bandwidth_B_per_s");
    const Json& pts = r.at(*rl, "points");
    if (!pts.is_array()) r.fail("roofline.points", "expected a list");
    for (const auto& q : pts) {
      RoofOp o;
      o.name = r.text(q, "name");
      o.engine = r.text(q, "engine");
      o.ops = r.number(q, "ops");
      o.flops = r.number(q, "flops");
      o.hbm_bytes = r.number(q, "hbm_bytes");
      o.busy_s = r.number(q, "busy_s");
      o.intensity = r.number(q, "intensity_flop_per_B");
      o.flop_rate = r.number(q, "achieved_flop_per_s");
      p.roof.push_back(o);
    }
  }
  return p;
}

FirstStep read_first(const Reader& r, const Json& j, const std::string& mode) {
  FirstStep f;
  f.parts = r.parts(j, mode + ".first_step.parts");
  f.total_s = r.number(j, mode + ".first_step.total_s");
  f.total_interval = r.interval(j, mode + ".first_step.total_s_interval");
  f.steady_s = r.number(j, mode + ".steady.step_time_s");
  if (f.steady_s <= 0) r.fail(mode + ".steady.step_time_s", "expected a positive step time");
  return f;
}

StartupPoint read_startup(const Reader& r, const Json& j) {
  StartupPoint p;
  p.scenario = r.text(j, "scenario");
  p.eager = read_first(r, j, "eager");
  p.compiled = read_first(r, j, "compiled");
  if (r.find(j, "tokens_per_step")) p.tokens_per_step = r.number(j, "tokens_per_step");
  const Json& be = r.at(j, "break_even.steps");
  if (!be.is_null()) p.break_even_steps = r.number(j, "break_even.steps");
  return p;
}

// The id and the two throughputs of a residuals row or release (both positive).
ValidationPoint read_validation_point(const Reader& r, const Json& row) {
  ValidationPoint v;
  v.id = r.text(row, "id");
  v.published = r.number(row, "published_tokens_per_s");
  v.simulated = r.number(row, "simulated_tokens_per_s");
  if (!(v.published > 0) || !(v.simulated > 0)) r.fail("published_tokens_per_s", "expected positive throughputs");
  return v;
}

// The optional `releases` of a residuals document (tools/validate.py): AWS's figures for a row's
// job at other SDK releases, each with the job's one simulation.
void read_releases(const Reader& r, const Json& j, ReportData& d) {
  if (!j.contains("releases")) return;
  const Json& rel = j["releases"];
  if (!rel.is_array()) r.fail("releases", "expected a list of releases, found " + rel.dump());
  for (size_t i = 0; i < rel.size(); ++i) {
    const Reader ri{r.where + " releases[" + std::to_string(i) + "]"};
    ValidationPoint v = read_validation_point(ri, rel[i]);
    v.of = ri.text(rel[i], "of");
    v.group = "release";
    v.release = true;
    d.validation.push_back(v);
  }
}

// Adds one result (run or startup, told apart by their keys) to `d`.
void add_result(ReportData& d, const Reader& r, const std::string& text, const std::string& label,
                const std::vector<std::string>& varied = {}) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    std::string m = e.what();
    auto b = m.find("] ");
    r.fail("", "not valid JSON (truncated?): " + (b == std::string::npos ? m : m.substr(b + 2)));
  }
  if (j.is_object() && j.contains("eager") && j.contains("compiled")) {
    StartupPoint p = read_startup(r, j);
    p.label = label.empty() ? p.scenario : label;
    d.startups.push_back(p);
  } else if (j.is_object() && j.value("kind", "") == "runtime-calibration") {
    const Json& rows = r.at(j, "rows");
    if (!rows.is_array()) r.fail("rows", "expected a list of rows, found " + rows.dump());
    for (size_t i = 0; i < rows.size(); ++i) {
      const Reader ri{r.where + " rows[" + std::to_string(i) + "]"};
      ValidationPoint v = read_validation_point(ri, rows[i]);
      v.group = ri.text(rows[i], "group");
      v.source = ri.text(rows[i], "source");
      if (rows[i].contains("loo_simulated_tokens_per_s")) v.loo = ri.number(rows[i], "loo_simulated_tokens_per_s");
      v.duplicate = rows[i].value("duplicate_release", false);
      d.validation.push_back(v);
    }
    read_releases(r, j, d);
  } else if (j.is_object() && j.contains("steady")) {
    RunPoint p = read_run(r, j);
    p.label = label.empty() ? p.scenario + " (" + p.mode + ")" : label;
    p.varied = varied;
    d.runs.push_back(p);
  } else {
    r.fail("",
           "neither a `trnsim run --json` nor a `trnsim startup --json` result (no 'steady', or 'eager' and "
           "'compiled', at the top level), nor a `trnsim calibrate-runtime --residuals` document");
  }
}

// "system.instances=2;parallel.dp=2" -> {"instances=2", "dp=2"}.
std::vector<std::string> short_sets(const std::string& sets) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < sets.size()) {
    size_t semi = sets.find(';', start);
    std::string item = sets.substr(start, semi == std::string::npos ? std::string::npos : semi - start);
    size_t eq = item.find('='), dot = item.rfind('.', eq);
    if (eq != std::string::npos && dot != std::string::npos) item = item.substr(dot + 1);
    out.push_back(item);
    if (semi == std::string::npos) break;
    start = semi + 1;
  }
  return out;
}

void check_readable(const std::string& path, const Location& loc) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw ConfigError(loc, "", "file does not exist");
  if (!std::filesystem::is_regular_file(path, ec)) throw ConfigError(loc, "", "not a regular file");
}

}  // namespace

ReportData load_result_json(const std::string& path) {
  check_readable(path, Location{path, 0, 0});
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (!in.good() && !in.eof()) throw ConfigError(Location{path, 0, 0}, "", "cannot read the file");
  const std::string text = ss.str();
  if (text.rfind("SQLite format 3", 0) == 0)
    throw ConfigError(Location{path, 0, 0}, "", "is an SQLite database: pass sweep databases with --db");
  ReportData d;
  d.source = path;
  add_result(d, Reader{path}, text, "");
  return d;
}

ReportData load_sweep_db(const std::string& path) {
  const Location loc{"--db " + path, 0, 0};
  check_readable(path, loc);
  struct Row {
    std::string id, sweep;
    storage::PointStatus status;
    std::string result, reason;
    std::vector<std::string> items;
  };
  std::vector<Row> rows;
  for (auto& r : storage::read_sweep_rows(path, "--db " + path))
    rows.push_back({r.id, r.sweep, r.status, std::move(r.result), r.reason, short_sets(r.sets)});
  // Labels show what differs between the points of a sweep: settings shared by all are left out.
  std::map<std::string, std::vector<std::string>> common;
  std::map<std::string, int> count;
  for (const auto& r : rows) {
    ++count[r.sweep];
    auto it = common.find(r.sweep);
    if (it == common.end()) {
      common[r.sweep] = r.items;
      continue;
    }
    std::vector<std::string> keep;
    for (const auto& i : it->second)
      if (std::find(r.items.begin(), r.items.end(), i) != r.items.end()) keep.push_back(i);
    it->second = keep;
  }
  ReportData d;
  d.source = path;
  for (const auto& [sweep, items] : common) {
    std::string shared;
    for (const auto& i : items) shared += (shared.empty() ? "" : ", ") + i;
    d.sweeps.push_back({sweep, count[sweep] > 1 ? shared : ""});
  }
  for (const auto& r : rows) {
    std::vector<std::string> varied;
    for (const auto& i : r.items)
      if (count[r.sweep] == 1 || std::find(common[r.sweep].begin(), common[r.sweep].end(), i) == common[r.sweep].end())
        varied.push_back(i);
    std::string label;
    for (const auto& i : varied) label += (label.empty() ? "" : ", ") + i;
    if (label.empty()) label = r.sweep;
    ++d.rows;
    if (r.status == storage::PointStatus::Ok)
      add_result(d, Reader{"--db " + path + ": row '" + r.id + "'"}, r.result, label, varied);
    else
      d.skipped.push_back({label, sim::word_of(r.status), r.reason});
  }
  if (d.rows == 0) throw ConfigError(loc, "", "the sweep database has no rows (run trnsim sweep first)");
  return d;
}

}  // namespace trn::app::report
