// Shared pieces of the libFuzzer targets (test/fuzz/fuzz_*.cpp): a private scratch directory
// for the input files, the "#set KEY=VALUE" lines an input may carry, and the contract every
// target checks. Bad input may only end in sim::ConfigError, whose message is one non-empty
// line naming a place; anything else (another exception, a crash, a sanitizer report, a
// hang) is a failure that libFuzzer reports.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/base/config_node.h"

namespace trn::fuzz {

namespace fs = std::filesystem;

/// A scratch directory of this process, created on first use and removed at exit.
inline const std::string& scratch_dir() {
  static const std::string dir = [] {
    std::string tpl = (fs::temp_directory_path() / "trnsim-fuzz-XXXXXX").string();
    if (!mkdtemp(tpl.data())) {
      std::perror("mkdtemp");
      std::abort();
    }
    static std::string remove_at_exit;
    remove_at_exit = tpl;
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(remove_at_exit, ec);
    });
    return tpl;
  }();
  return dir;
}

/// Writes `text` to scratch_dir()/name (creating subdirectories) and returns the path.
inline std::string write_scratch(const std::string& name, const std::string& text) {
  fs::path p = fs::path(scratch_dir()) / name;
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) {
    std::fprintf(stderr, "fuzz: cannot write %s\n", p.c_str());
    std::abort();
  }
  return p.string();
}

/// The command-line assignments an input carries as comment lines "#set KEY=VALUE", so the
/// fuzzer also exercises --set (dotted paths, YAML values) without a second input channel.
inline std::vector<std::string> set_lines(const std::string& text) {
  std::vector<std::string> sets;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (text.compare(start, 5, "#set ") == 0 && end - start > 5)
      sets.push_back(text.substr(start + 5, end - start - 5));
    start = end + 1;
  }
  return sets;
}

[[noreturn]] inline void failure(const std::string& what) {
  std::fprintf(stderr, "fuzz: contract violated: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

/// The shape of a user-facing error: one non-empty line that starts with a place
/// (a file, "--set #N ..." or an option) followed by ": ".
inline void check_message(const char* what) {
  const std::string m = what;
  if (m.empty()) failure("empty ConfigError message");
  if (m.find('\n') != std::string::npos || m.find('\r') != std::string::npos)
    failure("ConfigError message spans several lines: " + m);
  if (m.find(": ") == std::string::npos || m.rfind(": ", 0) == 0) failure("ConfigError message names no place: " + m);
}

/// Runs `f`; a ConfigError is the expected outcome of bad input and is checked for its shape.
/// Returns true when `f` completed. Any other exception propagates, so libFuzzer (or the
/// replay driver) reports it as a crash.
template <class F>
bool expect_config_errors(F&& f) {
  try {
    f();
    return true;
  } catch (const sim::ConfigError& e) {
    check_message(e.what());
    return false;
  }
}

/// Feeding a resolved dump back must reproduce it exactly (docs/architecture.md section 3): loads
/// `text` (the resolved YAML of something `load` just accepted) through `load` and compares
/// `dump` of the result. A ConfigError here is a failure, not an expected outcome.
template <class Load, class Dump>
void check_roundtrip(const std::string& name, const std::string& text, Load load, Dump dump) {
  const std::string path = write_scratch(name, text);
  std::string again;
  try {
    again = dump(load(path));
  } catch (const sim::ConfigError& e) {
    failure("the resolved dump does not load again: " + std::string(e.what()) + "\n--- dump:\n" + text);
  }
  if (again != text)
    failure("the resolved dump changes when loaded again:\n--- first:\n" + text + "--- again:\n" + again);
}

}  // namespace trn::fuzz
