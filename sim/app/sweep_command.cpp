// `trnsim sweep SWEEP.yaml --db results.sqlite [-j N] [--shard K/N]` and
// `trnsim merge OUT.sqlite IN.sqlite...`: run the product of a sweep's axes as `trnsim run`
// (or `startup`) child processes, one SQLite row per point committed on its own (a killed
// sweep restarted skips finished points), with deterministic sharding for external schedulers.
#include <sqlite3.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "sim/app/commands.h"
#include "sim/base/config_loader.h"
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

struct Db {
  sqlite3* db = nullptr;
  /// `label` names the path in errors ("--db FILE"): a path that cannot be opened, or a file
  /// that is not an SQLite database, is a ConfigError and creates nothing.
  Db(const std::string& path, const std::string& label) {
    const sim::Location where{label, 0, 0};
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
      std::string m = sqlite3_errmsg(db);
      sqlite3_close(db);
      throw ConfigError(where, "", "cannot open: " + m);
    }
    try {
      exec("PRAGMA busy_timeout = 10000");
      exec("CREATE TABLE IF NOT EXISTS points (id TEXT PRIMARY KEY, idx INTEGER, sweep TEXT, sets TEXT, "
           "status TEXT, result TEXT, reason TEXT)");
    } catch (const std::runtime_error& e) {
      sqlite3_close(db);
      throw ConfigError(where, "", std::string("cannot use as a sweep database: ") + e.what());
    }
  }
  ~Db() { sqlite3_close(db); }
  void exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string m = err ? err : "?";
      sqlite3_free(err);
      throw std::runtime_error("sqlite: " + m);
    }
  }
  bool has(const std::string& id) {
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "SELECT 1 FROM points WHERE id = ?", -1, &st, nullptr);
    sqlite3_bind_text(st, 1, id.c_str(), -1, SQLITE_TRANSIENT);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
  }
  void put(const std::string& id, int idx, const std::string& sweep, const std::string& sets, const std::string& status,
           const std::string& result, const std::string& reason) {
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO points VALUES (?, ?, ?, ?, ?, ?, ?)", -1, &st, nullptr);
    const std::string* vals[] = {&id, nullptr, &sweep, &sets, &status, &result, &reason};
    for (int i = 0; i < 7; ++i)
      if (i == 1)
        sqlite3_bind_int(st, 2, idx);
      else
        sqlite3_bind_text(st, i + 1, vals[i]->c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) != SQLITE_DONE) throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(db));
    sqlite3_finalize(st);
  }
};

