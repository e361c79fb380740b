// Training-graph construction: embedding, per-layer blocks, loss, backward, update.
#include "workloads/graph/training_graph.h"

#include <algorithm>

namespace trn::workloads {

const char* group_kind_name(GroupKind g) {
  switch (g) {
    case GroupKind::None: return "none";
    case GroupKind::Tp: return "tp";
    case GroupKind::Fsdp: return "fsdp";
    case GroupKind::Dp: return "dp";
    case GroupKind::Pp: return "pp";
    case GroupKind::Ep: return "ep";
  }
  return "?";
}

namespace {
// An op's kernel is its name unless the builder set it (recomputation).
GraphOp&& with_kernel(GraphOp&& op) {
  if (op.kernel.empty()) op.kernel = op.name;
  return std::move(op);
}
}  // namespace

Vertex TrainingGraph::add(GraphOp op, const std::vector<Vertex>& deps) {
  Vertex v = boost::add_vertex(with_kernel(std::move(op)), g);
  for (Vertex d : deps) boost::add_edge(d, v, g);
  order.push_back(v);
  return v;
}

void TrainingGraph::depend(Vertex u, Vertex v, bool sequence) { boost::add_edge(u, v, GraphEdge{sequence}, g); }

Vertex TrainingGraph::insert_after(Vertex v, GraphOp op) {
  std::vector<std::pair<Vertex, GraphEdge>> succ;
  for (auto e : boost::make_iterator_range(boost::out_edges(v, g))) succ.push_back({boost::target(e, g), g[e]});
  boost::clear_out_edges(v, g);
  Vertex c = boost::add_vertex(with_kernel(std::move(op)), g);
  boost::add_edge(v, c, g);
  for (const auto& [s, e] : succ) boost::add_edge(c, s, e, g);
  order.insert(std::find(order.begin(), order.end(), v) + 1, c);
  return c;
}

Vertex TrainingGraph::insert_branch(Vertex v, GraphOp op) {
  Vertex c = boost::add_vertex(with_kernel(std::move(op)), g);
  boost::add_edge(v, c, g);
  for (Vertex u : order)
    if (g[u].kind == OpKind::Optimizer) boost::add_edge(c, u, g);
  order.insert(std::find(order.begin(), order.end(), v) + 1, c);
  return c;
}

Vertex TrainingGraph::insert_beside(Vertex v, Vertex w, GraphOp op) {
  std::vector<std::pair<Vertex, GraphEdge>> succ;
  for (auto e : boost::make_iterator_range(boost::out_edges(w, g))) succ.push_back({boost::target(e, g), g[e]});
  Vertex c = boost::add_vertex(with_kernel(std::move(op)), g);
  boost::add_edge(v, c, g);
  for (const auto& [s, e] : succ) boost::add_edge(c, s, e, g);
  order.insert(std::find(order.begin(), order.end(), v) + 1, c);
  return c;
}

Vertex TrainingGraph::insert_before(Vertex v, GraphOp op) {
  Vertex c = boost::add_vertex(with_kernel(std::move(op)), g);
  boost::add_edge(c, v, g);
  order.insert(std::find(order.begin(), order.end(), v), c);
  return c;
}

Vertex TrainingGraph::insert_before_reading(Vertex v, GraphOp op) { return insert_reading_for(v, v, std::move(op)); }

Vertex TrainingGraph::insert_reading_for(Vertex v, Vertex w, GraphOp op) {
  std::vector<std::pair<Vertex, GraphEdge>> pred;
  for (auto e : boost::make_iterator_range(boost::in_edges(v, g))) pred.push_back({boost::source(e, g), g[e]});
  Vertex c = boost::add_vertex(with_kernel(std::move(op)), g);
  order.insert(std::find(order.begin(), order.end(), v), c);
  for (const auto& [u, e] : pred) boost::add_edge(u, c, e, g);
  boost::add_edge(c, w, g);
  return c;
}

namespace {

struct Builder {
  TrainingGraph& t;
  const ModelSpec& m;
  double tokens, seq, seqs;
  double elem_bytes;  // bytes per activation element (PrecisionSpec::element_bytes)
  Vertex last{};
  bool have_last = false;
  Vertex bwd_first{};  // the first op of the last block backward built (not its recomputation)
  bool have_bwd_first = false;

