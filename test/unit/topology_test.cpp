// Topology builders and routing: the trn2 torus adjacency published by neuron-ls (S25),
// the UltraServer's Z rings, switched Trn3 fabrics and EFA between instances.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "models/collectives/collective_bound.h"
#include "models/topology/topology.h"

using namespace trn::models;

namespace {
std::set<int> neighbours(const Topology& t, int chip) {
  std::set<int> n;
  for (const auto& l : t.links())
    if (l.from == chip && l.kind == LinkKind::NeuronLink) n.insert(l.to);
  return n;
}
}  // namespace

TEST_CASE("trn2.48xlarge is the 4x4 torus of neuron-ls --topology", "[topology]") {
  Topology t = build_topology(load_system("trn2.48xlarge", {}, 0));
  CHECK(t.num_chips() == 16);
  // S25: device d = 4r + c links to 4((r+-1) mod 4) + c and 4r + ((c+-1) mod 4); 0 <-> {12, 3, 4, 1}.
  CHECK(neighbours(t, 0) == std::set<int>{1, 3, 4, 12});
  for (int d = 0; d < 16; ++d) {
    int r = d / 4, c = d % 4;
    std::set<int> want = {4 * ((r + 1) % 4) + c, 4 * ((r + 3) % 4) + c, 4 * r + (c + 1) % 4, 4 * r + (c + 3) % 4};
    CHECK(neighbours(t, d) == want);
  }
  CHECK(t.route(0, 0).empty());
  CHECK(t.route(0, 1).size() == 1);
  CHECK(t.route(0, 10).size() == 4);  // (0,0) -> (2,2): two hops in each dimension
  CHECK(t.route_latency(0, 10) == Approx(4 * 1.5e-6));
}

TEST_CASE("ring order visits every chip through neighbours", "[topology]") {
  for (const char* name : {"trn2.48xlarge", "trn2-ultraserver", "trn1.32xlarge"}) {
    Topology t = build_topology(load_system(name, {}, 0));
    const auto& ring = t.ring_order_local();
    REQUIRE(static_cast<int>(ring.size()) == t.chips_per_instance());
    CHECK(std::set<int>(ring.begin(), ring.end()).size() == ring.size());
    for (size_t i = 0; i < ring.size(); ++i) CHECK(t.route(ring[i], ring[(i + 1) % ring.size()]).size() == 1);
  }
}

TEST_CASE("UltraServer adds Z rings at the inter-instance bandwidth", "[topology]") {
  Topology t = build_topology(load_system("trn2-ultraserver", {}, 0));
  CHECK(t.num_chips() == 64);
  CHECK(neighbours(t, 0).size() == 6);
  const auto& r = t.route(0, 16);  // same (x, y), next layer
  REQUIRE(r.size() == 1);
  CHECK(t.links()[static_cast<size_t>(r[0])].bandwidth == Approx(128e9));
}

TEST_CASE("switched Trn3 fabrics route through switches", "[topology]") {
  Topology g1 = build_topology(load_system("trn3-gen1-ultraserver", {}, 0));
  CHECK(g1.route(0, 63).size() == 2);  // chip -> switch -> chip
  Topology g2 = build_topology(load_system("trn3-gen2-ultraserver", {}, 0));
  CHECK(g2.num_chips() == 144);
  CHECK(g2.route(0, 1).size() == 2);    // same server: L1 switch
  CHECK(g2.route(0, 70).size() == 2);   // same rack: L2 switch
  CHECK(g2.route(0, 72).size() == 1);   // same position, other rack: direct link
  CHECK(g2.route(0, 100).size() == 3);  // other rack: direct link then its rack switch
}

TEST_CASE("instances join through EFA and only inter-instance traffic uses it", "[topology]") {
  Topology t = build_topology(load_system("trn2.48xlarge", {}, 2));
  CHECK(t.num_chips() == 32);
  for (int a = 0; a < 16; ++a)
    for (int b = 0; b < 16; ++b)
      for (int32_t l : t.route(a, b)) CHECK(t.links()[static_cast<size_t>(l)].kind == LinkKind::NeuronLink);
  const auto& r = t.route(3, 16 + 3);
  REQUIRE(r.size() == 4);  // chip -> NIC -> switch -> NIC -> chip
  for (int32_t l : r) CHECK(t.links()[static_cast<size_t>(l)].kind == LinkKind::Efa);
  CHECK(t.route_latency(3, 19) == Approx(15e-6));
  // trn1: 8 NICs shared by 16 chips.
  Topology t1 = build_topology(load_system("trn1.32xlarge", {}, 2));
  CHECK(t1.route(0, 16).size() == 4);
}

