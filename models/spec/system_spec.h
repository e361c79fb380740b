// SystemSpec: an instance or UltraServer (chips, topology, EFA, host) as data, loaded
// from hw/configs/systems/*.yaml. `chip:` names a chip file or holds a chip inline (the
// resolved dump always inlines it). A cluster is `instances` copies joined by EFA.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/spec/chip_spec.h"

namespace trn::models {

struct TorusDim {
  int size = 4;
  sim::Bandwidth link_bandwidth{0};  // per link, per direction
  template <class V>
  void visit(V& v) {
    v.field("size", size, F("chips along this dimension").ge(1).le(1024));
    v.field("link_bandwidth", link_bandwidth, F("bandwidth of one link along this dimension, per direction").gt(0));
  }
};

struct TopologySpec {
  std::string impl;            // registry key: torus | switched
  std::vector<TorusDim> dims;  // torus
  sim::Time link_latency{1.5e-6};
  // switched: chips -> group switch (server) -> domain switch (rack) [+ direct peer links]
  int group_size = 0;
  sim::Bandwidth group_bandwidth{0};
  int domain_size = 0;
  sim::Bandwidth domain_bandwidth{0};
  sim::Bandwidth peer_bandwidth{0};
  template <class V>
  void visit(V& v) {
    v.field("impl", impl, F("topology implementation (registry key)"));
    v.list("dims", dims, F("torus dimensions").optional());
    v.field("link_latency", link_latency, F("latency of one link or switch hop").ge(0));
    v.field("group_size", group_size, F("switched: chips per first-level switch (0 = not switched)").ge(0).optional());
    v.field("group_bandwidth", group_bandwidth,
            F("switched: chip to first-level switch, per direction").ge(0).optional());
    v.field("domain_size", domain_size, F("switched: chips per second-level domain (0 = one level)").ge(0).optional());
    v.field("domain_bandwidth", domain_bandwidth,
            F("switched: chip to second-level switch, per direction").ge(0).optional());
    v.field("peer_bandwidth", peer_bandwidth,
            F("switched: direct link between same-position chips of adjacent domains").ge(0).optional());
  }
};

struct EfaSpec {
  int nics = 16;  // per instance
  sim::Bandwidth bandwidth_per_nic{0};
  sim::Time latency{15e-6};  // per inter-instance step
  template <class V>
  void visit(V& v) {
    v.field("nics", nics, F("EFA NICs per instance").ge(1));
    v.field("bandwidth_per_nic", bandwidth_per_nic, F("bandwidth of one EFA NIC").gt(0));
    v.field("latency", latency, F("one-way inter-instance latency").ge(0));
  }
};

/// One host server (CPUs, memory, disks). A system has `SystemSpec::hosts` of them: one for a
/// trn1.32xlarge or trn2.48xlarge, four for a Trn2 UltraServer (4 x trn2u.48xlarge).
struct HostSpec {
  int vcpus = 0;
  sim::Bytes memory{0};
  template <class V>
  void visit(V& v) {
    v.field("vcpus", vcpus, F("vCPUs of one host server").ge(1));
    v.field("memory", memory, F("memory of one host server").gt(0));
  }
};

struct SystemSpec {
  static constexpr int kMaxInstances = 65536;
  static constexpr int64_t kMaxChips = int64_t{1} << 20;  // chips x instances
  std::string name;
  ChipSpec chip;
  int chips = 16;     // per instance (or UltraServer)
  int instances = 1;  // joined by EFA
  int hosts = 1;      // host servers per instance (or UltraServer); each has `host`
  TopologySpec topology;
  EfaSpec efa;
  HostSpec host;
  template <class V>
  void visit(V& v) {
    v.field("name", name, F("system name"));
    v.section("chip", chip, F("chip description (name of hw/configs/chips/*.yaml or inline)"));
    v.field("chips", chips, F("chips per instance").ge(1).le(4096));
    v.field("instances", instances,
            F("instances joined by EFA (at most 1,048,576 chips in all)").ge(1).le(kMaxInstances).optional());
    v.field("hosts", hosts,
            F("host servers per instance, each with the CPUs and memory of `host` (must divide chips)")
                .ge(1)
                .le(4096)
                .optional());
    v.section("topology", topology, F("chip interconnect within an instance"));
    v.section("efa", efa, F("EFA network between instances"));
    v.section("host", host, F("one host server: CPUs and memory"));
  }
  int total_chips() const { return chips * instances; }
  int chips_per_host() const { return chips / hosts; }
  /// Cross-field checks (torus size, switch levels, NICs); errors point at the key in
  /// `where`, the document holding this system under `prefix` ("" or "system.").
  void validate(const sim::ConfigNode& where, const std::string& prefix = "") const;
};

/// Loads a system by name (hw/configs/systems/NAME.yaml) or path, resolving `chip: NAME`,
/// applying `--set` assignments, then reading strictly. Throws ConfigError.
SystemSpec load_system(const std::string& name_or_path, const std::vector<std::string>& sets,
                       int instances_override = 0);

/// Loads a chip by name (hw/configs/chips/NAME.yaml) or path.
ChipSpec load_chip(const std::string& name_or_path, const std::vector<std::string>& sets);

/// A one-chip system around `chip` (for core-level benchmarks): no links, no EFA peers.
SystemSpec single_chip_system(const ChipSpec& chip);

/// The fully resolved YAML of a system (feeding it back reproduces it bit for bit).
std::string resolved_yaml(const SystemSpec& s, const std::string& header_comment);
std::string resolved_yaml(const ChipSpec& s, const std::string& header_comment);

}  // namespace trn::models
