// Where trnsim finds its shipped data (hw/configs/...): $TRNSIM_HOME if set, else the
// source tree the binary was built from.
#pragma once

#include <string>
#include <vector>

#include "sim/base/config_node.h"

namespace trn::sim {

/// Root of the trnsim tree (contains hw/configs, workloads/...).
std::string data_root();

/// Resolves a named config ("trn2") or a path ("my/chip.yaml") to a file path.
/// `subdir` is relative to data_root(), e.g. "hw/configs/chips". Throws ConfigError
/// listing the available names when a name is unknown, or when a path is missing or a
/// directory. Errors name `from` and `key` (where the name was written); by default the
/// command-line option "--<what>".
std::string resolve_named_config(const std::string& name_or_path, const std::string& subdir, const std::string& what,
                                 const Location& from = Location{}, const std::string& key = "");

/// Names (file stems) of the YAML files in a data subdirectory, sorted.
std::vector<std::string> list_named_configs(const std::string& subdir);

}  // namespace trn::sim
