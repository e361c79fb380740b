// Where trnsim finds its shipped data (hw/configs, workloads/...): $TRNSIM_HOME if set, else
// the tree the binary sits in (its install tree or the checkout it was built in), else the
// source tree it was built from.
#pragma once

#include <string>
#include <vector>

#include "sim/base/config_node.h"

namespace trn::sim {

/// Root of the trnsim data tree (contains hw/configs, workloads/...). In order:
///   1. $TRNSIM_HOME when set (it must be a directory);
///   2. near the binary: from its directory upwards (at most 5 levels), the first DIR/share/trnsim
///      or DIR that holds hw/configs/systems and workloads/scenarios: PREFIX/bin/trnsim finds
///      PREFIX/share/trnsim (make install), build/trnsim the checkout around build/, so a
///      copied tree uses its own files;
///   3. the source tree the binary was built from.
/// Throws ConfigError naming every place it searched when none holds the data.
std::string data_root();

/// Every place data_root() looks, in order, as "WHERE (why)" lines for messages.
std::vector<std::string> data_search_path();

/// The file the running code was loaded from (the binary, or the Python extension, which sets
/// it when it loads); default: /proc/self/exe.
void set_self_path(const std::string& path);
std::string self_path();

/// The trnsim executable beside the running code (for the Python module's sweep workers): from
/// self_path()'s directory upwards, the first DIR/trnsim or DIR/bin/trnsim that is an executable
/// file; else `fallback`.
std::string executable_near_self(const std::string& fallback);

/// Resolves a named config ("trn2") or a path ("my/chip.yaml") to a file path.
/// `subdir` is relative to data_root(), e.g. "hw/configs/chips". Throws ConfigError
/// listing the available names (and the directory they are in) when a name is unknown, or
/// when a path is missing or a directory. Errors name `from` and `key` (where the name was
/// written); by default the command-line option "--<what>". A name that is not known but is
/// a file in the working directory is that file.
std::string resolve_named_config(const std::string& name_or_path, const std::string& subdir, const std::string& what,
                                 const Location& from = Location{}, const std::string& key = "");

/// A path written in a configuration file at `loc` (a scenario's `model:` or `system:`, a system's
/// `chip:`) is relative to that file's directory, as `include:` paths are. `written` comes back
/// unchanged when it is a name (no '/' and no .yaml or .json ending), an absolute path, or was
/// not written in a file (`--set`, `--model`). A relative path that exists only from the
/// working directory (how older trnsim read it) is still taken from there, with a warning.
std::string path_in_file(const std::string& written, const Location& loc, const std::string& key);

/// Names (file stems) of the YAML files in a data subdirectory, sorted.
std::vector<std::string> list_named_configs(const std::string& subdir);

/// The known name nearest to `word` for a did-you-mean hint, "" when none is near. Besides the
/// edit distance to each name it weighs the name without its minor versions ("llama3.1-70b"
/// read as "llama3-70b"), so a version-less name finds its versioned model.
std::string nearest_name(const std::string& word, const std::vector<std::string>& names);

}  // namespace trn::sim
