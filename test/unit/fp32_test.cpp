// FP32 models and the compiler's auto-cast (docs/model.md 11.11): closed forms of the lowered
// GEMMs (the BF16 rate with auto-cast, the tiling model's fp32 rate without), the bytes of every
// collective and of the memory model, and the invariant that FP32 is never cheaper than BF16.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "models/cost/tensor_cost.h"
#include "workloads/graph/training_graph.h"
#include "workloads/lowering/lower_program.h"
#include "workloads/memory/memory_model.h"
#include "workloads/parallel/layout.h"
#include "workloads/parallel/parallel_passes.h"

using namespace trn::workloads;
using trn::models::DType;
using trn::models::Engine;

namespace {

const std::vector<std::string> kFp32 = {"precision.compute=fp32"};  // auto-cast matmult
const std::vector<std::string> kFp32NoCast = {"precision.compute=fp32", "compile.auto_cast=none"};

std::vector<std::string> plus(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Pipeline stage 0 of the scenario's model, after the parallel passes.
TrainingGraph stage_graph(const ScenarioSpec& s) {
  TrainingGraph t = build_training_graph(s.model, 0, s.model.num_layers / s.parallel.pp, 1, double(s.batch.seq_len),
                                         s.checkpointing, s.precision.element_bytes());
  apply_parallel_passes(t, s, 0);
  return t;
}

struct Lowered {
  ScenarioSpec s;
  TrainingGraph t;
  trn::models::Program p;
};

// Two layers per pipeline stage keep each program small.
std::vector<std::string> two_layers(const std::string& scenario) {
  return {"model.num_layers=" + std::to_string(2 * load_scenario(scenario, {}).parallel.pp)};
}

Lowered lower(const std::string& scenario, const std::vector<std::string>& sets) {
  ScenarioSpec s = load_scenario(scenario, plus(two_layers(scenario), sets));
  TrainingGraph t = stage_graph(s);
  Layout layout(s.parallel);
  trn::models::Program p = lower_rank(s, layout, t, 0);
  p.check();
  return Lowered{s, t, std::move(p)};
}

std::vector<const trn::models::Op*> ops_on(const trn::models::Program& p, Engine e) {
  std::vector<const trn::models::Op*> out;
  for (const auto& op : p.ops)
    if (op.engine == e) out.push_back(&op);
  return out;
}

// The graph's GEMMs by name (a name has one shape in a two-layer graph).
std::map<std::string, GraphOp> gemms(const TrainingGraph& t) {
  std::map<std::string, GraphOp> m;
  for (Vertex v : t.order)
    if (t.g[v].kind == OpKind::Matmul) m[t.g[v].name] = t.g[v];
  return m;
}

trn::models::MatmulCost per_core_cost(const ScenarioSpec& s, const GraphOp& g, DType dt) {
  const int lnc = s.lnc > 0 ? s.lnc : s.system.chip.cores.default_lnc;
  trn::models::MatmulShape sh{static_cast<int64_t>(std::ceil(g.tokens / lnc)), static_cast<int64_t>(std::ceil(g.n)),
                              static_cast<int64_t>(std::ceil(g.k)), dt};
  return trn::models::matmul_cost(s.system.chip.tensor, s.system.chip.psum.banks, sh, false);
}

std::map<std::string, double> memory(const std::string& scenario, const std::vector<std::string>& sets) {
  std::map<std::string, double> c;
  for (const auto& x : memory_per_rank(load_scenario(scenario, sets)).categories) c[x.name] = x.bytes;
  return c;
}

}  // namespace

TEST_CASE("FP32 with auto-cast: every GEMM at the BF16 rate on FP32 bytes, after a ScalarE cast", "[workload][fp32]") {
  for (const char* scenario : {"qwen3-32b-trn2", "bert-large-trn1", "mixtral-8x7b-trn2"}) {
    INFO(scenario);
    Lowered bf = lower(scenario, {}), f32 = lower(scenario, kFp32);
    const auto a = ops_on(bf.p, Engine::Tensor), b = ops_on(f32.p, Engine::Tensor);
    REQUIRE(a.size() == b.size());
    REQUIRE(!a.empty());
    for (size_t i = 0; i < a.size(); ++i) {
      INFO(a[i]->name);
      REQUIRE(a[i]->name == b[i]->name);
      CHECK(b[i]->duration_s == a[i]->duration_s);                   // the same BF16 tiling, op for op
      CHECK(b[i]->bytes == Approx(2 * a[i]->bytes).epsilon(1e-12));  // operands and output in FP32
      CHECK(b[i]->flops == a[i]->flops);
    }
    // One cast per GEMM and attention op, on ScalarE, before it; no HBM bytes of its own.
    int casts = 0;
    for (size_t i = 0; i < f32.p.ops.size(); ++i) {
      const auto& op = f32.p.ops[i];
      if (op.name.rfind("auto_cast_", 0) != 0) continue;
      ++casts;
      CHECK(op.engine == Engine::Scalar);
      CHECK(op.bytes == 0);
      CHECK(op.duration_s > 0);
      // The next op of the program is the GEMM or attention it feeds, and it waits for the cast.
      REQUIRE(i + 1 < f32.p.ops.size());
      const auto& next = f32.p.ops[i + 1];
      CHECK(next.engine == Engine::Tensor);
      CHECK(op.name == "auto_cast_" + next.name);
      CHECK(std::find(next.deps.begin(), next.deps.end(), static_cast<int32_t>(i)) != next.deps.end());
    }
    CHECK(casts == static_cast<int>(b.size()));
    for (const auto& op : bf.p.ops) CHECK(op.name.rfind("auto_cast_", 0) != 0);
  }
}

TEST_CASE("the auto-cast costs one ScalarE pass over the GEMM's two operands", "[workload][fp32]") {
  Lowered f32 = lower("bert-large-trn1", kFp32);
  const auto g = gemms(f32.t);
  const auto& sc = f32.s.system.chip.scalar;
  const int lnc = f32.s.lnc > 0 ? f32.s.lnc : f32.s.system.chip.cores.default_lnc;
  int checked = 0;
  for (const auto& op : f32.p.ops) {
    if (op.name.rfind("auto_cast_", 0) != 0) continue;
    auto it = g.find(op.name.substr(10));
    if (it == g.end()) continue;  // attention
    const GraphOp& o = it->second;
    const double n = (o.tokens * o.k + o.k * o.n) * std::max(1, o.experts);
    const double per_core = n / lnc;
    const double expect =
        (per_core / sc.elems_per_cycle + std::ceil(per_core / (128.0 * 2048)) * sc.fixed_overhead_cycles) / sc.clock.v;
    CHECK(op.duration_s == Approx(expect).epsilon(1e-12));
    ++checked;
  }
  CHECK(checked > 0);
}

TEST_CASE("FP32 without auto-cast: GEMMs at the tiling model's fp32 rate", "[workload][fp32]") {
  for (const char* scenario : {"qwen3-32b-trn2", "bert-large-trn1"}) {
    INFO(scenario);
    Lowered bf = lower(scenario, {}), f32 = lower(scenario, kFp32NoCast);
    const auto a = ops_on(bf.p, Engine::Tensor), b = ops_on(f32.p, Engine::Tensor);
    REQUIRE(a.size() == b.size());
    for (const auto& op : f32.p.ops) CHECK(op.name.rfind("auto_cast_", 0) != 0);  // nothing to cast
    const auto g = gemms(f32.t);
    const auto& te = f32.s.system.chip.tensor;
    const double eff = f32.s.runtime.efficiency(f32.s.mode, f32.s.compile.frontend);
    int checked = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      INFO(a[i]->name);
      CHECK(b[i]->bytes == Approx(2 * a[i]->bytes).epsilon(1e-12));
      auto it = g.find(a[i]->name);
      if (it == g.end()) {  // attention: its matmuls in FP32 too
        CHECK(b[i]->duration_s > a[i]->duration_s);
        continue;
      }
      const GraphOp& o = it->second;
      const double e = std::max(1, o.experts);
      const auto c16 = per_core_cost(f32.s, o, DType::BF16), c32 = per_core_cost(f32.s, o, DType::FP32);
      CHECK(a[i]->duration_s == Approx(c16.time_s / eff * e).epsilon(1e-12));
      CHECK(b[i]->duration_s == Approx(c32.time_s / eff * e).epsilon(1e-12));
      // The tiling model's closed form: every MultiplyMoving and LoadStationary cycle takes
      // fp32_slowdown x as long; the per-instruction issue gap does not.
      const double issue = double(c16.matmul_instructions) * te.issue_overhead_cycles;
      CHECK(c32.cycles == Approx(te.fp32_slowdown * (c16.cycles - issue) + issue).epsilon(1e-12));
      // So the ratio is below fp32_slowdown, and above 3 of its 4 (the gap is 32 of at least 96 cycles).
      CHECK(b[i]->duration_s <= te.fp32_slowdown * a[i]->duration_s);
      CHECK(b[i]->duration_s >= 0.74 * te.fp32_slowdown * a[i]->duration_s);
      ++checked;
    }
    CHECK(checked > 0);
  }
}

