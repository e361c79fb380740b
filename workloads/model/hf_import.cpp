// Hugging Face config.json -> ModelSpec for the Llama, Mistral, Qwen2, Qwen3, Qwen3-MoE, Mixtral,
// gpt-oss, Gemma, Gemma 2, Phi-3, GPT-NeoX, StarCoder2, GPT-2, GPT-J, OPT, Phi, OLMo 2 and
// Granite families. Errors point at the JSON key (file:line:col of its first occurrence).
#include "workloads/model/hf_import.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace trn::workloads {

using nlohmann::json;
using sim::ConfigError;
using sim::ConfigNode;
using sim::Location;
namespace fs = std::filesystem;

const std::vector<std::string>& supported_hf_architectures() {
  static const std::vector<std::string> names = {
      "LlamaForCausalLM",   "MistralForCausalLM",    "Qwen2ForCausalLM",  "Qwen3ForCausalLM",  "Qwen3MoeForCausalLM",
      "MixtralForCausalLM", "GptOssForCausalLM",     "GemmaForCausalLM",  "Gemma2ForCausalLM", "Phi3ForCausalLM",
      "GPTNeoXForCausalLM", "Starcoder2ForCausalLM", "GPT2LMHeadModel",   "GPTJForCausalLM",   "OPTForCausalLM",
      "PhiForCausalLM",     "Olmo2ForCausalLM",      "GraniteForCausalLM"};
  return names;
}

namespace {

/// The parsed file plus what is needed to point errors at a key.
struct Doc {
  std::string path;
  std::string text;
  json j;
  std::map<std::string, std::string> origin;  // ModelSpec key -> JSON key it came from

