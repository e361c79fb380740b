// Data directory lookup and named-config resolution.
#include "sim/base/paths.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "sim/base/config_node.h"
#include "sim/base/config_reader.h"
#include "sim/base/warnings.h"

namespace trn::sim {
namespace fs = std::filesystem;

namespace {

constexpr int kLevelsUp = 5;  // PREFIX/lib/python3.11/site-packages/trnsim/_trnsim.so reaches PREFIX

std::string& self_path_storage() {
  static std::string path;
  return path;
}

bool holds_data(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "hw/configs/systems", ec) && fs::is_directory(dir / "workloads/scenarios", ec);
}

// The directories the binary's tree offers, nearest first: DIR/share/trnsim and DIR for each DIR
// from the binary's directory upwards.
std::vector<fs::path> near_self() {
  std::vector<fs::path> out;
  std::error_code ec;
  fs::path dir = fs::weakly_canonical(self_path(), ec).parent_path();
  for (int level = 0; level <= kLevelsUp && !dir.empty(); ++level) {
    out.push_back(dir / "share/trnsim");
    out.push_back(dir);
    if (dir == dir.root_path()) break;
    dir = dir.parent_path();
  }
  return out;
}

// The tree near the binary that holds the data, or "" (looked up once: the binary does not move).
const std::string& root_near_self() {
  static const std::string root = [] {
    for (const auto& d : near_self())
      if (holds_data(d)) return d.string();
    return std::string();
  }();
  return root;
}

// "llama3.1-70b" -> "llama3-70b": a minor version after a digit dropped.
std::string without_minor_versions(const std::string& name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '.' && i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1])) && i + 1 < name.size() &&
        std::isdigit(static_cast<unsigned char>(name[i + 1]))) {
      while (i + 1 < name.size() && std::isdigit(static_cast<unsigned char>(name[i + 1]))) ++i;
      continue;
    }
    out += name[i];
  }
  return out;
}

}  // namespace

void set_self_path(const std::string& path) { self_path_storage() = path; }

std::string self_path() {
  if (!self_path_storage().empty()) return self_path_storage();
  char buf[4096];
  const ssize_t len = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return len > 0 ? std::string(buf, static_cast<size_t>(len)) : std::string();
}

std::vector<std::string> data_search_path() {
  std::vector<std::string> out;
  if (const char* h = std::getenv("TRNSIM_HOME"); h && *h) out.push_back(std::string(h) + " ($TRNSIM_HOME)");
  for (const auto& d : near_self()) out.push_back(d.string() + " (near " + self_path() + ")");
  out.push_back(std::string(TRNSIM_SOURCE_DIR) + " (the source tree it was built from)");
  return out;
}

std::string data_root() {
  std::error_code ec;
  if (const char* h = std::getenv("TRNSIM_HOME"); h && *h) {
    if (!fs::is_directory(h, ec))
      throw ConfigError(Location{"TRNSIM_HOME", 0, 0}, "",
                        "'" + std::string(h) +
                            "' is not a directory; expected trnsim's data tree (hw/configs, "
                            "workloads), e.g. PREFIX/share/trnsim of make install");
    return h;
  }
  if (!root_near_self().empty()) return root_near_self();
  if (holds_data(TRNSIM_SOURCE_DIR)) return TRNSIM_SOURCE_DIR;
  std::string searched;
  for (const auto& s : data_search_path()) searched += (searched.empty() ? "" : ", ") + s;
  throw ConfigError(Location{"TRNSIM_HOME", 0, 0}, "",
                    "not set, and no trnsim data tree (hw/configs/systems and workloads/scenarios) found in " +
                        searched + "; set TRNSIM_HOME to one");
}

std::string executable_near_self(const std::string& fallback) {
  std::error_code ec;
  fs::path dir = fs::weakly_canonical(self_path(), ec).parent_path();
  for (int level = 0; level <= kLevelsUp && !dir.empty(); ++level) {
    for (const fs::path& p : {dir / "trnsim", dir / "bin/trnsim"})
      if (fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0) return p.string();
    if (dir == dir.root_path()) break;
    dir = dir.parent_path();
  }
  return fallback;
}

std::string path_in_file(const std::string& written, const Location& loc, const std::string& key) {
  auto ends = [&](const char* ext) {
    const std::string e = ext;
    return written.size() > e.size() && written.compare(written.size() - e.size(), e.size(), e) == 0;
  };
  const bool path = written.find('/') != std::string::npos || ends(".yaml") || ends(".json");
  std::error_code ec;
  if (!path || fs::path(written).is_absolute() || loc.line == 0 || !fs::is_regular_file(loc.file, ec)) return written;
  const fs::path beside = fs::path(loc.file).parent_path() / written;
  if (fs::exists(beside, ec) || !fs::exists(written, ec)) return beside.string();
  warn(loc.str() + ": " + key + ": '" + written + "' is not beside " + loc.file +
       "; read from the working directory instead (a path in a file is relative to the file's directory)");
  return written;
}

std::vector<std::string> list_named_configs(const std::string& subdir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(data_root()) / subdir, ec))
    if (e.path().extension() == ".yaml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string nearest_name(const std::string& word, const std::vector<std::string>& names) {
  std::vector<std::string> forms;  // each name, then each name without its minor versions
  forms.insert(forms.end(), names.begin(), names.end());
  for (const auto& n : names) forms.push_back(without_minor_versions(n));
  const std::string near = nearest_word(word, forms);
  if (near.empty()) return "";
  const auto it = std::find(forms.begin(), forms.end(), near);
  return names[static_cast<size_t>(it - forms.begin()) % names.size()];
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
  const fs::path dir = fs::path(data_root()) / subdir;
  fs::path p = dir / (name_or_path + ".yaml");
  if (fs::exists(p, ec)) return p.string();
  // Not a known name, but a file or directory of that name here: the user meant the path.
  if (!name_or_path.empty() && fs::is_directory(name_or_path, ec))
    throw ConfigError(loc, key, "'" + name_or_path + "' is a directory, expected a " + what + " name or YAML file");
  if (!name_or_path.empty() && fs::is_regular_file(name_or_path, ec)) return name_or_path;
  auto names = list_named_configs(subdir);
  std::string msg = "unknown " + what + " '" + name_or_path + "'";
  std::string near = nearest_name(name_or_path, names);
  if (!near.empty()) msg += " (did you mean '" + near + "'?)";
  msg += "; known: ";
  for (size_t i = 0; i < names.size(); ++i) msg += (i ? ", " : "") + names[i];
  throw ConfigError(loc, key, msg + " (the .yaml files of " + dir.string() + ")");
}

}  // namespace trn::sim
