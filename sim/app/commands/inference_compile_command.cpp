// `trnsim inference-compile` (inference_compile.h): NxD Inference's model.compile() of one
// model, as the compile fit predicts its inference_compile observations.
#include <cmath>
#include <cstdio>
#include <map>

#include "models/spec/system_spec.h"
#include "sim/app/commands/common.h"
#include "sim/app/commands/documents.h"
#include "sim/app/commands/inference_compile.h"
#include "sim/app/commands/startup_intervals.h"
#include "sim/base/config_node.h"
#include "sim/base/config_reader.h"
#include "sim/base/paths.h"
#include "workloads/compile/first_step.h"
#include "workloads/compile/inventory.h"

namespace trn::app {

namespace {

using sim::ConfigError;
using sim::Location;

// The model: an NxD Inference contributed model of the fit by its name (nxdi-...), else
// whatever `--model` takes elsewhere (zoo name, YAML, config.json, model directory).
workloads::ModelSpec model_of(const InferenceCompileOptions& o) {
  if (o.model.empty())
    throw ConfigError(Location{"--model", 0, 0}, "",
                      "missing: a zoo name, a model YAML, a Hugging Face config.json or model directory, or a name "
                      "in workloads/calibration/compile_models.yaml (nxdi-...)");
  if (o.model.rfind("nxdi-", 0) == 0 && o.model.find('/') == std::string::npos) {
    const std::string path = workloads::inference_models_path();
    const auto models = workloads::load_models_file(path);
    const auto it = models.find(o.model);
    if (it == models.end()) {
      std::vector<std::string> names;
      for (const auto& [n, m] : models) names.push_back(n);
      const std::string near = sim::nearest_name(o.model, names);
      throw ConfigError(Location{"--model", 0, 0}, "",
                        "unknown NxD Inference model '" + o.model + "' (not in " + path + ")" +
                            (near.empty() ? "" : "; did you mean '" + near + "'?"));
    }
    if (!o.sets.empty())
      throw ConfigError(Location{"--set", 0, 0}, "",
                        "--set applies to a zoo, YAML or config.json model, not to " + o.model);
    return it->second;
  }
  return workloads::load_model(o.model, o.sets);
}

std::string bucket_list(const std::vector<int>& b) {
  std::string s;
  for (size_t i = 0; i < b.size(); ++i) s += (i ? ", " : "") + std::to_string(b[i]);
  return s;
}

/// How the text names the graphs' lengths: NxD Inference's bucketing off or on, or the lists.
std::string buckets_text(const workloads::InferenceCompileJob& j) {
  if (j.cte_buckets.empty() && j.tkg_buckets.empty()) return j.buckets ? ", bucketing on" : ", no bucketing";
  return "; context-encoding buckets " + bucket_list(workloads::context_encoding_buckets(j)) +
         ", token-generation buckets " + bucket_list(workloads::token_generation_buckets(j));
}

void check_layout(const InferenceCompileOptions& o, const workloads::ModelSpec& m) {
  auto bad = [](const char* opt, const std::string& why) { throw ConfigError(Location{opt, 0, 0}, "", why); };
  if (o.job.tp < 1) bad("--tp", "expected a tensor-parallel degree of at least 1");
  if (o.job.tp > m.num_heads)
    bad("--tp", "TP " + std::to_string(o.job.tp) + " is more than the model's " + std::to_string(m.num_heads) +
                    " attention heads: a rank would hold no head");
  if (o.job.batch < 1) bad("--batch", "expected a batch of at least 1 sequence");
  if (o.job.seq < 1) bad("--seq", "missing: the sequence length in tokens (NxD Inference's seq_len), e.g. --seq 512");
  if (o.job.seq > m.max_position)
    bad("--seq", "sequence " + std::to_string(o.job.seq) + " is longer than the model's " +
                     std::to_string(m.max_position) + " positions");
  auto check_buckets = [&](const char* opt, const std::vector<int>& b) {
    for (size_t i = 0; i < b.size(); ++i)
      if (b[i] < 1 || b[i] > o.job.seq || (i > 0 && b[i] <= b[i - 1]))
        bad(opt,
            "expected increasing lengths from 1 to --seq (" + std::to_string(o.job.seq) + "), found " + bucket_list(b));
  };
  check_buckets("--cte-buckets", o.job.cte_buckets);
  check_buckets("--tkg-buckets", o.job.tkg_buckets);
}

}  // namespace

InferenceCompileResult run_inference_compile(const InferenceCompileOptions& o) {
  InferenceCompileResult r;
  r.options = o;
  r.model = model_of(o);
  check_layout(o, r.model);
  workloads::InferenceCompileJob job = o.job;
  if (!models::parse_sdk_release(o.sdk, &job.sdk))
    throw ConfigError(Location{"--sdk", 0, 0}, "", "expected a release such as \"2.28\", found '" + o.sdk + "'");
  const models::SystemSpec sys = models::load_system(o.system, {}, 1);
  r.system = sys.name;
  r.chip = sys.chip.name;
  models::HostLimits host;
  host.vcpus = sys.host.vcpus;
  host.memory = sys.host.memory.v;
  r.host_vcpus = host.vcpus;
  r.host_memory = host.memory;
  r.weights_per_rank = workloads::kInferenceBytes * r.model.parameters() / o.job.tp;
  const workloads::TokenGenerationBytes tkg =
      workloads::token_generation_bytes(r.model, o.job.tp, o.job.batch, o.job.seq);
  r.tkg_read_per_rank = tkg.read();
  r.kv_cache_per_rank = tkg.kv_cache;
  r.hbm_per_rank = sys.chip.hbm.capacity.v * sys.chip.cores.default_lnc / sys.chip.cores.physical;

  const models::CompileParams p = workloads::load_compile_params();
  const workloads::InferenceCompileInputs in = workloads::inference_compile_inputs(r.model, job, host);
  r.compile = workloads::inference_compile(in, p);
  r.traced_ops = in.inventory.traced_ops;
  for (const auto& j : in.inventory.jobs)
    r.graphs.push_back({j.name, models::instruction_units(p, j), models::compile_seconds(p, j), j.modules});

  if (o.intervals) {
    // As for a startup figure (startup_intervals.cpp): the compile fit's parameter axes, its
    // structural sigma on the whole figure, and a distance term for a chip it has no data on.
    const IntervalModel model = load_interval_model();
    const FitSpread& cf = model.compile;
    const double f0 = r.compile.total_s;
    double var = 0;
    for (const auto& q : along_axes(cf, p)) {
      const double d = std::log(workloads::inference_compile(in, q).total_s / f0);
      var += d * d;
    }
    const std::vector<std::string> why = uncovered_inference(cf, r.chip);
    const double st = cf.structural_log_sigma;
    r.interval = log_normal_interval(f0, model.level, std::sqrt(var), st, st * std::sqrt(double(why.size())));
    r.interval.by_param.emplace_back("compile parameters", std::sqrt(var));
    r.interval.why = why;
  }

  std::string inputs = "command: inference-compile\nmodel:\n" + sim::to_yaml(sim::write_config(r.model)) +
                       "tp: " + std::to_string(o.job.tp) + "\nbatch: " + std::to_string(o.job.batch) +
                       "\nseq: " + std::to_string(o.job.seq) + "\nbuckets: " + (o.job.buckets ? "true" : "false") +
                       "\ncte_buckets: [" + bucket_list(workloads::context_encoding_buckets(o.job)) +
                       "]\ntkg_buckets: [" + bucket_list(workloads::token_generation_buckets(o.job)) + "]" +
                       "\nown_compiler_args: " + (o.job.own_compiler_args ? "true" : "false") + "\nsdk: '" + o.sdk +
                       "'\nsystem:\n" + models::resolved_yaml(sys, "") + "compile_params:\n" +
                       sim::to_yaml(sim::write_config(p));
  if (o.intervals) inputs += "intervals:\n" + interval_inputs_text();
  r.inputs_hash = inputs_hash(inputs);
  return r;
}

void write_inference_compile_text(const InferenceCompileResult& r, FILE* out) {
  const auto& o = r.options;
  const auto& m = r.model;
  std::fprintf(out, "NxD Inference model.compile() of %s: %d layers, hidden %d, %s\n", m.name.c_str(), m.num_layers,
               m.hidden_size, workloads::parameter_summary(m).c_str());
  std::fprintf(out, "  TP %d, batch %d, sequence %d%s; %s; SDK %s; compiled on one %s host (%d vCPUs, %s)\n", o.job.tp,
               o.job.batch, o.job.seq, buckets_text(o.job).c_str(),
               o.job.own_compiler_args ? "the model's own compiler arguments (one -O1 module per graph)"
                                       : "NxD Inference's compiler arguments",
               o.sdk.empty() ? "current" : o.sdk.c_str(), r.system.c_str(), r.host_vcpus, gib(r.host_memory).c_str());
  std::fprintf(out, "  %-26s %12s %8s %12s\n", "graph", "units", "modules", "compile (s)");
  for (size_t i = 0; i < r.graphs.size(); ++i) {
    const auto& g = r.graphs[i];
    std::fprintf(out, "  %-26s %12.0f %8d %12.1f%s\n", g.name.c_str(), g.units, g.modules, g.seconds,
                 i == 0 ? "  (the priority graph: compiled alone, first)" : "");
  }
  std::fprintf(out, "  %-48s %12.1f\n", "HLO tracing of every graph", r.compile.tracing_s);
  std::fprintf(out, "  %-48s %12.1f\n", "the priority graph", r.compile.priority_s);
  char rest[96];
  if (r.graphs.size() == 2)
    std::snprintf(rest, sizeof rest, "the other graph");
  else
    std::snprintf(rest, sizeof rest, "the other %zu graphs on %d worker%s", r.graphs.size() - 1, r.compile.rest.workers,
                  r.compile.rest.workers == 1 ? "" : "s");
  std::fprintf(out, "  %-48s %12.1f\n", rest, r.compile.rest.wall_s);
  std::fprintf(out, "compile time      %.1f s%s\n", r.compile.total_s, interval_text(r.interval, "%.1f").c_str());
  for (const auto& w : r.interval.why) std::fprintf(out, "  wider: %s\n", w.c_str());
  std::fprintf(out, "token generation reads %.2f GB per rank per step (weights, KV cache; neuron-profile's HBM Read)\n",
               r.tkg_read_per_rank / 1e9);
  if (!r.fits())
    std::fprintf(out,
                 "note: a rank holds %s of 16-bit weights and a %s KV cache, more than the %s of HBM of one NeuronCore "
                 "of %s: the model compiles but cannot load at TP %d\n",
                 gib(r.weights_per_rank).c_str(), gib(r.kv_cache_per_rank).c_str(), gib(r.hbm_per_rank).c_str(),
                 r.chip.c_str(), o.job.tp);
}

nlohmann::ordered_json inference_compile_json(const InferenceCompileResult& r) {
  const auto& o = r.options;
  nlohmann::ordered_json js;
  js["model"] = r.model.name;
  js["tp"] = o.job.tp;
  js["batch"] = o.job.batch;
  js["seq_len"] = o.job.seq;
  js["buckets"] = o.job.buckets;
  js["cte_buckets"] = workloads::context_encoding_buckets(o.job);
  js["tkg_buckets"] = workloads::token_generation_buckets(o.job);
  js["own_compiler_args"] = o.job.own_compiler_args;
  js["sdk"] = o.sdk.empty() ? "current" : o.sdk;
  js["system"] = r.system;
  js["host_vcpus"] = r.host_vcpus;
  js["host_memory_bytes"] = json_count(r.host_memory);
  js["weights_per_rank_bytes"] = json_count(r.weights_per_rank);
  js["hbm_per_rank_bytes"] = json_count(r.hbm_per_rank);
  js["tkg_read_per_rank_bytes"] = json_count(r.tkg_read_per_rank);
  js["kv_cache_per_rank_bytes"] = json_count(r.kv_cache_per_rank);
  js["fits_hbm"] = r.fits();
  js["traced_ops"] = r.traced_ops;
  for (const auto& g : r.graphs)
    js["graphs"].push_back({{"name", g.name}, {"units", g.units}, {"modules", g.modules}, {"compile_s", g.seconds}});
  js["tracing_s"] = r.compile.tracing_s;
  js["priority_s"] = r.compile.priority_s;
  js["rest_s"] = r.compile.rest.wall_s;
  js["workers"] = r.compile.rest.workers;
  js["compile_s"] = r.compile.total_s;
  if (r.interval.valid) js["interval"] = interval_json(r.interval);
  return stamped(Document::InferenceCompile, r.inputs_hash, js);
}

}  // namespace trn::app
