// `trnsim sweep` and `trnsim merge` (sweep.h): the sweep file, its product of points, the
// worker processes (sim/base/fork_pool.h) and the database rows (sim/app/storage/sweep_store.h).
#include "sim/app/commands/sweep.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "sim/app/storage/sweep_store.h"
#include "sim/base/config_loader.h"
#include "sim/base/fork_pool.h"
#include "sim/base/paths.h"

namespace trn::app {
namespace {

using sim::ConfigError;
using sim::ConfigNode;

struct Sweep {
  std::string name, command = "run", scenario;
  sim::Location scenario_loc;
  std::vector<std::vector<std::vector<std::string>>> axes;  // axis -> value -> sets
};

std::string scalar_of(const ConfigNode& n, const std::string& path) {
  if (!n.is_scalar()) throw ConfigError(n.loc, path, "expected a single value, found " + n.kind_name());
  return n.scalar;
}

Sweep load_sweep(const std::string& path) {
  ConfigNode root = sim::load_config_file(path);
  Sweep s;
  for (const auto& e : root.map) {
    if (e.key == "name") s.name = scalar_of(e.value, "name");
    else if (e.key == "command") {
      s.command = scalar_of(e.value, "command");
      if (s.command != "run" && s.command != "startup")
        throw ConfigError(e.value.loc, "command", "expected run or startup, found '" + s.command + "'");
    } else if (e.key == "scenario") {
      s.scenario = scalar_of(e.value, "scenario");
      s.scenario_loc = e.value.loc;
    }
    else if (e.key == "axes") {
      if (!e.value.is_list()) throw ConfigError(e.value.loc, "axes", "expected a list of axes");
      for (size_t a = 0; a < e.value.list.size(); ++a) {
        const ConfigNode& ax = e.value.list[a];
        std::string p = "axes[" + std::to_string(a) + "]";
        if (!ax.is_map()) throw ConfigError(ax.loc, p, "expected {key: K, values: [...]} or {values: [{K: V, ...}]}");
        const ConfigNode* key = ax.find("key");
        const ConfigNode* vals = ax.find("values");
        for (const auto& k : ax.map)
          if (k.key != "key" && k.key != "values")
            throw ConfigError(k.key_loc, p + "." + k.key, "unknown key '" + k.key + "' (expected key, values)");
        if (!vals || !vals->is_list() || vals->list.empty())
          throw ConfigError(ax.loc, p + ".values", "expected a non-empty list of values");
        std::vector<std::vector<std::string>> values;
        for (const auto& v : vals->list) {
          std::vector<std::string> sets;
          if (v.is_map()) {
            for (const auto& kv : v.map) sets.push_back(kv.key + "=" + scalar_of(kv.value, p + ".values"));
          } else {
            if (!key) throw ConfigError(v.loc, p + ".key", "a scalar value needs the axis 'key'");
            sets.push_back(scalar_of(*key, p + ".key") + "=" + scalar_of(v, p + ".values"));
          }
          values.push_back(sets);
        }
        s.axes.push_back(values);
      }
    } else {
      throw ConfigError(e.key_loc, e.key, "unknown key '" + e.key + "' (expected name, command, scenario, axes)");
    }
  }
  if (s.name.empty()) throw ConfigError(root.loc, "name", "missing key 'name'");
  if (s.scenario.empty()) throw ConfigError(root.loc, "scenario", "missing key 'scenario'");
  if (s.axes.empty()) throw ConfigError(root.loc, "axes", "missing key 'axes'");
  // An unknown scenario would make every point fail: report it here, before the database exists.
  sim::resolve_named_config(s.scenario, "workloads/scenarios", "scenario", s.scenario_loc, "scenario");
  return s;
}

std::vector<std::vector<std::string>> points(const Sweep& s) {
  std::vector<std::vector<std::string>> out = {{}};
  for (const auto& axis : s.axes) {
    std::vector<std::vector<std::string>> next;
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

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
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

std::string make_workdir() {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string dir_tpl = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/trnsim-sweep-XXXXXX";
  if (!mkdtemp(dir_tpl.data()))
    throw ConfigError(sim::Location{"TMPDIR", 0, 0}, "", "cannot create a work directory " + dir_tpl);
  return dir_tpl;
}

// In the forked worker: runs `trnsim COMMAND SCENARIO --json BASE.json --set ...` with its
// stderr in BASE.err. Never returns.
[[noreturn]] void exec_point(const std::string& self, const Sweep& s, const std::vector<std::string>& sets,
                             const std::string& base, pid_t parent) {
  std::vector<std::string> args = {self, s.command, s.scenario, "--json", base + ".json"};
  for (const auto& a : sets) {
    args.push_back("--set");
    args.push_back(a);
  }
  // A worker must not outlive the sweep: when the parent dies (killed at any moment),
  // the kernel sends SIGTERM, whose handler removes the worker's partial output.
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(1);
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

// The row of a finished point: its status from the worker's exit code, its result JSON or the
// first line of its error output.
storage::SweepRow point_row(const Sweep& s, const std::vector<std::string>& sets, size_t i, int rc,
                            const std::string& base) {
  storage::SweepRow row;
  row.id = s.name + ":" + join(sets, ";");
  row.idx = static_cast<int>(i);
  row.sweep = s.name;
  row.sets = join(sets, ";");
  row.status = rc == 0 ? "ok" : rc == 2 ? "infeasible" : "error";
  if (rc != 0) {
    std::string reason = slurp(base + ".err");
    while (!reason.empty() && reason.back() == '\n') reason.pop_back();
    auto nl = reason.find('\n');
    if (nl != std::string::npos) reason = reason.substr(0, nl);
    row.reason = reason;
  }
  row.result = rc == 0 ? slurp(base + ".json") : "";
  return row;
}

}  // namespace

SweepResult run_sweep(const SweepOptions& o, const std::function<void(const SweepProgress&)>& progress) {
  Sweep s = load_sweep(o.file);
  const auto [k, n] = parse_shard(o.shard);
  if (o.jobs < 1 || o.jobs > 256) throw ConfigError(sim::Location{"--jobs", 0, 0}, "", "expected 1 to 256 workers");
  if (o.db.empty()) throw ConfigError(sim::Location{"--db", 0, 0}, "", "expected a file path");
  storage::SweepStore db(o.db, "--db " + o.db);
  auto pts = points(s);
  std::vector<size_t> to_run;
  for (size_t i = 0; i < pts.size(); ++i)
    if (static_cast<int>(i % static_cast<size_t>(n)) == k - 1 && !db.has(s.name + ":" + join(pts[i], ";")))
      to_run.push_back(i);
  const std::string self = o.exe.empty() ? self_exe() : o.exe;
  const std::string dir = make_workdir();
  const pid_t parent = getpid();
  size_t done = 0;
  auto t0 = std::chrono::steady_clock::now();
  auto base_of = [&](size_t i) { return dir + "/" + std::to_string(i); };
  auto body = [&](size_t j) -> std::string { exec_point(self, s, pts[to_run[j]], base_of(to_run[j]), parent); };
  auto finish = [&](size_t j, sim::ChildOutcome&& c) {
    const size_t i = to_run[j];
    storage::SweepRow row = point_row(s, pts[i], i, c.exit_code(), base_of(i));
    db.put(row);
    std::remove((base_of(i) + ".json").c_str());
    std::remove((base_of(i) + ".err").c_str());
    ++done;
    double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double eta = done ? el / done * (to_run.size() - done) : 0;
    if (progress) progress(SweepProgress{done, to_run.size(), s.name, row.status, el, eta});
  };
  sim::run_forked(to_run.size(), body, o.jobs, finish, "sweep point");
  rmdir(dir.c_str());
  return SweepResult{s.name, o.db, pts.size(), to_run.size(), k, n};
}

void write_sweep_progress(const SweepProgress& p, FILE* out) {
  std::fprintf(out, "\r[%zu/%zu] %s %-10s  elapsed %.0fs  ETA %.0fs   ", p.done, p.total, p.sweep.c_str(),
               p.status.c_str(), p.elapsed_s, p.eta_s);
}

void write_sweep_text(const SweepResult& r, FILE* out) {
  std::fprintf(out, "%s: %zu points, %zu run now (shard %d/%d), results in %s\n", r.name.c_str(), r.points, r.run,
               r.shard, r.shards, r.db.c_str());
}

nlohmann::ordered_json sweep_json(const SweepResult& r) {
  return {{"sweep", r.name}, {"points", r.points}, {"run", r.run}, {"shard", r.shard}, {"shards", r.shards}, {"db", r.db}};
}

MergeResult run_merge(const MergeOptions& o) {
  for (const auto& in : o.inputs) storage::check_sweep_db(in);  // before the output database is created
  storage::SweepStore db(o.out, o.out);
  for (const auto& in : o.inputs) db.merge_from(in);
  return MergeResult{o.out, o.inputs.size()};
}

void write_merge_text(const MergeResult& r, FILE* out) {
  std::fprintf(out, "merged %zu databases into %s\n", r.inputs, r.out.c_str());
}

nlohmann::ordered_json merge_json(const MergeResult& r) { return {{"merged", r.inputs}, {"out", r.out}}; }

}  // namespace trn::app
