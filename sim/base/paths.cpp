// Data directory lookup and named-config resolution.
#include "sim/base/paths.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "sim/base/config_node.h"
#include "sim/base/config_reader.h"

namespace trn::sim {
namespace fs = std::filesystem;

std::string data_root() {
  if (const char* h = std::getenv("TRNSIM_HOME"); h && *h) return h;
  return TRNSIM_SOURCE_DIR;
}

std::vector<std::string> list_named_configs(const std::string& subdir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(data_root()) / subdir, ec))
    if (e.path().extension() == ".yaml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string resolve_named_config(const std::string& name_or_path, const std::string& subdir, const std::string& what,
                                 const Location& from, const std::string& key) {
  Location loc = from.file.empty() ? Location{"--" + what, 0, 0} : from;
  bool looks_like_path = name_or_path.find('/') != std::string::npos ||
                         (name_or_path.size() > 5 && name_or_path.compare(name_or_path.size() - 5, 5, ".yaml") == 0);
  std::error_code ec;
  if (looks_like_path) {
    if (!fs::exists(name_or_path, ec))
      throw ConfigError(loc, key, what + " file '" + name_or_path + "' does not exist");
    if (fs::is_directory(name_or_path, ec))
      throw ConfigError(loc, key, "'" + name_or_path + "' is a directory, expected a YAML file");
    return name_or_path;
  }
  fs::path p = fs::path(data_root()) / subdir / (name_or_path + ".yaml");
  if (fs::exists(p, ec)) return p.string();
  auto names = list_named_configs(subdir);
  std::string msg = "unknown " + what + " '" + name_or_path + "'";
  std::string near = nearest_word(name_or_path, names);
  if (!near.empty()) msg += " (did you mean '" + near + "'?)";
  msg += "; known: ";
  for (size_t i = 0; i < names.size(); ++i) msg += (i ? ", " : "") + names[i];
  throw ConfigError(loc, key, msg);
}

}  // namespace trn::sim
