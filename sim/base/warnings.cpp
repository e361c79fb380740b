// warn and progress_on_stderr (warnings.h).
#include "sim/base/warnings.h"

#include <unistd.h>

#include <cstdio>
#include <set>

namespace trn::sim {
namespace {
int forced_progress = -1;  // -1: stderr is a terminal; 0 or 1: forced
}  // namespace

void warn(const std::string& message) {
  static std::set<std::string> printed;
  if (!printed.insert(message).second) return;
  std::fprintf(stderr, "trnsim: warning: %s\n", message.c_str());
  std::fflush(stderr);
}

bool progress_on_stderr() { return forced_progress < 0 ? isatty(2) != 0 : forced_progress != 0; }

void force_progress_on_stderr(bool on) { forced_progress = on ? 1 : 0; }

}  // namespace trn::sim
