// Topology: the chips of a system (and of a cluster of instances) and the directed links
// between them, built from SystemSpec by an explicitly registered builder ("torus",
// "switched"). Routes are shortest paths (Boost.Graph Dijkstra, deterministic ties) in
// which EFA hops cost more than NeuronLink hops, so traffic inside an instance never
// leaves through the network.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "models/spec/system_spec.h"

namespace trn::models {

/// What a link is: a NeuronLink between chips, a chip's port on a switch, or an EFA hop.
enum class LinkKind : uint8_t { NeuronLink, Switch, Efa };

/// 40 bytes: a million-chip cluster has about nine million links.
struct Link {
  int32_t from = 0, to = 0;
  double bandwidth = 0;   // bytes/s, this direction
  double latency = 0;     // seconds
  double route_cost = 1;  // routing weight
  LinkKind kind = LinkKind::NeuronLink;
  int32_t instance = -1;  // the instance whose builder added it (-1: shared by the cluster)
};

class Topology {
 public:
  /// Chips are nodes 0..num_chips()-1 (instance-major); switches and NICs follow.
  int num_chips() const { return chips_; }
  int num_nodes() const { return static_cast<int>(node_names_.size()); }
  int chips_per_instance() const { return chips_per_instance_; }
  int instance_of(int chip) const { return chip / chips_per_instance_; }
  const std::vector<Link>& links() const { return links_; }
  const std::string& node_name(int n) const { return node_names_[static_cast<size_t>(n)]; }

  /// Link indices from chip a to chip b (empty when a == b). Cached per source. On a cluster
  /// whose instances reach each other only through their NICs and one EFA switch, with one NIC
  /// link per chip (every shipped system), Dijkstra runs on one instance's links only and the
  /// routes are translated: the same routes as over the whole fabric (docs/model.md 7).
  const std::vector<int32_t>& route(int a, int b) const;
  /// Whether routes are found per instance (above) rather than over the whole fabric.
  bool routes_by_instance() const;
  /// The routes over the whole fabric, whatever routes_by_instance() says (for tests).
  std::vector<int32_t> route_whole_fabric(int a, int b) const;
  double route_latency(int a, int b) const;

  /// Chips of one instance in an order where consecutive chips (and last -> first) are
  /// neighbours where the topology allows (snake order through a torus).
  const std::vector<int>& ring_order_local() const { return ring_local_; }

  /// The chips of one instance as a hypercube (S22: "the 2D-Torus connectivity can also be seen
  /// as a 4D hyper-cube"): the label of local chip `c`, such that two chips whose labels differ
  /// in one bit are one hop apart; -1 where the topology has no such labelling.
  int cube_label(int local_chip) const {
    return static_cast<size_t>(local_chip) < cube_local_.size() ? cube_local_[static_cast<size_t>(local_chip)] : -1;
  }

  /// The link that plays the role of link `l` in instance `to` (instances are built alike, so
  /// the k-th link added for one instance corresponds to the k-th of another); `l` itself for
  /// a link shared by the cluster.
  int32_t link_in_instance(int32_t l, int to) const;
  /// Link `l`'s position among its instance's links (-1 for a link shared by the cluster), and
  /// the link at position `k` of instance `i`.
  int32_t link_ordinal(int32_t l) const { return link_ordinal_.at(static_cast<size_t>(l)); }
  int32_t instance_link(int i, int32_t k) const {
    return instance_links_.at(static_cast<size_t>(i)).at(static_cast<size_t>(k));
  }
  int instances() const { return static_cast<int>(instance_links_.size()); }
  /// Whether the permutation `chip_perm` of one instance's chips, applied alike in every
  /// instance, maps the topology onto itself: switches and NICs follow their chips, every link
  /// goes to a link of the same kind, bandwidth and latency, and every route between two chips
  /// (inside an instance and from one instance to another) to the route between their images.
  /// Returns the image of each link position of an instance (link_ordinal), or an empty vector
  /// when the permutation is not such a symmetry. With `routes`, only the routes between those
  /// pairs of chips are checked (a single collective that crosses no others: its own pairs).
  std::vector<int32_t> local_automorphism(const std::vector<int>& chip_perm,
                                          const std::vector<std::pair<int, int>>* routes = nullptr) const;

  // Construction (used by builders).
  /// Links added from now on belong to instance `i` (-1: the cluster).
  void set_current_instance(int i) { current_instance_ = i; }
  /// Indexes the links per instance (build_topology calls it last).
  void index_instances();
  int add_node(std::string name);
  void add_link(int a, int b, double bandwidth, double latency, double cost, LinkKind kind);
  void set_shape(int chips_per_instance, int instances);
  void set_ring_order(std::vector<int> order) { ring_local_ = std::move(order); }
  void set_cube_labels(std::vector<int> labels) { cube_local_ = std::move(labels); }

 private:
  void compute_routes_from(int src) const;
  struct LocalRouting;
  const LocalRouting* local_routing() const;
  std::vector<int32_t> local_route(const LocalRouting& lr, int a, int b) const;
  int chips_ = 0, chips_per_instance_ = 0, current_instance_ = -1;
  std::vector<std::vector<int32_t>> instance_links_;  // per instance: its links in build order
  std::vector<int32_t> link_ordinal_;                 // per link: its position in its instance's list
  std::vector<std::string> node_names_;
  std::vector<Link> links_;
  std::vector<int> ring_local_;
  std::vector<int> cube_local_;                                      // per local chip: hypercube label (empty: none)
  mutable std::unordered_map<int, std::vector<int32_t>> pred_edge_;  // per source: tree links
  mutable std::unordered_map<uint64_t, std::vector<int32_t>> route_cache_;
  struct GraphCache;
  mutable std::shared_ptr<GraphCache> graph_;    // Boost graph built on first route()
  mutable std::shared_ptr<LocalRouting> local_;  // per-instance routing, built on first route()
};

/// Builds the topology of `instances` copies of the system joined by EFA.
Topology build_topology(const SystemSpec& s);

/// Names of the registered topology builders.
std::vector<std::string> topology_impl_names();

}  // namespace trn::models
