// The sweep database (sweep_store.h).
#include "sim/app/storage/sweep_store.h"

#include <unistd.h>

#include <optional>

#include "sim/base/config_node.h"

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

}  // namespace

SweepStore::SweepStore(const std::string& path, const std::string& label) : db_(open_for_writing(path, label)) {
  try {
    db_.exec("PRAGMA busy_timeout = 10000");
    db_.exec("CREATE TABLE IF NOT EXISTS points (id TEXT PRIMARY KEY, idx INTEGER, sweep TEXT, sets TEXT, "
             "status TEXT, result TEXT, reason TEXT)");
  } catch (const SqliteError& e) {
    throw ConfigError(Location{label, 0, 0}, "", std::string("cannot use as a sweep database: ") + e.what());
  }
}

bool SweepStore::has(const std::string& id) {
  Statement st = db_.prepare("SELECT 1 FROM points WHERE id = ?");
  st.bind(1, id);
  return st.step();
}

void SweepStore::put(const SweepRow& r) {
  Statement st = db_.prepare("INSERT OR REPLACE INTO points VALUES (?, ?, ?, ?, ?, ?, ?)");
  st.bind(1, r.id).bind(2, r.idx).bind(3, r.sweep).bind(4, r.sets).bind(5, r.status).bind(6, r.result).bind(7, r.reason);
  st.step();
}

void SweepStore::merge_from(const std::string& path) {
  db_.exec("ATTACH DATABASE " + sql_quote(path) + " AS shard");
  db_.exec("INSERT OR IGNORE INTO points SELECT * FROM shard.points");
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
    throw ConfigError(loc, "", "not a trnsim sweep database (" + e.detail() +
                                   "; expected the table 'points' of trnsim sweep)");
  }
  std::vector<SweepRow> rows;
  try {
    while (st->step()) {
      SweepRow r;
      r.id = st->text(0);
      r.sweep = st->text(1);
      r.sets = st->text(2);
      r.status = st->text(3);
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
