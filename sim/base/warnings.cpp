// warn (warnings.h): one line per distinct message.
#include "sim/base/warnings.h"

#include <cstdio>
#include <set>

namespace trn::sim {

void warn(const std::string& message) {
  static std::set<std::string> printed;
  if (!printed.insert(message).second) return;
  std::fprintf(stderr, "trnsim: warning: %s\n", message.c_str());
  std::fflush(stderr);
}

}  // namespace trn::sim