  Vertex chain(GraphOp op) {
    std::vector<Vertex> deps;
    if (have_last) deps.push_back(last);
    last = t.add(std::move(op), deps);
    have_last = true;
    return last;
  }
  GraphOp mm(const std::string& name, Phase ph, int layer, double n, double k, Split s, double params, int experts = 1,
             double tok = -1) {
    GraphOp o;
    o.name = name;
    o.kind = OpKind::Matmul;
    o.phase = ph;
    o.layer = layer;
    o.tokens = tok < 0 ? tokens : tok;
    o.n = n;
    o.k = k;
    o.split = s;
    o.params = params;
    o.experts = experts;
    return o;
  }
  // The weight-gradient matmul of a layer's weight.
  GraphOp wgrad(const std::string& name, int layer, double n, double k, Split s, int experts = 1, double tok = -1) {
    GraphOp o = mm(name, Phase::Backward, layer, n, k, s, 0, experts, tok);
    o.role = OpRole::WeightGrad;
    return o;
  }
  GraphOp ew(const std::string& name, Phase ph, int layer, double width, int inputs, models::Engine e,
             Split s = Split::None) {
    GraphOp o;
    o.name = name;
    o.kind = OpKind::Elementwise;
    o.phase = ph;
    o.layer = layer;
    o.tokens = tokens;
    o.width = width;
    o.inputs = inputs;
    o.engine = e;
    o.split = s;
    return o;
  }
  GraphOp attn(Phase ph, int layer) {
    GraphOp o;
    o.name = ph == Phase::Forward ? "attention" : "attention_bwd";
    o.kind = OpKind::Attention;
    o.phase = ph;
    o.layer = layer;
    o.tokens = tokens;
    o.heads = m.num_heads;
    o.kv_heads = m.num_kv_heads;
    o.head_dim = m.head_dim;
    o.seq = seq;
    o.sequences = seqs;
    o.causal = m.causal;
    o.window = m.is_sliding_layer(layer) ? m.sliding_window : 0;
    o.split = Split::Column;  // heads split by TP
    return o;
  }

  // Forward of one block; `recompute`: its recomputation in the backward (no parameters of
  // its own; mark_recompute names and marks the ops).
  void block_forward(int l, bool recompute) {
    const double h = m.hidden_size, q = double(m.num_heads) * m.head_dim, kv = double(m.num_kv_heads) * m.head_dim;
    const double qkv_params = h * (q + 2 * kv);
    chain(ew("norm1", Phase::Forward, l, h, 1, models::Engine::Vector));
    chain(mm("qkv", Phase::Forward, l, q + 2 * kv, h, Split::Column, recompute ? 0 : qkv_params));
    if (m.qk_norm) chain(ew("qk_norm", Phase::Forward, l, q + kv, 1, models::Engine::Vector, Split::Column));
    if (m.uses_rope()) chain(ew("rope", Phase::Forward, l, q + kv, 2, models::Engine::Vector, Split::Column));
    chain(attn(Phase::Forward, l));
    chain(mm("o_proj", Phase::Forward, l, h, q, Split::Row, recompute ? 0 : q * h));
    chain(ew("residual1", Phase::Forward, l, h, 2, models::Engine::Vector));
    chain(ew("norm2", Phase::Forward, l, h, 1, models::Engine::Vector));
    mlp_forward(l, recompute);
    chain(ew("residual2", Phase::Forward, l, h, 2, models::Engine::Vector));
  }

  void mlp_forward(int l, bool recompute) {
    const double h = m.hidden_size;
    const bool own = !recompute;
    if (m.is_moe()) {
      const double f = m.moe_intermediate_size, e = m.num_experts, topk = m.experts_per_token;
      GraphOp router = mm("router", Phase::Forward, l, e, h, Split::None, own ? h * e : 0);
      router.role = OpRole::Router;
      chain(router);
      GraphOp topk_op = ew("topk", Phase::Forward, l, e, 1, models::Engine::GpSimd);
      topk_op.fusable = false;
      chain(topk_op);
      GraphOp a2a;
      a2a.name = "ep_dispatch";
      a2a.role = OpRole::ExpertExchange;
      a2a.kind = OpKind::Collective;
      a2a.coll = models::CollectiveOp::AllToAll;
      a2a.group = GroupKind::Ep;
      a2a.layer = l;
      a2a.coll_bytes = tokens * topk * h * elem_bytes;  // the activations, each token to top-k experts
      a2a.width = h;
      chain(a2a);
      const double routed = tokens * topk / e;  // tokens per expert (balanced routing)
      const int up_mats = m.mlp == MlpKind::SwiGLU ? 2 : 1;
      chain(mm("experts_up", Phase::Forward, l, up_mats * f, h, Split::Column, own ? e * up_mats * f * h : 0,
               static_cast<int>(e), routed));
      chain(ew("experts_act", Phase::Forward, l, f * topk, up_mats, models::Engine::Scalar, Split::Column));
      chain(mm("experts_down", Phase::Forward, l, h, f, Split::Row, own ? e * f * h : 0, static_cast<int>(e), routed));
      a2a.name = "ep_combine";
      chain(a2a);
      return;
    }
    const double f = m.intermediate_size;
    const int up_mats = m.mlp == MlpKind::SwiGLU ? 2 : 1;
    chain(mm("mlp_up", Phase::Forward, l, up_mats * f, h, Split::Column, own ? up_mats * f * h : 0));
    chain(ew("mlp_act", Phase::Forward, l, f, up_mats, models::Engine::Scalar, Split::Column));
    chain(mm("mlp_down", Phase::Forward, l, h, f, Split::Row, own ? f * h : 0));
  }

