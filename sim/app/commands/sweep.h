// `trnsim sweep SWEEP.yaml --db results.sqlite [-j N] [--shard K/N]` and
// `trnsim merge OUT.sqlite IN.sqlite...`: options, results and their writers. run_sweep runs
// the product of a sweep's axes as `trnsim run` (or `startup`) child processes, one SQLite
// row per point committed on its own (sim/app/storage/sweep_store.h), with deterministic
// sharding for external schedulers.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "sim/app/storage/sweep_store.h"

namespace trn::app {

/// The command a sweep runs at every point (`command:`): `trnsim run` or `trnsim startup`.
enum class SweepCommand { Run, Startup };
inline const std::vector<std::string>& enum_words(SweepCommand) {
  static const std::vector<std::string> w{"run", "startup"};
  return w;
}

struct SweepOptions {
  std::string file;   // the sweep YAML; with `text`: the name its messages give the document
  std::string text;   // the sweep document itself (YAML, no include:), or empty: read `file`
  std::string db;     // the SQLite database (created or resumed)
  std::string shard;  // "K/N" (1-based) or empty: all
  int jobs = 1;       // worker processes
  std::string exe;    // the trnsim executable the workers run; empty: this process's own
};

/// One point of the summary table printed at the end of a sweep.
struct SweepPointSummary {
  std::vector<std::string> values;  // per axis column, as written in the sweep file ("" when not set)
  storage::PointStatus status = storage::PointStatus::Error;
  std::string detail;                                // infeasible: the kind (oom, invalid-layout, ...); error: "exit N"
  double step_time_s = -1, tokens_per_s = -1;        // steady step (run; compiled mode for startup); -1: none
  double first_eager_s = -1, first_compiled_s = -1;  // first step (startup only); -1: none
};

struct SweepResult {
  std::string name, db;
  SweepCommand command = SweepCommand::Run;
  size_t points = 0, run = 0;  // points of the sweep, points run now
  size_t stale = 0;            // of those run now, points whose stored row had other inputs
  int shard = 1, shards = 1;
  std::vector<std::string> columns;             // the axis columns of the points table, in axis order
  std::vector<SweepPointSummary> table;         // this shard's points, in sweep order (rows from the database)
  size_t done = 0, infeasible = 0, failed = 0;  // statuses of the table's points
};

/// What run_sweep reports as each point finishes.
struct SweepProgress {
  size_t done = 0, total = 0;
  std::string sweep, point, status;  // point: its axis values, e.g. "tp=4 fsdp=16 mode=eager"
  double elapsed_s = 0, eta_s = 0;
};

/// Checks the sweep file (structure, and every axis key and value against the scenario's schema),
/// the options, then runs the points of `o.file` that `o.db` has no current row for: no row, or
/// a row whose inputs_hash or trnsim_version differs from what the point would now be stamped
/// with (stale: an input file was edited, or another trnsim wrote it); `progress` (optional) is
/// called as each point finishes. Throws ConfigError for a bad sweep file, option or database,
/// before the database is created.
SweepResult run_sweep(const SweepOptions& o, const std::function<void(const SweepProgress&)>& progress = {});
/// Column headers of the axis columns: the last part of each key ("tp" for parallel.tp), the
/// whole key where two would read the same.
std::vector<std::string> sweep_column_headers(const std::vector<std::string>& columns);
/// "ok", "infeasible (oom)", "error (exit 3)": a point's status and its detail.
std::string point_status_text(storage::PointStatus status, const std::string& detail);
/// The summary line, the table of points and the counts.
void write_sweep_text(const SweepResult& r, FILE* out);
/// The line run_sweep's callback prints as each point finishes ("[3/8] tp=4 mode=eager: ok  elapsed 12s ...").
void write_sweep_progress(const SweepProgress& p, FILE* out);
nlohmann::ordered_json sweep_json(const SweepResult& r);

struct MergeOptions {
  std::string out;                  // the database to create or extend
  std::vector<std::string> inputs;  // shard databases
};
struct MergeResult {
  std::string out;
  size_t inputs = 0;
};
/// Joins the rows of `o.inputs` into `o.out` (rows already there are kept).
MergeResult run_merge(const MergeOptions& o);
void write_merge_text(const MergeResult& r, FILE* out);
nlohmann::ordered_json merge_json(const MergeResult& r);

}  // namespace trn::app
