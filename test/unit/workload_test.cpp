// Workload frontend: scenario loading and layout checks, the graph and its parallel
// passes, lowering (eager vs compiled mechanisms), 1F1B order and memory accounting.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/base/config_loader.h"

#include "workloads/graph/training_graph.h"
#include "workloads/lowering/lower_program.h"
#include "workloads/memory/memory_model.h"
#include "workloads/parallel/layout.h"
#include "workloads/parallel/parallel_passes.h"

using namespace trn::workloads;

namespace {
std::string error_of(const std::vector<std::string>& sets) {
  try {
    load_scenario("qwen3-32b-trn2", sets);
  } catch (const trn::sim::ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

std::map<std::string, int> count_collectives(const TrainingGraph& t) {
  std::map<std::string, int> n;
  for (Vertex v : t.order)
    if (t.g[v].kind == OpKind::Collective)
      n[std::string(group_kind_name(t.g[v].group)) + ":" + t.g[v].name.substr(0, 7)]++;
  return n;
}
}  // namespace

TEST_CASE("every shipped scenario loads and its resolved form reproduces it", "[workload]") {
  for (const char* name : {"qwen3-32b-trn2", "llama2-70b-trn1-pp", "llama3.1-70b-trn2-ultraserver",
                           "qwen3-32b-trn3-gen1", "qwen3-32b-trn3-gen2", "gpt-oss-20b-trn2", "mixtral-8x7b-trn2"}) {
    INFO(name);
    ScenarioSpec s = load_scenario(name, {});
    std::string y = resolved_yaml(s, "");
    ScenarioSpec back;
    trn::sim::read_config(trn::sim::parse_yaml_text(y, "resolved"), back);
    CHECK(resolved_yaml(back, "") == y);
  }
}

TEST_CASE("layouts that do not divide the model say which number fails", "[workload]") {
  CHECK(error_of({"parallel.tp=3", "parallel.fsdp=21"}).find("tp 3 does not divide the model's 64 attention heads") !=
        std::string::npos);
  CHECK(error_of({"parallel.pp=3"}).find("pp 3 does not divide the model's 64 layers") != std::string::npos);
  CHECK(error_of({"parallel.fsdp=8"}).find("ranks") != std::string::npos);
  CHECK(error_of({"batch.seq_len=65536"}).find("over the model's limit of 40960") != std::string::npos);
  CHECK(error_of({"batch.global_batch=15"}).find("do not divide") != std::string::npos);
  CHECK(error_of({"parallel.tp=5"}).find("parallel.tp") != std::string::npos);
}

TEST_CASE("layout and configuration errors say which kind of bad input they are", "[workload]") {
  auto kind_of = [](const std::vector<std::string>& sets) {
    try {
      load_scenario("qwen3-32b-trn2", sets);
    } catch (const trn::sim::ConfigError& e) {
      return e.kind();
    }
    return std::string("(no error)");
  };
  CHECK(kind_of({"parallel.tp=3", "parallel.fsdp=21"}) == "invalid-layout");
  CHECK(kind_of({"parallel.fsdp=8"}) == "invalid-layout");
  CHECK(kind_of({"batch.global_batch=15"}) == "invalid-layout");
  CHECK(kind_of({"batch.seq_len=65536"}) == "invalid-config");
  CHECK(kind_of({"parallel.tpp=4"}) == "invalid-config");
}

TEST_CASE("assignments checked against the scenario schema alone, at their own location", "[workload]") {
  auto assignment = [](const std::string& text, int line) {
    trn::sim::SetAssignment a = trn::sim::parse_set(text, 1);
    a.loc = trn::sim::Location{"sweep.yaml", line, 5};
    a.value.loc = trn::sim::Location{"sweep.yaml", line, 20};
    return a;
  };
  auto error_of_sets = [](const std::vector<trn::sim::SetAssignment>& sets) {
    try {
      check_scenario_sets("qwen3-32b-trn2", sets);
    } catch (const trn::sim::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  // A layout that does not divide the model is not a schema error: the point is infeasible later.
  CHECK(error_of_sets({assignment("parallel.tp=3", 2), assignment("model=llama3.1-8b", 3)}) == "(no error)");
  CHECK(error_of_sets({assignment("parallel.tpp=4", 4)}) ==
        "sweep.yaml:4:5: parallel.tpp: unknown key 'tpp' (did you mean 'tp'?)");
  CHECK(error_of_sets({assignment("parallel.tp=four", 5)}) ==
        "sweep.yaml:5:20: parallel.tp: expected a number (tensor-parallel degree), found 'four'");
  CHECK(error_of_sets({assignment("model=llama3.1-9b", 6)})
            .rfind("sweep.yaml:6:20: model: unknown model 'llama3.1-9b'", 0) == 0);
  CHECK(error_of_sets({assignment("system.chips=1", 7)}) == "(no error)");  // the torus check is cross-field
}

TEST_CASE("MoE layouts check experts against ep", "[workload]") {
  try {
    load_scenario("mixtral-8x7b-trn2", {"parallel.ep=16"});
    FAIL("expected an error");
  } catch (const trn::sim::ConfigError& e) {
    CHECK(std::string(e.what()).find("ep 16 does not divide the model's 8 experts") != std::string::npos);
  }
}

TEST_CASE("tensor and FSDP passes shard shapes and insert the collectives of each layer", "[workload]") {
  ScenarioSpec s = load_scenario("qwen3-32b-trn2", {"checkpointing=none"});
  TrainingGraph t =
      build_training_graph(s.model, 0, 2, 1, 4096, trn::workloads::Checkpointing::None, s.precision.element_bytes());
  double qkv_n = 0;
  for (Vertex v : t.order)
    if (t.g[v].name == "qkv") qkv_n = t.g[v].n;
  apply_parallel_passes(t, s, 0);
  for (Vertex v : t.order)
    if (t.g[v].name == "qkv") CHECK(t.g[v].n == Approx(qkv_n / 4));
  auto n = count_collectives(t);
  // Per layer: 2 forward all-reduces (o_proj, mlp_down), 2 backward (mlp_up and qkv dgrad);
  // (the LM head is not in this 2-layer stage); FSDP: gathers for forward and backward, gradient scatter.
  CHECK(n["tp:tp_ar_o"] + n["tp:tp_ar_m"] + n["tp:tp_ar_q"] + n["tp:tp_ar_l"] == 2 * 4);
  CHECK(n["fsdp:fsdp_ag"] == 2 * 2 + 2);  // two layers + embedding and head (layer -1) twice
  CHECK(n["fsdp:fsdp_rs"] == 3);
}

TEST_CASE("sequence parallelism replaces all-reduces by reduce-scatter and all-gather", "[workload]") {
  ScenarioSpec s = load_scenario("qwen3-32b-trn2", {"parallel.sequence_parallel=true"});
  TrainingGraph t =
      build_training_graph(s.model, 0, 1, 1, 4096, trn::workloads::Checkpointing::None, s.precision.element_bytes());
  apply_parallel_passes(t, s, 0);
  int rs = 0, ag = 0, ar = 0;
  for (Vertex v : t.order) {
    const auto& o = t.g[v];
    if (o.group != GroupKind::Tp) continue;
    rs += o.coll == trn::models::CollectiveOp::ReduceScatter;
    ag += o.coll == trn::models::CollectiveOp::AllGather;
    ar += o.coll == trn::models::CollectiveOp::AllReduce;
  }
  CHECK(ar == 0);
  CHECK(rs > 0);
  CHECK(ag > 0);
}

TEST_CASE("Megatron-style SP (xla frontend) all-gathers each column-split input again for its weight gradient",
          "[workload]") {
  for (const char* frontend : {"xla", "torchneuron"}) {
    ScenarioSpec s = load_scenario("qwen3-32b-trn2", {"parallel.sequence_parallel=true", "checkpointing=none",
                                                      std::string("compile.frontend=") + frontend});
    TrainingGraph t =
        build_training_graph(s.model, 0, 1, 1, 4096, trn::workloads::Checkpointing::None, s.precision.element_bytes());
    apply_parallel_passes(t, s, 0);
    int bwd_gathers = 0;
    for (Vertex v : t.order) {
      const auto& o = t.g[v];
      if (o.role != OpRole::TpGather || o.phase != Phase::Backward) continue;
      ++bwd_gathers;
      // It feeds exactly one op, the weight gradient; the dgrad beside it does not wait for it.
      REQUIRE(boost::out_degree(v, t.g) == 1);
      const auto& w = t.g[boost::target(*boost::out_edges(v, t.g).first, t.g)];
      CHECK(w.role == OpRole::WeightGrad);
      CHECK(o.name == "tp_ag_" + w.name);
      // The whole input of the column-split matmul: tokens x hidden x 2 B.
      CHECK(o.coll_bytes == Approx(4096.0 * s.model.hidden_size * 2));
    }
    if (std::string(frontend) == "xla")
      CHECK(bwd_gathers == 2);  // qkv and the MLP's up (and gate) projection of the one layer
    else
      CHECK(bwd_gathers == 0);  // TorchNeuron's autograd keeps the gathered input
  }
}

TEST_CASE("eager dispatches every op and fuses nothing; compiled launches regions and fuses", "[workload]") {
  for (const char* mode : {"eager", "compiled"}) {
    ScenarioSpec s = load_scenario("qwen3-32b-trn2", {std::string("mode=") + mode});
    Layout layout(s.parallel);
    TrainingGraph t =
        build_training_graph(s.model, 0, s.model.num_layers, 1, 4096, s.checkpointing, s.precision.element_bytes());
    apply_parallel_passes(t, s, 0);
    trn::models::Program p = lower_rank(s, layout, t, 0);
    int host = 0, device = 0;
    double ew_bytes = 0;
    for (const auto& op : p.ops) {
      if (op.engine == trn::models::Engine::Host)
        ++host;
      else
        ++device;
      if (op.engine == trn::models::Engine::Vector && op.name.find("norm") != std::string::npos) ew_bytes += op.bytes;
    }
    if (std::string(mode) == "eager") {
      CHECK(host == device);
      CHECK(ew_bytes > 0);
    } else {
      CHECK(host < device / 5);  // one launch per region (a layer forward, recompute or backward)
      CHECK(ew_bytes == 0);
    }
    CHECK(p.groups.size() >= 2);  // TP and FSDP groups
  }
}

TEST_CASE("passes and lowering select ops by role, not by name", "[workload]") {
  // Every op renamed before and after the passes: the lowered programs stay the same, op for
  // op (engine, queue, timing, bytes, group, dependencies), only the names differ.
  struct Case {
    const char* scenario;
    std::vector<std::string> sets;
  };
  for (const Case& k : {Case{"llama2-70b-trn1-pp", {"model.num_layers=4", "checkpointing=full"}},
                        Case{"gpt-oss-20b-trn2", {"parallel.sequence_parallel=true", "checkpointing=selective"}},
                        Case{"qwen3-32b-trn2", {"mode=eager"}}}) {
    ScenarioSpec s = load_scenario(k.scenario, k.sets);
    Layout layout(s.parallel);
    const int stage = s.parallel.pp > 2 ? 1 : 0;  // a middle stage sends and receives both ways
    int rank = 0;
    while (layout.coord(rank).p != stage) ++rank;
    const int per = s.model.num_layers / s.parallel.pp;
    auto lower = [&](bool rename) {
      TrainingGraph t = build_training_graph(s.model, stage * per, (stage + 1) * per, 1, double(s.batch.seq_len),
                                             s.checkpointing, s.precision.element_bytes());
      auto rename_all = [&] {
        for (Vertex v : t.order) t.g[v].name = "op";
      };
      if (rename) rename_all();
      apply_parallel_passes(t, s, stage);
      if (rename) rename_all();
      return lower_rank(s, layout, t, rank);
    };
    const trn::models::Program a = lower(false), b = lower(true);
    REQUIRE(a.ops.size() == b.ops.size());
    int pipe = 0;
    for (size_t i = 0; i < a.ops.size(); ++i) {
      const auto &x = a.ops[i], &y = b.ops[i];
      CHECK((x.engine == y.engine && x.queue == y.queue && x.duration_s == y.duration_s && x.bytes == y.bytes &&
             x.flops == y.flops && x.group == y.group && x.deps == y.deps));
      if (x.engine == trn::models::Engine::Collective && is_pipeline_stream(x.queue)) ++pipe;
    }
    CHECK(a.groups == b.groups);
    CHECK((pipe > 0) == (s.parallel.pp > 1));
  }
}

TEST_CASE("ranks of a stage sharing op templates lower the programs they lower alone", "[workload]") {
  // The step simulation gives the streams of a stage's ranks one OpTemplates: each graph op's
  // device ops are made once, not once per rank. Every op (timing, bytes, group, dependencies,
  // name) and every group must be what a rank's own stream gives.
  for (const char* mode : {"eager", "compiled"}) {
    ScenarioSpec s = load_scenario("llama2-70b-trn1-pp", {"model.num_layers=4", std::string("mode=") + mode});
    Layout layout(s.parallel);
    const int per = s.model.num_layers / s.parallel.pp;
    TrainingGraph t =
        build_training_graph(s.model, 0, per, 1, double(s.batch.seq_len), s.checkpointing, s.precision.element_bytes());
    apply_parallel_passes(t, s, 0);
    const std::vector<char> all;
    auto drain = [&](int rank, std::shared_ptr<OpTemplates> shared) {
      auto src = stream_rank(s, layout, t, rank, nullptr, all, std::move(shared));
      std::vector<trn::models::Op> ops;
      while (src->lowered() < src->segments()) src->lower_next(ops);
      return std::make_pair(ops, src->meta().groups);
    };
    std::vector<int> stage0;  // the first two ranks of stage 0 and its last
    for (int r = 0; r < layout.world(); ++r)
      if (layout.coord(r).p == 0) stage0.push_back(r);
    const std::vector<int> ranks = {stage0[0], stage0[1], stage0.back()};
    REQUIRE(ranks.size() == 3);
    const std::shared_ptr<OpTemplates> shared = make_op_templates();
    for (int rank : ranks) {
      const auto alone = drain(rank, nullptr), together = drain(rank, shared);
      REQUIRE(alone.first.size() == together.first.size());
      size_t same = 0;
      for (size_t i = 0; i < alone.first.size(); ++i) {
        const auto &x = alone.first[i], &y = together.first[i];
        same += x.engine == y.engine && x.queue == y.queue && x.duration_s == y.duration_s && x.bytes == y.bytes &&
                x.flops == y.flops && x.group == y.group && x.deps == y.deps && x.name == y.name;
      }
      CHECK(same == alone.first.size());
      CHECK(alone.second == together.second);
    }
    // Templates are per scenario and stage graph: another graph may not use them.
    TrainingGraph u = t;
    CHECK_THROWS_AS(stream_rank(s, layout, u, ranks[0], nullptr, all, shared), std::logic_error);
  }
}

TEST_CASE("1F1B runs every micro-batch forward before its backward", "[workload]") {
  for (int stages : {1, 2, 4})
    for (int stage = 0; stage < stages; ++stage) {
      auto order = one_f_one_b(stage, stages, 8);
      CHECK(order.size() == 16);
      std::map<int, int> seen;
      int in_flight = 0, peak = 0;
      for (auto [m, bwd] : order) {
        if (!bwd) {
          CHECK(seen[m] == 0);
          ++in_flight;
        } else {
          CHECK(seen[m] == 1);
          --in_flight;
        }
        peak = std::max(peak, in_flight);
        seen[m]++;
      }
      CHECK(peak == std::min(8, stages - stage));
    }
}

TEST_CASE("more TP lowers per-rank weight memory; checkpointing lowers activations", "[workload][invariant]") {
  auto weights = [](const std::vector<std::string>& sets) {
    auto m = memory_per_rank(load_scenario("qwen3-32b-trn2", sets));
    std::map<std::string, double> c;
    for (const auto& x : m.categories) c[x.name] = x.bytes;
    return c;
  };
  auto tp2 = weights({"parallel.tp=2", "parallel.fsdp=32", "batch.global_batch=32"});
  auto tp4 = weights({"batch.global_batch=32"});
  CHECK(tp4["weights"] < tp2["weights"]);
  auto none = weights({"checkpointing=none"}), sel = weights({"checkpointing=selective"}), full = weights({});
  CHECK(full["activations"] < sel["activations"]);
  CHECK(sel["activations"] < none["activations"]);
  // The published run fits: 64 ranks at LNC=2 have 24 GiB each.
  CHECK(memory_per_rank(load_scenario("qwen3-32b-trn2", {})).fits());
  CHECK_FALSE(memory_per_rank(load_scenario("qwen3-32b-trn2", {"checkpointing=none"})).fits());
}

TEST_CASE("selective_mlp recomputes attention and the whole MLP block, with its SP collectives",
          "[workload][checkpointing]") {
  // NxD's Llama scripts at 8,192 tokens and NxD Training's activations_checkpoint_recompute_mlp
  // wrap LlamaMLP in a checkpoint (docs/model.md 11.4): the backward re-runs gate/up, the
  // activation and down, with the all-gather before gate/up and the reduce-scatter after down.
  ScenarioSpec s = load_scenario("llama2-70b-trn1-pp",
                                 {"model.num_layers=8", "parallel.sequence_parallel=true", "compile.frontend=xla"});
  const int per = s.model.num_layers / s.parallel.pp;
  struct Count {
    int recomputed = 0, rs = 0, ag = 0;  // recomputed ops; TP reduce-scatters and all-gathers
    double flops = 0;                    // tensor-engine FLOPs of the recomputed matmuls, per rank
  };
  auto count = [&](Checkpointing c) {
    TrainingGraph t = build_training_graph(s.model, 0, per, 1, double(s.batch.seq_len), c, s.precision.element_bytes());
    apply_parallel_passes(t, s, 0);
    Count n;
    for (Vertex v : t.order) {
      const auto& o = t.g[v];
      if (o.kind == OpKind::Collective && o.group == GroupKind::Tp) {
        n.rs += o.coll == trn::models::CollectiveOp::ReduceScatter;
        n.ag += o.coll == trn::models::CollectiveOp::AllGather;
      }
      if (!o.recompute) continue;
      ++n.recomputed;
      if (o.kind == OpKind::Matmul) n.flops += 2 * o.tokens * o.n * o.k;
    }
    return n;
  };
  const Count sel = count(Checkpointing::Selective), mlp = count(Checkpointing::SelectiveMlp),
              full = count(Checkpointing::Full);
  CHECK(sel.recomputed == per);  // the core attention of each layer
  CHECK(sel.flops == 0);         // attention is not a matmul op of the graph
  // + gate/up, the activation and down per layer, and their two SP collectives.
  CHECK(mlp.recomputed == per * 4);
  CHECK(mlp.ag - sel.ag == per);
  CHECK(mlp.rs - sel.rs == per);
  // Closed form: the MLP's forward FLOPs per rank, 2 x tokens x (2 f h + f h) / tp per layer.
  const double f = s.model.intermediate_size, h = s.model.hidden_size, tokens = double(s.batch.seq_len);
  CHECK(mlp.flops == Approx(per * 2 * tokens * 3 * f * h / s.parallel.tp).epsilon(1e-12));
  CHECK(full.flops > mlp.flops);
  CHECK(full.recomputed > mlp.recomputed);
  // Memory: the MLP's intermediates are not kept; full keeps less still.
  auto activations = [](const std::string& ckpt) {
    auto m = memory_per_rank(load_scenario("llama2-70b-trn1-pp", {"checkpointing=" + ckpt}));
    for (const auto& x : m.categories)
      if (x.name == "activations") return x.bytes;
    return 0.0;
  };
  CHECK(activations("full") < activations("selective_mlp"));
  CHECK(activations("selective_mlp") < activations("selective"));
}

TEST_CASE("layout groups are consistent on every member", "[workload]") {
  ParallelSpec p;
  p.tp = 4;
  p.fsdp = 4;
  p.dp = 2;
  p.pp = 2;
  p.ep = 2;
  Layout l(p);
  for (int r = 0; r < l.world(); ++r) {
    CHECK(l.rank(l.coord(r)) == r);
    for (GroupKind g : {GroupKind::Tp, GroupKind::Fsdp, GroupKind::Dp, GroupKind::Ep}) {
      auto members = l.group(g, r);
      CHECK(std::find(members.begin(), members.end(), r) != members.end());
      for (int m : members) CHECK(l.group(g, m) == members);
      // The leader tells groups apart without building them (the sibling groups of lowering).
      CHECK(l.group_leader(g, r) == *std::min_element(members.begin(), members.end()));
      CHECK(l.group_leader(g, r) == members.front());
      for (int q = 0; q < l.world(); ++q)
        CHECK((l.group_leader(g, q) == l.group_leader(g, r)) == (l.group(g, q) == members));
    }
    CHECK(l.group_leader(GroupKind::Pp, r) == -1);
  }
  CHECK(l.representatives().size() == 8u);
}

TEST_CASE("FP8 and MXFP8: GEMMs at the FP8 rate, casts and scales on VectorE and ScalarE", "[workload][fp8]") {
  using trn::models::Engine;
  struct Tally {
    int amax = 0, cast = 0, mxq = 0;
    double tensor_s = 0, cast_bytes = 0, mm_bytes = 0;
  };
  auto lower = [](const std::vector<std::string>& sets) {
    ScenarioSpec s = load_scenario("qwen3-32b-trn3-gen2", sets);
    Layout layout(s.parallel);
    TrainingGraph t = build_training_graph(s.model, 0, 2, 1, 4096, s.checkpointing, s.precision.element_bytes());
    apply_parallel_passes(t, s, 0);
    trn::models::Program p = lower_rank(s, layout, t, 0);
    p.check();
    Tally n;
    for (const auto& op : p.ops) {
      if (op.name.rfind("fp8_amax_", 0) == 0) {
        CHECK(op.engine == Engine::Vector);
        ++n.amax;
      } else if (op.name.rfind("fp8_cast_", 0) == 0) {
        CHECK(op.engine == Engine::Scalar);
        ++n.cast;
        n.cast_bytes += op.bytes;
      } else if (op.name.rfind("mx_quantize_", 0) == 0) {
        CHECK(op.engine == Engine::Vector);
        ++n.mxq;
        n.cast_bytes += op.bytes;
      }
      if (op.engine == Engine::Tensor) n.tensor_s += op.duration_s;
      if (op.name == "mlp_up") n.mm_bytes += op.bytes;
    }
    return n;
  };
  Tally bf = lower({}), f8 = lower({"precision.compute=fp8"}), mx = lower({"precision.compute=mxfp8"});
  CHECK(bf.amax + bf.cast + bf.mxq == 0);
  // Per layer: forward qkv, o, up, down (+ their full-checkpointing recomputation) and the four
  // data-gradient GEMMs cast; weight gradients do not. Two layers.
  CHECK(f8.amax == 2 * (4 + 4 + 4));
  CHECK(f8.cast == f8.amax);
  CHECK(mx.mxq == f8.amax);
  CHECK(f8.tensor_s < bf.tensor_s);
  CHECK(mx.tensor_s < f8.tensor_s);               // MX: 4 pairs per PE on trn3, double row: 2
  CHECK(f8.tensor_s > bf.tensor_s / 2.0 * 0.99);  // attention stays BF16
  CHECK(f8.mm_bytes < bf.mm_bytes);               // FP8 operands
  CHECK(mx.cast_bytes > 0);
  CHECK(f8.cast_bytes > 0);
}

TEST_CASE("FP8 precision needs the chip's published rate and lists the accepted values", "[workload][fp8]") {
  CHECK_THAT(error_of({"precision.compute=mxfp8"}), Catch::Contains("chip trn2 publishes no dense MXFP8 rate"));
  CHECK_THAT(error_of({"precision.compute=mxfp8"}), Catch::Contains("accepted on this chip: bf16, fp16, fp32, fp8"));
  CHECK_THAT(error_of({"precision.compute=fp4"}), Catch::Contains("mxfp8"));
  CHECK_THAT(error_of({"precision.compute=fp8", "system.chip.peak.fp8=0 TFLOPS"}),
             Catch::Contains("chip trn2 publishes no dense FP8 rate"));
  CHECK_NOTHROW(load_scenario("qwen3-32b-trn2", {"precision.compute=fp8"}));
  CHECK_NOTHROW(load_scenario("qwen3-32b-trn3-gen2", {"precision.compute=mxfp8"}));
  // The FP8 copies of a layer's weights add to the weights; nothing else moves.
  auto bytes = [](const std::vector<std::string>& sets, const std::string& cat) {
    for (const auto& x : memory_per_rank(load_scenario("qwen3-32b-trn2", sets)).categories)
      if (x.name == cat) return x.bytes;
    return -1.0;
  };
  CHECK(bytes({"precision.compute=fp8"}, "weights") > bytes({}, "weights"));
  CHECK(bytes({"precision.compute=fp8"}, "optimizer") == bytes({}, "optimizer"));
  CHECK(bytes({"precision.compute=fp8"}, "gradients") == bytes({}, "gradients"));
}

TEST_CASE("xla whole graphs: one launch per graph, a list schedule, recomputation beside the backward above",
          "[workload][schedule]") {
  // A fully checkpointed pipeline stage with sequence parallelism, as torch-xla (one graph per
  // segment, list-scheduled) and as TorchNeuron regions (graph order, one launch per layer).
  auto lower = [](const char* frontend) {
    ScenarioSpec s = load_scenario(
        "llama2-70b-trn1-pp", {"model.num_layers=8", "checkpointing=full", "parallel.sequence_parallel=true",
                               "parallel.fsdp=1", "parallel.dp=4", "parallel.microbatches=4", "batch.global_batch=16",
                               std::string("compile.frontend=") + frontend});
    Layout layout(s.parallel);
    const int per = s.model.num_layers / s.parallel.pp;
    TrainingGraph t =
        build_training_graph(s.model, 0, per, 1, double(s.batch.seq_len), s.checkpointing, s.precision.element_bytes());
    apply_parallel_passes(t, s, 0);
    return std::make_pair(s, lower_rank(s, layout, t, 0));
  };
  auto [sx, xla] = lower("xla");
  auto [st, tn] = lower("torchneuron");
  auto stats = [](const trn::models::Program& p) {
    int launches = 0, switches = 0, device = 0;
    bool prev_recompute = false;
    for (size_t i = 0; i < p.ops.size(); ++i) {
      const auto& op = p.ops[i];
      for (int32_t d : op.deps) CHECK(d < static_cast<int32_t>(i));  // program order is topological
      if (op.engine == trn::models::Engine::Host) {
        launches += op.name == "launch";
        continue;
      }
      ++device;
      const bool r = op.name.find("recompute_") != std::string::npos;
      switches += r != prev_recompute;
      prev_recompute = r;
    }
    return std::make_tuple(launches, switches, device);
  };
  auto [xla_launches, xla_switches, xla_device] = stats(xla);
  auto [tn_launches, tn_switches, tn_device] = stats(tn);
  const int m = sx.parallel.microbatches;
  CHECK(xla_launches == 2 * m + 1);   // each forward and backward graph, and the optimizer step
  CHECK(tn_launches > xla_launches);  // a region per layer
  // TorchNeuron: each layer's recomputation is one block before its backward (two switches a
  // layer); xla: the next layer down's recomputation is interleaved with the backward above.
  CHECK(tn_switches == 2 * (sx.model.num_layers / sx.parallel.pp) * m);
  CHECK(xla_switches > 2 * tn_switches);
  // The same device ops in another order, plus the backward re-gathers of Megatron-style SP
  // (xla frontend only): one per column-split matmul (qkv, mlp_up) per layer and micro-batch.
  auto regathers = [](const trn::models::Program& p) {
    return std::count_if(p.ops.begin(), p.ops.end(), [](const trn::models::Op& op) {
      return op.name.rfind("tp_ag_", 0) == 0 && op.name.size() > 6 &&
             op.name.compare(op.name.size() - 6, 6, "_wgrad") == 0;
    });
  };
  CHECK(regathers(tn) == 0);
  CHECK(regathers(xla) == 2 * (sx.model.num_layers / sx.parallel.pp) * m);
  CHECK(xla_device - regathers(xla) == tn_device);
}

TEST_CASE("parameter tensors: one per fused weight matrix, bias and norm scale, split across stages", "[workload]") {
  const ModelSpec gpt = load_model("gpt3-6.7b", {});
  // Megatron's GPT layer: 2 LayerNorms (scale, bias), fused QKV and output projection, two MLP
  // matrices, each with a bias: 12 tensors; plus token and position tables and the final norm.
  CHECK(gpt.parameter_tensors(0, gpt.num_layers) == Approx(32 * 12 + 2 + 2));
  const ModelSpec llama = load_model("llama2-13b", {});
  // RMSNorm scales, QKV, output, gate-up and down matrices; the untied LM head on the last stage.
  CHECK(llama.parameter_tensors(0, llama.num_layers) == Approx(llama.num_layers * 6 + 1 + 1 + 1));
  for (int k : {1, 7, 20})
    CHECK(llama.parameter_tensors(0, k) + llama.parameter_tensors(k, llama.num_layers) ==
          Approx(llama.parameter_tensors(0, llama.num_layers)));
}

TEST_CASE("xla whole graphs: one graph at a time, gradients reduced after the backward, per-tensor optimizer trace",
          "[workload][schedule]") {
  auto lower = [](const char* frontend) {
    ScenarioSpec s =
        load_scenario("llama2-70b-trn1-pp", {"model.num_layers=8", "parallel.sequence_parallel=true", "parallel.fsdp=1",
                                             "parallel.dp=4", "parallel.microbatches=4", "batch.global_batch=16",
                                             std::string("compile.frontend=") + frontend});
    s.runtime.lazy_trace.v = 1e-4;
    s.runtime.lazy_trace_tensor.v = 1e-3;
    Layout layout(s.parallel);
    const int per = s.model.num_layers / s.parallel.pp;
    TrainingGraph t =
        build_training_graph(s.model, 0, per, 1, double(s.batch.seq_len), s.checkpointing, s.precision.element_bytes());
    apply_parallel_passes(t, s, 0);
    return std::make_tuple(s, t, lower_rank(s, layout, t, 0));
  };
  for (const char* fe : {"xla", "torchneuron"}) {
    const bool xla = std::string(fe) == "xla";
    auto [s, t, p] = lower(fe);
    const int per = s.model.num_layers / s.parallel.pp, m = s.parallel.microbatches;
    // Every gradient reduction waits for the last backward op of every layer of the stage (xla:
    // a graph after the whole backward) or of its own layer only (TorchNeuron: overlapped).
    int reductions = 0;
    for (Vertex v : t.order)
      if (t.g[v].role == OpRole::DpGrad) {
        ++reductions;
        CHECK(boost::in_degree(v, t.g) == (xla ? size_t(per + 1) : 1u));  // the layers and the embedding
      }
    CHECK(reductions == per + 1);
    // xla: before each segment's launch (but the first) the host waits for the previous
    // segment's compute, and only compute ops are waited for.
    int waits = 0;
    for (const auto& op : p.ops)
      if (op.name == "wait_graph") {
        ++waits;
        for (int32_t d : op.deps) {
          const auto e = p.ops[static_cast<size_t>(d)].engine;
          CHECK((e == trn::models::Engine::Host || static_cast<int>(e) < trn::models::kComputeEngines));
        }
      }
    CHECK(waits == (xla ? 2 * m - 1 : 0));
    if (!xla) continue;
    // The optimizer graph's trace: its one graph op, and every parameter tensor of the stage.
    double last_trace = -1;
    for (const auto& op : p.ops)
      if (op.name == "trace") last_trace = op.duration_s;
    CHECK(last_trace == Approx(1e-4 + s.model.parameter_tensors(0, per) * 1e-3));
  }
}

TEST_CASE(
    "xla graph cut: one graph per micro-batch traces forward and backward together, the Trainer's step joins the "
    "optimizer, and both need pp 1",
    "[workload][schedule]") {
  auto lower = [](const char* cut) {
    ScenarioSpec s = load_scenario(
        "qwen3-32b-trn2", {"compile.frontend=xla", std::string("compile.graph_cut=") + cut, "model.num_layers=2",
                           "runtime.lazy_trace=100 us", "parallel.microbatches=4", "batch.global_batch=64"});
    Layout layout(s.parallel);
    TrainingGraph t = stage_training_graph(s, 0);
    return std::make_pair(s.parallel.microbatches, lower_rank(s, layout, t, 0));
  };
  double segment_traced = 0;
  for (const char* cut : {"segment", "microbatch", "step"}) {
    const bool joined = std::string(cut) != "segment", step = std::string(cut) == "step";
    auto [m, p] = lower(cut);
    int waits = 0, traces = 0, launches = 0;
    double traced = 0;
    for (const auto& op : p.ops) {
      waits += op.name == "wait_graph";
      launches += op.name == "launch";
      if (op.name == "trace") {
        ++traces;
        traced += op.duration_s;
      }
    }
    // A graph per segment (2m) or per micro-batch (m); the optimizer's graph is traced and
    // launched apart, except in the Trainer's step, where it joins the last micro-batch's.
    CHECK(waits == (joined ? m - 1 : 2 * m - 1));
    CHECK(traces == (joined ? m : 2 * m) + (step ? 0 : 1));
    CHECK(launches == 2 * m + (step ? 0 : 1));
    if (!joined)
      segment_traced = traced;
    else
      CHECK(traced == Approx(segment_traced));  // the same ops and tensors traced, in fewer graphs
  }
  for (const char* cut : {"microbatch", "step"}) {
    try {
      load_scenario("llama2-70b-trn1-pp", {"compile.frontend=xla", std::string("compile.graph_cut=") + cut});
      FAIL("a graph of a whole micro-batch with pipeline parallelism must be rejected");
    } catch (const trn::sim::ConfigError& e) {
      CHECK(std::string(e.what()).find("compile.graph_cut") != std::string::npos);
      CHECK(std::string(e.what()).find("pp 1") != std::string::npos);
    }
  }
}
