// Scenario loading and layout validation.
#include <algorithm>
#include <filesystem>

#include "sim/base/config_loader.h"
#include "sim/base/paths.h"
#include "workloads/scenario/scenario_spec.h"

namespace trn::workloads {

using sim::ConfigError;
using sim::ConfigNode;
using sim::Location;

namespace {

bool is_json(const std::string& s) { return s.size() > 5 && s.compare(s.size() - 5, 5, ".json") == 0; }

// Replaces a scalar reference at root[key] by the document it names (a name in `subdir`, a
// YAML path, or for the model a config.json or a Hugging Face model directory), loaded by `load`
// from its path. A path written in a file is relative to that file (sim::path_in_file). A bad
// name or path is reported at the reference; errors inside the file keep their own place
// behind it.
template <class Load>
void inline_reference(ConfigNode& root, const char* key, const char* subdir, Load load) {
  ConfigNode* ref = root.find(key);
  if (!ref || !ref->is_scalar()) return;
  Location loc = ref->loc;
  const std::string written = sim::path_in_file(ref->scalar, loc, key);
  std::error_code ec;
  const bool model_file =
      std::string(key) == "model" && (is_json(written) || std::filesystem::is_directory(written, ec));
  const std::string path = model_file ? written : sim::resolve_named_config(written, subdir, key, loc, key);
  try {
    *ref = load(path);
  } catch (const ConfigError& e) {
    throw ConfigError(loc, key, e.what());
  }
  if (ref->loc.file.empty()) ref->loc = loc;  // a generated document: errors inside point here
}

[[noreturn]] void fail(const ConfigNode& root, const std::string& key, const std::string& msg,
                       const char* kind = "invalid-config") {
  throw ConfigError(sim::locate(root, key), key, msg, kind);  // the deepest existing node of the key
}

/// precision.compute fp8 / mxfp8 needs the chip's published rate for that format; bf16, fp16 and
/// fp32 run on every chip (fp32 through the tensor engine's fp32 mode or the compiler's auto-cast).
void check_precision(const ScenarioSpec& s, const ConfigNode& root) {
  const auto& pk = s.system.chip.peak;
  std::string ok = "bf16, fp16, fp32";
  if (pk.fp8.v > 0) ok += ", fp8";
  if (pk.mxfp8.v > 0) ok += ", mxfp8";
  const ComputeDType c = s.precision.compute;
  if ((c == ComputeDType::FP8 && pk.fp8.v <= 0) || (c == ComputeDType::MXFP8 && pk.mxfp8.v <= 0))
    fail(root, "precision.compute",
         "chip " + s.system.chip.name + " publishes no dense " + (c == ComputeDType::FP8 ? "FP8" : "MXFP8") +
             " rate (system.chip.peak." + enum_word(c) + "); accepted on this chip: " + ok);
}

void check_layout(const ScenarioSpec& s, const ConfigNode& root) {
  const auto& p = s.parallel;
  const auto& m = s.model;
  // A layout that does not fit the model or the machine is "invalid-layout"; a batch or sequence
  // setting that is wrong whatever the layout is "invalid-config".
  auto chk = [&](bool ok, const std::string& key, const std::string& msg, const char* kind = "invalid-layout") {
    if (!ok) fail(root, key, msg, kind);
  };
  chk(m.num_heads % p.tp == 0, "parallel.tp",
      "tp " + std::to_string(p.tp) + " does not divide the model's " + std::to_string(m.num_heads) +
          " attention heads");
  chk(m.num_kv_heads % p.tp == 0 || p.tp % m.num_kv_heads == 0, "parallel.tp",
      "tp " + std::to_string(p.tp) + " and the model's " + std::to_string(m.num_kv_heads) +
          " KV heads do not divide each other");
  chk(m.num_layers % p.pp == 0, "parallel.pp",
      "pp " + std::to_string(p.pp) + " does not divide the model's " + std::to_string(m.num_layers) + " layers");
  if (m.is_moe())
    chk(m.num_experts % p.ep == 0, "parallel.ep",
        "ep " + std::to_string(p.ep) + " does not divide the model's " + std::to_string(m.num_experts) + " experts");
  else
    chk(p.ep == 1, "parallel.ep",
        "ep " + std::to_string(p.ep) + " splits experts, but " + m.name +
            " is a dense model (no experts); expected 1 (expert parallelism needs a mixture-of-experts model)");
  chk((int64_t{p.dp} * p.fsdp) % p.ep == 0, "parallel.ep",
      "ep " + std::to_string(p.ep) + " must divide dp x fsdp = " + std::to_string(int64_t{p.dp} * p.fsdp));
  chk(s.batch.seq_len <= m.max_position, "batch.seq_len",
      "sequence length " + std::to_string(s.batch.seq_len) + " is over the model's limit of " +
          std::to_string(m.max_position),
      "invalid-config");
  chk((s.batch.global_batch > 0) != (s.batch.tokens_per_step > 0), "batch",
      "give exactly one of global_batch or tokens_per_step", "invalid-config");
  chk(s.batch.tokens_per_step == 0 || s.batch.tokens_per_step % s.batch.seq_len == 0, "batch.tokens_per_step",
      "tokens_per_step " + std::to_string(s.batch.tokens_per_step) + " is not a multiple of seq_len " +
          std::to_string(s.batch.seq_len),
      "invalid-config");
  const int64_t seqs = s.batch.sequences();
  const int64_t replicas = int64_t{p.dp} * p.fsdp;
  chk(seqs % (replicas * p.microbatches) == 0, "batch",
      std::to_string(seqs) +
          " sequences do not divide into dp x fsdp x microbatches = " + std::to_string(replicas * p.microbatches));
  chk(!(p.sequence_parallel && p.tp == 1), "parallel.sequence_parallel", "sequence parallelism needs tp > 1");
  chk(s.compile.graph_cut == GraphCut::Segment || p.pp == 1, "compile.graph_cut",
      enum_word(s.compile.graph_cut) +
          " (forward and backward in one graph) needs pp 1: with pipeline parallelism "
          "1F1B interleaves one micro-batch's forward with another's backward, and the frameworks cut a graph at "
          "every pipeline send and receive; use segment",
      "invalid-config");
  chk(!s.compile.parallel_compile || s.compile.frontend == Frontend::Xla, "compile.parallel_compile",
      "neuron_parallel_compile is torch-xla's ahead-of-time compiler: it has no effect with compile.frontend " +
          enum_word(s.compile.frontend) + "; expected false, or compile.frontend=xla with it",
      "invalid-config");
  chk(p.microbatches >= p.pp || p.pp == 1, "parallel.microbatches",
      "1F1B needs at least as many micro-batches (" + std::to_string(p.microbatches) + ") as stages (" +
          std::to_string(p.pp) + ")");
  const int lnc = s.effective_lnc();
  const auto& modes = s.system.chip.cores.lnc_modes;
  chk(std::find(modes.begin(), modes.end(), lnc) != modes.end(), "lnc",
      "LNC " + std::to_string(lnc) + " is not supported by " + s.system.chip.name);
  const int64_t ranks = int64_t{s.system.total_chips()} * (s.system.chip.cores.physical / lnc);
  chk(p.world() == ranks, "parallel",
      "tp x pp x dp x fsdp = " + std::to_string(p.world()) + " ranks, but " + std::to_string(s.system.total_chips()) +
          " chips at LNC=" + std::to_string(lnc) + " have " + std::to_string(ranks));
}

// The scenario's tree before the strict read: runtime calibration underneath, the file, `refs`
// (assignments to `system` or `model`, which replace the references before they are resolved),
// the model override, the system and model inlined, top-level `instances:` and `sdk:`, then `sets`.
ConfigNode scenario_root(const std::string& name_or_path, const std::vector<sim::SetAssignment>& refs,
                         const std::string& model_override, const std::vector<sim::SetAssignment>& sets) {
  const std::string path =
      sim::resolve_named_config(name_or_path, "workloads/scenarios", "scenario", Location{"argument SCENARIO", 0, 0});
  ConfigNode root;
  root.kind = ConfigNode::Kind::Map;
  root.loc = Location{path, 1, 1};
  ConfigNode cal = sim::load_config_file(sim::data_root() + "/workloads/calibration/runtime.yaml");
  sim::merge_into(root, cal);
  sim::merge_into(root, sim::load_config_file(path));
  root.loc = Location{path, 1, 1};
  sim::apply_sets(root, refs);
  if (!model_override.empty()) {
    ConfigNode m;
    m.kind = ConfigNode::Kind::Scalar;
    m.scalar = model_override;
    m.loc = Location{"--model", 0, 0};
    root.set("model", m, m.loc);
  }
  inline_reference(root, "system", "hw/configs/systems", [](const std::string& path) {
    ConfigNode sys = sim::load_config_file(path);
    inline_reference(sys, "chip", "hw/configs/chips", [](const std::string& p) { return sim::load_config_file(p); });
    return sys;
  });
  inline_reference(root, "model", "workloads/models",
                   [](const std::string& path) { return sim::write_config(load_model(path, {})); });
  // Instances: `instances:` at the top of a scenario sets system.instances.
  if (ConfigNode* inst = root.find("instances")) {
    ConfigNode v = *inst;
    root.erase("instances");
    if (ConfigNode* sys = root.find("system"); sys && sys->is_map()) sys->set("instances", v, v.loc);
  }
  // Release: `sdk:` at the top of a scenario sets system.chip.collectives.sdk (docs/model.md 8.7).
  if (ConfigNode* sdk = root.find("sdk")) {
    ConfigNode v = *sdk;
    root.erase("sdk");
    ConfigNode* sys = root.find("system");
    ConfigNode* chip = sys && sys->is_map() ? sys->find("chip") : nullptr;
    if (chip && chip->is_map()) {
      if (!chip->find("collectives")) {
        ConfigNode m;
        m.kind = ConfigNode::Kind::Map;
        m.loc = v.loc;
        chip->set("collectives", m, v.loc);
      }
      ConfigNode* cc = chip->find("collectives");
      if (cc->is_map()) cc->set("sdk", v, v.loc);
    }
  }
  sim::apply_sets(root, sets);
  return root;
}

bool is_reference(const std::string& key) { return key == "system" || key == "model"; }

// The chip of a scenario is system.chip; `chip.X`, the spelling of the chip-only commands and
// of --help, means the same key here.
sim::SetAssignment scenario_set(sim::SetAssignment a) {
  if (a.key.rfind("chip.", 0) == 0) a.key = "system." + a.key;
  return a;
}

}  // namespace

ScenarioSpec load_scenario(const std::string& name_or_path, const std::vector<std::string>& sets,
                           const std::string& model_override) {
  // `--set system=NAME` / `--set model=NAME` replace references before they are resolved; every
  // assignment keeps its place on the command line (--set #N) for its errors.
  std::vector<sim::SetAssignment> refs, as;
  for (size_t i = 0; i < sets.size(); ++i) {
    sim::SetAssignment a = scenario_set(sim::parse_set(sets[i], static_cast<int>(i + 1)));
    (is_reference(a.key) ? refs : as).push_back(std::move(a));
  }
  ConfigNode root = scenario_root(name_or_path, refs, model_override, as);
  ScenarioSpec s;
  sim::read_config(root, s);
  s.system.chip.validate(root, "system.chip.");
  s.system.validate(root, "system.");
  s.model.validate(root, "model.");
  check_precision(s, root);
  check_layout(s, root);
  return s;
}

RuntimeSpec load_runtime_calibration() {
  const ConfigNode cal = sim::load_config_file(sim::data_root() + "/workloads/calibration/runtime.yaml");
  ScenarioSpec s;
  const ConfigNode* runtime = cal.find("runtime");
  if (!runtime) throw sim::ConfigError(cal.loc, "runtime", "expected the section 'runtime'");
  sim::read_config(*runtime, s.runtime, "runtime.");
  return s.runtime;
}

void check_scenario_sets(const std::string& name_or_path, const std::vector<sim::SetAssignment>& sets) {
  std::vector<sim::SetAssignment> refs, late;
  for (const auto& a : sets) (is_reference(a.key) ? refs : late).push_back(scenario_set(a));
  ConfigNode root = scenario_root(name_or_path, refs, "", late);
  ScenarioSpec s;
  sim::read_config(root, s);
}

std::string resolved_yaml(const ScenarioSpec& s, const std::string& header) {
  return header + sim::to_yaml(sim::write_config(s));
}

}  // namespace trn::workloads
