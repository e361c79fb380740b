// The model zoo loads strictly, parameter counts match the published model sizes, Hugging
// Face configs import with the right fields (and agree with the zoo), bad input gives
// ConfigErrors that say what is wrong, and the resolved dump reproduces the spec.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "sim/base/config_loader.h"
#include "test/unit/test_util.h"
#include "sim/base/paths.h"
#include "workloads/graph/training_graph.h"
#include "workloads/model/hf_import.h"
#include "workloads/model/model_spec.h"

using namespace trn::workloads;
using trn::sim::ConfigError;

namespace {

/// A scratch path unique to this process (ctest may run test binaries concurrently).
std::filesystem::path scratch(const std::string& name) {
  return std::filesystem::temp_directory_path() / (name + "." + std::to_string(::getpid()));
}

std::string hf(const std::string& file) { return std::string(TRNSIM_SOURCE_DIR) + "/test/data/hf/" + file; }

using trn::test::error_of;

/// The spec without its provenance, for comparing an import with a zoo file.
std::string shape_of(ModelSpec m) {
  m.name = m.source = "";
  return resolved_yaml(m, "");
}

struct Published {
  const char* name;
  double total;   // parameters, billions
  double active;  // 0 = same convention not published / dense
};

}  // namespace

TEST_CASE("every zoo model loads and validates", "[model]") {
  auto names = trn::sim::list_named_configs("workloads/models");
  REQUIRE(names.size() >= 14);
  for (const auto& n : names) {
    INFO(n);
    ModelSpec m = load_model(n, {});
    CHECK(m.name == n);
    CHECK_FALSE(m.source.empty());
  }
}

TEST_CASE("zoo parameter counts match the published model sizes within 3%", "[model]") {
  const Published table[] = {
      {"qwen3-8b", 8.2, 0},       {"qwen3-32b", 32.8, 0},         {"llama2-7b", 6.74, 0},    {"llama2-13b", 13.0, 0},
      {"llama2-70b", 69.0, 0},    {"llama3.1-8b", 8.03, 0},       {"llama3.1-70b", 70.6, 0}, {"gpt3-175b", 175.0, 0},
      {"gpt-oss-20b", 20.9, 3.6}, {"mixtral-8x7b", 46.7, 12.9},   {"bert-large", 0.335, 0},  {"gpt3-6.7b", 6.7, 0},
      {"gpt3-23b", 23.0, 0},      {"gpt3-46b", 46.0, 0},           // nominal sizes
      {"gpt2", 0.1244, 0},        {"bert-base-cased", 0.1083, 0},  // their Hugging Face checkpoints
  };
  for (const auto& p : table) {
    ModelSpec m = load_model(p.name, {});
    double total = m.parameters() / 1e9, active = m.active_parameters() / 1e9;
    std::printf("  %-14s parameters %8.3fB (published %7.3fB, %+5.2f%%)", p.name, total, p.total,
                100 * (total / p.total - 1));
    if (p.active > 0)
      std::printf("  active %6.3fB (published %5.2fB, %+5.2f%%)", active, p.active, 100 * (active / p.active - 1));
    std::printf("\n");
    INFO(p.name);
    CHECK(total == Approx(p.total).epsilon(0.03));
    if (p.active > 0) CHECK(active == Approx(p.active).epsilon(0.03));
    // Dense: active = total - lookup tables, + the table again when it doubles as the LM head.
    double head = m.tied_embeddings ? static_cast<double>(m.vocab_size) * m.hidden_size : 0;
    if (!m.is_moe()) CHECK(m.active_parameters() == Approx(m.parameters() - m.embedding_parameters() + head));
  }
}

