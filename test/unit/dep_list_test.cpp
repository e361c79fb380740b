// DepList (models/collectives/collective_plan.h): a transfer's dependencies, two inline and
// more on the heap. It behaves as the std::vector it replaces across the inline/heap border:
// contents, copies, moves, self-assignment and the erase that follows std::unique.
#include <catch2/catch.hpp>

#include <algorithm>
#include <utility>
#include <vector>

#include "models/collectives/collective_plan.h"

using trn::models::DepList;

namespace {
std::vector<int32_t> as_vector(const DepList& d) { return std::vector<int32_t>(d.begin(), d.end()); }
std::vector<int32_t> first_n(int n) {
  std::vector<int32_t> v;
  for (int i = 0; i < n; ++i) v.push_back(10 * i + 1);
  return v;
}
}  // namespace

TEST_CASE("DepList holds what was pushed, inline and on the heap", "[deplist]") {
  for (int n : {0, 1, 2, 3, 4, 5, 17, 100}) {
    DepList d;
    const std::vector<int32_t> want = first_n(n);
    for (int32_t x : want) d.push_back(x);
    CHECK(d.size() == want.size());
    CHECK(d.empty() == want.empty());
    CHECK(as_vector(d) == want);
    for (size_t i = 0; i < want.size(); ++i) CHECK(d[i] == want[i]);
    CHECK(as_vector(DepList(want)) == want);  // from a vector
    d.clear();
    CHECK(d.empty());
    d.push_back(7);  // reusable after clear, whatever its capacity
    CHECK(as_vector(d) == std::vector<int32_t>{7});
  }
  CHECK(as_vector(DepList{3, 1, 2}) == std::vector<int32_t>{3, 1, 2});
}

TEST_CASE("DepList copies are deep and moves leave the source empty", "[deplist]") {
  for (int n : {1, 2, 3, 9}) {
    const std::vector<int32_t> want = first_n(n);
    DepList a(want);
    DepList b(a);  // copy
    b.push_back(-1);
    CHECK(as_vector(a) == want);  // the copy does not share storage
    DepList c(std::move(b));      // move
    CHECK(b.empty());             // NOLINT(bugprone-use-after-move): the moved-from state is specified
    CHECK(c.size() == want.size() + 1);
    b.push_back(5);  // a moved-from list is usable
    CHECK(as_vector(b) == std::vector<int32_t>{5});
    DepList d{42};
    d = a;  // copy-assign over inline contents
    CHECK(as_vector(d) == want);
    DepList e(first_n(20));
    e = std::move(d);  // move-assign over heap contents
    CHECK(as_vector(e) == want);
    CHECK(d.empty());  // NOLINT(bugprone-use-after-move)
    DepList& self = e;
    e = self;  // self-assignment keeps the contents
    CHECK(as_vector(e) == want);
    e = std::move(self);
    CHECK(as_vector(e) == want);
  }
}

TEST_CASE("DepList::erase drops the tail that std::unique leaves, as vector::erase does", "[deplist]") {
  for (int n : {2, 3, 6, 40}) {
    std::vector<int32_t> v;
    for (int i = 0; i < n; ++i) v.push_back(i / 2);  // each value twice
    DepList d(v);
    std::sort(d.begin(), d.end());
    d.erase(std::unique(d.begin(), d.end()), d.end());
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    CHECK(as_vector(d) == v);
  }
  DepList d{1, 2, 3, 4, 5};
  d.erase(d.begin() + 1, d.begin() + 3);  // a middle range: the rest moves down
  CHECK(as_vector(d) == std::vector<int32_t>{1, 4, 5});
}
