// Atomic output files.
#include "sim/base/output_file.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "sim/base/config_node.h"

namespace trn::sim {
namespace fs = std::filesystem;

void check_writable(const std::string& path, const std::string& option) {
  Location loc{option + " " + path, 0, 0};
  if (path.empty()) throw ConfigError(loc, "", "empty output path");
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw ConfigError(loc, "", "is a directory, expected a file path");
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec))
    throw ConfigError(loc, "", "directory '" + dir.string() + "' does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    throw ConfigError(loc, "", "directory '" + dir.string() + "' is not writable");
}

void write_file_atomic(const std::string& path, const std::string& content) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw ConfigError(Location{path, 0, 0}, "", "cannot open for writing");
    out << content;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw ConfigError(Location{path, 0, 0}, "", "write failed");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw ConfigError(Location{path, 0, 0}, "", "cannot rename the temporary file into place");
  }
}

}  // namespace trn::sim