TEST_CASE("parameter count of a small dense model, counted by hand", "[model]") {
  ModelSpec m = load_model("llama2-7b", {"num_layers=1", "vocab_size=10", "model.hidden_size=8", "num_heads=2",
                                         "num_kv_heads=1", "head_dim=4", "intermediate_size=16"});
  // embed 10x8 + head 10x8 + q 8x8 + k 8x4 + v 8x4 + o 8x8 + 2 norms 2x8 + swiglu 3x8x16
  // + final norm 8 = 80 + 80 + 192 + 16 + 384 + 8.
  CHECK(m.parameters() == 760);
  CHECK(m.active_parameters() == 760 - 80);
  CHECK(m.embedding_parameters() == 80);
}

TEST_CASE("positions: the rotary op and the learned table follow positions:", "[model]") {
  auto rope_ops = [](const ModelSpec& m) {
    TrainingGraph t = build_training_graph(m, 0, m.num_layers, 1, 512, Checkpointing::None, 2);
    int n = 0;
    for (Vertex v : t.order) n += t.g[v].name == "rope" || t.g[v].name == "rope_bwd";
    return n;
  };
  const std::vector<std::string> small{"num_layers=2",   "vocab_size=10", "hidden_size=8",        "num_heads=2",
                                       "num_kv_heads=1", "head_dim=4",    "intermediate_size=16", "max_position=32"};
  auto with = [&](const std::string& name, const std::string& pos) {
    std::vector<std::string> sets = small;
    if (!pos.empty()) sets.push_back("positions=" + pos);
    return load_model(name, sets);
  };
  // family: rotary in every causal layer (forward and backward); a table for gpt3 only.
  CHECK(rope_ops(with("llama2-7b", "")) == 4);
  CHECK(rope_ops(with("gpt3-175b", "")) == 4);
  CHECK(with("llama2-7b", "").embedding_parameters() == 80);
  CHECK(with("gpt3-175b", "").embedding_parameters() == 80 + 32 * 8);
  // learned: no rotary op, a max_position x hidden table; fixed: neither.
  CHECK(rope_ops(with("gpt3-175b", "learned")) == 0);
  CHECK(with("llama2-7b", "learned").embedding_parameters() == 80 + 32 * 8);
  CHECK(rope_ops(with("llama2-7b", "fixed")) == 0);
  CHECK(with("gpt3-175b", "fixed").embedding_parameters() == 80);
  CHECK(with("gpt3-175b", "fixed").parameters() == with("gpt3-175b", "").parameters() - 32 * 8);
  CHECK(rope_ops(with("gpt3-175b", "rope")) == 4);
  CHECK(error_of([&] { with("llama2-7b", "alibi"); }).find("positions") != std::string::npos);
}

TEST_CASE("sliding-window layers follow the pattern", "[model]") {
  ModelSpec oss = load_model("gpt-oss-20b", {});
  CHECK(oss.is_sliding_layer(0));
  CHECK_FALSE(oss.is_sliding_layer(1));
  CHECK(oss.is_sliding_layer(22));
  ModelSpec q = load_model("qwen3-32b", {});
  CHECK_FALSE(q.is_sliding_layer(0));
}

