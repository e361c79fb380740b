// DType helpers.
#include "models/cost/dtype.h"

namespace trn::models {

namespace {
struct Row {
  DType t;
  const char* name;
  double bytes;
};
const Row kRows[] = {{DType::FP32, "fp32", 4},  {DType::BF16, "bf16", 2},   {DType::FP16, "fp16", 2},
                     {DType::FP8, "fp8", 1},    {DType::MXFP8, "mxfp8", 1}, {DType::MXFP4, "mxfp4", 0.5},
                     {DType::UINT8, "uint8", 1}};
}  // namespace

double dtype_bytes(DType t) {
  for (const auto& r : kRows)
    if (r.t == t) return r.bytes;
  return 4;
}

const char* dtype_name(DType t) {
  for (const auto& r : kRows)
    if (r.t == t) return r.name;
  return "?";
}

bool parse_dtype(const std::string& s, DType* out) {
  for (const auto& r : kRows)
    if (s == r.name) {
      *out = r.t;
      return true;
    }
  return false;
}

std::string dtype_names() {
  std::string s;
  for (const auto& r : kRows) s += (s.empty() ? "" : ", ") + std::string(r.name);
  return s;
}

}  // namespace trn::models
