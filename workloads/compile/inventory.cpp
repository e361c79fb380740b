// The graphs a job compiles (see inventory.h).
#include "workloads/compile/inventory.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "models/compile/compiler_release.h"
#include "workloads/parallel/layout.h"
#include "workloads/parallel/parallel_passes.h"

namespace trn::workloads {
namespace {

double cdiv(double a, double b) { return std::ceil(std::max(0.0, a) / b); }

// The tensor engine multiplies a stationary block of up to 128 x 128 (contraction x output) by
// a moving operand of up to 512 columns (nki_faq): a matmul [M x K] x [K x N] is
// ceil(K/128) x ceil(N/128) stationary blocks, each streamed ceil(M/512) times.
double matmul_tiles(double m, double n, double k) { return cdiv(m, 512) * cdiv(n, 128) * cdiv(k, 128); }

// Unique signature of an op: kind, kernel and shapes (not the layer).
std::string signature(const GraphOp& o) {
  std::ostringstream s;
  s << static_cast<int>(o.kind) << '|' << o.kernel << '|' << o.tokens << '|' << o.n << '|' << o.k << '|' << o.experts
    << '|' << o.width << '|' << o.heads << '|' << o.seq << '|' << o.kv_len << '|' << o.window << '|'
    << static_cast<int>(o.coll) << '|' << o.coll_bytes << '|'
    << static_cast<int>(o.recompute ? Phase::Forward : o.phase);
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

bool is_pipe(const GraphOp& o) { return o.kind == OpKind::Collective && o.group == GroupKind::Pp; }

// The compile-time factor of the scenario's compiler release (its `sdk:`).
double scale_of(const ScenarioSpec& s) {
  models::SdkRelease rel;
  models::parse_sdk_release(s.system.chip.collectives.sdk, &rel);  // validated by the loader
  return models::compiler_release_factor(rel, s.compile.frontend == Frontend::Xla);
}

bool xla_of(const ScenarioSpec& s) { return s.compile.frontend == Frontend::Xla; }

models::CompileJob graph_job(const std::string& name, const OpSize& z, double scale, double hit, int copies = 1) {
  models::CompileJob j;
  j.name = name;
  j.tiles = z.tiles;
  j.ops = z.ops;
  j.rows = z.rows;
  j.traced = z.ops;
  j.scale = scale;
  j.hit = hit;
  j.copies = copies;
  return j;
}

}  // namespace

ScorePasses score_passes(const CompileSpec& c) {
  if (c.attention != AttentionKernel::Unfused) return {};
  const bool fused = c.softmax == Softmax::Fused;
  const double dropout = c.attention_dropout ? 1.0 : 0.0;
  return ScorePasses{2 + (fused ? 1 : 5) + 4 * dropout, 2 + (fused ? 1 : 4) + 2 * dropout};
}

OpSize op_size(const GraphOp& o, double optimizer_passes, double element_bytes, bool expert_loop,
               const ScorePasses& unfused) {
  OpSize z;
  z.ops = 1;
  switch (o.kind) {
    case OpKind::Matmul:
      z.tiles = matmul_tiles(o.tokens, o.n, o.k) * std::max(1, o.experts);
      if (expert_loop) z.ops = std::max(1, o.experts);
      break;
    case OpKind::Attention: {
      // Per sequence and head: QK^T [q x hd] x [hd x kv], the softmax on the score tiles, PV
      // [q x kv] x [kv x hd]. A flash kernel's causal query attends half the keys on average and
      // its softmax is one pass; an unfused attention computes the whole square and makes the
      // framework's passes over it. Decoding attends its KV cache (kv_len).
      const bool square = unfused.forward > 0;
      const bool bwd = o.phase == Phase::Backward && !o.recompute;
      double kv = o.kv_len > 0 ? o.kv_len : (o.causal && !square ? (o.seq + 1) / 2 : o.seq);
      if (o.window > 0) kv = std::min(kv, o.window);
      const double mm = matmul_tiles(o.seq, kv, o.head_dim) + matmul_tiles(o.seq, o.head_dim, kv);
      const double pass = cdiv(o.seq, 128) * cdiv(kv, 512);
      const double per_head = square ? mm * (bwd ? 2.0 : 1.0) + pass * (bwd ? unfused.backward : unfused.forward)
                                     : (mm + pass) * (bwd ? 2.5 : 1.0);
      z.tiles = per_head * o.heads * o.sequences;
      break;
    }
    case OpKind::Collective:
      // MoE dispatch/combine: an indirect DMA descriptor per routed token row.
      if (o.group == GroupKind::Ep) z.rows = o.coll_bytes / element_bytes / std::max(1.0, o.width);
      break;
    case OpKind::Optimizer:
      // One fused update per parameter tensor, over its shard.
      z.tiles = cdiv(o.width, 128 * 512.0) * optimizer_passes;
      z.ops = std::max(1.0, o.tensors);
      break;
    default: z.tiles = cdiv(o.tokens, 128) * cdiv(o.width, 512) * std::max(1, o.inputs);
  }
  return z;
}

int Inventory::graphs() const {
  int n = 0;
  for (const auto& j : jobs) n += std::max(1, j.copies);
  return n;
}

namespace {

// One kernel per distinct op signature (eager: every op; regional: the remainder outside the
// layer blocks).
void add_kernel_jobs(Inventory& inv, const ScenarioSpec& s, const TrainingGraph& g, bool remainder_only) {
  const double hit = hit_of(s), scale = scale_of(s);
  const double opt_passes = s.precision.optimizer_cost().vector_passes;
  const ScorePasses passes = score_passes(s.compile);
  std::set<std::string> seen;
  for (Vertex v : g.order) {
    const GraphOp& o = g.g[v];
    if (remainder_only && !is_remainder(o)) continue;
    if (!seen.insert(signature(o)).second) continue;
    models::CompileJob j;
    j.name = "kernel:" + (o.kind == OpKind::Optimizer ? enum_word(s.precision.optimizer) : o.kernel);
    const OpSize z = op_size(o, opt_passes, s.precision.element_bytes(), !xla_of(s), passes);
    j.tiles = z.tiles;
    j.rows = z.rows;
    j.ops = 1;
    j.kernel = true;
    j.hit = hit;
    j.scale = scale;
    j.xla = xla_of(s);
    inv.jobs.push_back(j);
  }
}

// Regional compilation: one forward and one backward graph per distinct layer block (the
// concatenated signatures of the layer's non-remainder ops), then the remainder's kernels.
void add_regional_jobs(Inventory& inv, const ScenarioSpec& s, const TrainingGraph& g) {
  const double hit = hit_of(s), scale = scale_of(s);
  const double opt_passes = s.precision.optimizer_cost().vector_passes;
  const ScorePasses passes = score_passes(s.compile);
  std::map<int, std::string> sig;
  std::map<int, std::pair<OpSize, OpSize>> size;  // layer -> (fwd, bwd)
  for (Vertex v : g.order) {
    const GraphOp& o = g.g[v];
    if (is_remainder(o)) continue;
    sig[o.layer] += signature(o) + ";";
    auto& z = size[o.layer];
    (o.phase == Phase::Forward ? z.first : z.second) +=
        op_size(o, opt_passes, s.precision.element_bytes(), !xla_of(s), passes);
  }
  std::map<std::string, int> blocks;
  for (const auto& [layer, text] : sig) {
    if (blocks.count(text)) continue;
    const int id = static_cast<int>(blocks.size());
    blocks[text] = id;
    for (int bwd = 0; bwd < 2; ++bwd) {
      const OpSize& z = bwd ? size[layer].second : size[layer].first;
      inv.jobs.push_back(graph_job("block" + std::to_string(id) + (bwd ? "_bwd" : "_fwd"), z, scale, hit));
      inv.jobs.back().xla = xla_of(s);
      inv.traced_ops += z.ops;
    }
  }
  add_kernel_jobs(inv, s, g, true);
}

// The sizes of one pipeline stage's segments: forward, backward (with recomputation) and the
// once-per-step work (gradient reductions, optimizer, ZeRO gather). Pipeline transfers are
// graphs of their own (NxD's pipeline engine cuts every task, F40) and left out.
struct StageSizes {
  OpSize fwd, bwd, update;
  bool embedding = false, loss = false;  // holds the vocabulary-parallel embedding / cross-entropy forward
  double params = 0, tensors = 0;
  int layers = 0;  // transformer layers the stage holds
};

StageSizes stage_sizes(const ScenarioSpec& s, int stage) {
  const TrainingGraph g = stage_training_graph(s, stage);
  const double opt_passes = s.precision.optimizer_cost().vector_passes;
  const ScorePasses passes = score_passes(s.compile);
  StageSizes z;
  std::set<int> layers;
  for (Vertex v : g.order) {
    const GraphOp& o = g.g[v];
    if (is_pipe(o)) continue;
    const OpSize x = op_size(o, opt_passes, s.precision.element_bytes(), false, passes);
    if (o.phase == Phase::Update || o.once_per_step)
      z.update += x;
    else if (o.phase == Phase::Forward)
      z.fwd += x;
    else
      z.bwd += x;
    z.embedding = z.embedding || (o.kind == OpKind::Embedding);
    z.loss = z.loss || (o.kind == OpKind::Loss);
    if (o.kind == OpKind::Optimizer) z.tensors += o.tensors;
    if (o.layer >= 0) layers.insert(o.layer);
  }
  z.layers = static_cast<int>(layers.size());
  z.params = g.stage_params;
  return z;
}

// A tiny graph: a collective or a scalar op or two.
OpSize tiny(double ops = 1) {
  OpSize z;
  z.ops = ops;
  return z;
}

// The pipeline transfer tasks of stage p of pp, each a graph of its own (F40).
std::vector<std::string> transfer_kinds(int p, int pp) {
  std::vector<std::string> kinds;
  if (p < pp - 1) kinds = {"send_activations", "receive_gradients"};
  if (p > 0) kinds.insert(kinds.end(), {"receive_activations", "send_gradients"});
  return kinds;
}

// The ops a rank of stage `shape` traces in one step: torch-xla traces every graph it runs, each
// micro-batch anew (the lazy tensors are rebuilt before the cache finds the compiled graph). Per
// micro-batch its forward and backward and its pipeline transfers (one-op graphs); per step the
// graphs of `once_ops` (optimizer, logging, the last stage's loss graphs).
double step_traced_ops(const StageSizes& z, int microbatches, int pp, int shape, double once_ops) {
  const double transfers = double(transfer_kinds(shape, pp).size()) * tiny().ops;
  return microbatches * (z.fwd.ops + z.bwd.ops + transfers) + once_ops;
}

// Pipeline transfers: a graph per task (send activations, receive gradients, ...), whose
// all-gather over the rank pair differs by the pair mesh's parity (F40). `add_job` adds a graph
// by name and returns its index.
void add_transfer_jobs(int pp, std::vector<std::vector<size_t>>& stage_jobs,
                       const std::function<size_t(const std::string&)>& add_job) {
  if (pp <= 1) return;
  std::map<std::string, size_t> transfer;
  for (int p = 0; p < pp; ++p) {
    for (const auto& k : transfer_kinds(p, pp)) {
      const std::string name = k + (p % 2 ? "_odd" : "_even");
      if (!transfer.count(name)) transfer[name] = add_job(name);
      stage_jobs[static_cast<size_t>(p)].push_back(transfer[name]);
    }
  }
}

// Adds the xla frontend's whole-step graph jobs to an inventory: the compiler release's time
// scale, the cache hit rate, and one module per layer from SDK 2.14 (layer_modular_training).
class XlaJobs {
 public:
  XlaJobs(Inventory& inv, const ScenarioSpec& s, const models::SdkRelease& rel)
      : inv_(inv),
        hit_(hit_of(s)),
        scale_(scale_of(s)),
        modular_(models::layer_modular_training(rel)),
        tp_variants_(s.parallel.tp > 1 ? 2 : 1) {}
  // Copies of a graph that holds the vocabulary-parallel embedding or loss: TP rank 0 bakes a
  // vocabulary offset of 0 in, the other ranks share one graph (F41).
  int tp_variants() const { return tp_variants_; }
  // Adds graph `name` of size `z` to `to`; `layers` > 1: one module per layer when modular.
  void add(std::vector<size_t>& to, const std::string& name, const OpSize& z, int copies = 1, int layers = 0) {
    to.push_back(inv_.jobs.size());
    inv_.jobs.push_back(graph_job(name, z, scale_, hit_, copies));
    inv_.jobs.back().xla = true;
    if (modular_ && layers > 1) inv_.jobs.back().modules = layers;
  }

