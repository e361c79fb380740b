// The statistics tree (sim/base/stats.h): values are read when asked for, paths find scalars
// through groups, snapshots keep the registration order through a JSON round trip, a name
// registered twice is refused, and the text form has one line per value.
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/base/stats.h"

using trn::sim::StatGroup;

TEST_CASE("a stat is read when asked for, through its path") {
  StatGroup root("root");
  double busy = 1.5;
  StatGroup& core = root.group("rank0", "a core");
  core.group("tensor").add("busy", "s", "busy time", [&busy] { return busy; });
  root.add("events", "events", "events", [] { return 42.0; });
  CHECK(root.value("events") == 42.0);
  CHECK(root.value("rank0.tensor.busy") == 1.5);
  busy = 2.5;  // read when asked, not when registered
  CHECK(root.value("rank0.tensor.busy") == 2.5);
  CHECK(&root.group("rank0") == &core);  // one group per name
  CHECK_THROWS_AS(root.value("rank0.vector.busy"), std::out_of_range);
  CHECK_THROWS_WITH(root.value("rank1"), "no statistic 'rank1'");
  CHECK_THROWS_AS(root.add("events", "events", "again", [] { return 0.0; }), std::logic_error);
}

TEST_CASE("a snapshot keeps the registration order and a vector's non-zero entries") {
  StatGroup root;
  root.add("zeta", "B", "last letter first", [] { return 3.0; });
  root.add("alpha", "B", "first letter second", [] { return 4.0; });
  root.add_vector("carried", "B", "per link", [] {
    return StatGroup::Entries{{"b->a", 7.0}, {"idle", 0.0}, {"a->b", 5.0}};
  });
  const nlohmann::json snap = nlohmann::json::parse(root.snapshot().dump());  // a round trip
  REQUIRE(snap["stats"].size() == 3);
  CHECK(snap["stats"][0]["name"] == "zeta");
  CHECK(snap["stats"][1]["name"] == "alpha");
  CHECK(snap["stats"][2]["entries"] == nlohmann::json::parse(R"([["b->a", 7.0], ["a->b", 5.0]])"));

  const std::string text = trn::sim::stats_text(snap, "sim1.");
  CHECK(text.find("sim1.zeta") < text.find("sim1.alpha"));
  CHECK(text.find("sim1.carried[b->a]") != std::string::npos);
  CHECK(text.find("idle") == std::string::npos);
  CHECK(std::count(text.begin(), text.end(), '\n') == 4);
  CHECK(std::count(text.begin(), text.end(), '#') == 3);  // a vector's description once
}
