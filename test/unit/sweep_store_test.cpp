// The SQLite layer and the sweep database (sim/app/storage, trn_storage): a row written is the
// row read back, resuming sees finished points, merging keeps existing rows, and files that are
// not sweep databases are clear errors.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "sim/app/storage/sqlite_db.h"
#include "sim/app/storage/sweep_store.h"
#include "test/unit/test_util.h"

using namespace trn::app::storage;

namespace {

// A fresh path in the temporary directory, removed at the end of the test.
struct TempPath {
  std::string path;
  explicit TempPath(const std::string& name) {
    const char* dir = std::getenv("TMPDIR");
    path = std::string(dir && *dir ? dir : "/tmp") + "/trnsim-unit-" + std::to_string(getpid()) + "-" + name;
    std::remove(path.c_str());
  }
  ~TempPath() { std::remove(path.c_str()); }
};

SweepRow row(const std::string& sweep, int idx, const std::string& sets, PointStatus status) {
  SweepRow r;
  r.id = sweep + ":" + sets;
  r.idx = idx;
  r.sweep = sweep;
  r.sets = sets;
  r.status = status;
  r.result = status == PointStatus::Ok ? "{\"steady\": {\"step_time_s\": 1.5}}" : "";
  r.reason = status == PointStatus::Ok ? "" : "trnsim: error: it's too large";
  return r;
}

}  // namespace

TEST_CASE("a sweep row round-trips through the database", "[storage]") {
  TempPath db("roundtrip.sqlite");
  const SweepRow a = row("s", 1, "parallel.tp=8;mode=eager", PointStatus::Ok);
  const SweepRow b = row("s", 0, "parallel.tp=4;mode=eager", PointStatus::Infeasible);
  {
    SweepStore store(db.path, "--db " + db.path);
    CHECK_FALSE(store.has(a.id));
    store.put(a);
    store.put(b);
    CHECK(store.has(a.id));
  }
  auto rows = read_sweep_rows(db.path, "--db " + db.path);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].id == b.id);  // ordered by sweep, then idx
  CHECK(rows[0].status == PointStatus::Infeasible);
  CHECK(rows[0].reason == b.reason);
  CHECK(rows[1].id == a.id);
  CHECK(rows[1].sets == a.sets);
  CHECK(rows[1].result == a.result);
  CHECK(rows[1].reason.empty());
  Database d(db.path, Database::Mode::ReadOnly);  // the status column holds the words
  Statement st = d.prepare("SELECT status FROM points ORDER BY idx");
  REQUIRE(st.step());
  CHECK(st.text(0) == "infeasible");
  REQUIRE(st.step());
  CHECK(st.text(0) == "ok");
  check_sweep_db(db.path);  // no throw
}

TEST_CASE("merge keeps the rows already there and adds the others", "[storage]") {
  TempPath out("merge-out.sqlite"), in("merge-in's.sqlite");  // a quote in the path
  SweepRow kept = row("s", 0, "k=1", PointStatus::Ok);
  {
    SweepStore o(out.path, out.path);
    o.put(kept);
    SweepStore i(in.path, in.path);
    SweepRow other = kept;
    other.result = "{}";
    i.put(other);  // same id: ignored by the merge
    i.put(row("s", 1, "k=2", PointStatus::Error));
  }
  {
    SweepStore o(out.path, out.path);
    o.merge_from(in.path);
  }
  auto rows = read_sweep_rows(out.path, out.path);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].result == kept.result);
  CHECK(rows[1].status == PointStatus::Error);
}

