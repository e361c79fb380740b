// The one child-result envelope (sim/base/fork_pool.h): a value or an error with its status and
// kind survives seal / open; a child that writes its envelope to child_result_fd() and exits
// with its CLI status (as the sweep's exec'd workers do) opens as that error; a child that dies
// or exits non-zero after a value opens as an internal error saying how it ended.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <string>
#include <vector>

#include "sim/base/fork_pool.h"

using trn::sim::ChildOutcome;
using trn::sim::ChildResult;

namespace {

// Runs `body` in one forked child and returns its outcome.
ChildOutcome in_child(const std::function<std::string(size_t)>& body) {
  ChildOutcome out;
  trn::sim::run_forked(
      1, body, 1, [&](size_t, ChildOutcome&& c) { out = std::move(c); }, "test child");
  return out;
}

}  // namespace

TEST_CASE("a sealed value and a sealed error open as they were sent") {
  ChildOutcome c;
  c.output = ChildResult::of(nlohmann::json{{"step", 4.25}}).seal();
  const ChildResult v = ChildResult::open(c);
  REQUIRE(v.ok());
  CHECK(v.value["step"].get<double>() == 4.25);

  c.output = ChildResult::error(2, "does not fit in HBM", "36 GiB needed", "oom").seal();
  const ChildResult e = ChildResult::open(c);
  CHECK_FALSE(e.ok());
  CHECK(e.status == 2);
  CHECK(e.kind == "oom");
  CHECK(e.message == "does not fit in HBM");
  CHECK(e.detail == "36 GiB needed");
}

TEST_CASE("a child writes its envelope to child_result_fd and exits with its status") {
  CHECK(trn::sim::child_result_fd() == -1);  // not a child of run_forked
  const ChildOutcome c = in_child([](size_t) -> std::string {
    ChildResult::error(2, "tp 3 does not divide 64 heads", "", "invalid-layout").send(trn::sim::child_result_fd());
    _exit(2);
  });
  CHECK(c.exit_code() == 2);
  const ChildResult r = ChildResult::open(c);
  CHECK(r.status == 2);
  CHECK(r.kind == "invalid-layout");
  CHECK(r.message == "tp 3 does not divide 64 heads");
}

TEST_CASE("a child that sends a value and then fails, or sends nothing, is an internal error") {
  const ChildResult late = ChildResult::open(in_child([](size_t) -> std::string {
    ChildResult::of("{}").send(trn::sim::child_result_fd());
    _exit(3);
  }));
  CHECK(late.status == 3);
  CHECK(late.message == "the simulation process exited with status 3 and no result");

  const ChildResult none = ChildResult::open(in_child([](size_t) -> std::string { _exit(1); }));
  CHECK(none.status == 3);
  CHECK(none.message == "the simulation process exited with status 1 and no result");
}