  Location at_offset(size_t off) const {
    off = std::min(off, text.size());
    int line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < off; ++i)
      if (text[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    return Location{path, line, static_cast<int>(off - line_start) + 1};
  }
  /// Where `"key"` first appears; the file alone when it does not.
  Location at(const std::string& key) const {
    size_t p = text.find("\"" + key + "\"");
    return p == std::string::npos ? Location{path, 0, 0} : at_offset(p);
  }
  [[noreturn]] void fail(const std::string& key, const std::string& msg) const { throw ConfigError(at(key), key, msg); }
  bool has(const std::string& key) const { return j.contains(key) && !j.at(key).is_null(); }
};

Doc read_doc(const std::string& path) {
  Location file{path, 0, 0};
  std::error_code ec;
  if (!fs::exists(path, ec)) throw ConfigError(file, "", "Hugging Face config file does not exist");
  if (fs::is_directory(path, ec))
    throw ConfigError(file, "", "is a directory, expected a Hugging Face config.json file");
  if (!fs::is_regular_file(path, ec))
    throw ConfigError(file, "", "is not a regular file, expected a Hugging Face config.json file");
  if (std::uintmax_t size = fs::file_size(path, ec); !ec && size > (16u << 20))
    throw ConfigError(file, "", "is larger than 16 MiB, expected a Hugging Face config.json file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(file, "", "cannot read the file");
  std::ostringstream os;
  os << in.rdbuf();
  Doc d;
  d.path = path;
  d.text = os.str();
  try {
    d.j = json::parse(d.text);
  } catch (const json::parse_error& e) {
    // what(): "[json.exception.parse_error.101] parse error at line L, column C: <why>"
    std::string why = e.what();
    if (size_t p = why.find("] "); p != std::string::npos) why.erase(0, p + 2);
    if (why.rfind("parse error at line", 0) == 0)
      if (size_t p = why.find(": "); p != std::string::npos) why.erase(0, p + 2);
    size_t off = e.byte > 0 ? e.byte - 1 : 0;
    throw ConfigError(d.at_offset(off), "", "invalid JSON at byte " + std::to_string(e.byte) + ": " + why);
  } catch (const json::exception& e) {
    // e.g. out_of_range.406 "number overflow parsing '1e400'": no byte offset, so the
    // position is that of the quoted token (the file alone when it cannot be found).
    std::string why = e.what();
    if (size_t p = why.find("] "); p != std::string::npos) why.erase(0, p + 2);
    Location at = file;
    if (size_t q = why.find(" '"); q != std::string::npos && why.back() == '\'') {
      const std::string token = why.substr(q + 2, why.size() - q - 3);
      if (size_t off = d.text.find(token); !token.empty() && off != std::string::npos) at = d.at_offset(off);
    }
    throw ConfigError(at, "", "invalid JSON: " + why);
  }
  if (!d.j.is_object())
    throw ConfigError(file, "",
                      "expected a JSON object (a Hugging Face config.json), found " + std::string(d.j.type_name()));
  return d;
}

/// A value as error messages quote it: scalars as JSON (shortened), containers by kind.
std::string shown(const json& v) {
  if (v.is_array()) return "a list";
  if (v.is_object()) return "an object";
  std::string s = v.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

int get_int(Doc& d, const std::string& key, const std::string& what, int min, const std::string& field) {
  if (!d.has(key)) throw ConfigError(Location{d.path, 0, 0}, key, "missing key '" + key + "' (" + what + ")");
  const json& v = d.j.at(key);
  double x = v.is_number() ? v.get<double>() : NAN;
  if (!v.is_number() || x != std::floor(x)) d.fail(key, "expected a whole number (" + what + "), found " + shown(v));
  if (x < min || x > INT_MAX)
    d.fail(key, "value " + shown(v) + " is out of range: expected " + std::to_string(min) + " to " +
                    std::to_string(INT_MAX));
  d.origin[field] = key;
  return static_cast<int>(x);
}

int get_int_or(Doc& d, const std::string& key, const std::string& what, int min, const std::string& field,
               int fallback) {
  return d.has(key) ? get_int(d, key, what, min, field) : fallback;
}

bool get_bool_or(Doc& d, const std::string& key, const std::string& field, bool fallback) {
  if (!d.has(key)) return fallback;
  const json& v = d.j.at(key);
  if (!v.is_boolean()) d.fail(key, "expected true or false, found " + shown(v));
  d.origin[field] = key;
  return v.get<bool>();
}

std::string architecture_of(const Doc& d) {
  if (!d.has("architectures"))
    throw ConfigError(Location{d.path, 0, 0}, "architectures",
                      "missing key 'architectures' (model class, e.g. LlamaForCausalLM)");
  const json& a = d.j.at("architectures");
  if (!a.is_array() || a.empty() || !a.at(0).is_string())
    d.fail("architectures", "expected a list of model class names, found " + shown(a));
  std::string name = a.at(0).get<std::string>();
  const auto& ok = supported_hf_architectures();
  if (std::find(ok.begin(), ok.end(), name) == ok.end()) {
    std::string msg = "unsupported architecture '" + name + "'; supported: ";
    for (size_t i = 0; i < ok.size(); ++i) msg += (i ? ", " : "") + ok[i];
    d.fail("architectures", msg);
  }
  return name;
}

/// Sizes and attention layout shared by every supported family.
void read_common(Doc& d, ModelSpec& m) {
  m.hidden_size = get_int(d, "hidden_size", "model width", 1, "hidden_size");
  m.num_layers = get_int(d, "num_hidden_layers", "transformer blocks", 1, "num_layers");
  m.num_heads = get_int(d, "num_attention_heads", "query heads", 1, "num_heads");
  m.num_kv_heads = get_int_or(d, "num_key_value_heads", "key/value heads", 1, "num_kv_heads", m.num_heads);
  if (!d.has("head_dim") && m.hidden_size % m.num_heads != 0)
    d.fail("num_attention_heads", "no head_dim and hidden_size " + std::to_string(m.hidden_size) +
                                      " is not divisible by " + std::to_string(m.num_heads) + " heads");
  m.head_dim = get_int_or(d, "head_dim", "dimension of one head", 1, "head_dim", m.hidden_size / m.num_heads);
  m.intermediate_size = get_int(d, "intermediate_size", "MLP hidden width", 1, "intermediate_size");
  m.vocab_size = get_int(d, "vocab_size", "vocabulary size", 1, "vocab_size");
  m.max_position = get_int(d, "max_position_embeddings", "maximum sequence length", 1, "max_position");
  m.tied_embeddings = get_bool_or(d, "tie_word_embeddings", "tied_embeddings", false);
  m.attention_bias = get_bool_or(d, "attention_bias", "attention_bias", false);
  m.mlp = MlpKind::SwiGLU;
  m.norm = NormKind::RMSNorm;
  m.causal = true;
}

/// The MLP's activation, when the key is present, is one the family's MLP is built with: a
/// gated MLP (three matrices) costs the same with SiLU or GELU, an ungated one has two.
void check_activation(const Doc& d, const std::string& key, const std::vector<std::string>& ok,
                      const std::string& mlp) {
  if (!d.has(key)) return;
  const json& act = d.j.at(key);
  if (act.is_string() && std::find(ok.begin(), ok.end(), act.get<std::string>()) != ok.end()) return;
  std::string want;
  for (size_t i = 0; i < ok.size(); ++i) want += (i ? i + 1 == ok.size() ? " or " : ", " : "") + ("\"" + ok[i] + "\"");
  d.fail(key, "expected " + want + " (" + mlp + "), found " + shown(act));
}

const std::vector<std::string> kSilu = {"silu", "swish"};
const std::vector<std::string> kGelu = {"gelu", "gelu_new", "gelu_pytorch_tanh", "gelu_fast"};

void read_experts(Doc& d, ModelSpec& m, const std::string& count_key) {
  m.num_experts = get_int(d, count_key, "routed experts per layer", 1, "num_experts");
  std::string k = d.has("num_experts_per_tok") ? "num_experts_per_tok" : "experts_per_token";
  m.experts_per_token = get_int(d, k, "experts per token (top-k)", 1, "experts_per_token");
}

/// Window and pattern from sliding_window and, when present, layer_types.
void read_sliding(Doc& d, ModelSpec& m, SlidingPattern default_pattern) {
  m.sliding_window = get_int_or(d, "sliding_window", "sliding window, tokens", 0, "sliding_window", 0);
  if (!d.has("layer_types")) {
    m.sliding_window_pattern = m.sliding_window > 0 ? default_pattern : SlidingPattern::None;
    return;
  }
  const json& lt = d.j.at("layer_types");
  if (!lt.is_array() || static_cast<int>(lt.size()) != m.num_layers)
    d.fail("layer_types", "expected a list of " + std::to_string(m.num_layers) + " layer types");
  bool all_full = true, all_sliding = true, alternate = true;
  for (size_t i = 0; i < lt.size(); ++i) {
    std::string t = lt[i].is_string() ? lt[i].get<std::string>() : "";
    if (t != "full_attention" && t != "sliding_attention")
      d.fail("layer_types", "expected full_attention or sliding_attention, found " + shown(lt[i]));
    bool sliding = t == "sliding_attention";
    all_full = all_full && !sliding;
    all_sliding = all_sliding && sliding;
    alternate = alternate && sliding == (i % 2 == 0);
  }
  if (all_full) {
    m.sliding_window = 0;
    m.sliding_window_pattern = SlidingPattern::None;
    return;
  }
  if (m.sliding_window == 0) d.fail("layer_types", "sliding_attention layers need sliding_window > 0");
  if (all_sliding)
    m.sliding_window_pattern = SlidingPattern::All;
  else if (alternate)
    m.sliding_window_pattern = SlidingPattern::Alternate;
  else
    d.fail("layer_types",
           "unsupported layer pattern: expected all full_attention, all "
           "sliding_attention, or alternating starting with sliding_attention");
  d.origin["sliding_window_pattern"] = "layer_types";
}

/// Qwen2/Qwen3 write sliding_window but apply it only when use_sliding_window is true, and
/// then only to layers max_window_layers and above (the lower layers attend fully; HF
/// Qwen2Attention / Qwen3Attention). Applied to every layer or none it is honoured; a split
/// between full and windowed layers is not representable and is an error.
void read_qwen_sliding(Doc& d, ModelSpec& m) {
  m.sliding_window = 0;
  m.sliding_window_pattern = SlidingPattern::None;
  if (!get_bool_or(d, "use_sliding_window", "sliding_window", false)) return;
  const int window = get_int_or(d, "sliding_window", "sliding window, tokens", 0, "sliding_window", 0);
  if (window == 0) return;  // HF: no window size, no windowed layers
  // Absent: 28, the default of HF's Qwen2Config, Qwen3Config and Qwen3MoeConfig.
  const int full =
      get_int_or(d, "max_window_layers", "layers below which attention is full", 0, "sliding_window_pattern", 28);
  if (full >= m.num_layers) return;  // every layer is below max_window_layers: full attention
  if (full > 0)
    d.fail("max_window_layers", "use_sliding_window with max_window_layers " + std::to_string(full) + " mixes " +
                                    std::to_string(full) + " full-attention layers with " +
                                    std::to_string(m.num_layers - full) +
                                    " windowed ones; supported: 0 (every layer windowed) or >= "
                                    "num_hidden_layers (" +
                                    std::to_string(m.num_layers) + ", none)");
  m.sliding_window = window;
  m.sliding_window_pattern = SlidingPattern::All;
  d.origin["sliding_window_pattern"] = "use_sliding_window";
}

/// Routed experts are read by read_experts; shared experts and dense layers inside a MoE
/// model (Qwen-MoE's decoder_sparse_step / mlp_only_layers) change the math, so they are
/// either honoured or refused, never ignored.
void read_qwen_moe_layers(Doc& d, ModelSpec& m) {
  if (get_int_or(d, "decoder_sparse_step", "MoE layer stride", 1, "decoder_sparse_step", 1) != 1)
    d.fail("decoder_sparse_step",
           "only decoder_sparse_step 1 (every layer MoE) is supported: dense "
           "layers between MoE layers are not representable");
  if (d.has("mlp_only_layers")) {
    const json& v = d.j.at("mlp_only_layers");
    if (!v.is_array()) d.fail("mlp_only_layers", "expected a list of layer indices, found " + shown(v));
    if (!v.empty()) d.fail("mlp_only_layers", "dense layers inside a MoE model are not supported: expected []");
  }
  if (d.has("shared_expert_intermediate_size") &&
      get_int(d, "shared_expert_intermediate_size", "shared expert width", 0, "shared_experts") > 0)
    d.fail("shared_expert_intermediate_size", "Qwen3MoeForCausalLM has no shared expert: expected 0 or no key");
  (void)m;
}

/// The gpt3 block: LayerNorm and a two-matrix MLP, causal, with `positions`.
void gpt_block(ModelSpec& m, PositionKind positions) {
  m.architecture = Architecture::Gpt3;
  m.mlp = MlpKind::Gelu;
  m.norm = NormKind::LayerNorm;
  m.causal = true;
  m.positions = positions;
}

/// Multi-head attention over the whole width: as many KV heads as heads, head_dim width / heads.
void mha_heads(Doc& d, ModelSpec& m, const std::string& width_key, const std::string& heads_key) {
  m.hidden_size = get_int(d, width_key, "model width", 1, "hidden_size");
  m.num_heads = get_int(d, heads_key, "attention heads", 1, "num_heads");
  if (m.hidden_size % m.num_heads != 0)
    d.fail(heads_key, width_key + " " + std::to_string(m.hidden_size) + " is not divisible by " +
                          std::to_string(m.num_heads) + " heads");
  m.num_kv_heads = m.num_heads;
  m.head_dim = m.hidden_size / m.num_heads;
}

/// GPT-2 and GPT-J name their sizes differently (n_embd, n_layer, n_head, n_inner,
/// n_positions): a GELU MLP of two matrices with biases and LayerNorm. GPT-2: learned positions,
/// biased attention, a tied LM head (HF GPT2Config, GPT2Model). GPT-J: rotary positions (on
/// rotary_dim of each head: the op is counted whole), attention without biases, an untied LM
/// head, attention and MLP in parallel, which changes no matmul (HF GPTJConfig, GPTJModel).
void read_gpt2(Doc& d, ModelSpec& m, bool gptj) {
  gpt_block(m, gptj ? PositionKind::Rope : PositionKind::Learned);
  mha_heads(d, m, "n_embd", "n_head");
  m.num_layers = get_int(d, "n_layer", "transformer blocks", 1, "num_layers");
  // n_inner null or absent: four times the width (HF GPT2MLP).
  const int four = static_cast<int>(std::min<long long>(4LL * m.hidden_size, INT_MAX));
  m.intermediate_size = get_int_or(d, "n_inner", "MLP hidden width", 1, "intermediate_size", four);
  m.vocab_size = get_int(d, "vocab_size", "vocabulary size", 1, "vocab_size");
  m.max_position = get_int(d, "n_positions", "maximum sequence length", 1, "max_position");
  m.attention_bias = !gptj;
  m.mlp_bias = true;
  m.tied_embeddings = get_bool_or(d, "tie_word_embeddings", "tied_embeddings", !gptj);
  check_activation(d, "activation_function", kGelu,
                   gptj ? "GPT-J's two-matrix GELU MLP" : "GPT-2's two-matrix GELU MLP");
}

/// OPT: its own name for the MLP width (ffn_dim), a two-matrix ReLU MLP (costed as the GELU one:
/// the activation is elementwise), LayerNorm before or after the block (the same matmuls),
/// learned positions, biases (enable_bias) and a tied LM head (HF OPTConfig, OPTDecoder). A
/// word_embed_proj_dim other than hidden_size adds projections the spec has no place for.
void read_opt(Doc& d, ModelSpec& m) {
  gpt_block(m, PositionKind::Learned);
  mha_heads(d, m, "hidden_size", "num_attention_heads");
  m.num_layers = get_int(d, "num_hidden_layers", "transformer blocks", 1, "num_layers");
  m.intermediate_size = get_int(d, "ffn_dim", "MLP hidden width", 1, "intermediate_size");
  m.vocab_size = get_int(d, "vocab_size", "vocabulary size", 1, "vocab_size");
  m.max_position = get_int(d, "max_position_embeddings", "maximum sequence length", 1, "max_position");
  if (d.has("word_embed_proj_dim") &&
      get_int(d, "word_embed_proj_dim", "embedding width", 1, "hidden_size") != m.hidden_size)
    d.fail("word_embed_proj_dim", "a word_embed_proj_dim other than hidden_size (" + std::to_string(m.hidden_size) +
                                      ") adds input and output projections, which are not modelled");
  m.attention_bias = m.mlp_bias = get_bool_or(d, "enable_bias", "attention_bias", true);
  m.tied_embeddings = get_bool_or(d, "tie_word_embeddings", "tied_embeddings", true);
  check_activation(d, "activation_function", {"relu", "gelu", "gelu_new"}, "OPT's two-matrix MLP");
}

/// A key whose value selects a computation the import supports only in one form.
void require_word(const Doc& d, const std::string& key, const std::string& want, const std::string& why) {
  if (!d.has(key)) return;
  const json& v = d.j.at(key);
  if (!v.is_string() || v.get<std::string>() != want)
    d.fail(key, "expected \"" + want + "\" (" + why + "), found " + shown(v));
}

/// The second half of read_family(): Gemma and Gemma 2 (a gated GELU MLP), Phi, OLMo 2, Granite,
/// Phi-3, GPT-NeoX and StarCoder2.
void read_family_rest(Doc& d, const std::string& arch, ModelSpec& m) {
  if (arch == "GemmaForCausalLM" || arch == "Gemma2ForCausalLM") {
    // Llama's block with a gated GELU MLP (gate, up and down: SwiGLU's three matrices) and an
    // LM head tied unless the config says otherwise (HF GemmaConfig, Gemma2Config). Gemma 2
    // slides the even layers (HF Gemma2Attention; layer_types in newer configs); its soft-capping
    // and two extra norms per layer are elementwise and not counted.
    m.architecture = Architecture::Llama;
    check_activation(d, "hidden_act", kGelu, "Gemma's gated GELU MLP");
    check_activation(d, "hidden_activation", kGelu, "Gemma's gated GELU MLP");
    m.tied_embeddings = get_bool_or(d, "tie_word_embeddings", "tied_embeddings", true);
    if (arch == "Gemma2ForCausalLM") read_sliding(d, m, SlidingPattern::Alternate);
  } else if (arch == "PhiForCausalLM") {
    // Phi-1.5 and Phi-2: LayerNorm, a two-matrix GELU MLP, biases on every projection, rotary
    // embeddings on partial_rotary_factor of each head (counted whole), an untied LM head,
    // attention and MLP in parallel (HF PhiConfig, PhiDecoderLayer); qk_layernorm adds the
    // q/k norms.
    gpt_block(m, PositionKind::Rope);
    m.attention_bias = m.mlp_bias = true;
    m.qk_norm = get_bool_or(d, "qk_layernorm", "qk_norm", false);
    check_activation(d, "hidden_act", kGelu, "Phi's two-matrix GELU MLP");
  } else if (arch == "Olmo2ForCausalLM") {
    // Llama's block with its norms after attention and MLP (the same parameters) and RMSNorm on
    // q and k (HF Olmo2Attention).
    m.architecture = Architecture::Llama;
    m.qk_norm = true;
    d.origin["qk_norm"] = "architectures";
  } else if (arch == "GraniteForCausalLM") {
    // Llama's block with scalar multipliers on the embeddings, residuals, attention scores and
    // logits, all elementwise (HF GraniteConfig).
    m.architecture = Architecture::Llama;
    m.mlp_bias = get_bool_or(d, "mlp_bias", "mlp_bias", false);
  } else if (arch == "Phi3ForCausalLM") {
    // Llama's block with fused q/k/v and gate/up projections (the same matrices, stacked); a
    // sliding_window applies to every layer (HF Phi3Attention).
    m.architecture = Architecture::Llama;
    read_sliding(d, m, SlidingPattern::All);
  } else if (arch == "GPTNeoXForCausalLM") {
    // LayerNorm, a two-matrix GELU MLP with biases, rotary embeddings (on rotary_pct of each
    // head: the op is counted whole) and an untied LM head (HF GPTNeoXConfig). The parallel
    // residual changes no matmul.
    gpt_block(m, PositionKind::Rope);
    m.attention_bias = get_bool_or(d, "attention_bias", "attention_bias", true);
    m.mlp_bias = true;
    check_activation(d, "hidden_act", kGelu, "GPT-NeoX's two-matrix GELU MLP");
  } else if (arch == "Starcoder2ForCausalLM") {
    // LayerNorm, a two-matrix GELU MLP, rotary embeddings, use_bias on every projection, a
    // window on every layer and a tied LM head (HF Starcoder2Config, Starcoder2Attention).
    gpt_block(m, PositionKind::Rope);
    require_word(d, "norm_type", "layer_norm", "the only norm_type of StarCoder2");
    require_word(d, "mlp_type", "default", "a two-matrix MLP");
    m.attention_bias = m.mlp_bias = get_bool_or(d, "use_bias", "attention_bias", true);
    check_activation(d, "hidden_act", kGelu, "StarCoder2's two-matrix GELU MLP");
    m.tied_embeddings = get_bool_or(d, "tie_word_embeddings", "tied_embeddings", true);
    read_sliding(d, m, SlidingPattern::All);
  }
}

void read_family(Doc& d, const std::string& arch, ModelSpec& m) {
  static const std::vector<std::string> swiglu = {
      "LlamaForCausalLM",   "MistralForCausalLM", "Qwen2ForCausalLM", "Qwen3ForCausalLM", "Qwen3MoeForCausalLM",
      "MixtralForCausalLM", "GptOssForCausalLM",  "Phi3ForCausalLM",  "Olmo2ForCausalLM", "GraniteForCausalLM"};
  if (std::find(swiglu.begin(), swiglu.end(), arch) != swiglu.end())
    check_activation(d, "hidden_act", kSilu, "a SwiGLU MLP");
  if (arch == "LlamaForCausalLM") {
    m.architecture = Architecture::Llama;
    m.mlp_bias = get_bool_or(d, "mlp_bias", "mlp_bias", false);
  } else if (arch == "MistralForCausalLM") {
    // Llama's block; sliding_window (null or absent: none) applies to every layer (HF
    // MistralAttention).
    m.architecture = Architecture::Mistral;
    read_sliding(d, m, SlidingPattern::All);
  } else if (arch == "Qwen2ForCausalLM") {
    // q, k and v projections carry biases, o does not (HF Qwen2Attention).
    m.architecture = Architecture::Qwen2;
    m.attention_bias = true;
    d.origin["attention_bias"] = "architectures";
    read_qwen_sliding(d, m);
  } else if (arch == "Qwen3ForCausalLM") {
    m.architecture = Architecture::Qwen3;
    m.qk_norm = true;
    read_qwen_sliding(d, m);
  } else if (arch == "Qwen3MoeForCausalLM") {
    m.architecture = Architecture::Qwen3Moe;
    m.qk_norm = true;
    read_experts(d, m, "num_experts");
    m.moe_intermediate_size =
        get_int(d, "moe_intermediate_size", "hidden width of one expert", 1, "moe_intermediate_size");
    read_qwen_moe_layers(d, m);
    read_qwen_sliding(d, m);
  } else if (arch == "MixtralForCausalLM") {
    m.architecture = Architecture::Mixtral;
    read_experts(d, m, "num_local_experts");
    m.moe_intermediate_size = m.intermediate_size;  // Mixtral's intermediate_size is per expert
    d.origin["moe_intermediate_size"] = "intermediate_size";
    read_sliding(d, m, SlidingPattern::All);
  } else if (arch == "GptOssForCausalLM") {
    m.architecture = Architecture::GptOss;
    m.attention_bias = get_bool_or(d, "attention_bias", "attention_bias", true);
    m.mlp_bias = true;  // expert and router projections carry biases
    read_experts(d, m, "num_local_experts");
    m.moe_intermediate_size = m.intermediate_size;
    d.origin["moe_intermediate_size"] = "intermediate_size";
    read_sliding(d, m, SlidingPattern::Alternate);
  } else {
    read_family_rest(d, arch, m);
  }
}

std::string model_name(const std::string& path) {
  fs::path p(path);
  if (p.filename() == "config.json") {
    std::string dir = fs::absolute(p).lexically_normal().parent_path().filename().string();
    if (!dir.empty()) return dir;
  }
  return "hf:" + p.filename().string();
}

/// The spec as a document whose entries sit where their JSON keys are, for validate().
ConfigNode located(const ModelSpec& m, const Doc& d) {
  ConfigNode root = sim::write_config(m);
  root.loc = Location{d.path, 0, 0};
  for (auto& e : root.map) {
    auto it = d.origin.find(e.key);
    e.key_loc = e.value.loc = it == d.origin.end() ? root.loc : d.at(it->second);
  }
  return root;
}

}  // namespace

ModelSpec import_hf_config(const std::string& path) {
  Doc d = read_doc(path);
  std::string arch = architecture_of(d);
  ModelSpec m;
  m.name = model_name(path);
  m.source = kImportedSource + path;
  if (arch == "GPT2LMHeadModel" || arch == "GPTJForCausalLM") {
    read_gpt2(d, m, arch == "GPTJForCausalLM");
  } else if (arch == "OPTForCausalLM") {
    read_opt(d, m);
  } else {
    read_common(d, m);
    read_family(d, arch, m);
  }
  // The zoo's ranges (ModelSpec::visit) apply to imported values too, located at their keys.
  const ConfigNode where = located(m, d);
  ModelSpec checked;
  sim::read_config(where, checked);
  m.validate(where);
  return m;
}

}  // namespace trn::workloads
