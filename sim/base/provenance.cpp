// The build version (generated header) and the FNV-1a 64 hash of inputs.
#include "sim/base/provenance.h"

#include <cstdint>
#include <cstdio>

#include "trnsim_version.h"  // generated in the build tree by cmake/trnsim_version.cmake

namespace trn::sim {

const std::string& trnsim_version() {
  static const std::string v = TRNSIM_VERSION;
  return v;
}

std::string fnv1a64_hex(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a 64 offset basis
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;  // FNV-1a 64 prime
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace trn::sim
