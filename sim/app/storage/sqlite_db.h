// A small RAII layer over the SQLite C API: a connection and prepared statements that close
// themselves, and every prepare, bind and step checked (failures throw SqliteError).
// Used by the sweep database (sweep_store.h) and the report data (report/report_data.cpp).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace trn::app::storage {

/// An SQLite failure. what() is "sqlite: DETAIL"; detail() is SQLite's own message.
class SqliteError : public std::runtime_error {
 public:
  explicit SqliteError(const std::string& detail) : std::runtime_error("sqlite: " + detail), detail_(detail) {}
  const std::string& detail() const { return detail_; }

 private:
  std::string detail_;
};

/// One prepared statement; finalized when it goes out of scope.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql);  // throws SqliteError when the SQL does not prepare
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement(Statement&& o) noexcept;
  Statement& operator=(Statement&&) = delete;

  /// Binds parameter `i` (1-based).
  Statement& bind(int i, const std::string& value);
  Statement& bind(int i, int value);
  Statement& bind(int i, int64_t value);
  Statement& bind(int i, double value);
  /// Binds SQL NULL.
  Statement& bind_null(int i);
  /// Runs one step: true when a row is ready, false when the statement is done.
  bool step();
  /// Column `i` (0-based) of the current row as text ("" for NULL).
  std::string text(int i) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* st_ = nullptr;
};

/// One connection; closed when it goes out of scope.
class Database {
 public:
  enum class Mode { ReadOnly, Create };  // Create: read-write, created when missing
  /// Throws SqliteError when the file cannot be opened.
  Database(const std::string& path, Mode mode);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  /// Runs SQL without results (one or more statements).
  void exec(const std::string& sql);
  Statement prepare(const std::string& sql) { return Statement(db_, sql); }

 private:
  sqlite3* db_ = nullptr;
};

/// `text` as an SQL string literal ('it''s').
std::string sql_quote(const std::string& text);
/// `name` as an SQL identifier ("parallel.tp", "a""b").
std::string sql_identifier(const std::string& name);

}  // namespace trn::app::storage
