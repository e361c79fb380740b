// The database of a `trnsim sweep`: one row per point of the sweep's product, committed on its
// own (a killed sweep restarted skips the finished points). The table is
//   points(id, idx, sweep, sets, status, result, reason, AXIS...)
// with one column per axis key after the fixed ones, in axis order (docs/sweeps.md). Errors
// about the file are ConfigError (exit 2) naming it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/app/storage/sqlite_db.h"

namespace trn::app::storage {

/// The outcome of a point: a result (ok), a configuration that cannot run (infeasible, e.g. a
/// layout that does not divide or does not fit) or a failure (error). The status column holds
/// these words; rows are converted when written and read.
enum class PointStatus { Ok, Infeasible, Error };
inline const std::vector<std::string>& enum_words(PointStatus) {
  static const std::vector<std::string> w{"ok", "infeasible", "error"};
  return w;
}

/// One point of a sweep and its outcome.
struct SweepRow {
  std::string id;     // "SWEEP:SETS": the primary key
  int idx = 0;        // position in the sweep's product
  std::string sweep;  // the sweep's name
  std::string sets;   // "key=value;key=value"
  PointStatus status = PointStatus::Error;
  std::string
      result;  // JSON on every row: the point's result (ok) or why it has none (docs/schema/sweep-row.schema.json)
  std::string reason;  // first line of the error (status not ok), else empty
  /// (axis column, value as written in the sweep file) for the axis keys this point sets;
  /// stored as an integer or a real when the text is one, else as text (NULL when not set).
  std::vector<std::pair<std::string, std::string>> axes;
};

/// The fixed columns of the points table, in order.
const std::vector<std::string>& fixed_columns();

/// A sweep database opened for writing: created with its table when missing.
class SweepStore {
 public:
  /// `label` names the path in errors ("--db FILE"): a path that cannot be opened, or a file
  /// that is not an SQLite database, is a ConfigError and creates nothing. `axis_columns`
  /// are added to the table (in order) when it does not have them yet.
  SweepStore(const std::string& path, const std::string& label, const std::vector<std::string>& axis_columns = {});
  /// Whether the point `id` has a row.
  bool has(const std::string& id);
  /// The row of `id` (fields as read_sweep_rows fills them); false when there is none.
  bool get(const std::string& id, SweepRow& row);
  /// Inserts or replaces the row of `r.id`; its axis columns must exist.
  void put(const SweepRow& r);
  /// Copies the rows of another sweep database whose ids are not here yet, with every column
  /// (axis columns missing here are added first).
  void merge_from(const std::string& path);

 private:
  void add_columns(const std::vector<std::string>& names, const std::string& label);
  Database db_;
};

/// Throws ConfigError unless `path` is a readable SQLite database with a sweep's points table.
void check_sweep_db(const std::string& path);

/// Every row of the sweep database at `path` (opened read-only), ordered by sweep, idx and id
/// (fields id, sweep, sets, status, result and reason). Errors name `label`.
std::vector<SweepRow> read_sweep_rows(const std::string& path, const std::string& label);

}  // namespace trn::app::storage
