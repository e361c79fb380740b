// Neuron SDK releases: parsing.
#include "models/collectives/sdk_release.h"

#include <cctype>

namespace trn::models {

namespace {
// Reads a decimal number of at most 3 digits at s[i], advancing i; false if none.
bool number(const std::string& s, size_t& i, int* out) {
  const size_t start = i;
  int v = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && i - start < 3) v = v * 10 + (s[i++] - '0');
  if (i == start || (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))) return false;
  *out = v;
  return true;
}
}  // namespace

bool parse_sdk_release(const std::string& s, SdkRelease* out) {
  if (s.empty()) {
    *out = SdkRelease{};
    return true;
  }
  size_t i = 0;
  SdkRelease r;
  int patch = 0;
  if (!number(s, i, &r.major) || i >= s.size() || s[i++] != '.' || !number(s, i, &r.minor)) return false;
  if (i < s.size() && (s[i++] != '.' || !number(s, i, &patch))) return false;
  if (i != s.size() || r.major < 1) return false;
  *out = r;
  return true;
}

}  // namespace trn::models
