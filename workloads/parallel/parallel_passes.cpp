// Parallelism passes (see parallel_passes.h).
#include "workloads/parallel/parallel_passes.h"

#include <algorithm>
#include <map>

namespace trn::workloads {
namespace {

GraphOp collective(const std::string& name, OpRole role, models::CollectiveOp op, GroupKind g, double bytes, int layer,
                   Phase ph) {
  GraphOp c;
  c.name = name;
  c.role = role;
  c.kind = OpKind::Collective;
  c.coll = op;
  c.group = g;
  c.coll_bytes = bytes;
  c.layer = layer;
  c.phase = ph;
  return c;
}

GraphOp pipe(const std::string& name, OpRole role, double bytes, Phase ph) {
  return collective(name, role, models::CollectiveOp::SendRecv, GroupKind::Pp, bytes, -1, ph);
}

}  // namespace

void tensor_parallel_pass(TrainingGraph& t, int tp, bool sp, double elem_bytes, bool sp_backward_gather) {
  std::vector<Vertex> row_split;
  for (Vertex v : t.order) {
    GraphOp& o = t.g[v];
    if (o.kind == OpKind::Matmul) {
      if (o.split == Split::Column) o.n /= tp;
      if (o.split == Split::Row) o.k /= tp;
      if (o.split == Split::M) o.tokens /= tp;
      o.params /= (o.split == Split::None ? 1 : tp);
      if (o.split == Split::Row && o.role != OpRole::WeightGrad) row_split.push_back(v);
    } else if (o.kind == OpKind::Attention) {
      o.heads /= tp;
      o.kv_heads = std::max(1, o.kv_heads / tp);
    } else if (o.kind == OpKind::Elementwise || o.kind == OpKind::Loss) {
      if (o.split == Split::Column)
        o.width /= tp;
      else if (sp)
        o.tokens /= tp;  // sequence parallel: replicated ops work on 1/tp of the tokens
    } else if (o.kind == OpKind::Collective && o.group == GroupKind::Ep) {
      if (sp) o.coll_bytes /= tp;
    } else if (o.kind == OpKind::Optimizer) {
      o.width /= tp;  // parameters this rank updates
    }
  }
  if (tp <= 1) return;
  for (Vertex v : row_split) {
    const GraphOp o = t.g[v];
    const double bytes = o.tokens * o.n * elem_bytes * std::max(1, o.experts);  // every local expert's partial output
    auto op = sp ? models::CollectiveOp::ReduceScatter : models::CollectiveOp::AllReduce;
    GraphOp c = collective("tp_" + std::string(sp ? "rs_" : "ar_") + o.name, OpRole::TpReduce, op, GroupKind::Tp, bytes,
                           o.layer, o.phase);
    // A backward dgrad's reduction runs beside the weight-gradient GEMM that follows it: the
    // wgrad reads the layer's input and output gradient, not the reduced input gradient
    // (Megatron-LM's asynchronous TP all-reduce; one compiled graph lets neuronx-cc schedule
    // the two on different engines). The op after the wgrad waits for both.
    Vertex w = v;
    bool paired = false;
    if (o.phase == Phase::Backward && !o.recompute) {
      for (auto e : boost::make_iterator_range(boost::out_edges(v, t.g))) {
        Vertex s = boost::target(e, t.g);
        if (t.g[s].kind == OpKind::Matmul && t.g[s].role == OpRole::WeightGrad) w = s, paired = true;
      }
    }
    // Megatron-style linear layers (NxD's LinearWithAsyncCommunication, the NeMo fork's
    // LinearWithGradAccumulationAndAsyncCommunication) save the sequence-split input of a
    // column-split matmul and all-gather it again in the backward for the weight gradient; the
    // gather reads the saved input and runs beside the dgrad, which does not need it.
    if (paired && sp && sp_backward_gather && o.experts <= 1)
      t.insert_reading_for(v, w,
                           collective("tp_ag_" + t.g[w].name, OpRole::TpGather, models::CollectiveOp::AllGather,
                                      GroupKind::Tp, bytes, o.layer, o.phase));
    if (paired)
      t.insert_beside(v, w, std::move(c));
    else
      t.insert_after(v, std::move(c));
  }
  if (sp) {  // all-gather the sequence-split activations before each column-split matmul that reads them
    std::vector<Vertex> cols;
    for (Vertex v : t.order) {
      const GraphOp& o = t.g[v];
      if (o.kind == OpKind::Matmul && o.split == Split::Column && o.role != OpRole::WeightGrad &&
          (o.phase == Phase::Forward || o.recompute))
        cols.push_back(v);
    }
    for (Vertex v : cols) {
      const GraphOp o = t.g[v];
      // The gather reads the sequence-split activation the matmul would have read.
      t.insert_before_reading(v, collective("tp_ag_" + o.name, OpRole::TpGather, models::CollectiveOp::AllGather,
                                            GroupKind::Tp, o.tokens * o.k * elem_bytes, o.layer, o.phase));
    }
  }
}

void expert_parallel_pass(TrainingGraph& t, int ep) {
  for (Vertex v : t.order) {
    GraphOp& o = t.g[v];
    if (o.kind == OpKind::Matmul && o.experts > 1) {
      // Each rank holds experts/ep experts and receives the tokens routed to them from its
      // ep group: per local expert, ep x (its own routed tokens).
      o.params /= ep;
      o.experts = std::max(1, o.experts / ep);
      if (o.role != OpRole::WeightGrad)
        o.tokens *= ep;
      else
        o.k *= ep;
    }
  }
}

void fsdp_pass(TrainingGraph& t, int tp, int fsdp, int ep, double elem_bytes) {
  if (fsdp <= 1) return;
  for (Vertex v : t.order)
    if (t.g[v].kind == OpKind::Optimizer) t.g[v].width /= fsdp;
  // Parameters per layer (already divided by tp and ep).
  std::map<int, double> layer_params;
  std::map<int, Vertex> first_fwd, first_bwd, last_bwd;
  for (Vertex v : t.order) {
    const GraphOp& o = t.g[v];
    if (o.kind == OpKind::Optimizer) continue;
    layer_params[o.layer] += o.params;
    if (o.phase == Phase::Forward && !first_fwd.count(o.layer)) first_fwd[o.layer] = v;
    if (o.phase == Phase::Backward && !first_bwd.count(o.layer)) first_bwd[o.layer] = v;
    if (o.phase == Phase::Backward) last_bwd[o.layer] = v;
  }
  for (const auto& [layer, params] : layer_params) {
    if (params <= 0) continue;
    const double bytes = params * elem_bytes;  // gathered weights of this rank's TP shard
    if (first_fwd.count(layer)) {
      Vertex c = t.insert_before(first_fwd[layer],
                                 collective("fsdp_ag_fwd", OpRole::FsdpGather, models::CollectiveOp::AllGather,
                                            GroupKind::Fsdp, bytes, layer, Phase::Forward));
      t.g[c].prefetchable = true;
    }
    if (first_bwd.count(layer)) {
      Vertex c = t.insert_before(first_bwd[layer],
                                 collective("fsdp_ag_bwd", OpRole::FsdpGather, models::CollectiveOp::AllGather,
                                            GroupKind::Fsdp, bytes, layer, Phase::Backward));
      t.g[c].prefetchable = true;
    }
    if (last_bwd.count(layer)) {
      Vertex c = t.insert_branch(
          last_bwd[layer], collective("fsdp_rs_grad", OpRole::FsdpGradScatter, models::CollectiveOp::ReduceScatter,
                                      GroupKind::Fsdp, bytes, layer, Phase::Backward));
      t.g[c].once_per_step = true;
    }
  }
  (void)tp;
  (void)ep;
}

void data_parallel_pass(TrainingGraph& t, int tp, int fsdp, int dp, int zero, int ep, double elem_bytes,
                        bool after_backward) {
  if (dp <= 1) return;
  std::map<int, double> layer_params;
  std::map<int, Vertex> last_bwd;
  for (Vertex v : t.order) {
    const GraphOp& o = t.g[v];
    // With FSDP the DP reduction takes the reduce-scatter's output: it follows that op.
    if (o.role == OpRole::FsdpGradScatter) last_bwd[o.layer] = v;
    if (o.kind == OpKind::Optimizer || o.kind == OpKind::Collective) continue;
    layer_params[o.layer] += o.params;
    if (o.phase == Phase::Backward &&
        !(fsdp > 1 && last_bwd.count(o.layer) && t.g[last_bwd[o.layer]].kind == OpKind::Collective))
      last_bwd[o.layer] = v;
  }
  std::vector<Vertex> grads;
  for (const auto& [layer, params] : layer_params) {
    if (params <= 0 || !last_bwd.count(layer)) continue;
    const double bytes = params / fsdp * elem_bytes;
    // ZeRO (any stage) reduce-scatters the gradients: each replica updates only its shard
    // (torch-xla / NxD ZeroRedundancyOptimizer.step); plain data parallelism all-reduces them.
    auto op = zero >= 1 ? models::CollectiveOp::ReduceScatter : models::CollectiveOp::AllReduce;
    Vertex c = t.insert_branch(last_bwd[layer],
                               collective("dp_grad", OpRole::DpGrad, op, GroupKind::Dp, bytes, layer, Phase::Backward));
    t.g[c].once_per_step = true;
    grads.push_back(c);
  }
  // The xla frontend's frameworks reduce the gradients in a graph of their own after the last
  // micro-batch's backward (NeMo's allreduce_gradients and Megatron-LM's local DDP between two
  // mark_steps, torch-xla's ZeRO-1 step): each reduction waits for the whole backward of the
  // stage, not only for its layer's (docs/model.md 11.2).
  if (after_backward)
    for (Vertex c : grads)
      for (const auto& [layer, u] : last_bwd)
        if (!boost::edge(u, c, t.g).second) t.depend(u, c);
  if (zero >= 1) {  // ZeRO: each replica updates 1/dp of the parameters; gather the rest
    for (Vertex v : t.order)
      if (t.g[v].kind == OpKind::Optimizer) t.g[v].width /= dp;
    double params = 0;
    for (const auto& [layer, p] : layer_params) params += p;
    Vertex opt = t.order.back();
    GraphOp ag = collective("dp_param_gather", OpRole::DpParamGather, models::CollectiveOp::AllGather, GroupKind::Dp,
                            params / fsdp * elem_bytes, -1, Phase::Update);
    ag.once_per_step = true;
    t.insert_after(opt, ag);
  }
  (void)tp;
  (void)ep;
}

void pipeline_pass(TrainingGraph& t, int stage, int stages, double hidden, int tp, bool sp, double elem_bytes) {
  if (stages <= 1) return;
  // With sequence parallelism each TP rank holds 1/tp of the boundary activation and sends
  // only that (NxD, Megatron-LM); without it every TP rank sends the whole activation.
  const double bytes = t.micro_tokens * hidden * elem_bytes / (sp ? std::max(1, tp) : 1);
  Vertex first_fwd = t.order.front(), last_fwd = t.order.front(), first_bwd = t.order.front(),
         last_bwd = t.order.front();
  bool have_bwd = false;
  for (Vertex v : t.order) {
    const GraphOp& o = t.g[v];
    // The gradient send follows the stage's last backward compute of every micro-batch, not a
    // once-per-step gradient reduction (which only the last micro-batch has).
    if (o.once_per_step || o.kind == OpKind::Collective) continue;
    if (o.phase == Phase::Forward) last_fwd = v;
    if (o.phase == Phase::Backward) {
      if (!have_bwd) first_bwd = v;
      have_bwd = true;
      last_bwd = v;
    }
  }
  if (stage > 0) {
    t.insert_before(first_fwd, pipe("pp_recv_act", OpRole::PipeRecvAct, bytes, Phase::Forward));
    t.insert_after(last_bwd, pipe("pp_send_grad", OpRole::PipeSendGrad, bytes, Phase::Backward));
  }
  if (stage < stages - 1) {
    t.insert_after(last_fwd, pipe("pp_send_act", OpRole::PipeSendAct, bytes, Phase::Forward));
    t.insert_before(first_bwd, pipe("pp_recv_grad", OpRole::PipeRecvGrad, bytes, Phase::Backward));
  }
}

void apply_parallel_passes(TrainingGraph& g, const ScenarioSpec& s, int stage) {
  const auto& p = s.parallel;
  const double eb = s.precision.element_bytes();        // activations, weights and gradients: 2 B, or 4 B for fp32
  if (s.model.is_moe()) expert_parallel_pass(g, p.ep);  // first: TP reductions then see the local experts
  // The frameworks of the xla frontend (NxD, NeMo-Megatron) re-gather in the backward; TorchNeuron's
  // DTensor autograd saves the gathered input (docs/model.md 11.1).
  tensor_parallel_pass(g, p.tp, p.sequence_parallel, eb, s.compile.frontend == Frontend::Xla);
  fsdp_pass(g, p.tp, p.fsdp, p.ep, eb);
  data_parallel_pass(g, p.tp, p.fsdp, p.dp, p.zero, p.ep, eb, s.compile.frontend == Frontend::Xla);
  pipeline_pass(g, stage, p.pp, s.model.hidden_size, p.tp, p.sequence_parallel, eb);
}

TrainingGraph stage_training_graph(const ScenarioSpec& s, int p) {
  const int per_stage = s.model.num_layers / s.parallel.pp;
  const double seqs_micro =
      double(s.batch.sequences()) / (double(s.parallel.dp) * s.parallel.fsdp * s.parallel.microbatches);
  TrainingGraph g = build_training_graph(s.model, p * per_stage, (p + 1) * per_stage, seqs_micro,
                                         double(s.batch.seq_len), s.checkpointing, s.precision.element_bytes());
  apply_parallel_passes(g, s, p);
  return g;
}

}  // namespace trn::workloads
