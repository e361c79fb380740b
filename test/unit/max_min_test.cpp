// Weighted max-min fairness: closed-form cases and invariants on random instances.
#include <catch2/catch.hpp>

#include <random>

#include "models/fabric/max_min.h"

using namespace trn::models;

TEST_CASE("equal split, bottleneck and weights", "[maxmin]") {
  MaxMinSolver s;
  std::vector<double> rates;
  std::vector<ResourceUse> a = {{0, 1}}, b = {{0, 1}}, c = {{0, 1}, {1, 1}};
  s.solve({100, 10}, {&a, &b, &c}, rates);
  CHECK(rates[2] == Approx(10));  // bottlenecked on resource 1
  CHECK(rates[0] == Approx(45));  // the rest shared by a and b
  CHECK(rates[1] == Approx(45));
  std::vector<ResourceUse> r = {{0, 2}}, p = {{0, 1}};
  s.solve({90}, {&r, &p}, rates);
  CHECK(rates[0] == Approx(30));  // a reduction (weight 2) uses twice the capacity per byte
  CHECK(rates[1] == Approx(30));
}

namespace {
// nf random flows over nr resources: 1 to max_hops distinct resources each, weight 2 with
// probability 1 / weight2_one_in, otherwise 1.
std::vector<std::vector<ResourceUse>> random_flows(std::mt19937& rng, int nr, int nf, int max_hops,
                                                   unsigned weight2_one_in) {
  std::vector<std::vector<ResourceUse>> flows(static_cast<size_t>(nf));
  for (auto& f : flows) {
    const int hops = 1 + static_cast<int>(rng() % static_cast<unsigned>(max_hops));
    for (int h = 0; h < hops; ++h) {
      const int32_t res = static_cast<int32_t>(rng() % static_cast<unsigned>(nr));
      bool dup = false;
      for (auto& u : f) dup = dup || u.resource == res;
      if (!dup) f.push_back({res, (rng() % weight2_one_in) ? 1.0 : 2.0});
    }
  }
  return flows;
}
}  // namespace

TEST_CASE("random instances never oversubscribe and every flow is bottlenecked", "[maxmin][invariant]") {
  std::mt19937 rng(7);
  MaxMinSolver s;
  for (int trial = 0; trial < 200; ++trial) {
    int nr = 1 + static_cast<int>(rng() % 8), nf = 1 + static_cast<int>(rng() % 20);
    std::vector<double> cap(static_cast<size_t>(nr));
    for (auto& x : cap) x = 1 + rng() % 100;
    const auto flows = random_flows(rng, nr, nf, 3, 2);
    std::vector<const std::vector<ResourceUse>*> in;
    for (auto& f : flows) in.push_back(&f);
    std::vector<double> rates;
    s.solve(cap, in, rates);
    std::vector<double> used(cap.size(), 0);
    for (size_t f = 0; f < flows.size(); ++f)
      for (auto& u : flows[f]) used[static_cast<size_t>(u.resource)] += rates[f] * u.weight;
    for (size_t j = 0; j < cap.size(); ++j) CHECK(used[j] <= cap[j] * (1 + 1e-9));
    for (size_t f = 0; f < flows.size(); ++f) {
      CHECK(rates[f] > 0);
      bool saturated = false;
      for (auto& u : flows[f])
        saturated =
            saturated || used[static_cast<size_t>(u.resource)] >= cap[static_cast<size_t>(u.resource)] * (1 - 1e-9);
      CHECK(saturated);
    }
  }
}