TEST_CASE("Hugging Face configs import with the right fields", "[model][hf]") {
  ModelSpec l = import_hf_config(hf("llama-3.1-8b.json"));
  CHECK(l.name == "hf:llama-3.1-8b.json");
  CHECK(l.architecture == Architecture::Llama);
  CHECK(l.hidden_size == 4096);
  CHECK(l.num_layers == 32);
  CHECK(l.num_kv_heads == 8);
  CHECK(l.head_dim == 128);  // hidden / heads: no head_dim key
  CHECK(l.vocab_size == 128256);
  CHECK(l.max_position == 131072);
  CHECK_FALSE(l.tied_embeddings);

  ModelSpec q = import_hf_config(hf("qwen3-32b.json"));
  CHECK(q.architecture == Architecture::Qwen3);
  CHECK(q.qk_norm);
  CHECK(q.head_dim == 128);
  CHECK(q.num_heads * q.head_dim == 8192);
  CHECK(q.hidden_size == 5120);
  CHECK(q.sliding_window == 0);

  ModelSpec moe = import_hf_config(hf("qwen3-30b-a3b.json"));
  CHECK(moe.architecture == Architecture::Qwen3Moe);
  CHECK(moe.num_experts == 128);
  CHECK(moe.experts_per_token == 8);
  CHECK(moe.moe_intermediate_size == 768);
  CHECK(moe.num_kv_heads == 4);
  CHECK(moe.parameters() / 1e9 == Approx(30.5).epsilon(0.03));  // Qwen: 30.5B total
  // Qwen's 3.3B active counts the input embedding; active_parameters() does not.
  CHECK((moe.active_parameters() + moe.embedding_parameters()) / 1e9 == Approx(3.3).epsilon(0.03));

  ModelSpec mx = import_hf_config(hf("mixtral-8x7b.json"));
  CHECK(mx.architecture == Architecture::Mixtral);
  CHECK(mx.num_experts == 8);
  CHECK(mx.experts_per_token == 2);
  CHECK(mx.moe_intermediate_size == 14336);
  CHECK(mx.sliding_window == 0);
  CHECK(mx.sliding_window_pattern == SlidingPattern::None);

  ModelSpec oss = import_hf_config(hf("gpt-oss-20b.json"));
  CHECK(oss.architecture == Architecture::GptOss);
  CHECK(oss.num_experts == 32);
  CHECK(oss.experts_per_token == 4);
  CHECK(oss.head_dim == 64);
  CHECK(oss.attention_bias);
  CHECK(oss.sliding_window == 128);
  CHECK(oss.sliding_window_pattern == SlidingPattern::Alternate);
}

TEST_CASE("imported configs match the zoo where both exist", "[model][hf]") {
  const std::pair<const char*, const char*> pairs[] = {
      {"qwen3-32b.json", "qwen3-32b"},
      {"llama-3.1-8b.json", "llama3.1-8b"},
      {"mixtral-8x7b.json", "mixtral-8x7b"},
      {"gpt-oss-20b.json", "gpt-oss-20b"},
      {"gpt2.json", "gpt2"},
  };
  for (const auto& [json, zoo] : pairs) {
    INFO(json);
    ModelSpec a = load_model(hf(json), {});
    ModelSpec b = load_model(zoo, {});
    CHECK(a.parameters() == b.parameters());
    CHECK(a.active_parameters() == b.active_parameters());
    CHECK(shape_of(a) == shape_of(b));
  }
}

