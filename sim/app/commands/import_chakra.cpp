// Chakra execution traces in (import_chakra.h, docs/interop.md).
#include "sim/app/commands/import_chakra.h"

#include <dirent.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <memory>
#include <queue>
#include <regex>
#include <set>
#include <sstream>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/delimited_message_util.h>

#include "chakra_et.pb.h"
#include "sim/app/commands/chakra_operators.h"
#include "sim/app/commands/documents.h"
#include "sim/base/config_node.h"
#include "sim/base/config_reader.h"
#include "workloads/lowering/op_cost.h"

namespace trn::app {

namespace {

namespace pb = ChakraProtoMsg;
using models::Engine;
using models::Op;

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw sim::ConfigError(sim::Location{where, 0, 0}, "", what);
}

struct ChakraTrace {
  pb::GlobalMetadata meta;
  std::vector<pb::Node> nodes;
  std::string hash;  // of the file's bytes
};

// A file of varint-delimited messages: GlobalMetadata, then Nodes.
ChakraTrace read_trace(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) bad(path, "cannot be read");
  const std::string data((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  ChakraTrace t;
  t.hash = inputs_hash(data);
  google::protobuf::io::ArrayInputStream raw(data.data(), static_cast<int>(data.size()));
  google::protobuf::io::CodedInputStream in(&raw);
  for (bool first = true;; first = false) {
    const int at = in.CurrentPosition();
    bool clean_eof = false;
    google::protobuf::MessageLite* m =
        first ? static_cast<google::protobuf::MessageLite*>(&t.meta) : &t.nodes.emplace_back();
    if (google::protobuf::util::ParseDelimitedFromCodedStream(m, &in, &clean_eof)) continue;
    if (!first) t.nodes.pop_back();
    if (clean_eof) break;
    bad(path, "byte " + std::to_string(at) + ": not a whole Chakra " + (first ? "GlobalMetadata" : "Node") +
                  " message (its size runs past the end of the file, or its bytes do not parse)");
  }
  return t;
}

// DIR/<name>.<rank>.et for ranks 0..N-1, and the name.
std::vector<std::string> trace_files(const std::string& dir, std::string* name) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) bad("--workload-et " + dir, "expected a directory of Chakra traces (<name>.<rank>.et)");
  const std::regex re(R"((.+)\.(\d+)\.et)");
  std::map<int, std::string> by_rank;
  while (const dirent* e = ::readdir(d)) {
    std::smatch m;
    const std::string f = e->d_name;
    if (!std::regex_match(f, m, re)) continue;
    if (!name->empty() && *name != m[1].str()) {
      ::closedir(d);
      bad("--workload-et " + dir, "holds the traces of two workloads, " + *name + " and " + m[1].str());
    }
    *name = m[1].str();
    by_rank[std::stoi(m[2].str())] = dir + "/" + f;
  }
  ::closedir(d);
  if (by_rank.empty()) bad("--workload-et " + dir, "expected Chakra traces named <name>.<rank>.et; found none");
  std::vector<std::string> out;
  for (const auto& [rank, path] : by_rank) {
    if (rank != static_cast<int>(out.size()))
      bad("--workload-et " + dir, "the trace of rank " + std::to_string(out.size()) + " is missing");
    out.push_back(path);
  }
  return out;
}

std::map<std::string, std::vector<int>> comm_groups(const std::string& path, int ranks, std::string* text) {
  std::map<std::string, std::vector<int>> out;
  std::ifstream in(path);
  if (!in) return out;
  *text = std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(*text);
    for (const auto& [name, members] : j.items()) out[name] = members.get<std::vector<int>>();
  } catch (const nlohmann::json::exception& e) {
    bad(path, std::string("expected {\"NAME\": [RANK, ...], ...}: ") + e.what());
  }
  for (const auto& [name, members] : out)
    for (int r : members)
      if (r < 0 || r >= ranks) bad(path, "group " + name + " names rank " + std::to_string(r) + ", not a trace");
  return out;
}

