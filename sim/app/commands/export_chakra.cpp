// `trnsim export chakra`: the simulated step as per-rank Chakra execution traces
// (export_chakra.h, docs/interop.md).
#include "sim/app/commands/export_chakra.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <stdexcept>
#include <tuple>

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/delimited_message_util.h>

#include "chakra_et.pb.h"
#include "sim/app/commands/chakra_operators.h"
#include "sim/app/commands/common.h"
#include "sim/base/config_node.h"
#include "sim/base/provenance.h"
#include "workloads/lowering/lower_program.h"
#include "workloads/lowering/op_cost.h"
#include "workloads/parallel/parallel_passes.h"

namespace trn::app {

namespace {

namespace pb = ChakraProtoMsg;
using models::Engine;
using models::Op;

// What a simulated rank's op did: the op as it retired (program order) and when it ran.
struct Ran {
  Op op;
  double start = 0, end = 0;
};

// Appends `m` as Chakra files hold it: its size as a base-128 varint, then its bytes.
void append_delimited(const google::protobuf::MessageLite& m, std::string& out) {
  google::protobuf::io::StringOutputStream stream(&out);  // appends
  google::protobuf::util::SerializeDelimitedToZeroCopyStream(m, &stream);
}

pb::AttributeProto* attr(pb::Node& n, const char* name) {
  pb::AttributeProto* a = n.add_attr();
  a->set_name(name);
  return a;
}

pb::CollectiveCommType comm_type(models::CollectiveOp op) {
  switch (op) {
    case models::CollectiveOp::AllReduce: return pb::ALL_REDUCE;
    case models::CollectiveOp::AllGather: return pb::ALL_GATHER;
    case models::CollectiveOp::ReduceScatter: return pb::REDUCE_SCATTER;
    case models::CollectiveOp::AllToAll: return pb::ALL_TO_ALL;
    case models::CollectiveOp::SendRecv: break;
  }
  throw std::logic_error("export chakra: a pipeline transfer has no collective type");
}

uint64_t micros(double seconds) { return static_cast<uint64_t>(std::llround(seconds * 1e6)); }

// Communicator groups, numbered in the order the ranks (0, 1, ...) first name them.
// Numbered from 1: Chakra's consumers (ASTRA-sim's Workload::extract_comm_group) read an
// empty pg_name or "0" as the default group of every rank.
struct Groups {
  std::map<std::vector<int>, int> ids;
  int id(const std::vector<int>& members) {
    return ids.emplace(members, static_cast<int>(ids.size()) + 1).first->second;
  }
};

// Pipeline transfers between two ranks are numbered in the order each side issues them (both
// issue them in 1F1B order), so a send and its receive carry the same tag. Key: (src, dst,
// counted by the sender).
using TagCounters = std::map<std::tuple<int, int, bool>, int>;

void add_comm(pb::Node& n, const Op& op, int rank, const std::vector<int>& members, Groups& groups, TagCounters& tags) {
  attr(n, "is_cpu_op")->set_bool_val(false);
  attr(n, "comm_size")->set_int64_val(static_cast<int64_t>(std::llround(op.bytes)));
  if (op.coll != models::CollectiveOp::SendRecv) {
    n.set_type(pb::COMM_COLL_NODE);
    attr(n, "comm_type")->set_int64_val(comm_type(op.coll));
    attr(n, "pg_name")->set_string_val(std::to_string(groups.id(members)));
    return;
  }
  const int src = members.front(), dst = members.back();  // the sender first (collective_members)
  n.set_type(src == rank ? pb::COMM_SEND_NODE : pb::COMM_RECV_NODE);
  attr(n, "comm_src")->set_int32_val(src);
  attr(n, "comm_dst")->set_int32_val(dst);
  attr(n, "comm_tag")->set_int32_val(tags[{src, dst, src == rank}]++);
}

pb::Node node(const Op& op, uint64_t id, const Ran& ran, int rank, const models::Program& prog, Groups& groups,
              TagCounters& tags) {
  pb::Node n;
  n.set_id(id);
  n.set_name(op.name);
  for (int32_t d : op.deps) n.add_data_deps(static_cast<uint64_t>(d));
  n.set_start_time_micros(micros(ran.start));
  n.set_duration_micros(micros(ran.end - ran.start));
  attr(n, "trn_engine")->set_string_val(models::engine_name(op.engine));
  attr(n, "trn_duration_s")->set_double_val(ran.end - ran.start);
  if (op.engine == Engine::Collective) {
    add_comm(n, op, rank, prog.groups.at(static_cast<size_t>(op.group)), groups, tags);
    return n;
  }
  attr(n, "is_cpu_op")->set_bool_val(op.engine == Engine::Host);
  attr(n, "tensor_size")->set_uint64_val(static_cast<uint64_t>(std::llround(op.bytes)));
  if (op.engine == Engine::Dma) {
    n.set_type(pb::MEM_LOAD_NODE);  // a DMA transfer; trnsim's op does not say which way
    return n;
  }
  n.set_type(pb::COMP_NODE);
  attr(n, "num_ops")->set_int64_val(static_cast<int64_t>(std::llround(op.flops)));
  return n;
}

// The graph op each compute op of a stage's program stands for: the op of the same name whose
// cost (workloads/lowering/op_cost.h) is the op's (ops of one name differ only where their
// shapes do, as attention with and without a sliding window).
class StageOps {
 public:
  StageOps(const workloads::TrainingGraph& t, const workloads::OpCostContext& c) {
    for (workloads::Vertex v : t.order) {
      const workloads::GraphOp& g = t.g[v];
      if (g.kind != workloads::OpKind::Collective) by_name_.emplace(g.name, std::make_pair(&g, compute_op(c, g)));
    }
  }
  const workloads::GraphOp* find(const Op& op) const {
    auto [lo, hi] = by_name_.equal_range(op.name);
    for (auto it = lo; it != hi; ++it)
      if (it->second.second.duration_s == op.duration_s && it->second.second.flops == op.flops) return it->second.first;
    return nullptr;
  }

