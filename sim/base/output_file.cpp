// Atomic output files.
#include "sim/base/output_file.h"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "sim/base/config_node.h"

namespace trn::sim {
namespace fs = std::filesystem;

namespace {
// Fixed-size table readable from a signal handler (no allocation there).
constexpr int kMaxTemps = 16;
constexpr int kPathMax = 4096;
char g_temps[kMaxTemps][kPathMax];
volatile std::sig_atomic_t g_used[kMaxTemps];

// Children to take down with this process (fork_pool's, at most -j of them at once).
constexpr int kMaxChildren = 512;
volatile std::sig_atomic_t g_children[kMaxChildren];

// Forwards `sig` to every registered child and reaps them: up to 2 s for them to finish their
// own handlers (which remove their partial files), then SIGKILL. Async-signal-safe calls only.
void stop_children(int sig) {
  bool any = false;
  for (int i = 0; i < kMaxChildren; ++i)
    if (g_children[i] > 0) any = ::kill(g_children[i], sig) == 0 || any;
  if (!any) return;
  const timespec tick{0, 10 * 1000 * 1000};
  for (int round = 0; round <= 200; ++round) {
    bool left = false;
    for (int i = 0; i < kMaxChildren; ++i) {
      const pid_t pid = g_children[i];
      if (pid <= 0) continue;
      if (round == 200) ::kill(pid, SIGKILL);
      if (::waitpid(pid, nullptr, round == 200 ? 0 : WNOHANG) == 0)
        left = true;
      else
        g_children[i] = 0;
    }
    if (!left) return;
    ::nanosleep(&tick, nullptr);
  }
}

// A work directory whose files are named 0<suffix> .. (count - 1)<suffix> (a sweep's worker
// logs): removed with them by the handler.
char g_dir[kPathMax];
char g_dir_suffix[32];
volatile std::sig_atomic_t g_dir_count = -1;

// "<g_dir>/<i><g_dir_suffix>" into `out` (kPathMax), async-signal-safe.
void dir_file(char* out, long i) {
  size_t n = 0;
  for (const char* c = g_dir; *c && n + 48 < kPathMax; ++c) out[n++] = *c;
  out[n++] = '/';
  char digits[24];
  int d = 0;
  do {
    digits[d++] = static_cast<char>('0' + i % 10);
    i /= 10;
  } while (i > 0);
  while (d > 0) out[n++] = digits[--d];
  for (const char* c = g_dir_suffix; *c; ++c) out[n++] = *c;
  out[n] = 0;
}

extern "C" void cleanup_and_exit(int sig) {
  stop_children(sig);
  for (int i = 0; i < kMaxTemps; ++i)
    if (g_used[i]) ::unlink(g_temps[i]);
  if (g_dir_count >= 0) {
    char path[kPathMax];
    for (long i = 0; i < g_dir_count; ++i) {
      dir_file(path, i);
      ::unlink(path);
    }
    ::rmdir(g_dir);
  }
  ::_exit(128 + sig);
}
}  // namespace

void register_child(pid_t pid) {
  for (int i = 0; i < kMaxChildren; ++i)
    if (g_children[i] <= 0) {
      g_children[i] = pid;
      return;
    }
}

void unregister_child(pid_t pid) {
  for (int i = 0; i < kMaxChildren; ++i)
    if (g_children[i] == pid) g_children[i] = 0;
}

void forget_children() {
  for (int i = 0; i < kMaxChildren; ++i) g_children[i] = 0;
}

void register_temp_file(const std::string& path) {
  for (int i = 0; i < kMaxTemps; ++i) {
    if (g_used[i]) continue;
    std::snprintf(g_temps[i], kPathMax, "%s", path.c_str());
    g_used[i] = 1;
    return;
  }
}

void unregister_temp_file(const std::string& path) {
  for (int i = 0; i < kMaxTemps; ++i)
    if (g_used[i] && path == g_temps[i]) g_used[i] = 0;
}

void register_temp_dir(const std::string& dir, int count, const std::string& suffix) {
  g_dir_count = -1;
  std::snprintf(g_dir, kPathMax, "%s", dir.c_str());
  std::snprintf(g_dir_suffix, sizeof g_dir_suffix, "%s", suffix.c_str());
  g_dir_count = count;
}

void unregister_temp_dir() { g_dir_count = -1; }

void install_signal_cleanup() {
  struct sigaction sa {};
  sa.sa_handler = cleanup_and_exit;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

void check_writable(const std::string& path, const std::string& option) {
  Location loc{option + " " + path, 0, 0};
  if (path.empty()) throw ConfigError(loc, "", "empty output path");
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw ConfigError(loc, "", "is a directory, expected a file path");
  // The new file is renamed into place, which would replace a device, pipe or socket.
  if (fs::exists(fs::symlink_status(path, ec)) && !fs::is_regular_file(fs::symlink_status(path, ec)))
    throw ConfigError(loc, "", "is not a regular file (device, pipe, socket or symbolic link), expected a file path");
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec))
    throw ConfigError(loc, "",
                      fs::exists(dir, ec) ? "'" + dir.string() + "' is not a directory"
                                          : "directory '" + dir.string() + "' does not exist");
  if (::access(dir.c_str(), W_OK) != 0) throw ConfigError(loc, "", "directory '" + dir.string() + "' is not writable");
}

void write_file_atomic(const std::string& path, const std::string& content) { write_files_atomic({{path, content}}); }

void write_files_atomic(const std::vector<std::pair<std::string, std::string>>& files,
                        const std::vector<std::string>& options) {
  auto where = [&](size_t i) {
    return Location{i < options.size() ? options[i] + " " + files[i].first : files[i].first, 0, 0};
  };
  std::error_code ec;
  for (size_t i = 0; i < files.size(); ++i) {
    auto st = fs::symlink_status(files[i].first, ec);
    if (fs::exists(st) && !fs::is_regular_file(st))
      throw ConfigError(where(i), "", "is not a regular file, expected a file path");
  }
  std::vector<std::string> tmps;
  auto remove_tmps = [&tmps]() {
    for (const auto& t : tmps) {
      std::remove(t.c_str());
      unregister_temp_file(t);
    }
  };
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string& path = files[i].first;
    std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(i);
    register_temp_file(tmp);
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      unregister_temp_file(tmp);
      remove_tmps();
      throw ConfigError(where(i), "", "cannot open for writing");
    }
    tmps.push_back(tmp);
    out << files[i].second;
    out.flush();
    if (!out) {
      remove_tmps();
      throw ConfigError(where(i), "", "write failed");
    }
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (std::rename(tmps[i].c_str(), files[i].first.c_str()) != 0) {
      for (size_t j = 0; j < i; ++j) std::remove(files[j].first.c_str());
      remove_tmps();
      throw ConfigError(where(i), "", "cannot rename the temporary file into place");
    }
  }
  for (const auto& t : tmps) unregister_temp_file(t);
}

}  // namespace trn::sim
