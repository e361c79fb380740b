// `trnsim bench matmul`, `trnsim bench hbm` and `trnsim show`: one chip, NeuronCore programs
// on the SystemC models compared with the closed-form cost models, and the resolved
// configuration of a system or chip. Options in, run_X, result out; separate writers.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "models/cost/dtype.h"
#include "models/kernels/matmul_kernel.h"
#include "models/spec/system_spec.h"

namespace trn::app {

struct MatmulOptions {
  std::vector<std::string> sets;  // --set key=value
  std::string chip = "trn2", dtype = "bf16";
  int64_t m = 4096, n = 4096, k = 4096;
};
/// Throws ConfigError for a bad dtype or dimension (before any configuration is read).
models::DType parse_matmul(const MatmulOptions& o);
struct MatmulResult {
  models::ChipSpec chip;
  models::MatmulShape shape;
  models::MatmulKernel kernel;
  double time_s = 0, peak = 0, tflops = 0, utilization = 0;
  std::string inputs_hash;  // of the resolved chip and the shape (documents.h)
};
MatmulResult run_matmul(const MatmulOptions& o);
void write_matmul_text(const MatmulResult& r, FILE* out);
/// The --json document (docs/schema/bench-matmul.schema.json).
nlohmann::ordered_json matmul_json(const MatmulResult& r);

struct HbmOptions {
  std::vector<std::string> sets;
  std::string chip = "trn2", bytes = "1GiB";
  int cores = 1;
};
/// Throws ConfigError for a bad --bytes (before any configuration is read).
double parse_hbm(const HbmOptions& o);
struct HbmResult {
  models::ChipSpec chip;
  int cores = 0;
  double bytes = 0, time_s = 0, bandwidth = 0;
  std::string inputs_hash;  // of the resolved chip, the cores and the bytes (documents.h)
};
HbmResult run_hbm(const HbmOptions& o);
void write_hbm_text(const HbmResult& r, FILE* out);
/// The --json document (docs/schema/bench-hbm.schema.json).
nlohmann::ordered_json hbm_json(const HbmResult& r);

/// What `trnsim show` resolves: a system or a chip.
enum class ShowKind { System, Chip };
inline const std::vector<std::string>& enum_words(ShowKind) {
  static const std::vector<std::string> w{"system", "chip"};
  return w;
}

struct ShowOptions {
  ShowKind kind = ShowKind::System;
  std::string name;  // name (hw/configs/...) or YAML path
  std::vector<std::string> sets;
};
/// The resolved configuration as YAML.
std::string run_show(const ShowOptions& o);

}  // namespace trn::app
