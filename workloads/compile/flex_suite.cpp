// Reconstructed FlexAttention suite (see flex_suite.h).
#include "workloads/compile/flex_suite.h"

#include <cmath>

#include "models/compile/compiler_release.h"

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
        c.tiles = blocks * per_block * 3.5;
        // The forward and backward FlexAttention ops (scores, softmax, output, and their
        // gradients: about ten) and each mod's ops in both.
        c.ops = 10 + 2.0 * ops;
        out.push_back(c);
      }
  return out;
}

models::CompileJob flex_job(const FlexCase& c) {
  models::CompileJob j;
  j.name = c.variant;
  j.tiles = c.tiles;
  j.ops = c.ops;
  j.scale = models::compiler_release_factor(models::SdkRelease{}, false);
  return j;
}

std::vector<FlexResult> run_flex_suite(const models::CompileParams& p, double budget_s, double speedup) {
  std::vector<FlexResult> out;
  for (const auto& c : flex_suite()) {
    const models::CompileJob j = flex_job(c);
    FlexResult r;
    r.c = c;
    r.units = models::instruction_units(p, j);
    r.seconds = models::compile_seconds(p, j) / speedup;
    r.pass = r.seconds <= budget_s;
    out.push_back(r);
  }
  return out;
}

bool flex_published_fail(const FlexCase& c) { return c.batch == 4 && c.seq == 8192 && c.mod_ops > 0; }

}  // namespace trn::workloads
