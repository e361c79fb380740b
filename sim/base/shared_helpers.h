// Small integer and text helpers that several translation units share (one definition, so that
// the unity build, CMakeLists.txt, never sees two).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace trn::sim {

/// ceil(a / b) for a >= 0, b > 0.
inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Whether n is a positive power of two.
inline bool is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

/// The largest element of v, 0 when v is empty (the highest rank of a group).
inline int max_rank(const std::vector<int>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

/// The strings of v with sep between them.
inline std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

}  // namespace trn::sim
