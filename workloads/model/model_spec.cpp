// ModelSpec checks, parameter counts and loading (YAML zoo, YAML path or HF config.json).
#include "workloads/model/model_spec.h"

#include "sim/base/config_loader.h"
#include "sim/base/paths.h"
#include "workloads/model/hf_import.h"

#include <cstdio>
#include <filesystem>

namespace trn::workloads {

using sim::ConfigError;
using sim::ConfigNode;

namespace {

[[noreturn]] void fail_at(const ConfigNode& where, const std::string& key, const std::string& msg) {
  throw ConfigError(sim::locate(where, key), key, msg);
}

bool is_moe_architecture(Architecture a) {
  return a == Architecture::Qwen3Moe || a == Architecture::Mixtral || a == Architecture::GptOss;
}

double norm_params(const ModelSpec& m, double width) { return m.norm == NormKind::LayerNorm ? 2 * width : width; }

/// One MLP (or one expert) of hidden width `inner`.
double mlp_params(const ModelSpec& m, double inner) {
  double h = m.hidden_size;
  double matrices = m.mlp == MlpKind::SwiGLU ? 3 : 2;
  double w = matrices * h * inner;
  if (m.mlp_bias) w += (matrices - 1) * inner + h;  // gate/up biases + down bias
  return w;
}

double attention_params(const ModelSpec& m) {
  double h = m.hidden_size;
  double q = static_cast<double>(m.num_heads) * m.head_dim;
  double kv = static_cast<double>(m.num_kv_heads) * m.head_dim;
  double w = h * q + 2 * h * kv + q * h;
  if (m.attention_bias) w += q + 2 * kv + (m.architecture == Architecture::Qwen2 ? 0 : h);  // Qwen2: no o bias
  if (m.qk_norm) w += 2 * norm_params(m, m.head_dim);
  if (m.architecture == Architecture::GptOss) w += m.num_heads;  // learned attention sinks, one per head
  return w;
}

double router_params(const ModelSpec& m) {
  double e = m.num_experts;
  return m.hidden_size * e + (m.mlp_bias ? e : 0);
}

/// One block, with `routed` experts counted (all of them, or the top-k).
double layer_params(const ModelSpec& m, int routed) {
  double w = attention_params(m) + 2 * norm_params(m, m.hidden_size);
  if (!m.is_moe()) return w + mlp_params(m, m.intermediate_size);
  return w + (routed + m.shared_experts) * mlp_params(m, m.moe_intermediate_size) + router_params(m);
}

double lm_head_params(const ModelSpec& m) { return static_cast<double>(m.vocab_size) * m.hidden_size; }

/// Parameter tensors of one block as the xla frameworks hold them: one per weight matrix as the
/// training graph fuses them (q, k and v in one fused QKV matrix, as Megatron-LM, NeMo and NxD
/// store it; gate and up in one), one per bias vector, one or two per norm (scale, + bias for
/// LayerNorm); an MoE layer holds its router and each stacked expert matrix once.
double layer_tensors(const ModelSpec& m) {
  const double norm = m.norm == NormKind::LayerNorm ? 2 : 1;
  double n = 2 * norm + 2;  // the two norms, the QKV and output projections
  if (m.attention_bias) n += m.architecture == Architecture::Qwen2 ? 1 : 2;
  if (m.qk_norm) n += 2 * norm;
  if (m.architecture == Architecture::GptOss) n += 1;  // attention sinks
  double mlp = 2 + (m.mlp_bias ? 2 : 0);               // up (with gate) and down, + biases
  if (m.is_moe()) mlp = mlp * (1 + (m.shared_experts > 0 ? 1 : 0)) + 1 + (m.mlp_bias ? 1 : 0);  // + router
  return n + mlp;
}
}  // namespace

void ModelSpec::validate(const ConfigNode& where, const std::string& prefix) const {
  auto fail = [&](const ConfigNode& w, const std::string& key, const std::string& msg) {
    fail_at(w, prefix + key, msg);
  };
  const std::string& arch = sim::word_of(architecture);
  if (num_heads % num_kv_heads != 0)
    fail(where, "num_kv_heads",
         std::to_string(num_kv_heads) + " KV heads do not divide " + std::to_string(num_heads) + " query heads");
  if (is_moe_architecture(architecture) && num_experts == 0)
    fail(where, "num_experts", "architecture " + arch + " is a mixture of experts: expected num_experts > 0");
  if (!is_moe_architecture(architecture) && num_experts > 0)
    fail(where, "num_experts", "architecture " + arch + " has a dense MLP: expected num_experts 0");
  if (is_moe()) {
    if (experts_per_token < 1 || experts_per_token > num_experts)
      fail(where, "experts_per_token",
           "expected 1 to num_experts (" + std::to_string(num_experts) + "), found " +
               std::to_string(experts_per_token));
    if (moe_intermediate_size < 1)
      fail(where, "moe_intermediate_size", "a mixture of experts needs moe_intermediate_size > 0");
  } else {
    const std::string dense = "expected 0 for a dense model (num_experts 0)";
    if (experts_per_token != 0) fail(where, "experts_per_token", dense);
    if (moe_intermediate_size != 0) fail(where, "moe_intermediate_size", dense);
    if (shared_experts != 0) fail(where, "shared_experts", dense);
  }
  if ((architecture == Architecture::Bert) == causal)
    fail(where, "causal",
         architecture == Architecture::Bert ? "a BERT encoder is not causal: expected false"
                                            : "architecture " + arch + " is a causal decoder: expected true");
  if (sliding_window > 0 && sliding_window_pattern == SlidingPattern::None)
    fail(where, "sliding_window_pattern",
         "sliding_window " + std::to_string(sliding_window) + " needs a pattern: alternate or all");
  if (sliding_window == 0 && sliding_window_pattern != SlidingPattern::None)
    fail(where, "sliding_window",
         "sliding_window_pattern " + sim::word_of(sliding_window_pattern) + " needs sliding_window > 0");
}

bool ModelSpec::is_sliding_layer(int layer) const {
  if (sliding_window == 0) return false;
  if (sliding_window_pattern == SlidingPattern::All) return true;
  return sliding_window_pattern == SlidingPattern::Alternate && layer % 2 == 0;
}

bool ModelSpec::uses_rope() const {
  // The zoo's gpt3 models keep the rotary op they were validated with (docs/workloads.md 1.1).
  if (positions == PositionKind::Family) return causal;
  return positions == PositionKind::Rope;
}

bool ModelSpec::learned_positions() const {
  if (positions == PositionKind::Family)
    return architecture == Architecture::Gpt3 || architecture == Architecture::Bert;
  return positions == PositionKind::Learned;
}

double ModelSpec::embedding_parameters() const {
  double w = static_cast<double>(vocab_size) * hidden_size;
  if (learned_positions()) w += static_cast<double>(max_position) * hidden_size;
  if (architecture == Architecture::Bert) w += 2.0 * hidden_size;  // token-type (segment) embeddings
  return w;
}

double ModelSpec::parameter_tensors(int first_layer, int last_layer) const {
  double n = (last_layer - first_layer) * layer_tensors(*this);
  if (first_layer == 0) {
    n += 1 + (learned_positions() ? 1 : 0);              // token and position tables
    if (architecture == Architecture::Bert) n += 1 + 2;  // token types, embedding LayerNorm
  }
  if (last_layer == num_layers) n += (norm == NormKind::LayerNorm ? 2 : 1) + (tied_embeddings ? 0 : 1);
  return n;
}

double ModelSpec::parameters() const {
  double w = embedding_parameters() + num_layers * layer_params(*this, num_experts) + norm_params(*this, hidden_size);
  if (!tied_embeddings) w += lm_head_params(*this);
  return w;
}

double ModelSpec::active_parameters() const {
  return num_layers * layer_params(*this, experts_per_token) + norm_params(*this, hidden_size) + lm_head_params(*this);
}

bool is_imported(const ModelSpec& m) { return m.source.rfind(kImportedSource, 0) == 0; }

std::string parameter_summary(const ModelSpec& m) {
  char buf[128];
  if (m.is_moe())
    std::snprintf(buf, sizeof buf, "%.3g B parameters, %.3g B active per token (without the embedding table)",
                  m.parameters() / 1e9, m.active_parameters() / 1e9);
  else
    std::snprintf(buf, sizeof buf, "%.3g B parameters", m.parameters() / 1e9);
  return buf;
}

namespace {

std::vector<sim::SetAssignment> model_sets(const std::vector<std::string>& sets) {
  std::vector<sim::SetAssignment> as;
  for (size_t i = 0; i < sets.size(); ++i) {
    as.push_back(sim::parse_set(sets[i], static_cast<int>(i + 1)));
    if (as.back().key.rfind("model.", 0) == 0) as.back().key.erase(0, 6);
  }
  return as;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// An imported spec as a document located in its JSON file, so --set can reach it and
/// errors name the file.
ConfigNode json_document(const ModelSpec& m, const std::string& path) {
  ConfigNode root = sim::write_config(m);
  root.loc = sim::Location{path, 0, 0};
  for (auto& e : root.map) e.key_loc = e.value.loc = root.loc;
  return root;
}

// A Hugging Face model directory (what from_pretrained takes) stands for its config.json.
std::string model_file(const std::string& name_or_path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(name_or_path, ec)) return name_or_path;
  const std::filesystem::path config = std::filesystem::path(name_or_path) / "config.json";
  if (!std::filesystem::is_regular_file(config, ec))
    throw sim::ConfigError(sim::Location{name_or_path, 0, 0}, "",
                           "is a directory without a config.json; expected a zoo name, a model YAML file, a Hugging "
                           "Face config.json or a model directory that holds one");
  return config.string();
}

}  // namespace

ModelSpec load_model(const std::string& name_or_path, const std::vector<std::string>& sets) {
  ConfigNode root;
  const std::string file = model_file(name_or_path);
  if (ends_with(file, ".json"))
    root = json_document(import_hf_config(file), file);
  else
    root = sim::load_config_file(sim::resolve_named_config(file, "workloads/models", "model"));
  sim::apply_sets(root, model_sets(sets));
  ModelSpec m;
  sim::read_config(root, m);
  m.validate(root);
  return m;
}

std::string resolved_yaml(const ModelSpec& m, const std::string& header) {
  return header + sim::to_yaml(sim::write_config(m));
}

}  // namespace trn::workloads
