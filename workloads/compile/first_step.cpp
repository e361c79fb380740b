// Graph inventory and first-step assembly (see first_step.h).
#include "workloads/compile/first_step.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "sim/base/config_loader.h"
#include "sim/base/paths.h"
#include "workloads/memory/memory_model.h"
#include "workloads/parallel/parallel_passes.h"

namespace trn::workloads {
namespace {

double cdiv(double a, double b) { return std::ceil(std::max(0.0, a) / b); }

constexpr double kCollectiveUnits = 50;  // descriptor programs and semaphores per collective (assumption)

// Unique signature of an op: kind, kernel and shapes (not the layer).
std::string signature(const GraphOp& o) {
  std::ostringstream s;
  s << static_cast<int>(o.kind) << '|' << o.kernel << '|' << o.tokens << '|' << o.n << '|' << o.k << '|' << o.experts
    << '|' << o.width << '|' << o.heads << '|' << o.seq << '|' << o.window << '|' << static_cast<int>(o.coll) << '|'
    << o.coll_bytes << '|' << static_cast<int>(o.recompute ? Phase::Forward : o.phase);
  return s.str();
}

double hit_of(const ScenarioSpec& s) {
  switch (s.compile.cache) {
    case CompileCache::Warm: return 1.0;
    case CompileCache::Partial: return s.compile.cache_hit_rate;
    case CompileCache::Cold: break;
  }
  return 0.0;
}

bool is_remainder(const GraphOp& o) {
  return o.layer < 0 || (o.kind == OpKind::Collective && o.group != GroupKind::Tp && o.group != GroupKind::Ep);
}

}  // namespace

double op_units(const GraphOp& o, const models::CompileParams& p, double optimizer_passes, double element_bytes) {
  switch (o.kind) {
    case OpKind::Matmul: return cdiv(o.tokens, 128) * cdiv(o.n, 512) * cdiv(o.k, 128) * std::max(1, o.experts);
    case OpKind::Attention: {
      double s_eff = o.causal ? (o.seq + 1) / 2 : o.seq;
      if (o.window > 0) s_eff = std::min(s_eff, o.window);
      double per_head = cdiv(o.seq, 128) * cdiv(s_eff, 512) * cdiv(o.head_dim, 128) +
                        cdiv(o.seq, 128) * cdiv(o.head_dim, 512) * cdiv(s_eff, 128) +
                        cdiv(o.seq, 128) * cdiv(s_eff, 512);  // softmax on the score tiles
      return per_head * o.heads * o.sequences * (o.phase == Phase::Backward && !o.recompute ? 2.5 : 1.0);
    }
    case OpKind::Collective:
      // MoE dispatch/combine: an indirect DMA descriptor per routed token row.
      if (o.group == GroupKind::Ep)
        return kCollectiveUnits + p.moe_row_units * o.coll_bytes / element_bytes / std::max(1.0, o.width);
      return kCollectiveUnits;
    case OpKind::Optimizer: return cdiv(o.width, 128 * 512.0) * optimizer_passes;
    default: return cdiv(o.tokens, 128) * cdiv(o.width, 512) * std::max(1, o.inputs);
  }
}

namespace {

// One kernel per distinct op signature (eager: every op; regional: the remainder outside the
// layer blocks).
void add_kernel_jobs(Inventory& inv, const ScenarioSpec& s, const TrainingGraph& g, const models::CompileParams& p,
                     bool remainder_only) {
  const double hit = hit_of(s);
  const double opt_passes = s.precision.optimizer_cost().vector_passes;
  std::set<std::string> seen;
  for (Vertex v : g.order) {
    const GraphOp& o = g.g[v];
    if (remainder_only && !is_remainder(o)) continue;
    if (!seen.insert(signature(o)).second) continue;
    models::CompileJob j;
    j.name = "kernel:" + (o.kind == OpKind::Optimizer ? enum_word(s.precision.optimizer) : o.kernel);
    j.units = op_units(o, p, opt_passes, s.precision.element_bytes());
    j.kernel = true;
    j.hit = hit;
    inv.jobs.push_back(j);
  }
}

// Regional compilation: one forward and one backward graph per distinct layer block (the
// concatenated signatures of the layer's non-remainder ops), then the remainder's kernels.
void add_regional_jobs(Inventory& inv, const ScenarioSpec& s, const TrainingGraph& g, const models::CompileParams& p) {
  const double hit = hit_of(s);
  const double opt_passes = s.precision.optimizer_cost().vector_passes;
  std::map<int, std::string> sig;
  std::map<int, std::pair<double, double>> units, ops;  // layer -> (fwd, bwd)
  for (Vertex v : g.order) {
    const GraphOp& o = g.g[v];
    if (is_remainder(o)) continue;
    sig[o.layer] += signature(o) + ";";
    auto& u = units[o.layer];
    auto& n = ops[o.layer];
    (o.phase == Phase::Forward ? u.first : u.second) += op_units(o, p, opt_passes, s.precision.element_bytes());
    (o.phase == Phase::Forward ? n.first : n.second) += 1;
  }
  std::map<std::string, int> blocks;
  for (const auto& [layer, text] : sig) {
    if (blocks.count(text)) continue;
    int id = static_cast<int>(blocks.size());
    blocks[text] = id;
    for (int bwd = 0; bwd < 2; ++bwd) {
      models::CompileJob j;
      j.name = "block" + std::to_string(id) + (bwd ? "_bwd" : "_fwd");
      j.units = bwd ? units[layer].second : units[layer].first;
      j.hit = hit;
      inv.jobs.push_back(j);
      inv.traced_ops += bwd ? ops[layer].second : ops[layer].first;
    }
  }
  add_kernel_jobs(inv, s, g, p, true);
}

// Whole-step graphs (the xla frontend): init, the first step, and the micro-step and update
// graphs with gradient accumulation.
void add_whole_step_jobs(Inventory& inv, const ScenarioSpec& s, const TrainingGraph& g,
                         const models::CompileParams& p) {
  const double hit = hit_of(s);
  const double opt_passes = s.precision.optimizer_cost().vector_passes;
  double fwd_bwd = 0, update = 0, n_ops = 0;
  for (Vertex v : g.order) {
    const GraphOp& o = g.g[v];
    (o.phase == Phase::Update || o.once_per_step ? update : fwd_bwd) +=
        op_units(o, p, opt_passes, s.precision.element_bytes());
    n_ops += 1;
  }
  struct Graph {
    const char* name;
    double units;
    bool traced;  // the graph of a training step (init only builds the state)
  };
  std::vector<Graph> graphs = {{"init", update, false}, {"step_first", fwd_bwd + update, true}};
  if (s.parallel.microbatches > 1) {
    graphs.push_back({"micro_step", fwd_bwd, true});
    graphs.push_back({"update_step", fwd_bwd + update, true});
  } else {
    graphs.push_back({"step", fwd_bwd + update, true});
  }
  for (const Graph& gr : graphs) {
    models::CompileJob j;
    j.name = gr.name;
    j.units = gr.units;
    j.hit = hit;
    j.scale = p.xla_factor;
    inv.jobs.push_back(j);
    inv.traced_ops += gr.traced ? n_ops : 0;
  }
}

}  // namespace

Inventory build_inventory(const ScenarioSpec& s, const TrainingGraph& g, ExecMode mode,
                          const models::CompileParams& p) {
  Inventory inv;
  if (mode == ExecMode::Eager) {
    inv.kind = InventoryKind::EagerKernels;
    add_kernel_jobs(inv, s, g, p, false);
  } else if (s.compile.frontend == Frontend::TorchNeuron) {
    inv.kind = InventoryKind::Regional;
    add_regional_jobs(inv, s, g, p);
  } else {
    inv.kind = InventoryKind::WholeStep;
    inv.schedule = s.compile.parallel_compile ? models::Schedule::Parallel : models::Schedule::Sequential;
    add_whole_step_jobs(inv, s, g, p);
  }
  return inv;
}

FirstStep first_step(const ScenarioSpec& s, const models::CompileParams& p, ExecMode mode, double steady_step_s) {
  FirstStep f;
  f.steady = steady_step_s;
  const double seqs_micro =
      double(s.batch.sequences()) / (double(s.parallel.dp) * s.parallel.fsdp * s.parallel.microbatches);
  TrainingGraph g = build_training_graph(s.model, 0, s.model.num_layers / s.parallel.pp, seqs_micro,
                                         double(s.batch.seq_len), s.checkpointing, s.precision.element_bytes());
  apply_parallel_passes(g, s, 0);
  f.inventory = build_inventory(s, g, mode, p);
  // Host-bound parts use one host server: its vCPUs and memory (compile workers, contention,
  // host-oom), its compile cache (shared by the ranks on that host) and its weight-loading
  // bandwidth. An UltraServer has several hosts (`system.hosts`), each serving its own chips.
  const int lnc = s.lnc > 0 ? s.lnc : s.system.chip.cores.default_lnc;
  const int ranks_per_host = s.system.chips_per_host() * (s.system.chip.cores.physical / lnc);
  models::HostLimits host;
  host.vcpus = s.system.host.vcpus;
  host.memory = s.system.host.memory.v;
  host.duplicate = s.compile.shared_cache ? 1 : ranks_per_host;
  f.compile =
      models::compile_phase(p, f.inventory.jobs, f.inventory.schedule, host, s.compile.speedup, s.compile.budget.v);
  const MemoryReport mem = memory_per_rank(s);
  double per_rank = mem.bytes(MemoryKind::Weights);
  if (s.precision.fp32_master_copy())  // the fp32 master copy (4 of 12 B per parameter); m and v start at zero
    per_rank += mem.bytes(MemoryKind::Optimizer) * 4.0 / 12.0;
  // With bf16 master weights the bf16 weights are the master, and an FP32 model's weights (4 B
  // per parameter in `weights`) are its master: nothing more to load.
  double load = 0;
  for (const auto& j : f.inventory.jobs) load += p.l0.v + j.units * p.t_load_unit.v;
  const double world = double(s.parallel.world());
  f.parts = {{enum_word(StartupPart::ProcessStart), p.t_proc.v},
             {enum_word(StartupPart::WeightInit), per_rank * ranks_per_host / p.weight_bw.v},
             {enum_word(StartupPart::GraphCapture), f.inventory.traced_ops * p.t_capture_op.v},
             {enum_word(StartupPart::Compile), f.compile.wall_s},
             {enum_word(StartupPart::NeffLoad), load},
             {enum_word(StartupPart::CollectiveBootstrap), p.k0_coll.v + p.k1_coll.v * std::log2(std::max(1.0, world))},
             {enum_word(StartupPart::FirstExecution), p.k_first * steady_step_s}};
  for (const auto& [k, v] : f.parts) f.total += v;
  return f;
}

models::CompileParams load_compile_params(const std::string& path) {
  std::string file = path.empty() ? sim::data_root() + "/workloads/calibration/compile.yaml" : path;
  sim::ConfigNode root = sim::load_config_file(file);
  models::CompileParams p;
  const sim::ConfigNode* n = root.find("compile_params");
  if (!n) throw sim::ConfigError(root.loc, "compile_params", "missing section 'compile_params'");
  sim::read_config(*n, p, "compile_params");
  return p;
}

}  // namespace trn::workloads