TEST_CASE("torus hypercube labels: chips one bit apart are one hop apart", "[topology][rdh]") {
  for (const char* name : {"trn1.32xlarge", "trn2.48xlarge", "trn2-ultraserver"}) {
    Topology t = build_topology(load_system(name, {}, 0));
    const int n = t.chips_per_instance();
    std::set<int> labels;
    for (int c = 0; c < n; ++c) labels.insert(t.cube_label(c));
    REQUIRE(static_cast<int>(labels.size()) == n);  // a labelling of every chip
    CHECK(*labels.begin() == 0);
    CHECK(*labels.rbegin() == n - 1);
    std::vector<int> chip_of(static_cast<size_t>(n));
    for (int c = 0; c < n; ++c) chip_of[static_cast<size_t>(t.cube_label(c))] = c;
    for (int l = 0; l < n; ++l)
      for (int bit = 1; bit < n; bit <<= 1)
        CHECK(t.route(chip_of[static_cast<size_t>(l)], chip_of[static_cast<size_t>(l ^ bit)]).size() == 1);
  }
}

TEST_CASE("rdh on a trn1 node runs S22's two stages: inside each chip, then between torus neighbours",
          "[topology][rdh]") {
  Topology t = build_topology(load_system("trn1.32xlarge", {}, 0));
  const int ranks_per_chip = 2, n = 32;
  std::vector<int> ranks(n);
  for (int r = 0; r < n; ++r) ranks[static_cast<size_t>(r)] = r;
  const double S = 32.0 * 1024 * 1024;
  const Algorithm rdh = Algorithm::Rdh;
  for (CollectiveOp op : {CollectiveOp::ReduceScatter, CollectiveOp::AllGather, CollectiveOp::AllReduce}) {
    GroupPlan gp = plan_group_collective(t, ranks_per_chip, Algorithm::Ring, op, S, ranks, &rdh);
    std::vector<double> sent(n, 0);
    int intra = 0, hops = 0;
    for (size_t i = 0; i < gp.plan.transfers.size(); ++i) {
      const auto& x = gp.plan.transfers[i];
      for (int32_t d : x.deps) CHECK(static_cast<size_t>(d) < i);
      if (x.barrier) continue;
      sent[static_cast<size_t>(x.src)] += x.bytes;
      const int a = gp.ranks[static_cast<size_t>(x.src)] / ranks_per_chip;
      const int b = gp.ranks[static_cast<size_t>(x.dst)] / ranks_per_chip;
      const size_t route = t.route(a, b).size();
      CHECK(route <= 1);  // the same chip, or a neighbour: never two hops
      intra += route == 0;
      hops += route == 1;
    }
    const bool ar = op == CollectiveOp::AllReduce;
    for (double s : sent) CHECK(s == Approx((ar ? 2.0 : 1.0) * (n - 1) / n * S));
    CHECK(gp.plan.steps == (ar ? 2 + 2 * 4 : 1 + 4));  // one stage on chip + log2(16) between chips
    CHECK(intra == (ar ? 2 : 1) * n);                  // each rank to its chip's other core
    CHECK(hops == (ar ? 2 : 1) * 4 * n);
  }
}