namespace {
// The textbook progressive-filling loop (the solver before it became event-driven): raise
// every unfrozen flow by the largest increment before some resource saturates, freeze the
// flows crossing saturated resources, repeat.
std::vector<double> reference_solve(const std::vector<double>& capacity,
                                    const std::vector<std::vector<ResourceUse>>& flows) {
  std::vector<double> rates(flows.size(), 0.0), remaining = capacity, wsum(capacity.size(), 0.0);
  std::vector<char> frozen(flows.size(), 0), sat(capacity.size(), 0);
  size_t active = flows.size();
  for (const auto& f : flows)
    for (const auto& u : f) wsum[static_cast<size_t>(u.resource)] += u.weight;
  while (active > 0) {
    double inc = 1e300;
    for (size_t j = 0; j < capacity.size(); ++j)
      if (!sat[j] && wsum[j] > 1e-12) inc = std::min(inc, remaining[j] / wsum[j]);
    for (size_t f = 0; f < flows.size(); ++f)
      if (!frozen[f]) rates[f] += inc;
    for (size_t j = 0; j < capacity.size(); ++j) {
      if (sat[j]) continue;
      remaining[j] -= inc * wsum[j];
      if (remaining[j] <= capacity[j] * 1e-12) sat[j] = 1;
    }
    for (size_t f = 0; f < flows.size(); ++f) {
      if (frozen[f]) continue;
      bool hit = false;
      for (const auto& u : flows[f]) hit = hit || sat[static_cast<size_t>(u.resource)];
      if (!hit) continue;
      frozen[f] = 1;
      --active;
      for (const auto& u : flows[f]) wsum[static_cast<size_t>(u.resource)] -= u.weight;
    }
  }
  return rates;
}
}  // namespace

TEST_CASE("event-driven solver equals the textbook progressive filling", "[maxmin][crosscheck]") {
  std::mt19937 rng(11);
  MaxMinSolver s;
  for (int trial = 0; trial < 500; ++trial) {
    const int nr = 1 + static_cast<int>(rng() % 40), nf = 1 + static_cast<int>(rng() % 120);
    std::vector<double> cap(static_cast<size_t>(nr));
    for (auto& x : cap) x = (trial % 3 == 0) ? 100.0 : double(1 + rng() % 1000);  // ties on every third trial
    const auto flows = random_flows(rng, nr, nf, 5, 3);
    std::vector<const std::vector<ResourceUse>*> in;
    for (auto& f : flows) in.push_back(&f);
    std::vector<double> rates;
    s.solve(cap, in, rates);
    const std::vector<double> ref = reference_solve(cap, flows);
    for (size_t f = 0; f < flows.size(); ++f) REQUIRE(rates[f] == Approx(ref[f]).epsilon(1e-9));
  }
}

TEST_CASE("classes with a multiplicity solve like their flows one by one", "[maxmin][crosscheck]") {
  // Each class stands for 1 to 6 identical flows. With weights 1 and 2 every sum of weights
  // is exact, so the class solve gives the per-flow solve's rates bit for bit; with a
  // non-integer weight (the trn1 legacy ring's DMA share) to rounding.
  std::mt19937 rng(23);
  MaxMinSolver s;
  for (int trial = 0; trial < 400; ++trial) {
    const int nr = 1 + static_cast<int>(rng() % 30), nc = 1 + static_cast<int>(rng() % 40);
    std::vector<double> cap(static_cast<size_t>(nr));
    for (auto& x : cap) x = (trial % 3 == 0) ? 100.0 : double(1 + rng() % 1000);
    auto classes = random_flows(rng, nr, nc, 4, 3);
    const bool fractional = trial % 4 == 3;
    if (fractional)
      for (auto& c : classes) c.front().weight = 1.0 / 0.3333;
    std::vector<uint32_t> mult;
    std::vector<const std::vector<ResourceUse>*> by_class, by_flow;
    for (auto& c : classes) {
      mult.push_back(1 + static_cast<uint32_t>(rng() % 6));
      by_class.push_back(&c);
    }
    // The flows one by one, the members of the classes interleaved.
    std::vector<size_t> owner;
    for (uint32_t k = 0; k < 6; ++k)
      for (size_t c = 0; c < classes.size(); ++c)
        if (k < mult[c]) {
          by_flow.push_back(&classes[c]);
          owner.push_back(c);
        }
    std::vector<double> rc, rf;
    s.solve(cap, by_class, mult, rc);
    s.solve(cap, by_flow, rf);
    REQUIRE(rc.size() == classes.size());
    for (size_t f = 0; f < by_flow.size(); ++f) {
      if (fractional)
        REQUIRE(rf[f] == Approx(rc[owner[f]]).epsilon(1e-12));
      else
        REQUIRE(rf[f] == rc[owner[f]]);
    }
  }
}
