// The training step as a graph (Boost.Graph): one micro-batch's forward and backward
// through a range of layers, plus the once-per-step gradient reduction and AdamW update.
// Built with logical (unsharded, one data-parallel replica's micro-batch) shapes by
// build_training_graph(); the parallelism passes (workloads/parallel) then shard shapes and
// insert collectives; lowering (workloads/lowering) turns it into per-rank programs.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <string>
#include <vector>

#include "models/collectives/collective_plan.h"
#include "models/ir/program.h"
#include "workloads/model/model_spec.h"
#include "workloads/scenario/job_modes.h"

namespace trn::workloads {

enum class OpKind { Matmul, Elementwise, Attention, Embedding, Loss, Optimizer, Collective };
enum class Phase { Forward, Backward, Update };
/// How TP splits a matmul [M x K] x [K x N]: Column = N / tp, Row = K / tp (partial sums
/// that need a TP reduction), M = M / tp (weight gradients of row-split weights). For
/// elementwise ops Column means the width is split.
enum class Split { None, Column, Row, M };
enum class GroupKind { None, Tp, Fsdp, Dp, Pp, Ep };

const char* group_kind_name(GroupKind g);

/// What an op is for, set when the graph is built or a pass inserts the op. Passes and
/// lowering select ops by kind, phase and role, never by name (names are for traces and
/// reports only).
enum class OpRole {
  Compute,          // forward, input-gradient and elementwise work, the optimizer update
  WeightGrad,       // a matmul that computes a weight gradient (dW = X^T dY)
  Router,           // MoE: the router's matmul and its backward (kept in BF16 under FP8)
  ExpertExchange,   // MoE all-to-all: tokens to their experts and back
  TpReduce,         // TP reduction of a row-split matmul's partial sums
  TpGather,         // sequence parallel: all-gather before a column-split matmul
  FsdpGather,       // FSDP: a layer's weights gathered before its forward or backward
  FsdpGradScatter,  // FSDP: a layer's gradients reduce-scattered after its backward
  DpGrad,           // data parallel: gradient all-reduce or (ZeRO) reduce-scatter
  DpParamGather,    // ZeRO: the updated parameters gathered from the replicas
  PipeSendAct,      // pipeline: activations to the next stage
  PipeRecvAct,      // pipeline: activations from the previous stage
  PipeSendGrad,     // pipeline: input gradients to the previous stage
  PipeRecvGrad,     // pipeline: output gradients from the next stage
};
inline bool is_pipe_recv(OpRole r) { return r == OpRole::PipeRecvAct || r == OpRole::PipeRecvGrad; }

struct GraphOp {
  std::string name;    // traces and reports only
  std::string kernel;  // the kernel it runs: the name without the recompute_ prefix
  OpRole role = OpRole::Compute;
  OpKind kind = OpKind::Elementwise;
  Phase phase = Phase::Forward;
  int layer = -1;              // -1: embedding / head / optimizer
  bool once_per_step = false;  // gradient reduction and update: last micro-batch only
  bool recompute = false;      // forward work redone during the backward (checkpointing)
  // Matmul: [tokens x k] x [k x n] (x experts for expert ops, tokens = routed tokens per expert).
  double tokens = 0, n = 0, k = 0;
  int experts = 1;
  Split split = Split::None;
  // Elementwise: `width` elements per token, `inputs` tensors read, on `engine`; fusable into
  // a neighbouring op in compiled mode. Elements scale with tokens.
  double width = 0;
  int inputs = 1;
  models::Engine engine = models::Engine::Vector;
  bool fusable = true;
  // Attention: per sequence; `kv_len`: keys each query attends when not the sequence itself
  // (decoding against a KV cache; 0 otherwise).
  int heads = 0, kv_heads = 0, head_dim = 0;
  double seq = 0, sequences = 0, window = 0, kv_len = 0;
  bool causal = true;
  // Parameters owned by this op (for memory accounting and FSDP gathers).
  double params = 0;
  // The optimizer update: the parameter tensors it steps one by one (host tracing, 11.9).
  double tensors = 0;
  // Collective.
  models::CollectiveOp coll = models::CollectiveOp::AllReduce;
  GroupKind group = GroupKind::None;
  double coll_bytes = 0;
  bool prefetchable = false;  // compiled mode may issue it ahead of its consumers
};

/// An edge u -> v: v reads u's output (a data edge), or, with `sequence`, v only runs after u
/// when the two are in separately launched graphs (eager ops, TorchNeuron regions), not inside
/// one compiled graph, whose scheduler orders by data alone (the recomputed forward of a
/// checkpointed layer and the backward of the layer above; docs/model.md 11.4).
struct GraphEdge {
  bool sequence = false;
};

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, GraphOp, GraphEdge>;
using Vertex = Graph::vertex_descriptor;

struct TrainingGraph {
  Graph g;
  std::vector<Vertex> order;            // program order (a topological order)
  int first_layer = 0, last_layer = 0;  // [first, last) layers in this stage
  bool has_embedding = true, has_head = true;
  double micro_tokens = 0;  // tokens per micro-batch of one replica (before sharding)
  double stage_params = 0;  // parameters held by this stage (unsharded)

  Vertex add(GraphOp op, const std::vector<Vertex>& deps);
  /// Adds the edge u -> v (a data edge, or a sequence edge: see GraphEdge).
  void depend(Vertex u, Vertex v, bool sequence = false);
  /// Inserts `op` after `v`: v -> op, and op -> every former successor of v.
  Vertex insert_after(Vertex v, GraphOp op);
  /// Adds `op` as a side branch after `v` (v -> op) that nothing but the optimizer update
  /// waits for: gradient reductions run off the critical path of the backward.
  /// Inserts `op` after `v`, beside `w` (a successor of v): op depends on v, and w's successors
  /// depend on op as well as on w. Program order: right after v.
  Vertex insert_beside(Vertex v, Vertex w, GraphOp op);
  Vertex insert_branch(Vertex v, GraphOp op);
  /// Inserts `op` before `v`: op -> v (op has no other inputs). Placed before v in order.
  Vertex insert_before(Vertex v, GraphOp op);
  /// Inserts `op` before `v` as an op that reads v's inputs: op has v's in-edges, op -> v.
  Vertex insert_before_reading(Vertex v, GraphOp op);
  /// Inserts `op` as an op that reads v's inputs and that `w` waits for (op has v's in-edges,
  /// op -> w; v does not wait for it unless w is v). Program order: right before v.
  Vertex insert_reading_for(Vertex v, Vertex w, GraphOp op);
};

/// Builds the graph of one pipeline stage (layers [first, last)) for one micro-batch of
/// `sequences` sequences of `seq_len` tokens, with activation checkpointing `ckpt` (the
/// backward recomputes attention or the whole forward). `element_bytes` is the size of an
/// activation element (PrecisionSpec::element_bytes: 2 for 16-bit models, 4 for fp32); it sets
/// the bytes of the MoE all-to-alls the builder places.
TrainingGraph build_training_graph(const ModelSpec& m, int first_layer, int last_layer, double sequences,
                                   double seq_len, Checkpointing ckpt, double element_bytes);

}  // namespace trn::workloads