TEST_CASE("an older release's all-reduce: the ring at the legacy DMA share, other ops unchanged", "[topology][sdk]") {
  Topology t = build_topology(load_system("trn1.32xlarge", {}, 2));
  const double S = 16.0 * 1024 * 1024;
  auto ranks = [](int first, int n) {
    std::vector<int> v(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = first + i;
    return v;
  };
  PlanOptions o;
  o.legacy_ring_dma_share = 0.25;
  auto plan = [&](const char* sdk, CollectiveOp op, const std::vector<int>& g) {
    REQUIRE(parse_sdk_release(sdk, &o.sdk));
    return plan_group_collective(t, 2, Algorithm::Ring, op, S, g, nullptr, o).plan;
  };
  CollectivePlan ar = plan("2.6", CollectiveOp::AllReduce, ranks(0, 8));
  CHECK(ar.algorithm == "ring (sdk 2.6)");
  CHECK(ar.dma_share == 0.25);
  CHECK(ar.steps == 2 * (8 - 1));  // reduce-scatter then all-gather around the ring
  CollectivePlan now = plan("", CollectiveOp::AllReduce, ranks(0, 8));
  CHECK(now.algorithm == "rdh");
  CHECK(now.dma_share == 1.0);
  CollectivePlan rs = plan("2.6", CollectiveOp::ReduceScatter, ranks(0, 8));
  CHECK(rs.algorithm == "rdh");
  CHECK(rs.dma_share == 1.0);
  CHECK(plan("2.12", CollectiveOp::AllReduce, ranks(0, 16)).algorithm == "rdh");
  CHECK(plan("2.12", CollectiveOp::AllReduce, ranks(0, 8)).algorithm == "ring (sdk 2.12)");
  // Across two instances, 32 ranks in each: hierarchical, its intra-instance phases the ring.
  CollectivePlan h = plan("2.6", CollectiveOp::AllReduce, ranks(0, 64));
  CHECK(h.algorithm.find("intra-rs:ring") != std::string::npos);
  CHECK(h.algorithm.find("(sdk 2.6)") != std::string::npos);
  CHECK(h.dma_share == 0.25);
  CHECK(plan("2.11", CollectiveOp::AllReduce, ranks(0, 64)).dma_share == 1.0);
}

TEST_CASE("local automorphisms of the switched Trn3 Gen2 fabric", "[topology][symmetry]") {
  // 2 racks of 18 servers x 4 chips; chip x of one rack has a direct link to chip x of the other.
  // With one UltraServer and with two: the routes between the racks (and to the other
  // UltraServer) map too, as every chip takes the direct link first (the next test case).
  for (int instances : {0, 2}) {
    INFO(instances << " instances");
    Topology t = build_topology(load_system("trn3-gen2-ultraserver", {}, instances));
    const int n = t.chips_per_instance();
    std::vector<int> id(static_cast<size_t>(n)), xor7(id.size()), rev(id.size()), xor8(id.size()), shift4(id.size());
    for (int c = 0; c < n; ++c) {
      id[static_cast<size_t>(c)] = c;
      xor7[static_cast<size_t>(c)] = c ^ 7;          // inside blocks of two servers
      rev[static_cast<size_t>(c)] = n - 1 - c;       // the racks swapped, each reversed
      xor8[static_cast<size_t>(c)] = c ^ 8;          // chips 64-71 (rack 0) <-> 72-79 (rack 1)
      shift4[static_cast<size_t>(c)] = (c + 4) % n;  // crosses the racks' boundary
    }
    std::vector<int32_t> same = t.local_automorphism(id);
    REQUIRE(same.size() == static_cast<size_t>(std::count_if(t.links().begin(), t.links().end(),
                                                             [](const Link& l) { return l.instance == 0; })));
    for (size_t k = 0; k < same.size(); ++k) CHECK(same[k] == static_cast<int32_t>(k));
    CHECK_FALSE(t.local_automorphism(xor7).empty());
    CHECK_FALSE(t.local_automorphism(rev).empty());
    CHECK(t.local_automorphism(xor8).empty());
    CHECK(t.local_automorphism(shift4).empty());
    CHECK(t.local_automorphism({0, 1}).empty());  // not a permutation of an instance's chips
  }
}

TEST_CASE("the trn2 UltraServer torus: the ring's quarter turn is an automorphism on the ring's routes",
          "[topology][symmetry]") {
  // The snake through the 4 x 4 x 4 torus (x fastest) runs layer z = 0 forwards, z = 1 backwards,
  // and so on: (x, y, z) -> (x, 3 - y, z + 1) turns it by 16 chips, in its own direction.
  Topology t = build_topology(load_system("trn2-ultraserver", {}, 2));
  const int n = t.chips_per_instance();
  REQUIRE(n == 64);
  auto chip = [](int x, int y, int z) { return (x + 4) % 4 + 4 * ((y + 4) % 4) + 16 * ((z + 4) % 4); };
  std::vector<int> quarter(64), swap01(64);
  for (int c = 0; c < 64; ++c) {
    quarter[static_cast<size_t>(c)] = chip(c % 4, 3 - (c / 4) % 4, c / 16 + 1);
    swap01[static_cast<size_t>(c)] = c < 2 ? 1 - c : c;
  }
  const auto& ring = t.ring_order_local();
  std::vector<int> pos(64);
  for (int i = 0; i < 64; ++i) pos[static_cast<size_t>(ring[static_cast<size_t>(i)])] = i;
  for (int i = 0; i < 64; ++i)
    CHECK(pos[static_cast<size_t>(quarter[static_cast<size_t>(ring[static_cast<size_t>(i)])])] == (i + 16) % 64);
  // The routes of a ring (each way) and from each chip to its image in instance 1 (over EFA).
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < 64; ++i) {
    const int a = ring[static_cast<size_t>(i)], b = ring[static_cast<size_t>((i + 1) % 64)];
    pairs.emplace_back(a, b);
    pairs.emplace_back(b, a);
    pairs.emplace_back(a, a + n);
  }
  const std::vector<int32_t> img = t.local_automorphism(quarter, &pairs);
  REQUIRE_FALSE(img.empty());
  // Each link of instance 0 goes to the link between the images of its ends.
  for (size_t k = 0; k < img.size(); ++k) {
    const Link& a = t.links()[static_cast<size_t>(t.instance_link(0, static_cast<int32_t>(k)))];
    const Link& b = t.links()[static_cast<size_t>(t.instance_link(0, img[k]))];
    if (a.from < n && a.to < n) {
      CHECK(b.from == quarter[static_cast<size_t>(a.from)]);
      CHECK(b.to == quarter[static_cast<size_t>(a.to)]);
    }
  }
  CHECK(t.local_automorphism(swap01, &pairs).empty());  // chips 0 and 1 have different neighbours
}