TEST_CASE("FP32 doubles the bytes of every collective", "[workload][fp32]") {
  struct Case {
    const char* scenario;
    std::vector<std::string> sets;
  };
  // TP all-reduces and (with SP) reduce-scatters and all-gathers, FSDP gathers and scatters, DP
  // gradient reductions with and without ZeRO and its parameter gather, pipeline sends and
  // receives, MoE all-to-alls.
  for (const Case& k :
       {Case{"qwen3-32b-trn2", {}}, Case{"qwen3-32b-trn2", {"parallel.sequence_parallel=true"}},
        Case{"llama2-70b-trn1-pp", {"parallel.fsdp=1", "parallel.dp=4", "parallel.zero=1"}},
        Case{"llama2-70b-trn1-pp", {"parallel.fsdp=2", "parallel.dp=2"}}, Case{"mixtral-8x7b-trn2", {}}}) {
    const std::vector<std::string> sets = plus(two_layers(k.scenario), k.sets);
    ScenarioSpec bs = load_scenario(k.scenario, sets), fs = load_scenario(k.scenario, plus(sets, kFp32));
    for (int stage : {0, bs.parallel.pp - 1}) {  // the first and the last stage (embedding, LM head)
      INFO(k.scenario << " stage " << stage);
      const int per = bs.model.num_layers / bs.parallel.pp;
      auto graph = [&](const ScenarioSpec& s) {
        TrainingGraph t = build_training_graph(s.model, stage * per, (stage + 1) * per, 1, double(s.batch.seq_len),
                                               s.checkpointing, s.precision.element_bytes());
        apply_parallel_passes(t, s, stage);
        return t;
      };
      TrainingGraph a = graph(bs), b = graph(fs);
      std::vector<GraphOp> ca, cb;
      for (Vertex v : a.order)
        if (a.g[v].kind == OpKind::Collective) ca.push_back(a.g[v]);
      for (Vertex v : b.order)
        if (b.g[v].kind == OpKind::Collective) cb.push_back(b.g[v]);
      REQUIRE(ca.size() == cb.size());
      REQUIRE(!ca.empty());
      for (size_t i = 0; i < ca.size(); ++i) {
        INFO(ca[i].name);
        CHECK(cb[i].name == ca[i].name);
        CHECK(ca[i].coll_bytes > 0);
        CHECK(cb[i].coll_bytes == Approx(2 * ca[i].coll_bytes).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("FP32 doubles weights, gradients and activations; the weights are the master", "[workload][fp32]") {
  for (const char* master : {"fp32", "bf16"}) {
    INFO("master_weights " << master);
    const std::vector<std::string> base = {"checkpointing=selective",
                                           std::string("precision.master_weights=") + master};
    const auto bf = memory("qwen3-32b-trn2", base), f32 = memory("qwen3-32b-trn2", plus(base, kFp32));
    CHECK(f32.at("weights") == Approx(2 * bf.at("weights")).epsilon(1e-12));
    CHECK(f32.at("gradients") == Approx(2 * bf.at("gradients")).epsilon(1e-12));
    // Optimizer: m and v (8 B per parameter of the shard); no master copy, whatever master_weights says.
    const double master_b = std::string(master) == "fp32" ? 4.0 : 2.0;
    CHECK(f32.at("optimizer") == Approx(bf.at("optimizer") * 8.0 / (master_b + 8.0)).epsilon(1e-12));
    // Activations: every saved tensor doubles; the loss's FP32 logits (tokens x vocab / tp x 4 B) do not.
    ScenarioSpec s = load_scenario("qwen3-32b-trn2", base);
    const double tokens = double(s.batch.sequences()) / (s.parallel.dp * s.parallel.fsdp * s.parallel.microbatches) *
                          double(s.batch.seq_len);
    const double logits = tokens * double(s.model.vocab_size) / s.parallel.tp * 4.0;
    CHECK(f32.at("activations") - logits == Approx(2 * (bf.at("activations") - logits)).epsilon(1e-9));
    CHECK(f32.at("workspace") == bf.at("workspace"));
  }
}

TEST_CASE("FP32 optimizer bytes: the FP32 gradient replaces the BF16 weight copy", "[workload][fp32]") {
  PrecisionSpec p;
  for (Optimizer opt : {Optimizer::AdamW, Optimizer::Lamb}) {
    p.optimizer = opt;
    p.compute = ComputeDType::BF16;
    const OptimizerCost b = p.optimizer_cost();
    p.compute = ComputeDType::FP32;
    const OptimizerCost f = p.optimizer_cost();
    CHECK(f.vector_passes == b.vector_passes);
    // AdamW: w, m, v, g read (16) and w, m, v written (12); LAMB: + r written and read, w read again.
    CHECK(f.bytes == (opt == Optimizer::Lamb ? 16 + 12 + 8 + 4 : 16 + 12));
    CHECK(b.bytes == (opt == Optimizer::Lamb ? 40 : 28));
  }
  CHECK(PrecisionSpec{}.element_bytes() == 2);
  p.compute = ComputeDType::FP8;
  CHECK(p.element_bytes() == 2);  // FP8 keeps BF16 tensors
  p.compute = ComputeDType::FP32;
  CHECK(p.element_bytes() == 4);
  CHECK_FALSE(p.fp32_master_copy());
}

TEST_CASE("FP32 is never cheaper than BF16: op for op, and without auto-cast never cheaper than with it",
          "[workload][fp32][invariant]") {
  for (const char* scenario : {"qwen3-32b-trn2", "bert-large-trn1", "llama2-70b-trn1-pp", "mixtral-8x7b-trn2"}) {
    for (const char* mode : {"mode=compiled", "mode=eager"}) {
      INFO(scenario << " " << mode);
      Lowered bf = lower(scenario, {mode}), cast = lower(scenario, plus({mode}, kFp32)),
              none = lower(scenario, plus({mode}, kFp32NoCast));
      // Every op of the BF16 program is in the FP32 programs, at least as long and moving at
      // least as many bytes; the FP32 programs only add ops (the casts). Ops are matched by name
      // (a whole graph is list-scheduled by the ops' durations, so the order may differ): per
      // name, the k-th longest FP32 op is at least as long as the k-th longest BF16 one (FP32 may
      // add ops of a name: eager dispatches of the casts).
      using Costs = std::map<std::string, std::pair<std::vector<double>, std::vector<double>>>;
      auto costs = [](const trn::models::Program& p) {
        Costs c;
        for (const auto& op : p.ops) {
          c[op.name + "@" + std::to_string(static_cast<int>(op.engine))].first.push_back(op.duration_s);
          c[op.name + "@" + std::to_string(static_cast<int>(op.engine))].second.push_back(op.bytes);
        }
        for (auto& [k, v] : c) {
          std::sort(v.first.begin(), v.first.end(), std::greater<double>());
          std::sort(v.second.begin(), v.second.end(), std::greater<double>());
        }
        return c;
      };
      const Costs cb = costs(bf.p);
      for (const Lowered* f : {&cast, &none}) {
        double busy_b = 0, busy_f = 0;
        const Costs cf = costs(f->p);
        for (const auto& [name, v] : cb) {
          INFO(name);
          REQUIRE(cf.count(name));
          const auto& w = cf.at(name);
          REQUIRE(w.first.size() >= v.first.size());
          for (size_t k = 0; k < v.first.size(); ++k) {
            CHECK(w.first[k] >= v.first[k]);
            CHECK(w.second[k] >= v.second[k]);
          }
        }
        for (const auto& op : bf.p.ops) busy_b += op.duration_s;
        for (const auto& op : f->p.ops) busy_f += op.duration_s;
        CHECK(busy_f >= busy_b);
      }
      double t_cast = 0, t_none = 0;
      for (const auto* op : ops_on(cast.p, Engine::Tensor)) t_cast += op->duration_s;
      for (const auto* op : ops_on(none.p, Engine::Tensor)) t_none += op->duration_s;
      CHECK(t_none > t_cast);
    }
  }
}

TEST_CASE("precision.compute fp32 and compile.auto_cast load on every chip; bad words are errors", "[workload][fp32]") {
  for (const char* scenario : {"qwen3-32b-trn2", "bert-large-trn1", "qwen3-32b-trn3-gen2"}) {
    INFO(scenario);
    ScenarioSpec s;
    REQUIRE_NOTHROW(s = load_scenario(scenario, kFp32));
    CHECK(s.compile.auto_cast == AutoCast::Matmult);  // the compiler's default
    REQUIRE_NOTHROW(s = load_scenario(scenario, kFp32NoCast));
    CHECK(s.compile.auto_cast == AutoCast::None);
  }
  CHECK_NOTHROW(load_scenario("qwen3-32b-trn2", {"compile.auto_cast=none"}));  // no effect on a BF16 model
  auto error_of = [](const std::vector<std::string>& sets) -> std::string {
    try {
      load_scenario("qwen3-32b-trn2", sets);
    } catch (const trn::sim::ConfigError& e) {
      return e.what();
    }
    return "(no error)";
  };
  const std::string bad = error_of({"compile.auto_cast=all"});
  CHECK_THAT(bad, Catch::Contains("compile.auto_cast"));
  CHECK_THAT(bad, Catch::Contains("matmult"));
  CHECK_THAT(bad, Catch::Contains("none"));
  CHECK_THAT(error_of({"precision.compute=mxfp8"}), Catch::Contains("accepted on this chip: bf16, fp16, fp32, fp8"));
}