 private:
  Inventory& inv_;
  double hit_, scale_;
  bool modular_;
  int tp_variants_;
};

// A graph over every local parameter tensor (a norm each, or a copy to the host) and `extra`
// scalar ops.
OpSize per_tensor_graph(const StageSizes& z, int tp, double extra) {
  OpSize g = tiny(extra + z.tensors);
  g.tiles = cdiv(z.params / std::max(1, tp), 128 * 512.0);
  return g;
}

// The Hugging Face Trainer's graphs (compile.graph_cut step, pp 1; docs/startup.md 1.2, C21):
// the loader marks the step per micro-batch, and the optimizer step is traced into the last
// micro-batch's graph (the first step's creates the optimizer state, the last step's differs
// again: the logs show three such graphs). The model save moves every parameter tensor to the
// host in a graph of its own.
void add_trainer_jobs(Inventory& inv, XlaJobs& jobs, const ScenarioSpec& s,
                      std::vector<std::vector<size_t>>& stage_jobs, std::vector<size_t>& common) {
  jobs.add(common, "setup", tiny(2));  // the logs' one small graph before the first step
  const StageSizes z = stage_sizes(s, 0);
  const int variants = jobs.tp_variants();
  stage_jobs.assign(1, {});
  std::vector<size_t>& to = stage_jobs[0];
  OpSize mb = z.fwd;
  mb += z.bwd;
  if (s.parallel.microbatches > 1) {
    jobs.add(to, "microbatch_first", mb, variants, z.layers);
    jobs.add(to, "microbatch", mb, variants, z.layers);
  }
  OpSize step = mb;
  step += z.update;
  for (const char* name : {"step_first", "step", "step_last"}) jobs.add(to, name, step, variants, z.layers);
  jobs.add(to, "save_params", per_tensor_graph(z, s.parallel.tp, 2), variants);
  inv.step_traced_ops = step_traced_ops(z, s.parallel.microbatches, 1, 0, z.update.ops);
}

// The whole-step graphs of the xla frontend, by mechanism: torch-xla cuts a graph at every
// mark_step (docs/startup.md 1.2; F39-F41). `stage_jobs[p]` receives the indexes of the jobs
// stage p's ranks compile; the others are every rank's.
void add_whole_step_jobs(Inventory& inv, const ScenarioSpec& s, std::vector<std::vector<size_t>>& stage_jobs,
                         std::vector<size_t>& common) {
  const ParallelSpec& par = s.parallel;
  const int pp = par.pp;
  models::SdkRelease rel;
  models::parse_sdk_release(s.system.chip.collectives.sdk, &rel);
  const bool log_gated = rel.before(2, 21);  // parameter norm on logging steps only (F40)
  XlaJobs jobs(inv, s, rel);
  if (s.compile.graph_cut == GraphCut::Step) {
    add_trainer_jobs(inv, jobs, s, stage_jobs, common);
    return;
  }
  // Set-up: the runtime's initial world all-reduce, the rendezvous barrier, and one reduce
  // per distinct replica mesh (TP, and PP and DP when they are not both trivial).
  jobs.add(common, "init_collective", tiny());
  jobs.add(common, "barrier", tiny(2));
  const int meshes = pp == 1 && par.dp == 1 ? 2 : 3;
  for (int m = 0; m < meshes; ++m) jobs.add(common, "mesh_reduce" + std::to_string(m), tiny());
  jobs.add(common, "loss_zeros", tiny());
  jobs.add(common, "loss_cast", tiny());
  // Stage shapes: the first (embedding), the middle ones (equal layer counts: one shape) and
  // the last (head and loss).
  std::vector<int> shapes = {0};
  if (pp > 2) shapes.push_back(1);
  if (pp > 1) shapes.push_back(pp - 1);
  stage_jobs.assign(static_cast<size_t>(pp), {});
  for (int shape : shapes) {
    const StageSizes z = stage_sizes(s, shape);
    std::vector<size_t> mine;
    const std::string tag = pp == 1 ? "" : (shape == 0 ? "_first" : shape == pp - 1 ? "_last" : "_mid");
    const int fwd_variants = z.embedding || z.loss ? jobs.tp_variants() : 1;
    if (pp == 1 && s.compile.graph_cut == GraphCut::MicroBatch) {
      OpSize mb = z.fwd;
      mb += z.bwd;
      jobs.add(mine, "microbatch_first", mb, fwd_variants, z.layers);  // creates the gradient accumulators
      jobs.add(mine, "microbatch", mb, fwd_variants, z.layers);
    } else {
      jobs.add(mine, "forward" + tag, z.fwd, fwd_variants, z.layers);
      jobs.add(mine, "backward_first" + tag, z.bwd, 1, z.layers);
      jobs.add(mine, "backward" + tag, z.bwd, 1, z.layers);
    }
    const OpSize loss_cast = tiny(), loss_average = tiny(3);
    const bool last = pp > 1 && shape == pp - 1;
    if (last) jobs.add(mine, "loss_cast_last", loss_cast);
    if (last) jobs.add(mine, "loss_average", loss_average);
    // Logging: the loss reduction and the norm of every local parameter tensor.
    const OpSize log = per_tensor_graph(z, par.tp, 2);
    jobs.add(mine, "log" + tag, log, jobs.tp_variants());
    if (log_gated) jobs.add(mine, "log_short" + tag, tiny(2));
    jobs.add(mine, "optimizer_first" + tag, z.update);  // the optimizer state is created lazily
    jobs.add(mine, "optimizer" + tag, z.update);        // with the next step's zero_grad
    jobs.add(mine, "optimizer_last" + tag, z.update);
    const double once = z.update.ops + log.ops + (last ? loss_cast.ops + loss_average.ops : 0.0);
    inv.step_traced_ops = std::max(inv.step_traced_ops, step_traced_ops(z, s.parallel.microbatches, pp, shape, once));
    // Every stage of this shape compiles these.
    for (int p = 0; p < pp; ++p) {
      const int shape_of_p = p == 0 ? 0 : p == pp - 1 ? pp - 1 : 1;
      if (shape_of_p == shape) stage_jobs[static_cast<size_t>(p)].insert(stage_jobs[p].end(), mine.begin(), mine.end());
    }
  }
  add_transfer_jobs(pp, stage_jobs, [&](const std::string& name) {
    std::vector<size_t> one;
    jobs.add(one, name, tiny());
    return one[0];
  });
}

// Groups the hosts by the stages their ranks hold; each group compiles its stages' jobs and
// the common ones.
std::vector<HostSet> host_sets(const ScenarioSpec& s, const std::vector<std::vector<size_t>>& stage_jobs,
                               const std::vector<size_t>& common) {
  const int lnc = s.effective_lnc();
  const int per_host = std::max(1, s.system.chips_per_host() * (s.system.chip.cores.physical / lnc));
  const Layout layout(s.parallel);
  const int world = layout.world(), per_stage = layout.per_stage();
  std::map<std::pair<int, int>, int> groups;  // (first stage, last stage) -> hosts
  for (int first = 0; first < world; first += per_host) {
    const int last = std::min(world, first + per_host) - 1;
    ++groups[{first / per_stage, last / per_stage}];
  }
  std::vector<HostSet> out;
  for (const auto& [range, hosts] : groups) {
    HostSet h;
    h.hosts = hosts;
    std::set<size_t> jobs(common.begin(), common.end());
    for (int p = range.first; p <= range.second; ++p) jobs.insert(stage_jobs[p].begin(), stage_jobs[p].end());
    h.jobs.assign(jobs.begin(), jobs.end());
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace

Inventory build_inventory(const ScenarioSpec& s, ExecMode mode) {
  Inventory inv;
  if (mode == ExecMode::Eager || s.compile.frontend == Frontend::TorchNeuron) {
    const TrainingGraph g = stage_training_graph(s, 0);
    inv.kind = mode == ExecMode::Eager ? InventoryKind::EagerKernels : InventoryKind::Regional;
    if (mode == ExecMode::Eager)
      add_kernel_jobs(inv, s, g, false);
    else
      add_regional_jobs(inv, s, g);
    return inv;
  }
  inv.kind = InventoryKind::WholeStep;
  inv.schedule = s.compile.parallel_compile ? models::Schedule::Parallel : models::Schedule::Sequential;
  std::vector<std::vector<size_t>> stage_jobs;
  std::vector<size_t> common;
  add_whole_step_jobs(inv, s, stage_jobs, common);
  for (const auto& j : inv.jobs) inv.traced_ops += j.traced * std::max(1, j.copies);
  inv.hosts = host_sets(s, stage_jobs, common);
  return inv;
}

std::vector<int> inference_buckets(int seq, bool bucketing) {
  std::vector<int> b;
  if (bucketing)
    for (int x = 128; x < seq; x *= 2) b.push_back(x);
  b.push_back(seq);
  return b;
}

TrainingGraph inference_graph(const ModelSpec& m, int tp, int batch, bool tkg, int len) {
  TrainingGraph g =
      build_training_graph(m, 0, m.num_layers, batch, tkg ? 1 : len, Checkpointing::None, kInferenceBytes);
  if (m.is_moe()) expert_parallel_pass(g, 1);
  tensor_parallel_pass(g, tp, false, kInferenceBytes);
  // NxD Inference sizes the KV cache to the window when every layer slides (its KV cache
  // manager's _init_kv_shape), else to the sequence length.
  const bool window_cache = m.sliding_window > 0 && m.sliding_window_pattern == SlidingPattern::All;
  for (Vertex v : g.order) {
    GraphOp& o = g.g[v];
    // Decoding attends the KV cache; the head projects the last token of each sequence only.
    if (o.kind == OpKind::Attention && tkg) o.kv_len = window_cache ? m.sliding_window : len;
    if (o.kind == OpKind::Matmul && o.layer < 0) o.tokens = batch;
  }
  return g;
}

TokenGenerationBytes token_generation_bytes(const ModelSpec& m, int tp, int batch, int len) {
  const TrainingGraph g = inference_graph(m, tp, batch, true, len);
  TokenGenerationBytes b;
  for (Vertex v : g.order) {
    const GraphOp& o = g.g[v];
    if (o.phase != Phase::Forward) continue;
    if (o.kind == OpKind::Matmul)  // every weight of the rank's shard, each expert's included
      b.weights += o.n * o.k * std::max(1, o.experts) * kInferenceBytes;
    else if (o.kind == OpKind::Attention)  // the keys and values of the cache
      b.kv_cache += 2.0 * o.kv_heads * o.head_dim * o.kv_len * o.sequences * kInferenceBytes;
    else if (o.kind == OpKind::Embedding)  // one table row per token
      b.rows += o.tokens * o.width * kInferenceBytes;
  }
  return b;
}

Inventory inference_inventory(const ModelSpec& m, int tp, int batch, const std::vector<int>& cte_buckets,
                              const std::vector<int>& tkg_buckets, bool cte_modular, bool tkg_modular) {
  Inventory inv;
  inv.kind = InventoryKind::Inference;
  auto add = [&](bool tkg, int len) {
    const TrainingGraph g = inference_graph(m, tp, batch, tkg, len);
    OpSize z;
    for (Vertex v : g.order) {
      const GraphOp& o = g.g[v];
      if (o.phase != Phase::Forward || o.kind == OpKind::Loss || o.kind == OpKind::Collective) continue;
      z += op_size(o, 12, kInferenceBytes);
    }
    models::CompileJob j =
        graph_job(std::string(tkg ? "token_generation_" : "context_encoding_") + std::to_string(len), z, 1.0, 0.0);
    j.xla = true;  // NxD Inference traces its graphs with torch-xla
    j.modules = (tkg ? tkg_modular : cte_modular) ? m.num_layers : 1;
    inv.traced_ops += z.ops;
    inv.jobs.push_back(j);
  };
  for (int len : tkg_buckets) add(true, len);
  for (int len : cte_buckets) add(false, len);
  return inv;
}

}  // namespace trn::workloads