TEST_CASE("Trn3 Gen2: a route to the other rack takes the direct link first, from every chip", "[topology][routing]") {
  // Two ways tie at three links, "rack switch, then the direct link" and "direct link, then the
  // other rack's switch"; Dijkstra alone breaks the tie by the order it pops vertices, which
  // differs from chip to chip (and then no relabelling of chips maps the routes).
  Topology t = build_topology(load_system("trn3-gen2-ultraserver", {}, 0));
  const int rack = 72;
  for (int a = 0; a < 2 * rack; ++a)
    for (int b = 0; b < 2 * rack; ++b) {
      if (a / rack == b / rack || b % rack == a % rack) continue;
      const std::vector<int32_t>& r = t.route(a, b);
      INFO(a << " -> " << b);
      REQUIRE(r.size() == 3);
      CHECK(t.links()[static_cast<size_t>(r[0])].kind == LinkKind::NeuronLink);
      CHECK(t.links()[static_cast<size_t>(r[0])].to == (a + rack) % (2 * rack));
      CHECK(t.links()[static_cast<size_t>(r[2])].kind == LinkKind::Switch);
    }
}

TEST_CASE("routes found per instance are the routes over the whole fabric", "[topology][routing]") {
  // Every shipped system at three instances: from every chip of instances 0 and 2 to every chip.
  for (const char* name :
       {"trn1.32xlarge", "trn2.48xlarge", "trn2-ultraserver", "trn3-gen1-ultraserver", "trn3-gen2-ultraserver"}) {
    INFO(name);
    Topology t = build_topology(load_system(name, {}, 3));
    REQUIRE(t.routes_by_instance());
    const int per = t.chips_per_instance();
    size_t differ = 0, routes = 0;
    for (int a = 0; a < t.num_chips(); a += (a + 1 == per ? per + 1 : 1))
      for (int b = 0; b < t.num_chips(); ++b, ++routes) differ += t.route(a, b) != t.route_whole_fabric(a, b);
    CHECK(routes > 0);
    CHECK(differ == 0);
  }
  // One instance: routed over the whole (single) fabric.
  CHECK_FALSE(build_topology(load_system("trn2.48xlarge", {}, 1)).routes_by_instance());
}