/// Throws ConfigError unless `path` is a readable SQLite database with a sweep's points table.
void check_sweep_db(const std::string& path) {
  const sim::Location where{path, 0, 0};
  if (access(path.c_str(), R_OK) != 0) throw ConfigError(where, "", "file does not exist or is not readable");
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM points", -1, &st, nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_step(st) == SQLITE_ROW ? SQLITE_OK : SQLITE_ERROR;
  std::string why = rc == SQLITE_OK ? "" : (db ? sqlite3_errmsg(db) : "cannot open");
  sqlite3_finalize(st);
  sqlite3_close(db);
  if (rc != SQLITE_OK) throw ConfigError(where, "", "not a sweep database (" + why + ")");
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

Runner add_sweep(CLI::App* app) {
  struct Opts {
    std::string file, db, shard;
    int jobs = 1;
  };
  auto o = std::make_shared<Opts>();
  auto* c = app->add_subcommand("sweep", "Run the product of a sweep's axes, one SQLite row per point (resumable)");
  c->add_option("sweep", o->file, "Sweep YAML (e.g. workloads/sweeps/*.yaml)")->required();
  c->add_option("--db", o->db, "SQLite database for the results (created or resumed)")->required();
  c->add_option("-j,--jobs", o->jobs, "Worker processes (count)")->capture_default_str();
  c->add_option("--shard", o->shard, "Run only share K of N (K/N, 1-based; default: all)");
  return [o]() -> int {
    Sweep s = load_sweep(o->file);
    int k = 1, n = 1;
    if (!o->shard.empty() && (std::sscanf(o->shard.c_str(), "%d/%d", &k, &n) != 2 || n < 1 || k < 1 || k > n))
      throw ConfigError(sim::Location{"--shard", 0, 0}, "", "expected K/N with 1 <= K <= N, got '" + o->shard + "'");
    if (o->jobs < 1 || o->jobs > 256) throw ConfigError(sim::Location{"--jobs", 0, 0}, "", "expected 1 to 256 workers");
    if (o->db.empty()) throw ConfigError(sim::Location{"--db", 0, 0}, "", "expected a file path");
    Db db(o->db, "--db " + o->db);
    auto pts = points(s);
    std::vector<size_t> to_run;
    for (size_t i = 0; i < pts.size(); ++i)
      if (static_cast<int>(i % static_cast<size_t>(n)) == k - 1 && !db.has(s.name + ":" + join(pts[i], ";")))
        to_run.push_back(i);
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) throw std::runtime_error("cannot find the trnsim executable");
    self[len] = 0;
    const char* tmpdir = std::getenv("TMPDIR");
    std::string dir_tpl = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/trnsim-sweep-XXXXXX";
    if (!mkdtemp(dir_tpl.data()))
      throw ConfigError(sim::Location{"TMPDIR", 0, 0}, "", "cannot create a work directory " + dir_tpl);
    std::string dir = dir_tpl;
    std::map<pid_t, size_t> running;
    size_t next = 0, done = 0;
    auto t0 = std::chrono::steady_clock::now();
    auto spawn = [&](size_t i) {
      std::string base = dir + "/" + std::to_string(i);
      std::vector<std::string> args = {self, s.command, s.scenario, "--json", base + ".json"};
      for (const auto& a : pts[i]) {
        args.push_back("--set");
        args.push_back(a);
      }
      const pid_t parent = getpid();
      pid_t pid = fork();
      if (pid == 0) {
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
        execv(self, argv.data());
        _exit(127);
      }
      running[pid] = i;
    };
    while (next < to_run.size() || !running.empty()) {
      while (next < to_run.size() && static_cast<int>(running.size()) < o->jobs) spawn(to_run[next++]);
      int status = 0;
      pid_t pid = wait(&status);
      if (pid <= 0) break;
      size_t i = running[pid];
      running.erase(pid);
      std::string base = dir + "/" + std::to_string(i);
      int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      std::string err = slurp(base + ".err"), reason;
      std::string status_s = rc == 0 ? "ok" : rc == 2 ? "infeasible" : "error";
      if (rc != 0) {
        reason = err;
        while (!reason.empty() && reason.back() == '\n') reason.pop_back();
        auto nl = reason.find('\n');
        if (nl != std::string::npos) reason = reason.substr(0, nl);
      }
      db.put(s.name + ":" + join(pts[i], ";"), static_cast<int>(i), s.name, join(pts[i], ";"), status_s,
             rc == 0 ? slurp(base + ".json") : "", reason);
      std::remove((base + ".json").c_str());
      std::remove((base + ".err").c_str());
      ++done;
      double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      double eta = done ? el / done * (to_run.size() - done) : 0;
      std::fprintf(stderr, "\r[%zu/%zu] %s %-10s  elapsed %.0fs  ETA %.0fs   ", done, to_run.size(), s.name.c_str(),
                   status_s.c_str(), el, eta);
    }
    rmdir(dir.c_str());
    std::fprintf(stderr, "\n");
    std::printf("%s: %zu points, %zu run now (shard %d/%d), results in %s\n", s.name.c_str(), pts.size(), to_run.size(), k,
                n, o->db.c_str());
    return 0;
  };
}

Runner add_merge(CLI::App* app) {
  auto out = std::make_shared<std::string>();
  auto ins = std::make_shared<std::vector<std::string>>();
  auto* c = app->add_subcommand("merge", "Join sweep databases (e.g. shards) into one");
  c->add_option("out", *out, "Database to create or extend")->required();
  c->add_option("inputs", *ins, "Shard databases")->required();
  return [out, ins]() -> int {
    for (const auto& in : *ins) check_sweep_db(in);  // before the output database is created
    Db db(*out, *out);
    for (const auto& in : *ins) {
      std::string q = in;
      for (size_t p = q.find('\''); p != std::string::npos; p = q.find('\'', p + 2)) q.insert(p, "'");
      db.exec("ATTACH DATABASE '" + q + "' AS shard");
      db.exec("INSERT OR IGNORE INTO points SELECT * FROM shard.points");
      db.exec("DETACH DATABASE shard");
    }
    std::printf("merged %zu databases into %s\n", ins->size(), out->c_str());
    return 0;
  };
}

}  // namespace trn::app