TEST_CASE("axis columns: one per axis key, typed values, added to older tables and by merge", "[storage]") {
  TempPath db("axes.sqlite"), shard("axes-shard.sqlite");
  SweepRow a = row("s", 0, "parallel.tp=4;mode=eager", PointStatus::Ok);
  a.axes = {{"parallel.tp", "4"}, {"mode", "eager"}};
  {
    Database d(db.path, Database::Mode::Create);  // a table of an older trnsim: no axis columns
    d.exec(
        "CREATE TABLE points (id TEXT PRIMARY KEY, idx INTEGER, sweep TEXT, sets TEXT, status TEXT, result TEXT, "
        "reason TEXT)");
  }
  {
    SweepStore store(db.path, db.path, {"parallel.tp", "mode"});
    store.put(a);
    SweepRow back;
    REQUIRE(store.get(a.id, back));
    CHECK(back.result == a.result);
    CHECK(back.idx == 0);
    CHECK_FALSE(store.get("s:nothing", back));
    SweepStore other(shard.path, shard.path, {"parallel.tp", "mode", "system.topology.dims"});
    SweepRow b = row("s", 1, "parallel.tp=8;mode=eager;system.topology.dims=[{size: 4}]", PointStatus::Ok);
    b.axes = {{"parallel.tp", "8"}, {"mode", "eager"}, {"system.topology.dims", "[{size: 4}]"}};
    other.put(b);
  }
  {
    SweepStore store(db.path, db.path);
    store.merge_from(shard.path);
  }
  Database d(db.path, Database::Mode::ReadOnly);
  Statement cols = d.prepare("SELECT group_concat(name, ',') FROM pragma_table_info('points')");
  REQUIRE(cols.step());
  CHECK(cols.text(0) == "id,idx,sweep,sets,status,result,reason,parallel.tp,mode,system.topology.dims");
  Statement st = d.prepare(
      "SELECT typeof(\"parallel.tp\"), \"parallel.tp\", mode, quote(\"system.topology.dims\") FROM points ORDER BY "
      "idx");
  REQUIRE(st.step());
  CHECK(st.text(0) == "integer");
  CHECK(st.text(1) == "4");
  CHECK(st.text(2) == "eager");
  CHECK(st.text(3) == "NULL");
  REQUIRE(st.step());
  CHECK(st.text(1) == "8");
  CHECK(st.text(3) == "'[{size: 4}]'");
  CHECK_THAT(trn::test::error_of([&] { SweepStore s(db.path, "--db x", {"Status"}); }),
             Catch::Contains("--db x: axis 'Status' has the name of a column of the points table"));
}

TEST_CASE("files that are not sweep databases are clear errors", "[storage]") {
  TempPath text("not-a-db.txt"), empty("empty.sqlite");
  std::ofstream(text.path) << "hello\n";
  CHECK_THAT(trn::test::error_of([&] { check_sweep_db(text.path); }), Catch::Contains("not a sweep database"));
  CHECK_THAT(trn::test::error_of([&] { SweepStore s(text.path, "--db x"); }),
             Catch::Contains("--db x: cannot use as a sweep database: sqlite: file is not a database"));
  {
    Database d(empty.path, Database::Mode::Create);
    d.exec("CREATE TABLE other (x TEXT)");
  }
  CHECK_THAT(trn::test::error_of([&] { read_sweep_rows(empty.path, "--db e"); }),
             Catch::Contains("not a trnsim sweep database (no such table: points"));
  CHECK_THAT(trn::test::error_of([&] { check_sweep_db("/nonexistent/x.sqlite"); }),
             Catch::Contains("file does not exist or is not readable"));
}

TEST_CASE("the SQLite layer checks prepare and step", "[storage]") {
  TempPath db("checked.sqlite");
  Database d(db.path, Database::Mode::Create);
  CHECK_THROWS_AS(d.prepare("SELEC nonsense"), SqliteError);
  d.exec("CREATE TABLE t (a TEXT UNIQUE)");
  d.prepare("INSERT INTO t VALUES (?)").bind(1, std::string("x")).step();
  Statement dup = d.prepare("INSERT INTO t VALUES (?)");
  dup.bind(1, std::string("x"));
  CHECK_THROWS_AS(dup.step(), SqliteError);
  CHECK(sql_quote("it's") == "'it''s'");
}
