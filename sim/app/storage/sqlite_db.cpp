// The RAII layer over sqlite3 (sqlite_db.h).
#include "sim/app/storage/sqlite_db.h"

#include <sqlite3.h>

namespace trn::app::storage {

namespace {
std::string message(sqlite3* db) { return db ? sqlite3_errmsg(db) : "out of memory"; }
}  // namespace

Statement::Statement(sqlite3* db, const std::string& sql) : db_(db) {
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st_, nullptr) != SQLITE_OK) {
    std::string m = message(db_);
    sqlite3_finalize(st_);
    throw SqliteError(m);
  }
}

Statement::Statement(Statement&& o) noexcept : db_(o.db_), st_(o.st_) { o.st_ = nullptr; }

Statement::~Statement() { sqlite3_finalize(st_); }

Statement& Statement::bind(int i, const std::string& value) {
  if (sqlite3_bind_text(st_, i, value.c_str(), -1, SQLITE_TRANSIENT) != SQLITE_OK) throw SqliteError(message(db_));
  return *this;
}

Statement& Statement::bind(int i, int value) {
  if (sqlite3_bind_int(st_, i, value) != SQLITE_OK) throw SqliteError(message(db_));
  return *this;
}

Statement& Statement::bind(int i, int64_t value) {
  if (sqlite3_bind_int64(st_, i, static_cast<sqlite3_int64>(value)) != SQLITE_OK) throw SqliteError(message(db_));
  return *this;
}

Statement& Statement::bind(int i, double value) {
  if (sqlite3_bind_double(st_, i, value) != SQLITE_OK) throw SqliteError(message(db_));
  return *this;
}

Statement& Statement::bind_null(int i) {
  if (sqlite3_bind_null(st_, i) != SQLITE_OK) throw SqliteError(message(db_));
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(st_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  throw SqliteError(message(db_));
}

std::string Statement::text(int i) const {
  const unsigned char* t = sqlite3_column_text(st_, i);
  return t ? reinterpret_cast<const char*>(t) : "";
}

Database::Database(const std::string& path, Mode mode) {
  const int flags = mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    std::string m = message(db_);
    sqlite3_close(db_);
    throw SqliteError(m);
  }
}

Database::~Database() { sqlite3_close(db_); }

void Database::exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string m = err ? err : "?";
    sqlite3_free(err);
    throw SqliteError(m);
  }
}

std::string sql_quote(const std::string& text) {
  std::string q = text;
  for (size_t p = q.find('\''); p != std::string::npos; p = q.find('\'', p + 2)) q.insert(p, "'");
  return "'" + q + "'";
}

std::string sql_identifier(const std::string& name) {
  std::string q = name;
  for (size_t p = q.find('"'); p != std::string::npos; p = q.find('"', p + 2)) q.insert(p, "\"");
  return "\"" + q + "\"";
}

}  // namespace trn::app::storage