struct Attrs {
  std::map<std::string, const pb::AttributeProto*> by_name;
  explicit Attrs(const pb::Node& n) {
    for (const auto& a : n.attr()) by_name[a.name()] = &a;
  }
  const pb::AttributeProto* get(const char* k) const {
    auto it = by_name.find(k);
    return it == by_name.end() ? nullptr : it->second;
  }
  // A number of any integer or floating kind the producers write.
  double num(const char* k) const {
    const pb::AttributeProto* a = get(k);
    if (!a) return 0;
    switch (a->value_case()) {
      case pb::AttributeProto::kInt64Val: return double(a->int64_val());
      case pb::AttributeProto::kUint64Val: return double(a->uint64_val());
      case pb::AttributeProto::kInt32Val: return double(a->int32_val());
      case pb::AttributeProto::kDoubleVal: return a->double_val();
      default: return 0;
    }
  }
  bool flag(const char* k) const { return get(k) && get(k)->bool_val(); }
  std::string text(const char* k) const { return get(k) ? get(k)->string_val() : std::string(); }
};

// The nodes in an order where every dependency comes first (Kahn's algorithm, least id first).
std::vector<size_t> topological(const std::vector<pb::Node>& nodes, const std::string& file) {
  std::map<uint64_t, size_t> index;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (!index.emplace(nodes[i].id(), i).second) bad(file, "node id " + std::to_string(nodes[i].id()) + " twice");
  std::vector<std::vector<size_t>> users(nodes.size());
  std::vector<int> waiting(nodes.size(), 0);
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::set<uint64_t> deps(nodes[i].data_deps().begin(), nodes[i].data_deps().end());
    deps.insert(nodes[i].ctrl_deps().begin(), nodes[i].ctrl_deps().end());
    for (uint64_t d : deps) {
      auto it = index.find(d);
      if (it == index.end())
        bad(file, "node " + std::to_string(nodes[i].id()) + " depends on node " + std::to_string(d) +
                      ", which the file does not have");
      users[it->second].push_back(i);
      ++waiting[i];
    }
  }
  std::priority_queue<std::pair<uint64_t, size_t>, std::vector<std::pair<uint64_t, size_t>>, std::greater<>> ready;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (!waiting[i]) ready.push({nodes[i].id(), i});
  std::vector<size_t> order;
  while (!ready.empty()) {
    const size_t i = ready.top().second;
    ready.pop();
    order.push_back(i);
    for (size_t u : users[i])
      if (--waiting[u] == 0) ready.push({nodes[u].id(), u});
  }
  if (order.size() != nodes.size()) bad(file, "the dependencies form a cycle");
  return order;
}

// The NeuronCore model's costs of named operators (chakra_operators.h), as trnsim's own lowering
// times its ops (workloads/lowering/op_cost.h): the system's chip at its default LNC, the runtime
// calibration's kernel efficiency for the trace's mode and frontend (eager through TorchNeuron,
// PyTorch's, unless trnsim's metadata says otherwise), the tensors' dtype from the node's types.
class OperatorCosts {
 public:
  OperatorCosts(const models::SystemSpec& system, const pb::GlobalMetadata& meta) {
    base_.system = system;
    base_.runtime = workloads::load_runtime_calibration();
    base_.mode = workloads::ExecMode::Eager;
    for (const auto& a : meta.attr()) {
      if (a.name() == "trn_mode" && a.string_val() == "compiled") base_.mode = workloads::ExecMode::Compiled;
      if (a.name() == "trn_frontend" && a.string_val() == "xla") base_.compile.frontend = workloads::Frontend::Xla;
      if (a.name() == "trn_attention" && a.string_val() == "unfused")
        base_.compile.attention = workloads::AttentionKernel::Unfused;
      if (a.name() == "trn_auto_cast" && a.string_val() == "none") base_.compile.auto_cast = workloads::AutoCast::None;
    }
  }
  Op cost(const NamedOperator& n) {
    auto it = by_dtype_.find(n.dtype);
    if (it == by_dtype_.end()) {
      workloads::ScenarioSpec s = base_;
      s.precision.compute = compute_dtype(n.dtype);
      it = by_dtype_.emplace(n.dtype, std::move(s)).first;
    }
    const workloads::ScenarioSpec& s = it->second;
    return workloads::compute_op(workloads::OpCostContext{s, s.system.chip, s.effective_lnc(), true}, n.op);
  }
  /// What the costs depend on beyond the system (for the inputs hash).
  std::string inputs() const {
    using workloads::enum_word;
    return "runtime:\n" + sim::to_yaml(sim::write_config(base_.runtime)) + "costs: " + enum_word(base_.mode) + " " +
           enum_word(base_.compile.frontend) + " " + enum_word(base_.compile.attention) + " " +
           enum_word(base_.compile.auto_cast) + "\n";
  }

