// Loading and validating ChipSpec / SystemSpec documents.
#include <algorithm>
#include <set>

#include "models/collectives/sdk_release.h"
#include "models/spec/system_spec.h"
#include "models/topology/topology.h"
#include "sim/base/config_loader.h"
#include "sim/base/paths.h"

namespace trn::models {

using sim::ConfigError;
using sim::ConfigNode;

namespace {

// Cross-field errors point at the key (under `prefix`, e.g. "chip.") in the document.
[[noreturn]] void fail_at(const ConfigNode& where, const std::string& prefix, const std::string& key,
                          const std::string& msg) {
  throw ConfigError(sim::locate(where, prefix + key), prefix + key, msg);
}

}  // namespace

void ChipSpec::validate(const ConfigNode& where, const std::string& prefix) const {
  bool found = false;
  for (auto m : cores.lnc_modes) {
    if (cores.physical % m != 0)
      fail_at(where, prefix, "cores.lnc_modes",
              "LNC " + std::to_string(m) + " does not divide " + std::to_string(cores.physical) + " physical cores");
    found = found || m == cores.default_lnc;
  }
  if (!found)
    fail_at(where, prefix, "cores.default_lnc",
            "default_lnc " + std::to_string(cores.default_lnc) + " is not one of lnc_modes");
  if (cores.physical % hbm.stacks != 0)
    fail_at(where, prefix, "hbm.stacks",
            std::to_string(hbm.stacks) + " stacks do not divide " + std::to_string(cores.physical) + " cores");
  if (psum.banks < 1 || tensor.moving_free_max < 1) fail_at(where, prefix, "psum.banks", "expected at least one bank");
  SdkRelease r;
  if (!parse_sdk_release(collectives.sdk, &r))
    fail_at(where, prefix, "collectives.sdk",
            "expected a Neuron SDK release such as 2.6, 2.18 or 2.15.2 (or empty for the current runtime), got '" +
                collectives.sdk + "'");
}

void SystemSpec::validate(const ConfigNode& where, const std::string& prefix) const {
  auto fail = [&](const std::string& key, const std::string& msg) { fail_at(where, prefix, key, msg); };
  if (int64_t{chips} * instances > kMaxChips)
    fail("instances", std::to_string(instances) + " instances of " + std::to_string(chips) + " chips are " +
                          std::to_string(int64_t{chips} * instances) + " chips: expected at most " +
                          std::to_string(kMaxChips) + " in all");
  if (topology.impl == "torus") {
    if (topology.dims.empty()) fail("topology.dims", "a torus needs at least one dimension");
    double n = 1;  // a double: up to 1024^k for k dimensions
    for (const auto& d : topology.dims) n *= d.size;
    if (n != chips)
      fail("topology.dims",
           "torus of " + sim::format_double_exact(n) + " chips does not match chips: " + std::to_string(chips));
  } else if (topology.impl == "switched") {
    if (topology.group_size < 1 || topology.group_bandwidth.v <= 0)
      fail("topology.group_size", "a switched topology needs group_size and group_bandwidth");
    if (chips % topology.group_size != 0)
      fail("topology.group_size",
           std::to_string(topology.group_size) + " does not divide chips: " + std::to_string(chips));
    if (topology.domain_size > 0 && topology.domain_bandwidth.v <= 0)
      fail("topology.domain_bandwidth", "a second switch level (domain_size > 0) needs domain_bandwidth > 0");
    if (topology.domain_size > 0 &&
        (chips % topology.domain_size != 0 || topology.domain_size % topology.group_size != 0))
      fail("topology.domain_size", "domain_size must divide chips and be a multiple of group_size");
  }
  if (chips % hosts != 0)
    fail("hosts", std::to_string(hosts) + " hosts do not divide " + std::to_string(chips) + " chips");
  if (efa.nics > chips && chips > 0 && efa.nics % chips != 0) fail("efa.nics", "NICs must divide evenly among chips");
  if (efa.nics < chips && chips % efa.nics != 0)
    fail("efa.nics", std::to_string(efa.nics) + " NICs do not divide " + std::to_string(chips) + " chips");
}

namespace {

void check_impl(const ConfigNode& root) {
  const ConfigNode* topo = root.find("topology");
  if (!topo || !topo->is_map()) return;
  const ConfigNode* impl = topo->find("impl");
  if (!impl || !impl->is_scalar()) return;
  std::vector<std::string> names = topology_impl_names();  // the builder registry
  if (std::find(names.begin(), names.end(), impl->scalar) == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    std::string near = sim::nearest_word(impl->scalar, names);
    throw ConfigError(impl->loc, "topology.impl",
                      "unknown impl '" + impl->scalar + "': expected one of " + list +
                          (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
}

ConfigNode load_chip_node(const std::string& name_or_path) {
  return sim::load_config_file(sim::resolve_named_config(name_or_path, "hw/configs/chips", "chip"));
}

}  // namespace

ChipSpec load_chip(const std::string& name_or_path, const std::vector<std::string>& sets) {
  ConfigNode root = load_chip_node(name_or_path);
  std::vector<sim::SetAssignment> as;
  for (size_t i = 0; i < sets.size(); ++i) {
    as.push_back(sim::parse_set(sets[i], static_cast<int>(i + 1)));
    // The chip is the whole document here; accept the system-style "chip.hbm.bandwidth" too,
    // so one --set spelling (the one --help shows) works for every command.
    if (as.back().key.rfind("chip.", 0) == 0) as.back().key.erase(0, 5);
  }
  sim::apply_sets(root, as);
  ChipSpec c;
  sim::read_config(root, c);
  c.validate(root);
  return c;
}

SystemSpec load_system(const std::string& name_or_path, const std::vector<std::string>& sets, int instances_override) {
  ConfigNode root = sim::load_config_file(sim::resolve_named_config(name_or_path, "hw/configs/systems", "system"));
  if (ConfigNode* chip = root.find("chip"); chip && chip->is_scalar()) {
    // A bad name or path is reported at `chip:`; errors inside the chip file keep their
    // own file:line:col behind it.
    std::string path = sim::resolve_named_config(sim::path_in_file(chip->scalar, chip->loc, "chip"), "hw/configs/chips",
                                                 "chip", chip->loc, "chip");
    ConfigNode c;
    try {
      c = sim::load_config_file(path);
    } catch (const ConfigError& e) {
      throw ConfigError(chip->loc, "chip", e.what());
    }
    *chip = c;
  }
  std::vector<sim::SetAssignment> as;
  for (size_t i = 0; i < sets.size(); ++i) as.push_back(sim::parse_set(sets[i], static_cast<int>(i + 1)));
  sim::apply_sets(root, as);
  check_impl(root);
  SystemSpec s;
  sim::read_config(root, s);
  if (instances_override > 0) s.instances = instances_override;
  s.chip.validate(root, "chip.");
  s.validate(root);
  return s;
}

SystemSpec single_chip_system(const ChipSpec& chip) {
  SystemSpec s;
  s.name = chip.name + "-single-chip";
  s.chip = chip;
  s.chips = 1;
  s.instances = 1;
  s.topology.impl = "torus";
  TorusDim d;
  d.size = 1;
  d.link_bandwidth = sim::Bandwidth(1.0);
  s.topology.dims.push_back(d);
  s.efa.nics = 1;
  s.efa.bandwidth_per_nic = sim::Bandwidth(1.0);
  s.host.vcpus = 1;
  s.host.memory = sim::Bytes(1.0);
  return s;
}

std::string resolved_yaml(const SystemSpec& s, const std::string& header_comment) {
  return header_comment + sim::to_yaml(sim::write_config(s));
}

std::string resolved_yaml(const ChipSpec& s, const std::string& header_comment) {
  return header_comment + sim::to_yaml(sim::write_config(s));
}

}  // namespace trn::models