 private:
  std::multimap<std::string, std::pair<const workloads::GraphOp*, Op>> by_name_;
};

// The type text (IOInfo.types) of graph op `g`'s tensors, as PyTorch's execution traces name them.
std::string tensor_type(const workloads::OpCostContext& c, const workloads::GraphOp& g) {
  if (c.s.precision.fp32()) return "'Tensor(float)'";
  if (g.kind == workloads::OpKind::Matmul) {
    const models::DType d = workloads::gemm_dtype(c, g);
    if (d == models::DType::FP8) return "'Tensor(c10::Float8_e4m3fn)'";
    if (d == models::DType::MXFP8) return "'Tensor(trn::MXFP8)'";
  }
  return c.s.precision.compute == workloads::ComputeDType::FP16 ? "'Tensor(c10::Half)'" : "'Tensor(c10::BFloat16)'";
}

int64_t whole(double x) { return static_cast<int64_t>(std::llround(x)); }

// Names graph op `g`'s operator and operands on node `n` (chakra_operators.h reads them back):
// trn_operator, inputs.shapes, .types and .values, and trn_window for a sliding window.
void describe(pb::Node& n, const workloads::OpCostContext& c, const workloads::GraphOp& g) {
  using workloads::OpKind;
  std::string op;
  std::vector<std::vector<int64_t>> shapes;
  std::string extra_types, extra_values;
  const int64_t t = whole(g.tokens), w = whole(g.width);
  switch (g.kind) {
    case OpKind::Matmul:
      op = g.experts > 1 ? "aten::bmm" : "aten::mm";
      shapes = g.experts > 1
                   ? std::vector<std::vector<int64_t>>{{g.experts, t, whole(g.k)}, {g.experts, whole(g.k), whole(g.n)}}
                   : std::vector<std::vector<int64_t>>{{t, whole(g.k)}, {whole(g.k), whole(g.n)}};
      break;
    case OpKind::Attention: {
      const bool bwd = g.phase == workloads::Phase::Backward && !g.recompute;
      op = bwd ? "aten::_scaled_dot_product_flash_attention_backward" : "aten::_scaled_dot_product_flash_attention";
      const std::vector<int64_t> q{whole(g.sequences), g.heads, whole(g.seq), g.head_dim};
      const std::vector<int64_t> kv{whole(g.sequences), g.kv_heads, whole(g.seq), g.head_dim};
      shapes = bwd ? std::vector<std::vector<int64_t>>{q, q, kv, kv} : std::vector<std::vector<int64_t>>{q, kv, kv};
      extra_types = ", 'Double', 'Bool'";  // dropout_p, is_causal
      extra_values = std::string(", 0.0, ") + (g.causal ? "True" : "False");
      if (g.window > 0) {
        pb::AttributeProto* wa = n.add_attr();
        wa->set_name("trn_window");
        wa->set_double_val(g.window);
      }
      break;
    }
    case OpKind::Elementwise:
      op = std::string("trn::") + models::engine_name(g.engine);
      shapes.assign(static_cast<size_t>(std::max(1, g.inputs)), {t, w});
      break;
    case OpKind::Embedding: op = "trn::gpsimd", shapes = {{t, w}}; break;
    case OpKind::Loss: op = "trn::scalar", shapes = {{t, w}, {t, w}}; break;  // logits and labels' one-hot reads
    case OpKind::Optimizer:  // its vector passes over the parameter shard
      op = "trn::vector", shapes = {{whole(g.width * c.s.precision.optimizer_cost().vector_passes)}};
      break;
    case OpKind::Collective: return;
  }
  std::string types = "[";
  std::string values = "[";
  for (size_t i = 0; i < shapes.size(); ++i) {
    types += (i ? ", " : "") + tensor_type(c, g);
    values += (i ? ", " : "") + std::string("'<Tensor>'");
  }
  for (int i = 0; i < (extra_types.empty() ? 0 : 2); ++i) shapes.emplace_back();  // the two scalars' shapes: []
  pb::AttributeProto* a = n.add_attr();
  a->set_name("trn_operator");
  a->set_string_val(op);
  n.mutable_inputs()->set_shapes(shapes_text(shapes));
  n.mutable_inputs()->set_types(types + extra_types + "]");
  n.mutable_inputs()->set_values(values + extra_values + "]");
}

// For each op of `prog` (a rank's whole program, ops in emission order), the op of its stage's
// simulated rank that it stands for. The simulation hands a segment's host ops out ahead of its
// other ops, so the two orders agree within host ops and within the others.
std::vector<size_t> match(const models::Program& prog, const std::vector<Ran>& ran, int rank) {
  std::vector<size_t> host, other, out;
  for (size_t j = 0; j < ran.size(); ++j) (ran[j].op.engine == Engine::Host ? host : other).push_back(j);
  size_t h = 0, o = 0;
  for (const Op& op : prog.ops) {
    std::vector<size_t>& list = op.engine == Engine::Host ? host : other;
    size_t& k = op.engine == Engine::Host ? h : o;
    if (k >= list.size() || ran[list[k]].op.name != op.name || ran[list[k]].op.engine != op.engine)
      throw std::logic_error("export chakra: rank " + std::to_string(rank) + "'s op " + op.name +
                             " has no counterpart in its stage's simulated program");
    out.push_back(list[k++]);
  }
  if (h != host.size() || o != other.size())
    throw std::logic_error("export chakra: rank " + std::to_string(rank) + " has fewer ops than its stage's");
  return out;
}

std::string metadata(const workloads::ScenarioSpec& s, double step) {
  pb::GlobalMetadata m;
  m.set_version("1.0.0");  // Chakra's schema version at the pinned commit (chakra_et.proto)
  auto add = [&m](const char* name) {
    pb::AttributeProto* a = m.add_attr();
    a->set_name(name);
    return a;
  };
  add("trn_producer")->set_string_val("trnsim " + sim::trnsim_version());
  add("trn_scenario")->set_string_val(s.name);
  add("trn_step_time_s")->set_double_val(step);
  // How the named operators were costed (import_chakra.cpp reads these back).
  add("trn_mode")->set_string_val(workloads::enum_word(s.mode));
  add("trn_frontend")->set_string_val(workloads::enum_word(s.compile.frontend));
  add("trn_attention")->set_string_val(workloads::enum_word(s.compile.attention));
  add("trn_auto_cast")->set_string_val(workloads::enum_word(s.compile.auto_cast));
  std::string out;
  append_delimited(m, out);
  return out;
}

}  // namespace

ChakraExportResult run_export_chakra(const ChakraExportOptions& o) {
  ChakraExportResult res;
  const workloads::ScenarioSpec s = load_run_scenario(o.job);
  res.scenario = s;
  RunResult fit;
  fit.scenario = s;
  fit.memory = workloads::memory_per_rank(s);
  if (!fit.memory.fits() && !o.job.allow_oom) throw sim::ConfigError(run_oom_message(fit));
  // One simulated rank per stage, every micro-batch: their ops as they retire.
  std::map<int, std::vector<Ran>> ran;
  StepOptions sopt;
  sopt.all_microbatches = true;
  sopt.max_memory = o.job.max_memory.empty() ? default_max_memory() : parse_size(o.job.max_memory, "--max-memory");
  sopt.trace.on_retire = [&ran](int rank, const Op& op, double a, double b) {
    Ran r{op, a, b};
    r.op.deps.clear();
    ran[rank].push_back(std::move(r));
  };
  res.step_time_s = simulate(s, sopt).step_time_s;

  const workloads::Layout layout(s.parallel);
  const std::vector<int> reps = layout.stage_representatives();
  Groups groups;
  TagCounters tags;
  const std::string head = metadata(s, res.step_time_s);
  const workloads::OpCostContext cost{s, s.system.chip, s.effective_lnc(), s.mode == workloads::ExecMode::Eager};
  for (int p = 0; p < layout.stages(); ++p) {
    const workloads::TrainingGraph g = workloads::stage_training_graph(s, p);
    const StageOps graph_ops(g, cost);
    const std::vector<Ran>& stage = ran.at(reps.at(static_cast<size_t>(p)));
    for (int rank = p * layout.per_stage(); rank < (p + 1) * layout.per_stage(); ++rank) {
      const models::Program prog = workloads::lower_rank(s, layout, g, rank);
      const std::vector<size_t> m = match(prog, stage, rank);
      std::string file = head;
      std::map<std::pair<Engine, int>, uint64_t> last;  // per engine queue: its previous op
      for (size_t i = 0; i < prog.ops.size(); ++i) {
        const Op& op = prog.ops[i];
        pb::Node n = node(op, i, stage[m[i]], rank, prog, groups, tags);
        if (n.type() == pb::COMP_NODE && op.engine != Engine::Host)
          if (const workloads::GraphOp* go = graph_ops.find(op)) describe(n, cost, *go);
        auto it = last.find({op.engine, op.queue});
        if (it != last.end()) n.add_ctrl_deps(it->second);
        last[{op.engine, op.queue}] = i;
        if (rank == 0) ++res.rank0_node_types[pb::NodeType_Name(n.type())];
        append_delimited(n, file);
      }
      res.nodes += static_cast<int64_t>(prog.ops.size());
      res.files.emplace_back(o.out + "/" + s.name + "." + std::to_string(rank) + ".et", std::move(file));
    }
  }
  res.ranks = layout.world();
  std::vector<const std::vector<int>*> by_id(groups.ids.size());
  for (const auto& [members, id] : groups.ids) by_id[static_cast<size_t>(id - 1)] = &members;
  std::string comm = "{";  // one line per group
  for (size_t i = 0; i < by_id.size(); ++i)
    comm += std::string(i ? ",\n " : "\n ") + "\"" + std::to_string(i + 1) + "\": " + nlohmann::json(*by_id[i]).dump();
  res.groups = static_cast<int>(by_id.size());
  res.files.emplace_back(o.out + "/" + s.name + ".comm_groups.json", comm + "\n}\n");
  return res;
}

void write_export_text(const ChakraExportResult& r, FILE* out) {
  std::fprintf(out, "%s: %d Chakra execution traces (%s.<rank>.et), %lld nodes, %d communicator groups (%s)\n",
               r.scenario.name.c_str(), r.ranks, r.scenario.name.c_str(), static_cast<long long>(r.nodes), r.groups,
               (r.scenario.name + ".comm_groups.json").c_str());
  std::fprintf(out, "  simulated step %.6f s; rank 0:", r.step_time_s);
  for (const auto& [type, n] : r.rank0_node_types)
    std::fprintf(out, " %lld %s", static_cast<long long>(n), type.c_str());
  std::fprintf(out, "\n");
}

}  // namespace trn::app
