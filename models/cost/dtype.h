// Element types the cost models understand, with their sizes and parsing.
#pragma once

#include <string>

namespace trn::models {

enum class DType { FP32, BF16, FP16, FP8, MXFP8, MXFP4, UINT8 };

/// Bytes per element (MXFP4 counts as 0.5; MX scale bytes are ignored).
double dtype_bytes(DType t);
const char* dtype_name(DType t);
/// Parses "fp32", "bf16", "fp16", "fp8", "mxfp8", "mxfp4", "uint8"; returns false if unknown.
bool parse_dtype(const std::string& s, DType* out);
/// Comma-separated list of accepted names, for error messages.
std::string dtype_names();

}  // namespace trn::models