 private:
  static workloads::ComputeDType compute_dtype(models::DType d) {
    switch (d) {
      case models::DType::FP32: return workloads::ComputeDType::FP32;
      case models::DType::FP16: return workloads::ComputeDType::FP16;
      case models::DType::FP8: return workloads::ComputeDType::FP8;
      case models::DType::MXFP8: return workloads::ComputeDType::MXFP8;
      default: return workloads::ComputeDType::BF16;
    }
  }
  workloads::ScenarioSpec base_;
  std::map<models::DType, workloads::ScenarioSpec> by_dtype_;
};

struct Builder {
  const ChakraImportOptions& opt;
  const std::map<std::string, std::vector<int>>& groups;
  double flop_rate = 0;  // per logical core
  int world = 0;
  std::map<std::string, int64_t>& costed;
  OperatorCosts* operators = nullptr;

  static bool compute_engine(const std::string& e, Engine* out) {
    static const std::map<std::string, Engine> names = {
        {"tensor", Engine::Tensor}, {"vector", Engine::Vector}, {"scalar", Engine::Scalar}, {"gpsimd", Engine::GpSimd}};
    auto it = names.find(e);
    if (it == names.end()) return false;
    *out = it->second;
    return true;
  }

  static double duration(const pb::Node& n, const Attrs& a) {
    return a.get("trn_duration_s") ? a.num("trn_duration_s") : double(n.duration_micros()) * 1e-6;
  }

  void compute(const pb::Node& n, const Attrs& a, Op& op) {
    op.flops = a.num("num_ops");
    op.bytes = a.num("tensor_size");
    if (a.flag("is_cpu_op")) {
      op.engine = Engine::Host;
      op.duration_s = duration(n, a);
      op.bytes = 0;
      ++costed["host"];
      return;
    }
    if (!compute_engine(a.text("trn_engine"), &op.engine)) op.engine = op.flops > 0 ? Engine::Tensor : Engine::Vector;
    NamedOperator named;
    std::string why;
    if (!opt.durations && named_operator(a.get("trn_operator") ? a.text("trn_operator") : n.name(), n.inputs().shapes(),
                                         n.inputs().types(), n.inputs().values(), &named, &why)) {
      named.op.window = a.num("trn_window");
      const Op c = operators->cost(named);
      op.engine = c.engine;
      op.duration_s = c.duration_s;
      op.flops = c.flops;
      op.tensor_busy = c.tensor_busy;
      op.sbuf_bytes = c.sbuf_bytes;
      op.bytes = a.get("tensor_size") ? a.num("tensor_size") : c.bytes;  // the producer's HBM traffic when it says
      ++costed[named.family];
      return;
    }
    if (opt.durations || (op.flops <= 0 && op.bytes <= 0)) {
      op.duration_s = duration(n, a);
      op.bytes = 0;  // the recorded time already holds the node's memory traffic
      ++costed["duration"];
      return;
    }
    op.duration_s = op.flops / flop_rate;  // the bytes stream through HBM alongside (models/ir/program.h)
    ++costed["roofline"];
  }

  std::vector<int> members(const pb::Node& n, const Attrs& a, const std::string& file) const {
    const std::string pg = a.text("pg_name");
    // No group, or "0" when the group file does not define it: every rank (ASTRA-sim's convention).
    if (pg.empty() || (pg == "0" && groups.count(pg) == 0)) {
      std::vector<int> all(static_cast<size_t>(world));
      for (int r = 0; r < world; ++r) all[static_cast<size_t>(r)] = r;
      return all;
    }
    auto it = groups.find(pg);
    if (it == groups.end())
      bad(file, "node " + std::to_string(n.id()) + " names communicator group '" + pg +
                    "', which the comm_groups.json file does not list");
    return it->second;
  }
};

