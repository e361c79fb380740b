// `trnsim inference-compile`: how long NxD Inference's model.compile() takes for a model at a
// tensor-parallel degree, batch and sequence length (docs/startup.md 6.5): the closed form of
// the compile fit's inference_compile observations (workloads/compile/inference_compile.h),
// each graph's size and time, and the 80 % interval. Options in, run_inference_compile, result
// out; separate writers.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "sim/app/analysis/intervals.h"
#include "workloads/compile/inference_compile.h"
#include "workloads/model/model_spec.h"

namespace trn::app {

struct InferenceCompileOptions {
  /// The job's defaults with no sequence length (seq 0: --seq not given).
  static workloads::InferenceCompileJob not_given() {
    workloads::InferenceCompileJob j;
    j.seq = 0;
    return j;
  }
  std::string model;                                 // zoo name, YAML, config.json, model directory, or nxdi-* name
  std::vector<std::string> sets;                     // model assignments (--set)
  workloads::InferenceCompileJob job = not_given();  // --tp, --batch, --seq, --buckets, --own-compiler-args
  std::string sdk;                                   // "" : the current release (job.sdk is parsed from it)
  std::string system = "trn1.32xlarge";              // the host that compiles (and the chip the ranks load on)
  bool intervals = true;
};

struct InferenceGraph {
  std::string name;
  double units = 0, seconds = 0;
  int modules = 1;
};

struct InferenceCompileResult {
  workloads::ModelSpec model;
  InferenceCompileOptions options;
  std::string system, chip;
  int host_vcpus = 0;
  double host_memory = 0;        // bytes
  double weights_per_rank = 0;   // bytes (16-bit)
  double tkg_read_per_rank = 0;  // HBM bytes a token-generation step reads on a rank (weights, KV cache)
  double kv_cache_per_rank = 0;  // bytes of KV cache a rank holds: every layer's keys and values, each sequence
  double hbm_per_rank = 0;       // bytes of HBM one logical NeuronCore holds
  double traced_ops = 0;
  std::vector<InferenceGraph> graphs;  // the priority graph first
  workloads::InferenceCompile compile;
  PredictionInterval interval;
  std::string inputs_hash;
  bool fits() const { return weights_per_rank + kv_cache_per_rank <= hbm_per_rank; }
};

/// Throws ConfigError for a bad model, layout or release.
InferenceCompileResult run_inference_compile(const InferenceCompileOptions& o);
void write_inference_compile_text(const InferenceCompileResult& r, FILE* out);
/// The --json document (docs/schema/inference-compile.schema.json).
nlohmann::ordered_json inference_compile_json(const InferenceCompileResult& r);

}  // namespace trn::app