  // Backward of one block: each matmul -> dgrad + wgrad; elementwise ops -> their backward.
  // Marks the ops added since `first` as recomputation in the backward (named recompute_X;
  // their kernel stays X's).
  void mark_recompute(size_t first) {
    for (size_t i = first; i < t.order.size(); ++i) {
      GraphOp& o = t.g[t.order[i]];
      o.phase = Phase::Backward;
      o.recompute = true;
      o.name = "recompute_" + o.name;
    }
  }

  // Full checkpointing: the recomputed forward of layer l reads only the layer's saved input,
  // so in one compiled graph it may run beside the backward of layer l + 1. Its first op
  // depends on that backward's first op (recomputation one layer ahead, which bounds the
  // live activations to two layers) and, by a sequence edge, on that backward's last op (the
  // order of separately launched graphs). The backward of layer l reads the recomputed
  // activations and the output gradient: both are data edges. `mlp_only` (selective_mlp)
  // recomputes the MLP block alone, from its saved input (the second norm's output), the same
  // way: NxD's checkpoint wrapper re-runs the whole module, so its matmuls and collectives.
  void recompute_block(int l, bool mlp_only) {
    const Vertex grad = last;  // produces this layer's output gradient
    const bool ahead = have_bwd_first;
    if (ahead) last = bwd_first;
    size_t first = t.order.size();
    if (mlp_only)
      mlp_forward(l, true);
    else
      block_forward(l, true);
    mark_recompute(first);
    if (ahead) t.depend(grad, t.order[first], true);
    chain(ew("residual2_bwd", Phase::Backward, l, m.hidden_size, 1, models::Engine::Vector));
    if (ahead) t.depend(grad, last);
  }

