// The compile-latency fit's data (see compile_observations.h).
#include "sim/app/calibration/compile_observations.h"

#include <cmath>
#include <cstdlib>
#include <map>

#include "models/collectives/sdk_release.h"
#include "models/spec/system_spec.h"
#include "sim/app/simulation/fork_eval.h"
#include "sim/app/simulation/step_simulation.h"
#include "sim/base/config_loader.h"
#include "sim/base/paths.h"
#include "workloads/compile/first_step.h"
#include "workloads/compile/inference_compile.h"
#include "workloads/compile/inventory.h"

namespace trn::app {

using sim::ConfigError;
using sim::ConfigNode;
using sim::F;

const std::vector<std::string>& enum_words(ObservationKind) {
  static const std::vector<std::string> w{"first_step",  "compile",   "precompile", "inference_compile",
                                          "weight_load", "cache_hit", "graphs"};
  return w;
}

namespace {

struct ObservationSpec {
  std::string name, source, scenario, model, system, sdk;
  ObservationKind kind = ObservationKind::Compile;
  workloads::ExecMode mode = workloads::ExecMode::Compiled;
  std::vector<std::string> set;
  sim::Time value{0};
  double log_sigma = 0.1;
  bool held_out = false;
  int count = 0, tp = 1, batch = 1, seq = 128, hits = 1;
  bool compiler_args_override = false, buckets = false;
  int host_vcpus = 0;
  sim::Bytes host_memory{0};
  sim::Bytes bytes{0}, tkg_read{0};
  template <class V>
  void visit(V& v) {
    v.field("name", name, F("label"));
    v.field("kind", kind, F("what was measured"));
    v.field("scenario", scenario,
            F("training scenario: a name, or a path relative to this file (first_step, compile, precompile, graphs)")
                .optional());
    v.field("set", set, F("--set assignments applied to the scenario").optional());
    v.field("mode", mode, F("execution mode (first_step, compile, precompile)").optional());
    v.field("model", model, F("model of an inference_compile, by name in the models file").optional());
    v.field("system", system, F("system whose host server compiles (inference_compile)").optional());
    v.field("host_vcpus", host_vcpus,
            F("vCPUs of the compiling host, when not a system's (inference_compile)").ge(1).optional());
    v.field("host_memory", host_memory,
            F("memory of the compiling host, when not a system's (inference_compile)").gt(0).optional());
    v.field("buckets", buckets,
            F("NxD Inference bucketing on: a graph per power-of-two length up to seq (inference_compile)").optional());
    v.field("tp", tp, F("tensor-parallel degree (inference_compile)").ge(1).le(1024).optional());
    v.field("batch", batch, F("batch size (inference_compile)").ge(1).le(1 << 16).optional());
    v.field("seq", seq, F("sequence length, tokens (inference_compile)").ge(1).le(1 << 22).optional());
    v.field("compiler_args_override", compiler_args_override,
            F("the model passes its own compiler arguments: both graphs at -O1 without NxD Inference's "
              "modular-flow threshold (inference_compile)")
                .optional());
    v.field("sdk", sdk, F("Neuron SDK release of the figure (inference_compile; scenarios use their sdk:)").optional());
    v.field("bytes", bytes, F("weights loaded (weight_load)").ge(0).optional());
    v.field("tkg_read", tkg_read,
            F("HBM bytes the token-generation NEFF reads per step, neuron-profile's HBM Read (inference_compile; "
              "checked, not fitted)")
                .gt(0)
                .optional());
    v.field("hits", hits, F("graphs found in the cache (cache_hit)").ge(1).optional());
    v.field("value", value, F("measured time (every kind but graphs)").ge(0).optional());
    v.field("count", count, F("published graph count (graphs)").ge(0).optional());
    v.field("log_sigma", log_sigma, F("uncertainty of ln(value)").gt(0).optional());
    v.field("held_out", held_out, F("chosen before fitting: never fitted, reported apart").optional());
    v.field("source", source, F("where the figure comes from"));
  }
};

struct FlexSpec {
  sim::Time budget{600};
  double softness = 0.05;
  std::string source;
  template <class V>
  void visit(V& v) {
    v.field("budget", budget, F("compile budget of each test (assumption)").gt(0));
    v.field("softness", softness, F("log-width of the hinge on each pass/fail bound").gt(0));
    v.field("source", source, F("where the outcome comes from"));
  }
};

struct CompileObservationFile {
  std::string models;
  std::vector<ObservationSpec> observations;
  FlexSpec flexattention;
  models::CompileParams prior;
  template <class V>
  void visit(V& v) {
    v.field("models", models, F("file of the inference models' architectures, relative to this file"));
    v.list("observations", observations, F("measured first steps, compile times, loads and graph counts"));
    v.section("flexattention", flexattention, F("the Trainium3 FlexAttention suite outcome"));
    v.section("prior", prior, F("prior (starting) value of every parameter"));
  }
};

// `prior_log_sigma` (parameter -> log sigma) names the fitted parameters and their priors.
void read_prior_sigmas(const ConfigNode& root, const ConfigNode& sig_node, ObservationSet& set) {
  ParamRefs refs;
  set.prior.visit(refs);
  if (sig_node.kind == ConfigNode::Kind::Null)
    throw ConfigError(root.loc, "prior_log_sigma", "missing map of parameter -> log sigma");
  if (!sig_node.is_map())
    throw ConfigError(sig_node.loc, "prior_log_sigma",
                      "expected a map of parameter -> log sigma, found " + sig_node.kind_name());
  for (const auto& e : sig_node.map) {
    double* ptr = nullptr;
    for (auto& [k, p] : refs.refs)
      if (k == e.key) ptr = p;
    if (!ptr) throw ConfigError(e.key_loc, "prior_log_sigma." + e.key, "unknown parameter '" + e.key + "'");
    char* end = nullptr;
    const double sg = std::strtod(e.value.scalar.c_str(), &end);
    if (!e.value.is_scalar() || e.value.quoted || e.value.scalar.empty() || *end != '\0' || !(sg > 0) ||
        !std::isfinite(sg))
      throw ConfigError(e.value.loc, "prior_log_sigma." + e.key,
                        "expected a positive number (log-normal sigma of the prior), found '" + e.value.scalar + "'");
    if (!(*ptr > 0)) throw ConfigError(e.key_loc, "prior." + e.key, "a fitted parameter needs a positive prior");
    set.fitted.push_back(e.key);
    set.prior_log_sigma.push_back(sg);
  }
}

// The location of key `key` of observation `i` (or of the observation itself).
sim::Location where(const ConfigNode& root, size_t i, const char* key) {
  const ConfigNode& item = root.find("observations")->list[i];
  const ConfigNode* at = item.find(key);
  return at ? at->loc : item.loc;
}

std::string key_of(size_t i, const char* key) { return "observations[" + std::to_string(i) + "]." + key; }

// Fails unless observation i gives every key in `keys`.
void require(const ConfigNode& root, size_t i, const ObservationSpec& o, std::initializer_list<const char*> keys) {
  const ConfigNode& item = root.find("observations")->list[i];
  for (const char* k : keys)
    if (!item.find(k))
      throw ConfigError(item.loc, key_of(i, k),
                        "missing key '" + std::string(k) + "' (needed by kind " + sim::word_of(o.kind) + ")");
}

// A scenario by name (workloads/scenarios) or by a path relative to the observations file.
workloads::ScenarioSpec scenario_of(const ConfigNode& root, size_t i, const ObservationSpec& o,
                                    const std::string& dir) {
  std::vector<std::string> sets = o.set;
  sets.push_back("mode=" + sim::word_of(o.mode));
  const sim::Location at = where(root, i, "scenario");
  const std::string key = key_of(i, "scenario");
  const bool relative_path = o.scenario.find('/') != std::string::npos && o.scenario[0] != '/';
  const std::string path = sim::resolve_named_config(relative_path ? dir + "/" + o.scenario : o.scenario,
                                                     "workloads/scenarios", "scenario", at, key);
  try {
    return workloads::load_scenario(path, sets);
  } catch (const ConfigError& e) {  // name the observation, then the scenario's own error
    throw ConfigError(at, key, e.what());
  }
}

// An NxD Inference model.compile() (ModelBuilder.trace, docs/startup.md 3.1), as
// workloads::inference_compile gives it. The weight-layout graph that follows is not modelled
// apart (docs/startup.md 3.4).
std::function<double(const models::CompileParams&)> inference_compile(const workloads::ModelSpec& m,
                                                                      const ObservationSpec& o,
                                                                      const models::HostLimits& host) {
  workloads::InferenceCompileJob job;
  job.tp = o.tp;
  job.batch = o.batch;
  job.seq = o.seq;
  job.buckets = o.buckets;
  job.own_compiler_args = o.compiler_args_override;
  models::parse_sdk_release(o.sdk, &job.sdk);
  const workloads::InferenceCompileInputs in = workloads::inference_compile_inputs(m, job, host);
  return [in](const models::CompileParams& p) { return workloads::inference_compile(in, p).total_s; };
}

// The compiling host of an inference observation: a system's host server, or the vCPUs and
// memory given.
models::HostLimits host_of(const ConfigNode& root, size_t i, const ObservationSpec& o) {
  models::HostLimits h;
  if (!o.system.empty()) {
    try {
      const models::SystemSpec sys = models::load_system(o.system, {}, 1);
      h.vcpus = sys.host.vcpus;
      h.memory = sys.host.memory.v;
    } catch (const ConfigError& e) {
      throw ConfigError(where(root, i, "system"), key_of(i, "system"), e.what());
    }
  }
  if (o.host_vcpus > 0) h.vcpus = o.host_vcpus;
  if (o.host_memory.v > 0) h.memory = o.host_memory.v;
  if (h.vcpus <= 0 || h.memory <= 0)
    throw ConfigError(root.find("observations")->list[i].loc, key_of(i, "system"),
                      "give the compiling host: a system, or host_vcpus and host_memory");
  return h;
}

void add_observation(const ConfigNode& root, size_t i, const ObservationSpec& o,
                     const std::map<std::string, workloads::ModelSpec>& models, const std::string& dir,
                     ObservationSet& set) {
  if (o.kind == ObservationKind::Graphs) {
    require(root, i, o, {"scenario", "count"});
    const workloads::ScenarioSpec s = scenario_of(root, i, o, dir);
    set.counts.push_back({o.name, o.source, o.count, workloads::build_inventory(s, o.mode).graphs()});
    return;
  }
  require(root, i, o, {"value"});
  TimedObservation t;
  t.name = o.name;
  t.source = o.source;
  t.kind = o.kind;
  t.value_s = o.value.v;
  t.log_sigma = o.log_sigma;
  t.held_out = o.held_out;
  if (!(t.value_s > 0)) throw ConfigError(where(root, i, "value"), key_of(i, "value"), "expected a positive time");
  switch (o.kind) {
    case ObservationKind::FirstStep:
    case ObservationKind::Compile:
    case ObservationKind::Precompile: {
      require(root, i, o, {"scenario", "mode"});
      const workloads::ScenarioSpec s = scenario_of(root, i, o, dir);
      const double steady =
          o.kind == ObservationKind::FirstStep
              ? run_in_child([&]() -> std::vector<double> { return {simulate(s, StepOptions{}).step_time_s}; },
                             "steady step for " + o.name)[0]
              : 0.0;
      t.chip = s.system.chip.name;
      t.frontend = sim::word_of(s.compile.frontend);
      t.mode = sim::word_of(s.mode);
      const workloads::FirstStepInputs in = workloads::first_step_inputs(s, o.mode, steady);
      if (o.kind == ObservationKind::Precompile && in.trial_steps == 0)
        throw ConfigError(
            where(root, i, "kind"), key_of(i, "kind"),
            "a precompile observation needs mode compiled, compile.parallel_compile and compile.trial_steps > 0");
      const ObservationKind kind = o.kind;
      t.predict = [in, kind](const models::CompileParams& p) {
        const workloads::FirstStep f = workloads::first_step(in, p);
        if (kind == ObservationKind::FirstStep) return f.total;
        // The precompile job: its trial run, then the parallel compile.
        return f.compile.wall_s + (kind == ObservationKind::Precompile ? f.part(workloads::StartupPart::TrialRun) : 0);
      };
      break;
    }
    case ObservationKind::InferenceCompile: {
      require(root, i, o, {"model", "tp", "batch", "seq", "sdk"});
      const auto it = models.find(o.model);
      if (it == models.end())
        throw ConfigError(where(root, i, "model"), key_of(i, "model"),
                          "unknown model '" + o.model + "' (not in the models file)");
      models::SdkRelease rel;
      if (!models::parse_sdk_release(o.sdk, &rel))
        throw ConfigError(where(root, i, "sdk"), key_of(i, "sdk"),
                          "expected a release such as \"2.28\", found '" + o.sdk + "'");
      t.predict = inference_compile(it->second, o, host_of(root, i, o));
      if (o.tkg_read.v > 0)
        set.traffic.push_back({o.name, o.source, o.tkg_read.v,
                               workloads::token_generation_bytes(it->second, o.tp, o.batch, o.seq).read(),
                               it->second.is_moe()});
      if (!o.system.empty()) t.chip = models::load_system(o.system, {}, 1).chip.name;
      t.frontend = "xla";  // NxD Inference traces through torch-neuronx (XLA HLO) and compiles whole graphs
      t.mode = "compiled";
      break;
    }
    case ObservationKind::WeightLoad: {
      require(root, i, o, {"bytes"});
      const double bytes = o.bytes.v;
      t.predict = [bytes](const models::CompileParams& p) { return bytes / p.weight_bw.v; };
      break;
    }
    case ObservationKind::CacheHit: {
      require(root, i, o, {"hits"});
      const double hits = o.hits;
      t.predict = [hits](const models::CompileParams& p) { return hits * p.t_hit.v; };
      break;
    }
    case ObservationKind::Graphs: break;
  }
  set.timed.push_back(std::move(t));
}

}  // namespace

ObservationSet load_observation_set(const std::string& path) {
  ConfigNode root = sim::load_config_file(path);
  CompileObservationFile of;
  // `prior_log_sigma` lists the fitted parameters; read it apart from the typed fields.
  ConfigNode sig_node;
  if (const ConfigNode* sg = root.find("prior_log_sigma")) sig_node = *sg;
  root.erase("prior_log_sigma");
  sim::read_config(root, of);
  ObservationSet set;
  set.prior = of.prior;
  set.flex.budget_s = of.flexattention.budget.v;
  set.flex.softness = of.flexattention.softness;
  set.flex.source = of.flexattention.source;
  set.flex.cases = workloads::flex_suite();
  read_prior_sigmas(root, sig_node, set);
  // The models file, relative to this one.
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  const std::string models_path = of.models.empty() || of.models[0] == '/' ? of.models : dir + "/" + of.models;
  std::map<std::string, workloads::ModelSpec> models;
  try {
    models = workloads::load_models_file(models_path);
  } catch (const ConfigError& e) {
    const ConfigNode* at = root.find("models");
    throw ConfigError(at ? at->loc : root.loc, "models", e.what());
  }
  for (size_t i = 0; i < of.observations.size(); ++i) add_observation(root, i, of.observations[i], models, dir, set);
  return set;
}

}  // namespace trn::app
