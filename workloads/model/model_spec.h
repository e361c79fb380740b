// ModelSpec: the architecture of one transformer model as data (sizes, attention layout,
// MLP / mixture-of-experts, norms, sliding windows). Loaded from the YAML model zoo in
// workloads/models/*.yaml or imported from a Hugging Face config.json (hf_import.h); every
// zoo file names where its figures come from in `source:`. The field list in visit() drives
// loading, range checks, the resolved dump and the generated config reference.
#pragma once

#include <string>
#include <vector>

#include "sim/base/config_reader.h"

namespace trn::workloads {

using sim::F;

/// The model family (`architecture:`): selects the embedding and block details.
enum class Architecture { Llama, Mistral, Qwen2, Qwen3, Qwen3Moe, Mixtral, GptOss, Gpt3, Bert };
/// The MLP (`mlp:`): SwiGLU (gate, up and down matrices) or GELU (up and down).
enum class MlpKind { SwiGLU, Gelu };
/// The normalisation layer (`norm:`): RMSNorm (scale only) or LayerNorm (scale and bias).
enum class NormKind { RMSNorm, LayerNorm };
/// Which layers attend through the sliding window (`sliding_window_pattern:`): none, the even
/// layers (0, 2, 4, ...) or all.
enum class SlidingPattern { None, Alternate, All };
/// How positions enter (`positions:`). `rope`: rotary embeddings on q and k in every layer.
/// `learned`: a learned position table added to the embeddings. `fixed`: sinusoidal (or no)
/// positions added to the embeddings, with no table and no per-layer op. `family` (the
/// default): the zoo's convention, a learned table for gpt3 and bert and the rotary op in every
/// causal model, gpt3 included (docs/workloads.md 1.1).
enum class PositionKind { Family, Rope, Learned, Fixed };

// The words of the enums in enum order (sim/base/config_reader.h: the loader accepts exactly these).
inline const std::vector<std::string>& enum_words(Architecture) {
  static const std::vector<std::string> w{"llama",   "mistral", "qwen2", "qwen3", "qwen3_moe",
                                          "mixtral", "gpt_oss", "gpt3",  "bert"};
  return w;
}
inline const std::vector<std::string>& enum_words(MlpKind) {
  static const std::vector<std::string> w{"swiglu", "gelu"};
  return w;
}
inline const std::vector<std::string>& enum_words(NormKind) {
  static const std::vector<std::string> w{"rmsnorm", "layernorm"};
  return w;
}
inline const std::vector<std::string>& enum_words(PositionKind) {
  static const std::vector<std::string> w{"family", "rope", "learned", "fixed"};
  return w;
}
inline const std::vector<std::string>& enum_words(SlidingPattern) {
  static const std::vector<std::string> w{"none", "alternate", "all"};
  return w;
}

struct ModelSpec {
  std::string name;
  Architecture architecture = Architecture::Llama;
  std::string source;         // where the figures come from (HF repo config or paper)
  int hidden_size = 0;        // model width d_model
  int num_layers = 0;         // transformer blocks
  int num_heads = 0;          // query heads
  int num_kv_heads = 0;       // key/value heads (GQA/MQA when < num_heads)
  int head_dim = 0;           // per head; num_heads * head_dim may differ from hidden_size
  int intermediate_size = 0;  // dense MLP width
  int vocab_size = 0;
  int max_position = 0;               // max sequence length, tokens
  MlpKind mlp = MlpKind::SwiGLU;      // swiglu (3 matrices) | gelu (2 matrices)
  NormKind norm = NormKind::RMSNorm;  // rmsnorm (scale only) | layernorm (scale + bias)
  bool causal = true;                 // false for an encoder (BERT)
  bool tied_embeddings = false;       // LM head shares the token-embedding matrix
  bool qk_norm = false;               // per-head RMSNorm on q and k (Qwen3)
  bool attention_bias = false;        // biases on the q, k, v, o projections (qwen2: q, k, v only)
  bool mlp_bias = false;              // biases on MLP / expert projections and the router
  int num_experts = 0;                // routed experts per layer; 0 = dense MLP
  int experts_per_token = 0;          // top-k routed experts per token
  int moe_intermediate_size = 0;      // width of one expert (and of one shared expert)
  int shared_experts = 0;             // always-active experts per layer
  int sliding_window = 0;             // tokens; 0 = full attention everywhere
  SlidingPattern sliding_window_pattern = SlidingPattern::None;
  PositionKind positions = PositionKind::Family;