models::CollectiveOp collective(int64_t type, const pb::Node& n, const std::string& file) {
  switch (type) {
    case pb::ALL_REDUCE: return models::CollectiveOp::AllReduce;
    case pb::ALL_GATHER: return models::CollectiveOp::AllGather;
    case pb::REDUCE_SCATTER:
    case pb::REDUCE_SCATTER_BLOCK: return models::CollectiveOp::ReduceScatter;
    case pb::ALL_TO_ALL: return models::CollectiveOp::AllToAll;
    default: break;
  }
  bad(file, "node " + std::to_string(n.id()) + ": collective " +
                pb::CollectiveCommType_Name(static_cast<pb::CollectiveCommType>(type)) +
                " is not modelled (all-reduce, all-gather, reduce-scatter and all-to-all are)");
}

// The in-order collective streams of a core (NeuronCore::kCollectiveQueues): pipeline sends on
// 4 and receives on 6, as trnsim's lowering puts them (workloads/lowering/lower_program.h);
// a rank's communicator groups share the others round-robin.
constexpr int kSendQueue = 4, kRecvQueue = 6;
int collective_queue(int group_index) {
  static const int free_queues[] = {0, 1, 2, 3, 5, 7};
  return free_queues[group_index % 6];
}

models::Program build(const ChakraTrace& t, int rank, Builder& b, const std::string& file) {
  models::Program p;
  std::map<uint64_t, int32_t> op_of;  // node id -> op index
  std::map<std::vector<int>, int32_t> group_of;
  auto group = [&](const std::vector<int>& m) {
    auto [it, fresh] = group_of.emplace(m, static_cast<int32_t>(p.groups.size()));
    if (fresh) p.groups.push_back(m);
    return it->second;
  };
  for (size_t i : topological(t.nodes, file)) {
    const pb::Node& n = t.nodes[i];
    const Attrs a(n);
    Op op;
    op.name = n.name();
    std::set<int32_t> deps;
    for (uint64_t d : n.data_deps()) deps.insert(op_of.at(d));
    for (uint64_t d : n.ctrl_deps()) deps.insert(op_of.at(d));
    op.deps.assign(deps.begin(), deps.end());
    switch (n.type()) {
      case pb::COMP_NODE: b.compute(n, a, op); break;
      case pb::MEM_LOAD_NODE:
      case pb::MEM_STORE_NODE:
        op.engine = Engine::Dma;
        op.bytes = a.num("tensor_size");
        ++b.costed["memory"];
        break;
      case pb::COMM_COLL_NODE: {
        op.engine = Engine::Collective;
        op.coll = collective(static_cast<int64_t>(a.num("comm_type")), n, file);
        op.bytes = a.num("comm_size");
        const std::vector<int> m = b.members(n, a, file);
        if (std::find(m.begin(), m.end(), rank) == m.end())
          bad(file, "node " + std::to_string(n.id()) + ": rank " + std::to_string(rank) + " is not in its group");
        op.group = group(m);
        op.queue = collective_queue(op.group);
        ++b.costed["collective"];
        break;
      }
      case pb::COMM_SEND_NODE:
      case pb::COMM_RECV_NODE: {
        const bool send = n.type() == pb::COMM_SEND_NODE;
        const int peer = static_cast<int>(a.num(send ? "comm_dst" : "comm_src"));
        if (peer < 0 || peer >= b.world || peer == rank)
          bad(file, "node " + std::to_string(n.id()) + ": peer rank " + std::to_string(peer) + " is not another trace");
        op.engine = Engine::Collective;
        op.coll = models::CollectiveOp::SendRecv;
        op.bytes = a.num("comm_size");
        op.group = group(send ? std::vector<int>{rank, peer} : std::vector<int>{peer, rank});  // the sender first
        op.queue = send ? kSendQueue : kRecvQueue;
        ++b.costed["transfer"];
        break;
      }
      default:
        op.engine = Engine::Host;  // metadata and invalid nodes: ordering only, no time
        ++b.costed["metadata"];
        break;
    }
    op_of[n.id()] = p.add(std::move(op));
  }
  return p;
}

}  // namespace

