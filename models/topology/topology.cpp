// Topology graph, builders and Dijkstra routing.
#include "models/topology/topology.h"

#include <algorithm>
#include <array>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <limits>
#include <map>
#include <stdexcept>

namespace trn::models {
namespace {

constexpr double kEfaRouteCost = 100.0;  // never route intra-instance traffic over EFA

// Where two shortest paths tie, Dijkstra's predecessors follow the order in which it pops
// vertices, which a relabelling of chips need not preserve. Between tied paths whose last links
// differ in kind, the tree takes the last link of the lowest rank here: a switch's before an
// EFA link before a direct chip-to-chip link. On Trn3 Gen2, of "rack switch, then the direct
// link to the other rack" and "direct link, then the other rack's switch", every chip takes
// the second, so that the local symmetry (Topology::local_automorphism) holds across the racks.
int kind_rank(LinkKind k) { return k == LinkKind::Switch ? 0 : (k == LinkKind::Efa ? 1 : 2); }

// The tree link into each of n vertices from one Dijkstra run (pred, dist) over the links
// link_of(0..m-1), whose ends in vertex numbers are `ends`: the least-index link of minimal
// weight from pred[v], unless a tight link into v (dist[u] + cost == dist[v]) of a better
// kind exists (kind_rank); then the least-index tight link of the best kind. One pass over
// the links in index order, not a scan of out-edges per vertex, which is quadratic through a
// switch that reaches every NIC.
template <class LinkOf, class Ends>
std::vector<int32_t> tree_links(size_t n, size_t m, const std::vector<Link>& links, LinkOf link_of, Ends ends,
                                const std::vector<size_t>& pred, const std::vector<double>& dist) {
  std::vector<int32_t> pe(n, -1), best(n, -1);
  auto tight = [&](size_t u, size_t v, const Link& k) {
    return pred[v] != v && dist[u] < std::numeric_limits<double>::max() && dist[u] + k.route_cost <= dist[v] + 1e-12;
  };
  for (size_t i = 0; i < m; ++i) {
    const int32_t l = link_of(i);
    const Link& k = links[static_cast<size_t>(l)];
    const auto [u, v] = ends(k);
    if (!tight(u, v, k)) continue;
    if (pe[v] < 0 && pred[v] == u) pe[v] = l;
    int32_t& b = best[v];
    if (b < 0 || kind_rank(k.kind) < kind_rank(links[static_cast<size_t>(b)].kind)) b = l;
  }
  for (size_t v = 0; v < n; ++v)
    if (pe[v] >= 0 &&
        kind_rank(links[static_cast<size_t>(best[v])].kind) < kind_rank(links[static_cast<size_t>(pe[v])].kind))
      pe[v] = best[v];
  return pe;
}

std::vector<int> snake(const std::vector<int>& sizes, size_t upto) {
  // Boustrophedon order over dimensions 0..upto-1 (dimension 0 fastest).
  if (upto == 0) return {0};
  std::vector<int> sub = snake(sizes, upto - 1);
  int stride = 1;
  for (size_t d = 0; d + 1 < upto; ++d) stride *= sizes[d];
  std::vector<int> out;
  for (int i = 0; i < sizes[upto - 1]; ++i) {
    if (i % 2 == 0)
      for (int x : sub) out.push_back(x + i * stride);
    else
      for (auto it = sub.rbegin(); it != sub.rend(); ++it) out.push_back(*it + i * stride);
  }
  return out;
}

// Hypercube labels of a torus's chips: per dimension the Gray code of the coordinate (a ring of
// 2 or 4 chips is a 1- or 2-cube: 0, 1, 3, 2 around the ring), concatenated; empty when a
// dimension has another size (a ring of 8 is no hypercube of neighbours).
std::vector<int> torus_cube_labels(const std::vector<int>& sizes, int chips) {
  std::vector<int> labels(static_cast<size_t>(chips), 0);
  int shift = 0, stride = 1;
  for (int size : sizes) {
    if (size != 1 && size != 2 && size != 4) return {};
    for (int c = 0; c < chips; ++c) {
      const int coord = (c / stride) % size;
      labels[static_cast<size_t>(c)] |= (coord ^ (coord >> 1)) << shift;
    }
    shift += size == 4 ? 2 : size == 2 ? 1 : 0;
    stride *= size;
  }
  return labels;
}

void build_torus(const SystemSpec& s, Topology& t, int inst) {
  const auto& dims = s.topology.dims;
  std::vector<int> sizes;
  for (const auto& d : dims) sizes.push_back(d.size);
  int base = inst * s.chips;
  for (int c = 0; c < s.chips; ++c) {
    int rem = c, stride = 1;
    for (size_t d = 0; d < dims.size(); ++d) {
      int coord = rem % sizes[d];
      rem /= sizes[d];
      int size = sizes[d];
      if (size > 1) {
        int next = c + (((coord + 1) % size) - coord) * stride;
        // One directed link each way per neighbour pair; a size-2 ring has one neighbour.
        if (size > 2 || coord == 0) {
          t.add_link(base + c, base + next, dims[d].link_bandwidth.v, s.topology.link_latency.v, 1.0,
                     LinkKind::NeuronLink);
          t.add_link(base + next, base + c, dims[d].link_bandwidth.v, s.topology.link_latency.v, 1.0,
                     LinkKind::NeuronLink);
        }
      }
      stride *= sizes[d];
    }
  }
  if (inst == 0) {
    t.set_ring_order(snake(sizes, sizes.size()));
    t.set_cube_labels(torus_cube_labels(sizes, s.chips));
  }
}

void build_switched(const SystemSpec& s, Topology& t, int inst) {
  const auto& tp = s.topology;
  int base = inst * s.chips;
  double lat = tp.link_latency.v;
  std::string prefix = "i" + std::to_string(inst) + ".";
  int groups = s.chips / tp.group_size;
  for (int g = 0; g < groups; ++g) {
    int sw = t.add_node(prefix + "l1sw" + std::to_string(g));
    for (int c = g * tp.group_size; c < (g + 1) * tp.group_size; ++c) {
      t.add_link(base + c, sw, tp.group_bandwidth.v, lat, 1.0, LinkKind::Switch);
      t.add_link(sw, base + c, tp.group_bandwidth.v, lat, 1.0, LinkKind::Switch);
    }
  }
  if (tp.domain_size > 0 && tp.domain_size > tp.group_size) {
    int domains = s.chips / tp.domain_size;
    for (int d = 0; d < domains; ++d) {
      int sw = t.add_node(prefix + "l2sw" + std::to_string(d));
      for (int c = d * tp.domain_size; c < (d + 1) * tp.domain_size; ++c) {
        t.add_link(base + c, sw, tp.domain_bandwidth.v, lat, 1.0, LinkKind::Switch);
        t.add_link(sw, base + c, tp.domain_bandwidth.v, lat, 1.0, LinkKind::Switch);
      }
    }
    if (tp.peer_bandwidth.v > 0 && domains > 1) {
      for (int d = 0; d < domains; ++d) {
        int nd = (d + 1) % domains;
        if (domains == 2 && d == 1) break;
        for (int i = 0; i < tp.domain_size; ++i) {
          int a = base + d * tp.domain_size + i, b = base + nd * tp.domain_size + i;
          t.add_link(a, b, tp.peer_bandwidth.v, lat, 1.0, LinkKind::NeuronLink);
          t.add_link(b, a, tp.peer_bandwidth.v, lat, 1.0, LinkKind::NeuronLink);
        }
      }
    }
  }
  if (inst == 0) {
    std::vector<int> order(static_cast<size_t>(s.chips));
    for (int c = 0; c < s.chips; ++c) order[static_cast<size_t>(c)] = c;
    t.set_ring_order(order);
    t.set_cube_labels(order);  // the chip index: partners in the low bits share a group switch
  }
}

using Builder = std::function<void(const SystemSpec&, Topology&, int)>;
const std::map<std::string, Builder>& registry() {
  static const std::map<std::string, Builder> r = {{"torus", build_torus}, {"switched", build_switched}};
  return r;
}

}  // namespace

std::vector<std::string> topology_impl_names() {
  std::vector<std::string> names;
  for (const auto& kv : registry()) names.push_back(kv.first);
  return names;
}

int Topology::add_node(std::string name) {
  node_names_.push_back(std::move(name));
  return static_cast<int>(node_names_.size()) - 1;
}

void Topology::add_link(int a, int b, double bandwidth, double latency, double cost, LinkKind kind) {
  links_.push_back(Link{a, b, bandwidth, latency, cost, kind, current_instance_});
}

void Topology::index_instances() {
  links_.shrink_to_fit();  // the last links were added (a million chips: nine million links)
  node_names_.shrink_to_fit();
  instance_links_.assign(static_cast<size_t>(std::max(1, chips_ / std::max(1, chips_per_instance_))), {});
  link_ordinal_.assign(links_.size(), -1);
  for (size_t l = 0; l < links_.size(); ++l) {
    const int i = links_[l].instance;
    if (i < 0 || static_cast<size_t>(i) >= instance_links_.size()) continue;
    link_ordinal_[l] = static_cast<int32_t>(instance_links_[static_cast<size_t>(i)].size());
    instance_links_[static_cast<size_t>(i)].push_back(static_cast<int32_t>(l));
  }
}

int32_t Topology::link_in_instance(int32_t l, int to) const {
  const int32_t k = link_ordinal_.at(static_cast<size_t>(l));
  if (k < 0) return l;
  const auto& list = instance_links_.at(static_cast<size_t>(to));
  if (static_cast<size_t>(k) >= list.size()) throw std::logic_error("topology: instances are not alike");
  return list[static_cast<size_t>(k)];
}

void Topology::set_shape(int chips_per_instance, int instances) {
  chips_per_instance_ = chips_per_instance;
  chips_ = chips_per_instance * instances;
}

using RouteGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                          boost::property<boost::edge_weight_t, double, boost::property<boost::edge_index_t, int>>>;
struct Topology::GraphCache {
  explicit GraphCache(size_t nodes) : g(nodes) {}
  RouteGraph g;
};

void Topology::compute_routes_from(int src) const {
  using namespace boost;
  if (!graph_) {
    // Built in place: assigning a temporary graph copies it (Boost's adjacency_list has no move
    // assignment here), and GCC 12 warns -Wmaybe-uninitialized inside that copy.
    graph_ = std::make_shared<GraphCache>(static_cast<size_t>(num_nodes()));
    RouteGraph& g = graph_->g;
    for (size_t i = 0; i < links_.size(); ++i) {
      auto e = add_edge(static_cast<size_t>(links_[i].from), static_cast<size_t>(links_[i].to), g).first;
      put(edge_weight, g, e, links_[i].route_cost);
      put(edge_index, g, e, static_cast<int>(i));
    }
  }
  const RouteGraph& g = graph_->g;
  std::vector<size_t> pred(num_vertices(g));
  std::vector<double> dist(num_vertices(g));
  dijkstra_shortest_paths(g, static_cast<size_t>(src),
                          predecessor_map(make_iterator_property_map(pred.begin(), get(vertex_index, g)))
                              .distance_map(make_iterator_property_map(dist.begin(), get(vertex_index, g))));
  pred_edge_[src] = tree_links(
      num_vertices(g), links_.size(), links_, [](size_t i) { return static_cast<int32_t>(i); },
      [](const Link& k) { return std::make_pair(static_cast<size_t>(k.from), static_cast<size_t>(k.to)); }, pred, dist);
}

// Routing by instance. Dijkstra from a chip pops every vertex of its instance (distances under
// kEfaRouteCost) before it reaches the EFA switch, and only after the switch does it see other
// instances, so the tree inside the instance is the same on the instance's own links; beyond the
// switch the route to a chip of another instance is unique (its NIC's one link from the switch,
// then the NIC's one link to the chip). Built when those conditions hold, for every chip of
// instance 0 at once (instances are alike: instance i's routes are instance 0's translated).
struct Topology::LocalRouting {
  int sw = -1;                                // the EFA switch's vertex
  std::vector<int> vertex;                    // node -> vertex (-1: not in instance 0's graph)
  std::vector<int32_t> edges;                 // vertex graph edge -> link (instance 0's links in index order)
  std::vector<std::vector<int32_t>> tree;     // per chip of instance 0, per vertex: its tree link (-1: none)
  std::vector<std::array<int32_t, 2>> entry;  // per chip of instance 0: switch -> its NIC, NIC -> chip
};

namespace {

// The one link of `in` that `pick` accepts, or -1 when there is not exactly one.
int32_t only_link(const std::vector<int32_t>& in, const std::function<bool(int32_t)>& pick) {
  int32_t found = -1;
  for (int32_t l : in)
    if (pick(l)) {
      if (found >= 0) return -1;
      found = l;
    }
  return found;
}

}  // namespace

const Topology::LocalRouting* Topology::local_routing() const {
  if (local_) return local_->sw >= 0 ? local_.get() : nullptr;
  local_ = std::make_shared<LocalRouting>();
  LocalRouting& lr = *local_;
  if (instances() < 2 || chips_per_instance_ <= 0) return nullptr;
  // Nodes of instance 0 and the shared switch: every link must belong to an instance, and one
  // node (the switch) must have links of several.
  std::vector<int> inst(static_cast<size_t>(num_nodes()), -2);
  for (const auto& l : links_) {
    if (l.instance < 0) return nullptr;
    for (int v : {l.from, l.to}) {
      int& x = inst[static_cast<size_t>(v)];
      x = x == -2 ? l.instance : (x == l.instance ? x : -1);
    }
  }
  int sw = -1;
  for (int v = 0; v < num_nodes(); ++v)
    if (inst[static_cast<size_t>(v)] == -1) {
      if (v < chips_ || sw >= 0) return nullptr;
      sw = v;
    }
  if (sw < 0) return nullptr;
  lr.vertex.assign(static_cast<size_t>(num_nodes()), -1);
  std::vector<int> nodes;
  for (int v = 0; v < num_nodes(); ++v)
    if (inst[static_cast<size_t>(v)] == 0 || v == sw) {
      lr.vertex[static_cast<size_t>(v)] = static_cast<int>(nodes.size());
      nodes.push_back(v);
    }
  using namespace boost;
  RouteGraph g(nodes.size());
  std::vector<std::vector<int32_t>> in(nodes.size());
  for (int32_t l : instance_links_[0]) {
    const Link& k = links_[static_cast<size_t>(l)];
    const size_t u = static_cast<size_t>(lr.vertex[static_cast<size_t>(k.from)]);
    const size_t v = static_cast<size_t>(lr.vertex[static_cast<size_t>(k.to)]);
    auto e = add_edge(u, v, g).first;
    put(edge_weight, g, e, k.route_cost);
    put(edge_index, g, e, static_cast<int>(lr.edges.size()));
    lr.edges.push_back(l);
    in[v].push_back(l);
  }
  const size_t swv = static_cast<size_t>(lr.vertex[static_cast<size_t>(sw)]);
  for (int c = 0; c < chips_per_instance_; ++c) {
    // The chip's one way in from the switch: switch -> NIC -> chip.
    const auto& cin = in[static_cast<size_t>(lr.vertex[static_cast<size_t>(c)])];
    const int32_t last =
        only_link(cin, [&](int32_t l) { return links_[static_cast<size_t>(l)].kind == LinkKind::Efa; });
    if (last < 0) return nullptr;
    const int nic = links_[static_cast<size_t>(last)].from;
    const int32_t first = only_link(in[static_cast<size_t>(lr.vertex[static_cast<size_t>(nic)])],
                                    [&](int32_t l) { return links_[static_cast<size_t>(l)].from == sw; });
    if (first < 0) return nullptr;
    lr.entry.push_back({first, last});
    // The tree from the chip; every vertex but the switch must come before it.
    std::vector<size_t> pred(nodes.size());
    std::vector<double> dist(nodes.size());
    dijkstra_shortest_paths(g, static_cast<size_t>(lr.vertex[static_cast<size_t>(c)]),
                            predecessor_map(make_iterator_property_map(pred.begin(), get(vertex_index, g)))
                                .distance_map(make_iterator_property_map(dist.begin(), get(vertex_index, g))));
    for (size_t v = 0; v < nodes.size(); ++v)
      if (v != swv && !(dist[v] < dist[swv])) return nullptr;
    lr.tree.push_back(tree_links(
        nodes.size(), lr.edges.size(), links_, [&](size_t i) { return lr.edges[i]; },
        [&](const Link& k) {
          return std::make_pair(static_cast<size_t>(lr.vertex[static_cast<size_t>(k.from)]),
                                static_cast<size_t>(lr.vertex[static_cast<size_t>(k.to)]));
        },
        pred, dist));
  }
  lr.sw = sw;
  return &lr;
}

std::vector<int32_t> Topology::local_route(const LocalRouting& lr, int a, int b) const {
  const int per = chips_per_instance_, ia = a / per, ib = b / per;
  const std::vector<int32_t>& tree = lr.tree[static_cast<size_t>(a % per)];
  auto to_instance = [&](int32_t l, int i) {
    return instance_links_[static_cast<size_t>(i)][static_cast<size_t>(link_ordinal_[static_cast<size_t>(l)])];
  };
  std::vector<int32_t> path;
  if (ib != ia) {  // entering b's instance: switch -> NIC -> chip, in reverse
    const auto& e = lr.entry[static_cast<size_t>(b % per)];
    path.push_back(to_instance(e[1], ib));
    path.push_back(to_instance(e[0], ib));
  }
  int v = ib == ia ? b % per : lr.sw;
  while (v != a % per) {
    const int32_t e = tree[static_cast<size_t>(lr.vertex[static_cast<size_t>(v)])];
    if (e < 0) throw std::logic_error("topology: no route from " + node_name(a) + " to " + node_name(b));
    path.push_back(to_instance(e, ia));
    v = links_[static_cast<size_t>(e)].from;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

bool Topology::routes_by_instance() const { return local_routing() != nullptr; }

std::vector<int32_t> Topology::route_whole_fabric(int a, int b) const {
  if (a == b) return {};
  if (!pred_edge_.count(a)) compute_routes_from(a);
  const auto& pe = pred_edge_[a];
  std::vector<int32_t> path;
  int v = b;
  while (v != a) {
    int e = pe[static_cast<size_t>(v)];
    if (e < 0) throw std::logic_error("topology: no route from " + node_name(a) + " to " + node_name(b));
    path.push_back(e);
    v = links_[static_cast<size_t>(e)].from;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

const std::vector<int32_t>& Topology::route(int a, int b) const {
  static const std::vector<int32_t> empty;
  if (a == b) return empty;
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b);
  auto hit = route_cache_.find(key);
  if (hit != route_cache_.end()) return hit->second;
  const LocalRouting* lr = local_routing();
  return route_cache_.emplace(key, lr ? local_route(*lr, a, b) : route_whole_fabric(a, b)).first->second;
}

double Topology::route_latency(int a, int b) const {
  double l = 0;
  for (int32_t e : route(a, b)) l += links_[static_cast<size_t>(e)].latency;
  return l;
}

Topology build_topology(const SystemSpec& s) {
  Topology t;
  t.set_shape(s.chips, s.instances);
  for (int i = 0; i < s.instances; ++i)
    for (int c = 0; c < s.chips; ++c) t.add_node("chip" + std::to_string(i * s.chips + c));
  auto it = registry().find(s.topology.impl);
  if (it == registry().end()) throw std::logic_error("unregistered topology impl " + s.topology.impl);
  for (int i = 0; i < s.instances; ++i) {
    t.set_current_instance(i);
    it->second(s, t, i);
  }
  t.set_current_instance(-1);
  if (s.instances > 1) {
    // EFA: each chip reaches its NIC, every NIC reaches one non-blocking cluster switch.
    int net = t.add_node("efa_switch");
    int nics = s.efa.nics;
    double nic_bw = s.efa.bandwidth_per_nic.v;
    double half = s.efa.latency.v / 2;
    for (int i = 0; i < s.instances; ++i) {
      t.set_current_instance(i);  // a NIC's links belong to its instance
      std::vector<int> nic_nodes;
      for (int n = 0; n < nics; ++n) {
        int node = t.add_node("i" + std::to_string(i) + ".nic" + std::to_string(n));
        nic_nodes.push_back(node);
        t.add_link(node, net, nic_bw, half, kEfaRouteCost, LinkKind::Efa);
        t.add_link(net, node, nic_bw, half, kEfaRouteCost, LinkKind::Efa);
      }
      for (int c = 0; c < s.chips; ++c) {
        int chip = i * s.chips + c;
        if (nics >= s.chips) {
          int per = nics / s.chips;
          for (int k = 0; k < per; ++k) {
            int node = nic_nodes[static_cast<size_t>(c) * static_cast<size_t>(per) + static_cast<size_t>(k)];
            t.add_link(chip, node, nic_bw, 0.0, kEfaRouteCost, LinkKind::Efa);
            t.add_link(node, chip, nic_bw, 0.0, kEfaRouteCost, LinkKind::Efa);
          }
        } else {
          int node = nic_nodes[static_cast<size_t>(c / (s.chips / nics))];
          t.add_link(chip, node, nic_bw, 0.0, kEfaRouteCost, LinkKind::Efa);
          t.add_link(node, chip, nic_bw, 0.0, kEfaRouteCost, LinkKind::Efa);
        }
      }
    }
    t.set_current_instance(-1);
  }
  t.index_instances();
  return t;
}

}  // namespace trn::models
