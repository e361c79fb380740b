// Symmetries of a topology inside its instances (Topology::local_automorphism).
#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>

#include "models/topology/topology.h"

namespace trn::models {
namespace {

// The part of the topology the check needs: the links of instances 0 and 1 and of the cluster
// (instances are built alike and the permutation acts alike in every instance, so these stand
// for all), and the nodes they touch, numbered locally.
struct Part {
  std::vector<int32_t> links;  // in index order
  std::vector<int> nodes;      // local -> node, in node order
  std::vector<int> local;      // node -> local (-1: not in the part)
  std::vector<int> inst;       // per local node: its links' instance, -1 when shared (the EFA switch)
};

Part checked_part(const Topology& t) {
  Part p;
  p.local.assign(static_cast<size_t>(t.num_nodes()), -1);
  std::vector<char> in(static_cast<size_t>(t.num_nodes()), 0);
  const auto& ls = t.links();
  for (size_t l = 0; l < ls.size(); ++l)
    if (ls[l].instance <= 1) {
      p.links.push_back(static_cast<int32_t>(l));
      in[static_cast<size_t>(ls[l].from)] = in[static_cast<size_t>(ls[l].to)] = 1;
    }
  for (int v = 0; v < t.num_nodes(); ++v)
    if (in[static_cast<size_t>(v)]) {
      p.local[static_cast<size_t>(v)] = static_cast<int>(p.nodes.size());
      p.nodes.push_back(v);
    }
  p.inst.assign(p.nodes.size(), -2);
  for (int32_t l : p.links)
    for (int v : {ls[static_cast<size_t>(l)].from, ls[static_cast<size_t>(l)].to}) {
      int& x = p.inst[static_cast<size_t>(p.local[static_cast<size_t>(v)])];
      const int i = ls[static_cast<size_t>(l)].instance;
      x = x == -2 ? i : (x == i ? x : -1);
    }
  for (size_t k = 0; k < p.nodes.size(); ++k)
    if (p.nodes[k] < t.num_chips()) p.inst[k] = t.instance_of(p.nodes[k]);
  return p;
}

// The image of every node of the part under a chip permutation applied alike in every instance:
// chips by the permutation, shared nodes fixed, an instance's other nodes (switches, NICs) to the
// node with the image of their neighbours (chips and shared nodes, with the links' directions).
// Empty when a node has no such image or two nodes have the same neighbours.
std::vector<int> node_images(const Topology& t, const Part& p, const std::vector<int>& perm) {
  const int per = t.chips_per_instance();
  auto chip_img = [&](int c) { return t.instance_of(c) * per + perm[static_cast<size_t>(c % per)]; };
  std::vector<std::vector<int>> nbrs(p.nodes.size());
  for (int32_t l : p.links) {
    const Link& k = t.links()[static_cast<size_t>(l)];
    nbrs[static_cast<size_t>(p.local[static_cast<size_t>(k.from)])].push_back(2 * k.to);
    nbrs[static_cast<size_t>(p.local[static_cast<size_t>(k.to)])].push_back(2 * k.from + 1);
  }
  auto signature = [&](size_t v, bool mapped) {
    std::vector<int> s;
    for (int e : nbrs[v]) {
      const int u = e >> 1;
      if (u < t.num_chips())
        s.push_back(2 * (mapped ? chip_img(u) : u) + (e & 1));
      else if (p.inst[static_cast<size_t>(p.local[static_cast<size_t>(u)])] == -1)
        s.push_back(e);
    }
    std::sort(s.begin(), s.end());
    return s;
  };
  std::map<std::vector<int>, int> by_signature;
  for (size_t v = 0; v < p.nodes.size(); ++v)
    if (p.nodes[v] >= t.num_chips() && p.inst[v] >= 0 && !by_signature.emplace(signature(v, false), p.nodes[v]).second)
      return {};
  std::vector<int> img(p.nodes.size());
  std::vector<char> hit(p.nodes.size(), 0);
  for (size_t v = 0; v < p.nodes.size(); ++v) {
    int& w = img[v];
    if (p.nodes[v] < t.num_chips()) {
      w = chip_img(p.nodes[v]);
    } else if (p.inst[v] < 0) {
      w = p.nodes[v];
    } else {
      auto it = by_signature.find(signature(v, true));
      if (it == by_signature.end()) return {};
      w = it->second;
    }
    const int wl = p.local[static_cast<size_t>(w)];
    if (wl < 0 || hit[static_cast<size_t>(wl)]) return {};
    hit[static_cast<size_t>(wl)] = 1;
  }
  return img;
}

}  // namespace

std::vector<int32_t> Topology::local_automorphism(const std::vector<int>& perm,
                                                  const std::vector<std::pair<int, int>>* routes) const {
  const int per = chips_per_instance_;
  if (static_cast<int>(perm.size()) != per || instance_links_.empty()) return {};
  const Part part = checked_part(*this);
  const std::vector<int> img_local = node_images(*this, part, perm);
  if (img_local.empty()) return {};
  auto img = [&](int v) {
    return v < chips_ ? instance_of(v) * per + perm[static_cast<size_t>(v % per)]
                      : img_local[static_cast<size_t>(part.local[static_cast<size_t>(v)])];
  };
  // Links by (from, to), in index order: the k-th link between two nodes maps to the k-th
  // link between their images.
  std::map<std::pair<int, int>, std::vector<int32_t>> by_pair;
  for (int32_t l : part.links)
    by_pair[{links_[static_cast<size_t>(l)].from, links_[static_cast<size_t>(l)].to}].push_back(l);
  std::unordered_map<int32_t, int32_t> link_img;
  for (const auto& [ends, ls] : by_pair) {
    auto it = by_pair.find({img(ends.first), img(ends.second)});
    if (it == by_pair.end() || it->second.size() != ls.size()) return {};
    for (size_t k = 0; k < ls.size(); ++k) {
      const Link &a = links_[static_cast<size_t>(ls[k])], &b = links_[static_cast<size_t>(it->second[k])];
      if (a.kind != b.kind || a.bandwidth != b.bandwidth || a.latency != b.latency || a.route_cost != b.route_cost ||
          a.instance != b.instance)
        return {};
      link_img[ls[k]] = it->second[k];
    }
  }
  // Routes: from every chip of instance 0 to every chip of instances 0 and 1 (the others are
  // alike by the instance symmetry), or those asked for. A link outside instances 0 and 1 maps
  // as its place in instance 1 does, into the same instance.
  auto link_image = [&](int32_t l) -> int32_t {
    const int i = links_[static_cast<size_t>(l)].instance;
    if (i <= 1) {
      auto m = link_img.find(l);
      return m == link_img.end() ? -1 : m->second;
    }
    auto m = link_img.find(link_in_instance(l, 1));
    return m == link_img.end() ? -1 : link_in_instance(m->second, i);
  };
  auto route_maps = [&](int a, int b) {
    const std::vector<int32_t>& r = route(a, b);
    const std::vector<int32_t>& q = route(img(a), img(b));
    if (r.size() != q.size()) return false;
    for (size_t i = 0; i < r.size(); ++i)
      if (link_image(r[i]) != q[i]) return false;
    return true;
  };
  if (routes) {
    for (const auto& [a, b] : *routes)
      if (!route_maps(a, b)) return {};
  } else {
    const int to_chips = std::min(chips_, 2 * per);
    for (int a = 0; a < per; ++a)
      for (int b = 0; b < to_chips; ++b)
        if (!route_maps(a, b)) return {};
  }
  std::vector<int32_t> out;
  for (int32_t l : instance_links_[0]) out.push_back(link_ordinal(link_img.at(l)));
  return out;
}

}  // namespace trn::models
