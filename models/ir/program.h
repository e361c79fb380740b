// The op IR: per-NeuronCore programs of timed operations with dependencies. This is the
// contract between whatever produces work (kernels, the workload frontend) and the
// hardware models, as Chakra traces are for ASTRA-sim.
//
// Compute ops carry their duration (from models/cost); DMA ops carry bytes and the
// hardware decides how long they take under contention. An op starts when all its
// dependencies have finished and its engine (or DMA queue) is free; engines are in-order.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "models/collectives/collective_plan.h"

namespace trn::models {

enum class Engine : uint8_t { Tensor, Vector, Scalar, GpSimd, Dma, Collective, Host };
constexpr int kComputeEngines = 4;
const char* engine_name(Engine e);

struct Op {
  Engine engine = Engine::Tensor;
  int queue = 0;             // Engine::Dma: DMA queue; Engine::Collective: collective stream
                             // (the producer names them: models/kernels, workloads/lowering)
  double duration_s = 0;     // compute ops: time on the engine
  double bytes = 0;          // DMA ops: bytes moved; compute ops: HBM bytes streamed
                             // alongside (the op ends when both compute and bytes are done);
                             // collective ops: message size (nccom-test semantics)
  double flops = 0;          // for reporting
  double sbuf_bytes = 0;     // SBUF working set while the op runs (whole bytes; traces only)
  bool tensor_busy = false;  // tensor op subject to the dI/dt throttle after idle
  int32_t group = -1;        // collective ops: index into Program::groups
  CollectiveOp coll = CollectiveOp::AllReduce;
  std::vector<int32_t> deps;  // indices of ops in the same program
  std::string name;
};

struct Program {
  std::vector<Op> ops;
  std::vector<std::vector<int>> groups;  // collective groups: global ranks, same order on every member
  /// Per group (same index as `groups`): the groups of identical ranks that are not simulated
  /// and run the same collective at the same moment (the symmetry reduction, docs/workloads.md
  /// 1.6). The runner starts them with the group's collective so that their traffic loads the
  /// fabric; nothing waits for them. Empty when every rank is simulated.
  std::vector<std::vector<std::vector<int>>> siblings;
  int32_t add(Op op) {
    ops.push_back(std::move(op));
    return static_cast<int32_t>(ops.size()) - 1;
  }
  /// Throws std::logic_error when a dependency points forward or out of range (cycles
  /// are impossible when every dependency points backward).
  void check() const;
};

/// The queues a segment of a streamed program uses: per (engine, queue), in order of first
/// use, whether that first op is a root: it depends on no op of its own segment, so it can be
/// ready before any op of the segment has run (see NeuronCore::load(ProgramSource)).
struct SegmentLanes {
  std::vector<std::tuple<Engine, int, bool>> first;
};

/// A program lowered on demand, one segment (e.g. one micro-batch's forward or backward) at a
/// time. Op ids (Op::deps) number the ops in the order they are handed out. With split_host(),
/// the host ops of a segment (which depend on host ops only) are handed out separately, ahead
/// of its other ops (lower_host_next); lower_next hands out a segment's host ops first if they
/// were not yet handed out.
class ProgramSource {
 public:
  virtual ~ProgramSource() = default;
  virtual size_t segments() const = 0;
  /// The queues of segment `seg`'s ops (without the host ops when split_host()).
  virtual const SegmentLanes& lanes(size_t seg) const = 0;
  virtual bool split_host() const = 0;
  virtual size_t lowered() const = 0;       // segments handed out
  virtual size_t host_lowered() const = 0;  // segments whose host ops were handed out
  virtual void lower_next(std::vector<Op>& out) = 0;
  virtual void lower_host_next(std::vector<Op>& out) = 0;
  /// Groups and siblings of the ops handed out so far (Program::ops empty).
  virtual const Program& meta() const = 0;
};

}  // namespace trn::models
