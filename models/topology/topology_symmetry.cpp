// Symmetries of a topology inside its instances (Topology::local_automorphism).
#include <algorithm>
#include <map>
#include <utility>

#include "models/topology/topology.h"

namespace trn::models {
namespace {

// Per node: the instance of its links when they all belong to one, -1 when it is shared by the
// cluster (the EFA switch), -2 when it has no links. Chips belong to their instance.
std::vector<int> node_instances(const Topology& t) {
  std::vector<int> inst(static_cast<size_t>(t.num_nodes()), -2);
  for (const auto& l : t.links())
    for (int v : {l.from, l.to}) {
      int& x = inst[static_cast<size_t>(v)];
      x = x == -2 ? l.instance : (x == l.instance ? x : -1);
    }
  for (int c = 0; c < t.num_chips(); ++c) inst[static_cast<size_t>(c)] = t.instance_of(c);
  return inst;
}

// The image of every node under a chip permutation applied alike in every instance: chips by
// the permutation, shared nodes fixed, an instance's other nodes (switches, NICs) to the node
// with the image of their neighbours (chips and shared nodes, with the links' directions).
// Empty when a node has no such image or two nodes have the same neighbours.
std::vector<int> node_images(const Topology& t, const std::vector<int>& perm) {
  const int n = t.num_nodes(), per = t.chips_per_instance();
  const std::vector<int> inst = node_instances(t);
  auto chip_img = [&](int c) { return t.instance_of(c) * per + perm[static_cast<size_t>(c % per)]; };
  std::vector<std::vector<int>> nbrs(static_cast<size_t>(n));
  for (const auto& l : t.links()) {
    nbrs[static_cast<size_t>(l.from)].push_back(2 * l.to);
    nbrs[static_cast<size_t>(l.to)].push_back(2 * l.from + 1);
  }
  auto signature = [&](int v, bool mapped) {
    std::vector<int> s;
    for (int e : nbrs[static_cast<size_t>(v)]) {
      const int u = e >> 1;
      if (u < t.num_chips())
        s.push_back(2 * (mapped ? chip_img(u) : u) + (e & 1));
      else if (inst[static_cast<size_t>(u)] == -1)
        s.push_back(e);
    }
    std::sort(s.begin(), s.end());
    return s;
  };
  std::map<std::vector<int>, int> by_signature;
  for (int v = t.num_chips(); v < n; ++v)
    if (inst[static_cast<size_t>(v)] >= 0 && !by_signature.emplace(signature(v, false), v).second) return {};
  std::vector<int> img(static_cast<size_t>(n));
  std::vector<char> hit(static_cast<size_t>(n), 0);
  for (int v = 0; v < n; ++v) {
    int& w = img[static_cast<size_t>(v)];
    if (v < t.num_chips()) {
      w = chip_img(v);
    } else if (inst[static_cast<size_t>(v)] < 0) {
      w = v;
    } else {
      auto it = by_signature.find(signature(v, true));
      if (it == by_signature.end()) return {};
      w = it->second;
    }
    if (hit[static_cast<size_t>(w)]) return {};
    hit[static_cast<size_t>(w)] = 1;
  }
  return img;
}

}  // namespace

std::vector<int32_t> Topology::local_automorphism(const std::vector<int>& perm) const {
  const int per = chips_per_instance_;
  if (static_cast<int>(perm.size()) != per || instance_links_.empty()) return {};
  const std::vector<int> img = node_images(*this, perm);
  if (img.empty()) return {};
  // Links by (from, to), in index order: the k-th link between two nodes maps to the k-th
  // link between their images.
  std::map<std::pair<int, int>, std::vector<int32_t>> by_pair;
  for (size_t l = 0; l < links_.size(); ++l) by_pair[{links_[l].from, links_[l].to}].push_back(static_cast<int32_t>(l));
  std::vector<int32_t> link_img(links_.size(), -1);
  for (const auto& [ends, ls] : by_pair) {
    auto it = by_pair.find({img[static_cast<size_t>(ends.first)], img[static_cast<size_t>(ends.second)]});
    if (it == by_pair.end() || it->second.size() != ls.size()) return {};
    for (size_t k = 0; k < ls.size(); ++k) {
      const Link &a = links_[static_cast<size_t>(ls[k])], &b = links_[static_cast<size_t>(it->second[k])];
      if (a.kind != b.kind || a.bandwidth != b.bandwidth || a.latency != b.latency || a.route_cost != b.route_cost ||
          a.instance != b.instance)
        return {};
      link_img[static_cast<size_t>(ls[k])] = it->second[k];
    }
  }
  // Routes: from every chip of instance 0 to every chip of instances 0 and 1 (the others are
  // alike by the instance symmetry).
  const int to_chips = std::min(chips_, 2 * per);
  for (int a = 0; a < per; ++a)
    for (int b = 0; b < to_chips; ++b) {
      const std::vector<int32_t>& r = route(a, b);
      const std::vector<int32_t>& q = route(img[static_cast<size_t>(a)], img[static_cast<size_t>(b)]);
      if (r.size() != q.size()) return {};
      for (size_t i = 0; i < r.size(); ++i)
        if (link_img[static_cast<size_t>(r[i])] != q[i]) return {};
    }
  std::vector<int32_t> out;
  for (int32_t l : instance_links_[0]) out.push_back(link_ordinal(link_img[static_cast<size_t>(l)]));
  return out;
}

}  // namespace trn::models
