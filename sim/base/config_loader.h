// Loads YAML configuration files into ConfigNode trees: syntax errors with file:line:col,
// `include:` (paths relative to the including file, merged underneath it), dotted
// `overrides:`, and command-line `--set key=value` assignments. This is the only place
// in trnsim that includes yaml-cpp.
#pragma once

#include <string>
#include <vector>

#include "sim/base/config_node.h"

namespace trn::sim {

/// Parses one YAML file without resolving includes. Throws ConfigError on a missing file,
/// a directory, unreadable file or a YAML syntax error.
ConfigNode parse_yaml_file(const std::string& path);

/// Parses YAML text; `name` is used in locations.
ConfigNode parse_yaml_text(const std::string& text, const std::string& name);

/// Loads a file with its includes and `overrides:` applied (the keys `include` and
/// `overrides` are removed from the result).
ConfigNode load_config_file(const std::string& path);

/// One "--set a.b.c=value" assignment.
struct SetAssignment {
  std::string key;   // dotted path
  ConfigNode value;  // parsed as a YAML scalar/flow value
  Location loc;
};

/// Parses "a.b=value". Throws ConfigError when there is no '=' or the key is empty.
SetAssignment parse_set(const std::string& text, int index);

/// Applies assignments in order.
void apply_sets(ConfigNode& root, const std::vector<SetAssignment>& sets);

}  // namespace trn::sim