  template <class V>
  void visit(V& v) {
    v.field("name", name, F("model name"));
    v.field("architecture", architecture, F("model family, selects embedding and block details"));
    v.field("source", source, F("where the figures come from (Hugging Face config or paper)"));
    v.field("hidden_size", hidden_size, F("model width (d_model)").gt(0).le(1 << 18));
    v.field("num_layers", num_layers, F("transformer blocks").ge(1).le(4096));
    v.field("num_heads", num_heads, F("query attention heads").ge(1).le(4096));
    v.field("num_kv_heads", num_kv_heads, F("key/value heads (divides num_heads)").ge(1).le(4096));
    v.field("head_dim", head_dim, F("dimension of one attention head").ge(1).le(1 << 16));
    v.field("intermediate_size", intermediate_size, F("dense MLP hidden width").gt(0).le(1 << 22));
    v.field("vocab_size", vocab_size, F("vocabulary size, tokens").gt(0).le(1 << 24));
    v.field("max_position", max_position, F("maximum sequence length, tokens").gt(0).le(1 << 30));
    v.field("mlp", mlp, F("MLP kind: swiglu (gate, up, down) or gelu (up, down)"));
    v.field("norm", norm, F("normalisation layer"));
    v.field("causal", causal, F("causal (decoder) attention; false for an encoder"));
    v.field("tied_embeddings", tied_embeddings, F("LM head shares the token-embedding matrix"));
    v.field("qk_norm", qk_norm, F("per-head RMSNorm on queries and keys"));
    v.field("attention_bias", attention_bias, F("biases on the q, k, v and o projections (qwen2: q, k and v only)"));
    v.field("mlp_bias", mlp_bias, F("biases on MLP or expert projections and the router").optional());
    v.field("num_experts", num_experts, F("routed experts per layer; 0 = dense MLP").ge(0).le(4096));
    v.field("experts_per_token", experts_per_token, F("routed experts per token (top-k); 0 when dense").ge(0).le(4096));
    v.field("moe_intermediate_size", moe_intermediate_size,
            F("hidden width of one expert; 0 when dense").ge(0).le(1 << 22));
    v.field("shared_experts", shared_experts, F("always-active experts per layer").ge(0).le(4096).optional());
    v.field("sliding_window", sliding_window, F("sliding attention window, tokens; 0 = none").ge(0).le(1 << 30));
    v.field("sliding_window_pattern", sliding_window_pattern,
            F("which layers use the window: none, alternate (layers 0, 2, 4, ...), all"));
    v.field("positions", positions,
            F("position encoding: family (as the architecture), rope, learned or fixed").optional());
  }

  /// Cross-field checks: heads divisible by KV heads, top-k within the experts, MoE fields
  /// consistent with the architecture, a window exactly when a pattern is set. Errors name
  /// the key under `prefix` ("model." in a scenario) at its location in `where` when present,
  /// else at `where` itself.
  void validate(const sim::ConfigNode& where, const std::string& prefix = "") const;

  bool is_moe() const { return num_experts > 0; }
  /// True when every layer applies rotary embeddings to q and k.
  bool uses_rope() const;
  /// True when the embeddings include a learned position table (max_position x hidden_size).
  bool learned_positions() const;
  /// True when `layer` (0-based) attends through the sliding window.
  bool is_sliding_layer(int layer) const;

  /// Total parameter count: token embeddings (+ learned positions for gpt3/bert, + token
  /// types for bert), per layer attention q/k/v/o (+ biases, + q/k norms, + gpt-oss
  /// sinks), two norms and the MLP or all experts (+ router, + shared experts), the final
  /// norm, and an untied LM head. No BERT pooler.
  double parameters() const;
  /// Parameters one token's matmuls touch: as parameters() but only the top-k routed experts
  /// and without the embedding lookup tables (token, position, type); the LM head counts
  /// (tied or not). The convention of the gpt-oss model card (3.6B active); Mixtral's 12.9B
  /// and Qwen3-30B-A3B's 3.3B also count the input embedding.
  double active_parameters() const;
  /// Parameters of the embedding lookup tables (token, learned position, token type).
  double embedding_parameters() const;
  /// Parameter tensors (weights, biases, norm scales) of layers [first_layer, last_layer), with
  /// the embedding tables on the first stage and the final norm and untied LM head on the last:
  /// the count a per-tensor optimizer loop steps one by one (docs/model.md 11.9).
  double parameter_tensors(int first_layer, int last_layer) const;
};

/// True for a model imported from a Hugging Face config.json (its source names the file).
bool is_imported(const ModelSpec& m);
/// "7.24 B parameters" (dense) or "46.7 B parameters, 12.7 B active per token (without the
/// embedding table)" (MoE: active_parameters()), three
/// significant figures: the line `run` and `startup` print for an imported model.
std::string parameter_summary(const ModelSpec& m);

/// Loads a model: a path ending in ".json" is a Hugging Face config (import_hf_config);
/// otherwise a name in workloads/models/ ("qwen3-8b") or a YAML path. `sets` are
/// "key=value" assignments (a leading "model." is accepted) applied before the strict read.
/// Throws sim::ConfigError on any bad input.
ModelSpec load_model(const std::string& name_or_path, const std::vector<std::string>& sets);

/// The resolved model as YAML, prefixed by `header` (comment lines); loading it back gives
/// the same spec.
std::string resolved_yaml(const ModelSpec& m, const std::string& header);

}  // namespace trn::workloads
