// NxD Inference's model.compile() (see inference_compile.h).
#include "workloads/compile/inference_compile.h"

#include "models/compile/compiler_release.h"
#include "sim/base/config_loader.h"
#include "sim/base/paths.h"

namespace trn::workloads {

namespace {
struct ModelsFile {
  std::vector<ModelSpec> models;
  template <class V>
  void visit(V& v) {
    v.list("models", models, sim::F("model architectures (model-zoo fields)"));
  }
};
}  // namespace

std::map<std::string, ModelSpec> load_models_file(const std::string& path) {
  sim::ConfigNode root = sim::load_config_file(path);
  ModelsFile mf;
  sim::read_config(root, mf);
  const sim::ConfigNode* list = root.find("models");
  std::map<std::string, ModelSpec> out;
  for (size_t k = 0; k < mf.models.size(); ++k) {
    mf.models[k].validate(list->list[k], "models[" + std::to_string(k) + "].");
    out[mf.models[k].name] = mf.models[k];
  }
  return out;
}

std::string inference_models_path() { return sim::data_root() + "/workloads/calibration/compile_models.yaml"; }

std::vector<int> context_encoding_buckets(const InferenceCompileJob& job) {
  return job.cte_buckets.empty() ? inference_buckets(job.seq, job.buckets) : job.cte_buckets;
}

std::vector<int> token_generation_buckets(const InferenceCompileJob& job) {
  return job.tkg_buckets.empty() ? inference_buckets(job.seq, job.buckets) : job.tkg_buckets;
}

InferenceCompileInputs inference_compile_inputs(const ModelSpec& m, const InferenceCompileJob& job,
                                                const models::HostLimits& host) {
  InferenceCompileInputs in;
  in.inventory = inference_inventory(m, job.tp, job.batch, context_encoding_buckets(job), token_generation_buckets(job),
                                     !job.own_compiler_args, false);
  const double scale = models::compiler_release_factor(job.sdk, false);
  for (auto& j : in.inventory.jobs) j.scale = scale;
  in.host = host;
  return in;
}

InferenceCompile inference_compile(const InferenceCompileInputs& in, const models::CompileParams& p) {
  InferenceCompile r;
  const auto& jobs = in.inventory.jobs;
  r.tracing_s = in.inventory.traced_ops * p.t_capture_op.v;
  if (!jobs.empty()) {
    r.priority_s = models::compile_seconds(p, jobs.front());
    const std::vector<models::CompileJob> rest(jobs.begin() + 1, jobs.end());
    r.rest = models::compile_phase(p, rest, models::Schedule::Parallel, in.host, 1.0, 0);
  }
  r.total_s = r.tracing_s + r.priority_s + r.rest.wall_s;
  return r;
}

}  // namespace trn::workloads
