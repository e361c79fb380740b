// The database of a `trnsim sweep`: one row per point of the sweep's product, committed on its
// own (a killed sweep restarted skips the finished points). Errors about the file are
// ConfigError (exit 2) naming it.
#pragma once

#include <string>
#include <vector>

#include "sim/app/storage/sqlite_db.h"

namespace trn::app::storage {

/// One point of a sweep and its outcome.
struct SweepRow {
  std::string id;      // "SWEEP:SETS": the primary key
  int idx = 0;         // position in the sweep's product
  std::string sweep;   // the sweep's name
  std::string sets;    // "key=value;key=value"
  std::string status;  // ok | infeasible | error
  std::string result;  // the point's result JSON (status ok), else empty
  std::string reason;  // first line of the error (status not ok), else empty
};

/// A sweep database opened for writing: created with its table when missing.
class SweepStore {
 public:
  /// `label` names the path in errors ("--db FILE"): a path that cannot be opened, or a file
  /// that is not an SQLite database, is a ConfigError and creates nothing.
  SweepStore(const std::string& path, const std::string& label);
  /// Whether the point `id` has a row.
  bool has(const std::string& id);
  /// Inserts or replaces the row of `r.id`.
  void put(const SweepRow& r);
  /// Copies the rows of another sweep database whose ids are not here yet.
  void merge_from(const std::string& path);

 private:
  Database db_;
};

/// Throws ConfigError unless `path` is a readable SQLite database with a sweep's points table.
void check_sweep_db(const std::string& path);

/// Every row of the sweep database at `path` (opened read-only), ordered by sweep, idx and id
/// (fields id, sweep, sets, status, result and reason). Errors name `label`.
std::vector<SweepRow> read_sweep_rows(const std::string& path, const std::string& label);

}  // namespace trn::app::storage
