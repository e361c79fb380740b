// Reconstructed FlexAttention suite (see flex_suite.h).
#include "workloads/compile/flex_suite.h"

#include <cmath>

namespace trn::workloads {

std::vector<FlexCase> flex_suite() {
  // Vector operations per block that each variant's mask_mod / score_mod adds.
  const std::vector<std::pair<std::string, int>> variants = {
      {"none", 0},     {"causal", 1}, {"sliding_window", 3}, {"prefix_lm", 3},
      {"document", 3}, {"alibi", 3},  {"softcap", 3},        {"causal_softcap", 4}};
  std::vector<FlexCase> out;
  for (const auto& [name, ops] : variants)
    for (int b : {1, 2, 4})
      for (int s : {1024, 2048, 4096, 8192}) {
        FlexCase c;
        c.variant = name;
        c.batch = b;
        c.seq = s;
        c.mod_ops = ops;
        // Per (128-query x 512-key) block: QK^T and PV matmul tiles (head_dim / 128 each),
        // the softmax, and the mod operations; backward = 2.5 x forward.
        const double blocks = double(b) * c.heads * std::ceil(s / 128.0) * std::ceil(s / 512.0);
        const double per_block = 2.0 * std::ceil(c.head_dim / 128.0) + 1.0 + ops;
        c.units = blocks * per_block * 3.5;
        out.push_back(c);
      }
  return out;
}

std::vector<FlexResult> run_flex_suite(const models::CompileParams& p, double budget_s, double speedup) {
  std::vector<FlexResult> out;
  for (const auto& c : flex_suite()) {
    models::CompileJob j;
    j.name = c.variant;
    j.units = c.units;
    FlexResult r;
    r.c = c;
    r.seconds = models::compile_seconds(p, j) / speedup;
    r.pass = r.seconds <= budget_s;
    out.push_back(r);
  }
  return out;
}

bool flex_published_fail(const FlexCase& c) { return c.batch == 4 && c.seq == 8192 && c.mod_ops > 0; }

}  // namespace trn::workloads
