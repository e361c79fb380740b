// NxD Inference's model.compile() as the compile model sees it (docs/startup.md 1.2, 3.1): the
// HLO tracing of every graph, the priority graph (the smallest token-generation bucket) compiled
// alone, then every other graph at once on the host's compile workers. The same closed form
// predicts the fit's inference_compile observations (sim/app/calibration) and answers
// `trnsim inference-compile`.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "models/collectives/sdk_release.h"
#include "models/compile/compile_model.h"
#include "workloads/compile/inventory.h"
#include "workloads/model/model_spec.h"

namespace trn::workloads {

/// The architectures of a models file (a `models:` list of model-zoo documents, as
/// workloads/calibration/compile_models.yaml), validated, by name. Throws ConfigError.
std::map<std::string, ModelSpec> load_models_file(const std::string& path);
/// The NxD Inference contributed models whose compile times the fit uses
/// (workloads/calibration/compile_models.yaml under the data root).
std::string inference_models_path();

/// One model.compile(): the model at a tensor-parallel degree, batch and sequence length.
struct InferenceCompileJob {
  int tp = 1, batch = 1, seq = 128;
  bool buckets = false;  // enable_bucketing: a graph per power-of-two length up to seq
  // Explicit buckets (context_encoding_buckets, token_generation_buckets), increasing lengths up
  // to seq; empty: from seq and `buckets`.
  std::vector<int> cte_buckets, tkg_buckets;
  bool own_compiler_args = false;  // the model passes its own compiler arguments (one -O1 module each)
  models::SdkRelease sdk;          // {0, 0}: the current release
};

/// The inventory (each graph's compile scaled by the release's factor) and the host: the
/// inputs of inference_compile, computed once.
struct InferenceCompileInputs {
  Inventory inventory;
  models::HostLimits host;
};

/// The context-encoding and token-generation lengths `job` compiles a graph for.
std::vector<int> context_encoding_buckets(const InferenceCompileJob& job);
std::vector<int> token_generation_buckets(const InferenceCompileJob& job);

InferenceCompileInputs inference_compile_inputs(const ModelSpec& m, const InferenceCompileJob& job,
                                                const models::HostLimits& host);

struct InferenceCompile {
  double tracing_s = 0;       // the traced ops times t_capture_op
  double priority_s = 0;      // the priority graph, compiled alone
  models::CompilePhase rest;  // every other graph on the host's workers
  double total_s = 0;
};

/// The compile of `in` under parameters `p`.
InferenceCompile inference_compile(const InferenceCompileInputs& in, const models::CompileParams& p);

}  // namespace trn::workloads