TEST_CASE("the families added since the Llama and Qwen ones import with their fields", "[model][hf]") {
  ModelSpec g = import_hf_config(hf("gemma-2b.json"));
  CHECK(g.architecture == Architecture::Llama);
  CHECK(g.mlp == MlpKind::SwiGLU);  // gated GELU: three matrices
  CHECK(g.tied_embeddings);         // no key: Gemma's default
  CHECK(g.head_dim == 256);
  CHECK(g.num_kv_heads == 1);
  CHECK(g.sliding_window == 0);

  ModelSpec g2 = import_hf_config(hf("gemma-2-9b.json"));
  CHECK(g2.tied_embeddings);
  CHECK(g2.sliding_window == 4096);
  CHECK(g2.sliding_window_pattern == SlidingPattern::Alternate);
  CHECK(g2.is_sliding_layer(0));
  CHECK_FALSE(g2.is_sliding_layer(1));

  ModelSpec phi = import_hf_config(hf("phi-3-mini-4k-instruct.json"));
  CHECK(phi.architecture == Architecture::Llama);
  CHECK_FALSE(phi.tied_embeddings);
  CHECK(phi.sliding_window == 2047);
  CHECK(phi.sliding_window_pattern == SlidingPattern::All);

  ModelSpec neox = import_hf_config(hf("pythia-2.8b.json"));
  CHECK(neox.architecture == Architecture::Gpt3);
  CHECK(neox.mlp == MlpKind::Gelu);
  CHECK(neox.norm == NormKind::LayerNorm);
  CHECK(neox.uses_rope());
  CHECK_FALSE(neox.learned_positions());
  CHECK(neox.attention_bias);
  CHECK(neox.mlp_bias);
  CHECK_FALSE(neox.tied_embeddings);

  ModelSpec sc = import_hf_config(hf("starcoder2-3b.json"));
  CHECK(sc.architecture == Architecture::Gpt3);
  CHECK(sc.mlp == MlpKind::Gelu);
  CHECK(sc.num_kv_heads == 2);
  CHECK(sc.attention_bias);
  CHECK(sc.mlp_bias);
  CHECK(sc.tied_embeddings);  // no key: StarCoder2's default
  CHECK(sc.sliding_window_pattern == SlidingPattern::All);

  ModelSpec gptj = import_hf_config(hf("gpt-j-6b.json"));
  CHECK(gptj.architecture == Architecture::Gpt3);
  CHECK(gptj.uses_rope());
  CHECK_FALSE(gptj.learned_positions());
  CHECK_FALSE(gptj.attention_bias);
  CHECK(gptj.mlp_bias);
  CHECK_FALSE(gptj.tied_embeddings);
  CHECK(gptj.intermediate_size == 16384);

  ModelSpec opt = import_hf_config(hf("opt-1.3b.json"));
  CHECK(opt.intermediate_size == 8192);  // ffn_dim
  CHECK(opt.learned_positions());
  CHECK(opt.tied_embeddings);

  ModelSpec phi1 = import_hf_config(hf("phi-1_5.json"));
  CHECK(phi1.architecture == Architecture::Gpt3);
  CHECK(phi1.uses_rope());
  CHECK(phi1.attention_bias);
  CHECK_FALSE(phi1.qk_norm);

  ModelSpec olmo = import_hf_config(hf("olmo-2-1124-7b.json"));
  CHECK(olmo.architecture == Architecture::Llama);
  CHECK(olmo.qk_norm);

  ModelSpec granite = import_hf_config(hf("granite-3.2-8b-instruct.json"));
  CHECK(granite.num_layers == 40);
  CHECK(granite.tied_embeddings);

  ModelSpec gpt2 = import_hf_config(hf("gpt2.json"));
  CHECK(gpt2.intermediate_size == 3072);  // n_inner absent: 4 x n_embd
  CHECK(gpt2.learned_positions());
  CHECK_FALSE(gpt2.uses_rope());
  CHECK(gpt2.max_position == 1024);
}

