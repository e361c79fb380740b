// The sweep database (sweep_store.h).
#include "sim/app/storage/sweep_store.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "sim/base/config_node.h"
#include "sim/base/config_reader.h"

namespace trn::app::storage {

using sim::ConfigError;
using sim::Location;

namespace {

Database open_for_writing(const std::string& path, const std::string& label) {
  try {
    return Database(path, Database::Mode::Create);
  } catch (const SqliteError& e) {
    throw ConfigError(Location{label, 0, 0}, "", "cannot open: " + e.detail());
  }
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The columns of `schema`.points ("main" or an attached database), in table order.
std::vector<std::string> columns_of(Database& db, const std::string& schema) {
  std::vector<std::string> out;
  Statement st = db.prepare("PRAGMA " + schema + ".table_info(points)");
  while (st.step()) out.push_back(st.text(1));
  return out;
}

bool has_column(const std::vector<std::string>& cols, const std::string& name) {
  // SQLite compares column names without case.
  return std::any_of(cols.begin(), cols.end(), [&](const std::string& c) { return lower(c) == lower(name); });
}

// An axis value as SQLite should hold it: an integer or a real when the whole text is one.
void bind_value(Statement& st, int i, const std::string& text) {
  if (!text.empty() && text.find_first_not_of("+-0123456789") == std::string::npos) {
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno == 0 && end == text.c_str() + text.size()) {
      st.bind(i, static_cast<int64_t>(v));
      return;
    }
  }
  if (!text.empty() && text.find_first_not_of("+-0123456789.eE") == std::string::npos) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() + text.size() && std::isfinite(v)) {
      st.bind(i, v);
      return;
    }
  }
  st.bind(i, text);
}

std::string column_list(const std::vector<std::string>& cols) {
  std::string s;
  for (const auto& c : cols) s += (s.empty() ? "" : ", ") + sql_identifier(c);
  return s;
}

// The status column's text as a PointStatus: a word this trnsim does not write (a database
// edited by hand) is an error, as the sweep's counts always took it.
PointStatus status_of(const std::string& text) {
  return sim::enum_of_word<PointStatus>(text).value_or(PointStatus::Error);
}

}  // namespace

const std::vector<std::string>& fixed_columns() {
  static const std::vector<std::string> cols = {"id", "idx", "sweep", "sets", "status", "result", "reason"};
  return cols;
}

SweepStore::SweepStore(const std::string& path, const std::string& label, const std::vector<std::string>& axis_columns)
    : db_(open_for_writing(path, label)) {
  try {
    db_.exec("PRAGMA busy_timeout = 10000");
    db_.exec(
        "CREATE TABLE IF NOT EXISTS points (id TEXT PRIMARY KEY, idx INTEGER, sweep TEXT, sets TEXT, "
        "status TEXT, result TEXT, reason TEXT)");
  } catch (const SqliteError& e) {
    throw ConfigError(Location{label, 0, 0}, "", std::string("cannot use as a sweep database: ") + e.what());
  }
  for (const auto& c : axis_columns)
    if (has_column(fixed_columns(), c))
      throw ConfigError(Location{label, 0, 0}, "", "axis '" + c + "' has the name of a column of the points table");
  add_columns(axis_columns, label);
}

void SweepStore::add_columns(const std::vector<std::string>& names, const std::string& label) {
  std::vector<std::string> have = columns_of(db_, "main");
  try {
    for (const auto& c : names) {
      if (has_column(have, c)) continue;
      db_.exec("ALTER TABLE points ADD COLUMN " + sql_identifier(c));
      have.push_back(c);
    }
  } catch (const SqliteError& e) {
    throw ConfigError(Location{label, 0, 0}, "", std::string("cannot add the axis columns: ") + e.what());
  }
}

bool SweepStore::has(const std::string& id) {
  Statement st = db_.prepare("SELECT 1 FROM points WHERE id = ?");
  st.bind(1, id);
  return st.step();
}

bool SweepStore::get(const std::string& id, SweepRow& row) {
  Statement st = db_.prepare("SELECT id, sweep, sets, status, result, reason, idx FROM points WHERE id = ?");
  st.bind(1, id);
  if (!st.step()) return false;
  row = SweepRow{};
  row.id = st.text(0);
  row.sweep = st.text(1);
  row.sets = st.text(2);
  row.status = status_of(st.text(3));
  row.result = st.text(4);
  row.reason = st.text(5);
  row.idx = std::atoi(st.text(6).c_str());
  return true;
}

void SweepStore::put(const SweepRow& r) {
  std::vector<std::string> cols = fixed_columns();
  for (const auto& [c, v] : r.axes) cols.push_back(c);
  std::string marks;
  for (size_t i = 0; i < cols.size(); ++i) marks += i ? ", ?" : "?";
  Statement st = db_.prepare("INSERT OR REPLACE INTO points (" + column_list(cols) + ") VALUES (" + marks + ")");
  st.bind(1, r.id).bind(2, r.idx).bind(3, r.sweep).bind(4, r.sets).bind(5, sim::word_of(r.status));
  st.bind(6, r.result).bind(7, r.reason);
  for (size_t i = 0; i < r.axes.size(); ++i) bind_value(st, static_cast<int>(8 + i), r.axes[i].second);
  st.step();
}

void SweepStore::merge_from(const std::string& path) {
  db_.exec("ATTACH DATABASE " + sql_quote(path) + " AS shard");
  try {
    const std::vector<std::string> cols = columns_of(db_, "shard");
    add_columns(cols, path);
    const std::string list = column_list(cols);
    db_.exec("INSERT OR IGNORE INTO points (" + list + ") SELECT " + list + " FROM shard.points");
  } catch (...) {
    db_.exec("DETACH DATABASE shard");
    throw;
  }
  db_.exec("DETACH DATABASE shard");
}

void check_sweep_db(const std::string& path) {
  const Location where{path, 0, 0};
  if (access(path.c_str(), R_OK) != 0) throw ConfigError(where, "", "file does not exist or is not readable");
  try {
    Database db(path, Database::Mode::ReadOnly);
    db.prepare("SELECT count(*) FROM points").step();
  } catch (const SqliteError& e) {
    throw ConfigError(where, "", "not a sweep database (" + e.detail() + ")");
  }
}

std::vector<SweepRow> read_sweep_rows(const std::string& path, const std::string& label) {
  const Location loc{label, 0, 0};
  std::optional<Database> db;
  try {
    db.emplace(path, Database::Mode::ReadOnly);
  } catch (const SqliteError& e) {
    throw ConfigError(loc, "", "cannot open as SQLite: " + e.detail());
  }
  std::optional<Statement> st;
  try {
    st.emplace(db->prepare("SELECT id, sweep, sets, status, result, reason FROM points ORDER BY sweep, idx, id"));
  } catch (const SqliteError& e) {
    throw ConfigError(loc, "",
                      "not a trnsim sweep database (" + e.detail() + "; expected the table 'points' of trnsim sweep)");
  }
  std::vector<SweepRow> rows;
  try {
    while (st->step()) {
      SweepRow r;
      r.id = st->text(0);
      r.sweep = st->text(1);
      r.sets = st->text(2);
      r.status = status_of(st->text(3));
      r.result = st->text(4);
      r.reason = st->text(5);
      rows.push_back(r);
    }
  } catch (const SqliteError& e) {
    throw ConfigError(loc, "", "cannot read the rows: " + e.detail());
  }
  return rows;
}

}  // namespace trn::app::storage
