// SlotHeap (hw/fabric/slot_heap.h), FlowNetwork's finish-time queue: under random inserts, key
// updates and removals it agrees with an ordered set of (key, slot) at every step: the same
// minimum (ties by slot), the same membership, and for_each_at_most visits exactly the entries
// with key <= limit.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "hw/fabric/slot_heap.h"

using trn::hw::SlotHeap;

namespace {
using Reference = std::set<std::pair<double, uint32_t>>;  // (key, slot)

void check_same(const SlotHeap& h, const Reference& ref, const std::map<uint32_t, double>& key_of) {
  REQUIRE(h.size() == ref.size());
  REQUIRE(h.empty() == ref.empty());
  if (!ref.empty()) {
    CHECK(h.top().key == ref.begin()->first);
    CHECK(h.top().slot == ref.begin()->second);
  }
  for (uint32_t s = 0; s < 70; ++s) CHECK(h.contains(s) == (key_of.count(s) == 1));
}
}  // namespace

TEST_CASE("SlotHeap agrees with an ordered set under random set, update and erase", "[slotheap]") {
  std::mt19937 rng(29);
  std::uniform_int_distribution<uint32_t> slot(0, 63);
  std::uniform_int_distribution<int> key(0, 40), what(0, 9);  // few distinct keys: many ties
  SlotHeap h;
  Reference ref;
  std::map<uint32_t, double> key_of;
  for (int step = 0; step < 20000; ++step) {
    const uint32_t s = slot(rng);
    const int w = what(rng);
    if (w < 6) {  // insert, or move to a new key
      const double k = key(rng) * 0.5;
      if (key_of.count(s)) ref.erase({key_of[s], s});
      key_of[s] = k;
      ref.insert({k, s});
      h.set(s, k);
    } else if (w < 9) {  // remove (absent slots included)
      if (key_of.count(s)) ref.erase({key_of[s], s});
      key_of.erase(s);
      h.erase(s);
    } else {  // pop the minimum, as FlowNetwork does
      if (ref.empty()) continue;
      const uint32_t top = h.top().slot;
      CHECK(top == ref.begin()->second);
      key_of.erase(top);
      ref.erase(ref.begin());
      h.erase(top);
    }
    check_same(h, ref, key_of);
    if (step % 50 == 0) {
      const double limit = key(rng) * 0.5;
      Reference seen;
      h.for_each_at_most(limit, [&](const SlotHeap::Node& n) { CHECK(seen.insert({n.key, n.slot}).second); });
      Reference want(ref.begin(), ref.upper_bound({limit, SlotHeap::kAbsent}));
      CHECK(seen == want);
    }
  }
}

TEST_CASE("SlotHeap pops in (key, slot) order and erases the last entry cleanly", "[slotheap]") {
  SlotHeap h;
  CHECK(h.empty());
  h.for_each_at_most(1e9, [](const SlotHeap::Node&) { FAIL("an empty heap has no entries"); });
  const std::vector<std::pair<uint32_t, double>> in = {{5, 2.0}, {3, 1.0}, {9, 1.0}, {0, 3.0}, {7, 0.5}};
  for (const auto& [s, k] : in) h.set(s, k);
  h.set(0, 0.25);  // decrease: moves up
  h.set(7, 4.0);   // increase: moves down
  std::vector<uint32_t> order;
  while (!h.empty()) {
    order.push_back(h.top().slot);
    h.erase(h.top().slot);
  }
  CHECK(order == std::vector<uint32_t>{0, 3, 9, 5, 7});  // 0.25, 1.0 (slot 3 before 9), 2.0, 4.0
  h.set(100, 1.0);                                       // a slot far beyond the others grows the index
  CHECK(h.contains(100));
  h.erase(100);
  CHECK(!h.contains(100));
  CHECK(h.empty());
}
