// `trnsim sweep` and `trnsim merge` (sweep.h): the sweep file and its checks, its product of
// points, the worker processes (sim/base/fork_pool.h), the database rows
// (sim/app/storage/sweep_store.h) and the summary.
#include "sim/app/commands/sweep.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <system_error>
#include <utility>

#include "sim/app/commands/documents.h"
#include "sim/app/commands/run.h"
#include "sim/app/commands/startup.h"
#include "sim/app/storage/sweep_store.h"
#include "sim/base/config_loader.h"
#include "sim/base/config_reader.h"
#include "sim/base/fork_pool.h"
#include "sim/base/output_file.h"
#include "sim/base/paths.h"
#include "sim/base/provenance.h"
#include "workloads/scenario/scenario_spec.h"
#include "sim/base/shared_helpers.h"

namespace trn::app {
namespace {

using sim::join;

using sim::ConfigError;
using sim::ConfigNode;
using Json = nlohmann::ordered_json;

// One key=value of a point, where the sweep file writes it.
struct Assignment {
  std::string key, value;
  sim::Location key_loc, value_loc;
};
using Point = std::vector<Assignment>;

struct Sweep {
  std::string name, scenario;
  SweepCommand command = SweepCommand::Run;
  sim::Location scenario_loc;
  std::vector<std::vector<Point>> axes;  // axis -> value -> its assignments
  std::vector<std::string> columns;      // every axis key, in axis order: the points table's axis columns
};

std::string scalar_of(const ConfigNode& n, const std::string& path) {
  if (!n.is_scalar()) throw ConfigError(n.loc, path, "expected a single value, found " + n.kind_name());
  return n.scalar;
}

[[noreturn]] void unknown_key(const ConfigNode::Entry& e, const std::string& path,
                              const std::vector<std::string>& known) {
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  const std::string near = sim::nearest_word(e.key, known);
  throw ConfigError(e.key_loc, path,
                    "unknown key '" + e.key + "' (" + (near.empty() ? "" : "did you mean '" + near + "'? ") +
                        "expected " + list + ")");
}

// One axis: {key: K, values: [v...]} or {values: [{K: V, ...}, ...]}.
std::vector<Point> load_axis(const ConfigNode& ax, size_t a) {
  const std::string p = "axes[" + std::to_string(a) + "]";
  if (!ax.is_map()) throw ConfigError(ax.loc, p, "expected {key: K, values: [...]} or {values: [{K: V, ...}]}");
  const ConfigNode* key = ax.find("key");
  const ConfigNode* vals = ax.find("values");
  for (const auto& k : ax.map)
    if (k.key != "key" && k.key != "values") unknown_key(k, p + "." + k.key, {"key", "values"});
  if (!vals || !vals->is_list() || vals->list.empty())
    throw ConfigError(ax.loc, p + ".values", "expected a non-empty list of values");
  std::vector<Point> values;
  for (const auto& v : vals->list) {
    Point point;
    if (v.is_map()) {
      if (v.map.empty()) throw ConfigError(v.loc, p + ".values", "expected at least one KEY: VALUE");
      for (const auto& kv : v.map)
        point.push_back({kv.key, scalar_of(kv.value, p + ".values"), kv.key_loc, kv.value.loc});
    } else {
      if (!key) throw ConfigError(v.loc, p + ".key", "a scalar value needs the axis 'key'");
      point.push_back({scalar_of(*key, p + ".key"), scalar_of(v, p + ".values"), key->loc, v.loc});
    }
    values.push_back(point);
  }
  return values;
}

// The sweep file, or the document given as text (`name` in its messages; a relative scenario
// path is then relative to the working directory).
Sweep load_sweep(const std::string& path, const std::string& text) {
  ConfigNode root = text.empty() ? sim::load_config_file(path) : sim::parse_yaml_text(text, path);
  Sweep s;
  for (const auto& e : root.map) {
    if (e.key == "name")
      s.name = scalar_of(e.value, "name");
    else if (e.key == "command") {
      const std::string word = scalar_of(e.value, "command");
      const std::optional<SweepCommand> command = sim::enum_of_word<SweepCommand>(word);
      if (!command) throw ConfigError(e.value.loc, "command", "expected run or startup, found '" + word + "'");
      s.command = *command;
    } else if (e.key == "scenario") {
      s.scenario = sim::path_in_file(scalar_of(e.value, "scenario"), e.value.loc, "scenario");
      s.scenario_loc = e.value.loc;
    } else if (e.key == "axes") {
      if (!e.value.is_list()) throw ConfigError(e.value.loc, "axes", "expected a list of axes");
      for (size_t a = 0; a < e.value.list.size(); ++a) s.axes.push_back(load_axis(e.value.list[a], a));
    } else {
      unknown_key(e, e.key, {"name", "command", "scenario", "axes"});
    }
  }
  if (s.name.empty()) throw ConfigError(root.loc, "name", "missing key 'name'");
  if (s.scenario.empty()) throw ConfigError(root.loc, "scenario", "missing key 'scenario'");
  if (s.axes.empty()) throw ConfigError(root.loc, "axes", "missing key 'axes'");
  // An unknown scenario would make every point fail: report it here, before the database exists.
  sim::resolve_named_config(s.scenario, "workloads/scenarios", "scenario", s.scenario_loc, "scenario");
  for (const auto& axis : s.axes)
    for (const auto& value : axis)
      for (const auto& a : value)
        if (std::find(s.columns.begin(), s.columns.end(), a.key) == s.columns.end()) s.columns.push_back(a.key);
  return s;
}

void relocate(ConfigNode& n, const sim::Location& loc) {
  n.loc = loc;
  for (auto& e : n.map) {
    e.key_loc = loc;
    relocate(e.value, loc);
  }
  for (auto& item : n.list) relocate(item, loc);
}

// The assignment as the worker's `--set KEY=VALUE` reads it, placed in the sweep file: errors
// about the key point at the key, errors about the value at the value.
sim::SetAssignment to_set(const Assignment& a) {
  sim::SetAssignment set;
  try {
    set = sim::parse_set(a.key + "=" + a.value, 0);
  } catch (const ConfigError& e) {
    throw ConfigError(a.value_loc, a.key, std::string("not a value --set can take: ") + e.what());
  }
  set.loc = a.key_loc;
  relocate(set.value, a.value_loc);
  return set;
}

// Every axis key and value against the scenario's schema (keys, types, units, ranges, names),
// one axis value at a time on the base scenario: a misspelt key or a bad value stops the sweep
// here, before the database exists. Layouts that do not fit are left to the points (infeasible).
void check_axes(const Sweep& s) {
  for (const auto& axis : s.axes)
    for (const auto& value : axis) {
      std::vector<sim::SetAssignment> sets;
      for (const auto& a : value) sets.push_back(to_set(a));
      workloads::check_scenario_sets(s.scenario, sets);
    }
}

std::vector<Point> points(const Sweep& s) {
  std::vector<Point> out = {{}};
  for (const auto& axis : s.axes) {
    std::vector<Point> next;
    for (const auto& p : out)
      for (const auto& v : axis) {
        auto q = p;
        q.insert(q.end(), v.begin(), v.end());
        next.push_back(q);
      }
    out = next;
  }
  return out;
}

std::vector<std::string> sets_of(const Point& p) {
  std::vector<std::string> out;
  for (const auto& a : p) out.push_back(a.key + "=" + a.value);
  return out;
}

std::string point_id(const Sweep& s, const Point& p) { return s.name + ":" + join(sets_of(p), ";"); }

// The point's value of each axis column ("" when it does not set that key; the last wins).
std::vector<std::string> column_values(const Sweep& s, const Point& p) {
  std::vector<std::string> out(s.columns.size());
  for (const auto& a : p)
    out[static_cast<size_t>(std::find(s.columns.begin(), s.columns.end(), a.key) - s.columns.begin())] = a.value;
  return out;
}

// "tp=4 fsdp=16 mode=eager": the point by its axis values, for the progress lines.
std::string point_label(const Sweep& s, const Point& p) {
  const std::vector<std::string> names = sweep_column_headers(s.columns), values = column_values(s, p);
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    if (!values[i].empty()) out += (out.empty() ? "" : " ") + names[i] + "=" + values[i];
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::pair<int, int> parse_shard(const std::string& shard) {
  int k = 1, n = 1;
  if (!shard.empty() && (std::sscanf(shard.c_str(), "%d/%d", &k, &n) != 2 || n < 1 || k < 1 || k > n))
    throw ConfigError(sim::Location{"--shard", 0, 0}, "", "expected K/N with 1 <= K <= N, got '" + shard + "'");
  return {k, n};
}

std::string self_exe() {
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) throw std::runtime_error("cannot find the trnsim executable");
  self[len] = 0;
  return self;
}

// The sweep's work directory (the workers' logs, <point>.err): removed with what is left in it
// when the sweep ends, returns or throws, and by the SIGINT / SIGTERM handler.
struct WorkDir {
  std::string path;
  WorkDir(std::string p, size_t points) : path(std::move(p)) {
    sim::register_temp_dir(path, static_cast<int>(points), ".err");
  }
  ~WorkDir() {
    sim::unregister_temp_dir();
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
};

std::string make_workdir() {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string dir_tpl = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/trnsim-sweep-XXXXXX";
  if (!mkdtemp(dir_tpl.data()))
    throw ConfigError(sim::Location{"TMPDIR", 0, 0}, "", "cannot create a work directory " + dir_tpl);
  return dir_tpl;
}

// In the forked worker: runs `trnsim COMMAND SCENARIO --result-fd FD --set ...` with its stderr
// in BASE.err; the new program sends its result, or why the point could not run, sealed
// (sim::ChildResult) to the worker's pipe (FD, sim::child_result_fd). Never returns. The worker dies with the sweep
// (sim/base/fork_pool: PR_SET_PDEATHSIG survives the exec; its SIGTERM handler removes its
// partial output).
[[noreturn]] void exec_point(const std::string& self, const Sweep& s, const std::vector<std::string>& sets,
                             const std::string& base) {
  std::vector<std::string> args = {self, sim::word_of(s.command), s.scenario, "--result-fd",
                                   std::to_string(sim::child_result_fd())};
  for (const auto& a : sets) {
    args.push_back("--set");
    args.push_back(a);
  }
  FILE* err = std::freopen((base + ".err").c_str(), "w", stderr);
  FILE* out = std::freopen("/dev/null", "w", stdout);
  (void)err;
  (void)out;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(self.c_str(), argv.data());
  _exit(127);
}

// The first line of the worker's error output that is not a warning (trnsim: warning: ...).
std::string first_line(const std::string& path) {
  std::istringstream in(slurp(path));
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("trnsim: warning: ", 0) != 0) return line;
  return "";
}

// The inputs_hash the point's worker stamps on its result (run_inputs_hash, startup_inputs_hash:
// the resolved scenario with the point's sets, model file, chip, system and calibrations inline).
// A point whose scenario does not load hashes its command, sets and error, which is all its row
// holds and changes when its inputs do.
std::string point_hash(const Sweep& s, const Point& p) {
  const std::vector<std::string> sets = sets_of(p);
  try {
    if (s.command == SweepCommand::Startup) {
      StartupOptions o;
      o.scenario = s.scenario;
      o.sets = sets;
      return startup_inputs_hash(o);
    }
    RunOptions o;
    o.scenario = s.scenario;
    o.sets = sets;
    return run_inputs_hash(o);
  } catch (const ConfigError& e) {
    std::string inputs = "command: " + sim::word_of(s.command) + "\nscenario: " + s.scenario + "\nsets:\n";
    for (const auto& a : sets) inputs += "- " + a + "\n";
    return inputs_hash(inputs + "error: " + e.what() + "\n");
  }
}

// Whether a stored row is the point's result for these inputs: same inputs_hash and same trnsim
// version. A row of another build, of edited inputs (a model file, a chip, a system, a
// calibration) or of an older trnsim without a stamp is stale.
bool current(const storage::SweepRow& row, const std::string& hash) {
  const Json j = Json::parse(row.result, nullptr, false);
  return j.is_object() && j.value("inputs_hash", "") == hash && j.value("trnsim_version", "") == sim::trnsim_version();
}

// The document a row without a result holds (docs/schema/sweep-row.schema.json): what went
// wrong under `key` ("infeasible" or "error"), stamped with the point's inputs hash.
std::string reason_doc(const std::string& hash, const char* key, const Json& what) {
  return stamped(Document::SweepRow, hash, Json{{key, what}}).dump(2) + "\n";
}

// Why an infeasible point could not run: the kind and message the worker sent, else (a worker
// that failed before its command ran) its error line.
Json infeasible_reason(const sim::ChildResult& sent, const std::string& line) {
  if (!sent.kind.empty()) return {{"kind", sent.kind}, {"message", sent.message}};
  const std::string prefix = "trnsim: error: ";
  return {{"kind", "invalid-config"}, {"message", line.rfind(prefix, 0) == 0 ? line.substr(prefix.size()) : line}};
}

// The row of a finished point: its status from the worker's exit code (0 ok, 2 infeasible, else
// error), JSON in the result column on every row: the document the worker sent, or the reason.
storage::SweepRow point_row(const Sweep& s, const Point& p, size_t i, const sim::ChildOutcome& c,
                            const std::string& base, const std::string& hash) {
  const std::vector<std::string> sets = sets_of(p);
  storage::SweepRow row;
  row.id = point_id(s, p);
  row.idx = static_cast<int>(i);
  row.sweep = s.name;
  row.sets = join(sets, ";");
  const std::vector<std::string> values = column_values(s, p);
  for (size_t col = 0; col < s.columns.size(); ++col)
    if (!values[col].empty()) row.axes.emplace_back(s.columns[col], values[col]);
  const sim::ChildResult sent = sim::ChildResult::open(c);
  const int rc = c.exit_code();
  if (rc == 0) {
    if (sent.ok() && sent.value.is_string() && Json::accept(sent.value.get<std::string>())) {
      row.result = sent.value.get<std::string>();
      row.status = storage::PointStatus::Ok;
      return row;
    }
    row.reason = "the worker exited 0 but sent no valid result JSON";
  } else {
    row.reason = first_line(base + ".err");
  }
  row.status = rc == 2 ? storage::PointStatus::Infeasible : storage::PointStatus::Error;
  row.result = rc == 2 ? reason_doc(hash, "infeasible", infeasible_reason(sent, row.reason))
                       : reason_doc(hash, "error", {{"exit_code", rc}, {"message", row.reason}});
  return row;
}

double number_at(const Json& j, const std::initializer_list<const char*>& path) {
  const Json* n = &j;
  for (const char* k : path) {
    if (!n->is_object() || !n->contains(k)) return -1;
    n = &(*n)[k];
  }
  return n->is_number() ? n->get<double>() : -1;
}

// One line of the summary table from the point's row.
SweepPointSummary summarize(const Sweep& s, const Point& p, const storage::SweepRow& row) {
  SweepPointSummary out;
  out.values = column_values(s, p);
  out.status = row.status;
  Json j = Json::parse(row.result, nullptr, false);  // a row of an older trnsim may hold ''
  using storage::PointStatus;
  if (row.status == PointStatus::Ok && s.command == SweepCommand::Run) {
    out.step_time_s = number_at(j, {"steady", "step_time_s"});
    out.tokens_per_s = number_at(j, {"steady", "tokens_per_s"});
  } else if (row.status == PointStatus::Ok) {
    out.step_time_s = number_at(j, {"compiled", "steady", "step_time_s"});
    out.tokens_per_s = number_at(j, {"compiled", "steady", "tokens_per_s"});
    out.first_eager_s = number_at(j, {"eager", "first_step", "total_s"});
    out.first_compiled_s = number_at(j, {"compiled", "first_step", "total_s"});
  } else if (row.status == PointStatus::Infeasible && j.is_object() && j.contains("infeasible")) {
    out.detail = j["infeasible"].value("kind", "");
  } else if (j.is_object() && j.contains("error")) {
    out.detail = "exit " + std::to_string(j["error"].value("exit_code", 0));
  }
  return out;
}

// The table and counts of this shard's points, read back from the database (points finished by
// an earlier run included).
void fill_summary(const Sweep& s, const std::vector<Point>& pts, int k, int n, storage::SweepStore& db,
                  SweepResult& r) {
  r.columns = s.columns;
  for (size_t i = 0; i < pts.size(); ++i) {
    storage::SweepRow row;
    if (static_cast<int>(i % static_cast<size_t>(n)) != k - 1 || !db.get(point_id(s, pts[i]), row)) continue;
    r.table.push_back(summarize(s, pts[i], row));
    const storage::PointStatus st = r.table.back().status;
    ++(st == storage::PointStatus::Ok ? r.done : st == storage::PointStatus::Infeasible ? r.infeasible : r.failed);
  }
}

}  // namespace

SweepResult run_sweep(const SweepOptions& o, const std::function<void(const SweepProgress&)>& progress) {
  Sweep s = load_sweep(o.file, o.text);
  const auto [k, n] = parse_shard(o.shard);
  if (o.jobs < 1 || o.jobs > 256) throw ConfigError(sim::Location{"--jobs", 0, 0}, "", "expected 1 to 256 workers");
  if (o.db.empty()) throw ConfigError(sim::Location{"--db", 0, 0}, "", "expected a file path");
  check_axes(s);  // before the database exists
  storage::SweepStore db(o.db, "--db " + o.db, s.columns);
  auto pts = points(s);
  std::vector<size_t> to_run;
  std::vector<std::string> hashes(pts.size());
  size_t stale = 0;
  for (size_t i = 0; i < pts.size(); ++i) {
    if (static_cast<int>(i % static_cast<size_t>(n)) != k - 1) continue;
    hashes[i] = point_hash(s, pts[i]);
    storage::SweepRow row;
    const bool stored = db.get(point_id(s, pts[i]), row);
    if (stored && current(row, hashes[i])) continue;
    stale += stored;
    to_run.push_back(i);
  }
  const std::string self = o.exe.empty() ? self_exe() : o.exe;
  const WorkDir work(make_workdir(), pts.size());
  const std::string& dir = work.path;
  size_t done = 0;
  auto t0 = std::chrono::steady_clock::now();
  auto base_of = [&](size_t i) { return dir + "/" + std::to_string(i); };
  auto body = [&](size_t j) -> std::string { exec_point(self, s, sets_of(pts[to_run[j]]), base_of(to_run[j])); };
  auto finish = [&](size_t j, sim::ChildOutcome&& c) {
    const size_t i = to_run[j];
    storage::SweepRow row = point_row(s, pts[i], i, c, base_of(i), hashes[i]);
    db.put(row);
    std::remove((base_of(i) + ".err").c_str());
    ++done;
    double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double eta = done ? el / done * (to_run.size() - done) : 0;
    const SweepPointSummary sum = summarize(s, pts[i], row);
    if (progress)
      progress(SweepProgress{done, to_run.size(), s.name, point_label(s, pts[i]),
                             point_status_text(sum.status, sum.detail), el, eta});
  };
  sim::run_forked(to_run.size(), body, o.jobs, finish, "sweep point");
  SweepResult r{s.name, o.db, s.command, pts.size(), to_run.size(), stale, k, n, {}, {}, 0, 0, 0};
  fill_summary(s, pts, k, n, db, r);
  return r;
}

}  // namespace trn::app