TEST_CASE("an activation the family's MLP is not built with is refused at its key", "[model][hf]") {
  auto dir = scratch("trnsim_hf_activation_test");
  std::filesystem::create_directories(dir);
  auto with = [&](const char* file, const std::string& from, const std::string& to) {
    std::ifstream in(hf(file));
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    text.replace(text.find(from), from.size(), to);
    const std::string path = (dir / file).string();
    std::ofstream(path) << text;
    return error_of([&] { import_hf_config(path); });
  };
  std::string e = with("gemma-2b.json", "\"hidden_act\": \"gelu\"", "\"hidden_act\": \"silu\"");
  CHECK_THAT(e, Catch::Contains("hidden_act"));
  CHECK_THAT(e, Catch::Contains("gated GELU"));
  e = with("pythia-2.8b.json", "\"hidden_act\": \"gelu\"", "\"hidden_act\": \"relu\"");
  CHECK_THAT(e, Catch::Contains("\"relu\""));
  e = with("llama-3.1-8b.json", "\"hidden_act\": \"silu\"", "\"hidden_act\": \"gelu\"");
  CHECK_THAT(e, Catch::Contains("SwiGLU"));
  e = with("starcoder2-3b.json", "\"mlp_type\": \"default\"", "\"mlp_type\": \"gated\"");
  CHECK_THAT(e, Catch::Contains("mlp_type"));
  e = with("opt-1.3b.json", "\"word_embed_proj_dim\": 2048", "\"word_embed_proj_dim\": 512");
  CHECK_THAT(e, Catch::Contains("word_embed_proj_dim"));
  CHECK_THAT(e, Catch::Contains("not modelled"));
  e = with("gpt2.json", "\"n_head\": 12", "\"n_head\": 7");
  CHECK_THAT(e, Catch::Contains("not divisible by 7 heads"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("set overrides reach imported configs too", "[model][hf]") {
  ModelSpec q = load_model(hf("qwen3-32b.json"), {"model.num_layers=2"});
  CHECK(q.num_layers == 2);
  CHECK_THROWS_AS(load_model(hf("qwen3-32b.json"), {"num_kv_heads=7"}), ConfigError);
}

TEST_CASE("an unsupported architecture lists the supported ones", "[model][hf]") {
  std::string e = error_of([] { import_hf_config(hf("t5-small.json")); });
  CHECK_THAT(e, Catch::Contains("t5-small.json:2:"));
  CHECK_THAT(e, Catch::Contains("architectures"));
  CHECK_THAT(e, Catch::Contains("T5ForConditionalGeneration"));
  for (const auto& a : supported_hf_architectures()) CHECK_THAT(e, Catch::Contains(a));
}

TEST_CASE("a truncated JSON file is a ConfigError naming the file and position", "[model][hf]") {
  CHECK_THROWS_AS(import_hf_config(hf("truncated.json")), ConfigError);
  std::string e = error_of([] { load_model(hf("truncated.json"), {}); });
  CHECK_THAT(e, Catch::Contains("truncated.json:18:"));
  CHECK_THAT(e, Catch::Contains("invalid JSON"));
  std::string missing = error_of([] { import_hf_config(hf("no-such-config.json")); });
  CHECK_THAT(missing, Catch::Contains("does not exist"));
}

TEST_CASE("a missing required key in a Hugging Face config is named", "[model][hf]") {
  auto dir = scratch("trnsim_model_spec_test");
  std::filesystem::create_directories(dir / "My-Llama");
  std::ifstream in(hf("llama-3.1-8b.json"));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  std::string path = (dir / "My-Llama" / "config.json").string();
  std::ofstream(path) << text;
  CHECK(import_hf_config(path).name == "My-Llama");
  text.replace(text.find("\"vocab_size\""), 12, "\"vocab_sizes\"");
  std::ofstream(path) << text;
  std::string e = error_of([&] { import_hf_config(path); });
  CHECK_THAT(e, Catch::Contains("missing key 'vocab_size'"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("a misspelt key in a zoo-style YAML names the nearest key", "[model]") {
  std::ifstream in(trn::sim::resolve_named_config("qwen3-8b", "workloads/models", "model"));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  text.replace(text.find("hidden_size:"), 12, "hiden_size:");
  auto path = scratch("trnsim_model_typo").string() + ".yaml";
  std::ofstream(path) << text;
  std::string e = error_of([&] { load_model(path, {}); });
  std::filesystem::remove(path);
  CHECK_THAT(e, Catch::Contains(path + ":5:1"));
  CHECK_THAT(e, Catch::Contains("unknown key 'hiden_size'"));
  CHECK_THAT(e, Catch::Contains("did you mean 'hidden_size'"));
}

TEST_CASE("bad values and inconsistent models are rejected", "[model]") {
  CHECK_THROWS_AS(load_model("llama2-7b", {"num_heads=0"}), ConfigError);
  CHECK_THAT(error_of([] { load_model("llama2-7b", {"num_kv_heads=5"}); }), Catch::Contains("do not divide"));
  CHECK_THAT(error_of([] { load_model("mixtral-8x7b", {"experts_per_token=9"}); }),
             Catch::Contains("experts_per_token"));
  CHECK_THAT(error_of([] { load_model("llama2-7b", {"mlp=relu"}); }), Catch::Contains("swiglu"));
  CHECK_THAT(error_of([] { load_model("qwen3-8b", {"sliding_window=4096"}); }),
             Catch::Contains("sliding_window_pattern"));
  CHECK_THAT(error_of([] { load_model("bert-large", {"causal=true"}); }), Catch::Contains("causal"));
  CHECK_THAT(error_of([] { load_model("llama9-1b", {}); }), Catch::Contains("unknown model"));
}

TEST_CASE("the resolved model reproduces itself exactly", "[model]") {
  for (const auto& name : trn::sim::list_named_configs("workloads/models")) {
    INFO(name);
    ModelSpec m = load_model(name, {});
    std::string y1 = resolved_yaml(m, "# resolved\n");
    ModelSpec back;
    trn::sim::read_config(trn::sim::parse_yaml_text(y1, "resolved"), back);
    CHECK(resolved_yaml(back, "# resolved\n") == y1);
    CHECK(back.parameters() == m.parameters());
  }
  ModelSpec imported = load_model(hf("gpt-oss-20b.json"), {});
  std::string y = resolved_yaml(imported, "");
  ModelSpec back;
  trn::sim::read_config(trn::sim::parse_yaml_text(y, "resolved"), back);
  CHECK(resolved_yaml(back, "") == y);
}

TEST_CASE("Mistral and Qwen2 configs import with their windows and biases", "[model][hf]") {
  ModelSpec m = import_hf_config(hf("mistral-7b-v0.1.json"));
  CHECK(m.architecture == Architecture::Mistral);
  CHECK(m.sliding_window == 4096);
  CHECK(m.sliding_window_pattern == SlidingPattern::All);  // every Mistral layer uses the window
  CHECK(m.is_sliding_layer(0));
  CHECK(m.is_sliding_layer(31));
  CHECK(m.head_dim == 128);
  CHECK_FALSE(m.attention_bias);

  ModelSpec q = import_hf_config(hf("qwen2-7b.json"));
  CHECK(q.architecture == Architecture::Qwen2);
  CHECK(q.attention_bias);       // q, k, v biases (no o bias)
  CHECK(q.sliding_window == 0);  // use_sliding_window false
  CHECK(q.num_kv_heads == 4);
  CHECK(q.vocab_size == 152064);
  // Qwen2's biases: q + k + v per layer, not the o projection's.
  ModelSpec llama_like = q;
  llama_like.architecture = Architecture::Llama;
  CHECK(llama_like.parameters() - q.parameters() == double(q.num_layers) * q.hidden_size);
}

TEST_CASE("sliding-window keys are honoured or refused, never dropped", "[model][hf]") {
  auto dir = scratch("trnsim_hf_sliding");
  std::filesystem::create_directories(dir);
  auto with = [&](const std::string& file, const std::string& from, const std::string& to) {
    std::ifstream in(hf(file));
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    REQUIRE(text.find(from) != std::string::npos);
    text.replace(text.find(from), from.size(), to);
    std::string path = (dir / ("edited-" + file)).string();
    std::ofstream(path) << text;
    return path;
  };
  // Mistral without a window (null) attends fully.
  ModelSpec none =
      import_hf_config(with("mistral-7b-v0.1.json", "\"sliding_window\": 4096", "\"sliding_window\": null"));
  CHECK(none.sliding_window == 0);
  CHECK(none.sliding_window_pattern == SlidingPattern::None);
  // Qwen2 with use_sliding_window: layers max_window_layers and above use the window; all
  // 28 layers below it means none, 0 means every layer.
  std::string q = with("qwen2-7b.json", "\"use_sliding_window\": false", "\"use_sliding_window\": true");
  CHECK(import_hf_config(q).sliding_window == 0);  // max_window_layers 28 = num_hidden_layers
  std::ifstream in(q);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  auto set_mwl = [&](const std::string& v) {
    std::string t = text;
    t.replace(t.find("\"max_window_layers\": 28"), 23, "\"max_window_layers\": " + v);
    std::string path = (dir / ("mwl-" + v + ".json")).string();
    std::ofstream(path) << t;
    return path;
  };
  ModelSpec all = import_hf_config(set_mwl("0"));
  CHECK(all.sliding_window == 131072);
  CHECK(all.sliding_window_pattern == SlidingPattern::All);
  std::string e = error_of([&] { import_hf_config(set_mwl("14")); });
  CHECK_THAT(e, Catch::Contains("max_window_layers"));
  CHECK_THAT(e, Catch::Contains("14 full-attention layers"));
  CHECK_THAT(e, Catch::Contains("mwl-14.json:13:3"));  // the key's line and column
  // Qwen3-MoE: dense layers and shared experts change the math and are refused.
  CHECK_THAT(error_of([&] {
               import_hf_config(with("qwen3-30b-a3b.json", "\"mlp_only_layers\": []", "\"mlp_only_layers\": [0, 1]"));
             }),
             Catch::Contains("mlp_only_layers: dense layers inside a MoE model are not supported"));
  CHECK_THAT(error_of([&] {
               import_hf_config(with("qwen3-30b-a3b.json", "\"decoder_sparse_step\": 1", "\"decoder_sparse_step\": 2"));
             }),
             Catch::Contains("decoder_sparse_step"));
  CHECK_THAT(error_of([&] {
               import_hf_config(with("qwen3-30b-a3b.json", "\"mlp_only_layers\": []",
                                     "\"mlp_only_layers\": [], \"shared_expert_intermediate_size\": 512"));
             }),
             Catch::Contains("no shared expert"));
  // Mixtral with a window applies it to every layer.
  ModelSpec mx = import_hf_config(with("mixtral-8x7b.json", "\"sliding_window\": null", "\"sliding_window\": 4096"));
  CHECK(mx.sliding_window_pattern == SlidingPattern::All);
  std::filesystem::remove_all(dir);
}

TEST_CASE("imported parameter counts match the published sizes within 2%", "[model][hf]") {
  // Totals from the model pages (F18 ... F21). Active per token: Mixtral's 12.9B and
  // Qwen3-30B-A3B's 3.3B count the input embedding; active_parameters() does not (the
  // gpt-oss convention), so it is added back for them.
  struct Row {
    const char* file;
    double total, active;  // billions; active 0 = dense
  };
  const Row rows[] = {{"mistral-7b-v0.1.json", 7.24, 0},
                      {"qwen2-7b.json", 7.62, 0},
                      {"mixtral-8x7b.json", 46.7, 12.9},
                      {"qwen3-30b-a3b.json", 30.5, 3.3},
                      {"gemma-2b.json", 2.51, 0},
                      {"gemma-2-9b.json", 9.24, 0},
                      {"phi-3-mini-4k-instruct.json", 3.82, 0},
                      {"pythia-2.8b.json", 2.775, 0},
                      {"starcoder2-3b.json", 3.03, 0},
                      {"gpt2.json", 0.1244, 0},
                      {"gpt-j-6b.json", 6.05, 0},
                      {"opt-1.3b.json", 1.3, 0},
                      {"phi-1_5.json", 1.42, 0},
                      {"olmo-2-1124-7b.json", 7.3, 0},
                      {"granite-3.2-8b-instruct.json", 8.17, 0}};
  for (const auto& r : rows) {
    INFO(r.file);
    ModelSpec m = load_model(hf(r.file), {});
    const double total = m.parameters() / 1e9;
    const double active = (m.active_parameters() + m.embedding_parameters()) / 1e9;
    std::printf("  %-28s %7.3fB (published %6.3fB, %+5.2f%%)", r.file, total, r.total, 100 * (total / r.total - 1));
    if (r.active > 0)
      std::printf("  active %6.3fB (published %5.2fB, %+5.2f%%)", active, r.active, 100 * (active / r.active - 1));
    std::printf("  | %s\n", parameter_summary(m).c_str());
    CHECK(total == Approx(r.total).epsilon(0.02));
    if (r.active > 0) CHECK(active == Approx(r.active).epsilon(0.02));
    CHECK(is_imported(m));
  }
  CHECK(parameter_summary(load_model(hf("mistral-7b-v0.1.json"), {})) == "7.24 B parameters");
  CHECK_FALSE(is_imported(load_model("qwen3-8b", {})));
}