  void block_backward(int l, Checkpointing ckpt) {
    const double h = m.hidden_size, q = double(m.num_heads) * m.head_dim, kv = double(m.num_kv_heads) * m.head_dim;
    if (ckpt == Checkpointing::Full || ckpt == Checkpointing::SelectiveMlp)
      recompute_block(l, ckpt == Checkpointing::SelectiveMlp);
    else
      chain(ew("residual2_bwd", Phase::Backward, l, h, 1, models::Engine::Vector));
    bwd_first = last;
    have_bwd_first = true;
    if (m.is_moe()) {
      const double f = m.moe_intermediate_size, e = m.num_experts, topk = m.experts_per_token;
      const double routed = tokens * topk / e;
      const int up_mats = m.mlp == MlpKind::SwiGLU ? 2 : 1;
      GraphOp a2a;
      a2a.role = OpRole::ExpertExchange;
      a2a.kind = OpKind::Collective;
      a2a.coll = models::CollectiveOp::AllToAll;
      a2a.group = GroupKind::Ep;
      a2a.layer = l;
      a2a.phase = Phase::Backward;
      a2a.coll_bytes = tokens * topk * h * elem_bytes;
      a2a.width = h;
      a2a.name = "ep_combine_bwd";
      chain(a2a);
      chain(mm("experts_down_dgrad", Phase::Backward, l, f, h, Split::Column, 0, static_cast<int>(e), routed));
      chain(wgrad("experts_down_wgrad", l, h, routed, Split::M, static_cast<int>(e), f));
      chain(ew("experts_act_bwd", Phase::Backward, l, f * topk, up_mats + 1, models::Engine::Vector, Split::Column));
      chain(mm("experts_up_dgrad", Phase::Backward, l, h, up_mats * f, Split::Row, 0, static_cast<int>(e), routed));
      chain(wgrad("experts_up_wgrad", l, up_mats * f, routed, Split::Column, static_cast<int>(e), h));
      a2a.name = "ep_dispatch_bwd";
      chain(a2a);
      GraphOp router = mm("router_bwd", Phase::Backward, l, h, e, Split::None, 0);
      router.role = OpRole::Router;
      chain(router);
    } else {
      const double f = m.intermediate_size;
      const int up_mats = m.mlp == MlpKind::SwiGLU ? 2 : 1;
      chain(mm("mlp_down_dgrad", Phase::Backward, l, f, h, Split::Column, 0));
      chain(wgrad("mlp_down_wgrad", l, h, tokens, Split::M, 1, f));
      chain(ew("mlp_act_bwd", Phase::Backward, l, f, up_mats + 1, models::Engine::Vector, Split::Column));
      chain(mm("mlp_up_dgrad", Phase::Backward, l, h, up_mats * f, Split::Row, 0));
      chain(wgrad("mlp_up_wgrad", l, up_mats * f, tokens, Split::Column, 1, h));
    }
    chain(ew("norm2_bwd", Phase::Backward, l, h, 2, models::Engine::Vector));
    chain(ew("residual1_bwd", Phase::Backward, l, h, 1, models::Engine::Vector));
    chain(mm("o_proj_dgrad", Phase::Backward, l, q, h, Split::Column, 0));
    chain(wgrad("o_proj_wgrad", l, h, tokens, Split::M, 1, q));
    if (recomputes_attention(ckpt)) {  // recompute attention (QK^T, softmax, PV)
      size_t first = t.order.size();
      chain(attn(Phase::Forward, l));
      mark_recompute(first);
    }
    chain(attn(Phase::Backward, l));
    if (m.uses_rope()) chain(ew("rope_bwd", Phase::Backward, l, q + kv, 2, models::Engine::Vector, Split::Column));
    if (m.qk_norm) chain(ew("qk_norm_bwd", Phase::Backward, l, q + kv, 2, models::Engine::Vector, Split::Column));
    chain(mm("qkv_dgrad", Phase::Backward, l, h, q + 2 * kv, Split::Row, 0));
    chain(wgrad("qkv_wgrad", l, q + 2 * kv, tokens, Split::Column, 1, h));
    chain(ew("norm1_bwd", Phase::Backward, l, h, 2, models::Engine::Vector));
  }
};

}  // namespace

TrainingGraph build_training_graph(const ModelSpec& m, int first_layer, int last_layer, double sequences,
                                   double seq_len, Checkpointing ckpt, double element_bytes) {
  TrainingGraph t;
  t.first_layer = first_layer;
  t.last_layer = last_layer;
  t.has_embedding = first_layer == 0;
  t.has_head = last_layer == m.num_layers;
  t.micro_tokens = sequences * seq_len;
  Builder b{t, m, sequences * seq_len, seq_len, sequences, element_bytes};
  const double h = m.hidden_size, v = m.vocab_size;
  if (t.has_embedding) {
    GraphOp e;
    e.name = "embedding";
    e.kind = OpKind::Embedding;
    e.tokens = b.tokens;
    e.width = h;
    e.params = m.embedding_parameters();
    e.fusable = false;
    b.chain(e);
  }
  for (int l = first_layer; l < last_layer; ++l) b.block_forward(l, false);
  if (t.has_head) {
    b.chain(b.ew("final_norm", Phase::Forward, -1, h, 1, models::Engine::Vector));
    b.chain(b.mm("lm_head", Phase::Forward, -1, v, h, Split::Column, m.tied_embeddings ? 0 : v * h));
    GraphOp loss = b.ew("cross_entropy", Phase::Forward, -1, v, 1, models::Engine::Scalar, Split::Column);
    loss.kind = OpKind::Loss;
    loss.fusable = false;
    b.chain(loss);
    b.chain(b.mm("lm_head_dgrad", Phase::Backward, -1, h, v, Split::Row, 0));
    b.chain(b.wgrad("lm_head_wgrad", -1, v, b.tokens, Split::Column, 1, h));
  }
  for (int l = last_layer - 1; l >= first_layer; --l) b.block_backward(l, ckpt);
  if (t.has_embedding) {
    GraphOp e = b.ew("embedding_bwd", Phase::Backward, -1, h, 1, models::Engine::GpSimd);
    e.fusable = false;
    b.chain(e);
  }
  double params = 0;
  for (Vertex x : t.order) params += t.g[x].params;
  t.stage_params = params;
  GraphOp opt;
  opt.name = "adamw";
  opt.kind = OpKind::Optimizer;
  opt.phase = Phase::Update;
  opt.once_per_step = true;
  opt.params = 0;
  opt.width = params;  // elements updated (sharded later)
  opt.tensors = m.parameter_tensors(first_layer, last_layer);
  opt.fusable = false;
  b.chain(opt);
  return t;
}

}  // namespace trn::workloads