ChakraImportResult run_import_chakra(const ChakraImportOptions& o) {
  ChakraImportResult res;
  const std::vector<std::string> files = trace_files(o.dir, &res.name);
  res.ranks = static_cast<int>(files.size());
  models::SystemSpec probe = models::load_system(o.system, {});
  const int per_chip = probe.chip.cores.physical / std::max(1, probe.chip.cores.default_lnc);
  int instances = (res.ranks + probe.chips * per_chip - 1) / (probe.chips * per_chip);
  if (o.chips > 0) {
    if (o.chips % probe.chips != 0)
      bad("--chips " + std::to_string(o.chips),
          "expected whole instances of " + probe.name + " (" + std::to_string(probe.chips) + " chips each)");
    instances = o.chips / probe.chips;
  }
  res.system = models::load_system(o.system, {}, instances);
  std::string groups_text;
  const auto groups = comm_groups(o.dir + "/" + res.name + ".comm_groups.json", res.ranks, &groups_text);
  res.durations = o.durations;
  std::string inputs = "command: run --workload-et\ndurations: " + std::string(o.durations ? "true" : "false") +
                       "\ncomm_groups: " + inputs_hash(groups_text) + "\n" + models::resolved_yaml(res.system, "");
  const int lnc = res.system.chip.cores.default_lnc;
  Builder b{o, groups, res.system.chip.peak.bf16.v / res.system.chip.cores.physical * lnc, res.ranks, res.costed};
  std::unique_ptr<OperatorCosts> operators;
  std::vector<models::Program> programs;
  for (int r = 0; r < res.ranks; ++r) {
    const ChakraTrace t = read_trace(files[static_cast<size_t>(r)]);
    if (r == 0) {
      for (const auto& a : t.meta.attr())
        if (a.name() == "trn_step_time_s") res.recorded_step_s = a.double_val();
      operators = std::make_unique<OperatorCosts>(res.system, t.meta);
      b.operators = operators.get();
      inputs += operators->inputs();
    }
    res.nodes += static_cast<int64_t>(t.nodes.size());
    inputs += "rank " + std::to_string(r) + ": " + t.hash + "\n";
    programs.push_back(build(t, r, b, files[static_cast<size_t>(r)]));
  }
  res.inputs_hash = inputs_hash(inputs);
  res.run = simulate_programs(res.system, std::move(programs));
  return res;
}

void write_import_text(const ChakraImportResult& r, FILE* out) {
  std::fprintf(out, "Chakra traces %s: %d ranks, %lld nodes on %d x %s\n", r.name.c_str(), r.ranks,
               static_cast<long long>(r.nodes), r.system.instances, r.system.name.c_str());
  // The NeuronCore model's named operators first, as one group, then the other ways.
  const std::vector<std::string>& families = operator_families();
  int64_t modelled = 0;
  std::string parts;
  for (const std::string& f : families) {
    auto it = r.costed.find(f);
    if (it == r.costed.end()) continue;
    modelled += it->second;
    parts += std::string(parts.empty() ? "" : ", ") + f + " " + std::to_string(it->second);
  }
  std::fprintf(out, "  nodes timed by:");
  if (modelled) std::fprintf(out, " NeuronCore model %lld (%s)", static_cast<long long>(modelled), parts.c_str());
  for (const auto& [how, n] : r.costed)
    if (std::find(families.begin(), families.end(), how) == families.end())
      std::fprintf(out, " %s %lld", how.c_str(), static_cast<long long>(n));
  const double first =
      r.run.rank_finish.empty() ? 0 : *std::min_element(r.run.rank_finish.begin(), r.run.rank_finish.end());
  std::fprintf(out, "\n  finish           %.6f s (the latest rank; the earliest %.6f s)\n", r.run.finish_s, first);
  if (r.recorded_step_s >= 0)
    std::fprintf(out, "  recorded step    %.6f s (the producer's, trn_step_time_s; %+.2f%%)\n", r.recorded_step_s,
                 100.0 * (r.run.finish_s / r.recorded_step_s - 1.0));
}

nlohmann::ordered_json import_json(const ChakraImportResult& r) {
  nlohmann::ordered_json j;
  j["traces"] = r.name;
  j["system"] = r.system.name;
  j["instances"] = r.system.instances;
  j["ranks"] = r.ranks;
  j["nodes"] = r.nodes;
  j["nodes_timed_by"] = r.costed;
  j["durations_replayed"] = r.durations;
  j["finish_s"] = r.run.finish_s;
  j["rank_finish_s"] = r.run.rank_finish;
  if (r.recorded_step_s >= 0) j["recorded_step_s"] = r.recorded_step_s;
  j["sim"] = {{"events", r.run.events}, {"wall_s", r.run.wall_s}};
  return stamped(Document::RunTrace, r.inputs_hash, j);
}

}  // namespace trn::app
