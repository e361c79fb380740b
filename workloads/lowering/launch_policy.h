// How the host starts a rank's device ops (docs/workloads.md 1.7): the launch policy, chosen
// once per rank from the scenario (make_launch_policy). The emission (lower_program.cpp) walks
// the segments and appends the device ops with their graph inputs; the policy decides the order
// in which a segment's ops are emitted and adds the host ops the device ops wait for:
//   eager dispatch  : every device op is dispatched from the host (runtime.eager_dispatch each)
//                     after the previous one has finished, in graph order;
//   regional launch : compiled (TorchNeuron regions): one host launch (runtime.compiled_launch)
//                     per region, a layer's forward or backward, chained on the host lane ahead
//                     of the device; FSDP gathers are prefetched and wait for no launch;
//   whole graph     : compiled with the xla frontend: a segment is one graph (the optimizer
//                     step one of its own), list-scheduled by the compiler (workloads/compile/
//                     list_schedule.h) and launched once, after the previous graph's compute;
//                     lazy tensors add the host's trace of every graph (runtime.lazy_trace).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "models/ir/program.h"
#include "workloads/compile/list_schedule.h"
#include "workloads/graph/training_graph.h"
#include "workloads/lowering/op_cost.h"
#include "workloads/parallel/layout.h"

namespace trn::workloads {

/// The ops of a rank's program as they are appended: ids number them in order, each segment's
/// go to the vector given by target(), and every host op waits for the previous host op (the
/// host lane is in order).
class OpSink {
 public:
  void target(std::vector<models::Op>* out) { out_ = out; }
  /// Appends `op`; returns its id.
  int32_t add(models::Op op);
  /// Appends a host op (a trace, launch or eager dispatch) after the previous host op and,
  /// when given, after op `also`; returns its id.
  int32_t host_op(const char* name, double duration_s, int32_t also = -1);
  /// Appends a host op of no duration that waits for `deps` (none: nothing is appended) and the
  /// previous host op; returns its id, or -1.
  int32_t host_wait(const char* name, std::vector<int32_t> deps);

 private:
  std::vector<models::Op>* out_ = nullptr;
  int32_t next_id_ = 0;
  int32_t last_host_ = -1;
};

/// Which ops an emission call appends: all of a segment's, only its host ops (compiled mode's
/// traces, waits and launches, which depend on host ops only), or only the others (after the
/// segment's host pass, whose launches it then takes in order).
enum class Pass { All, Host, Device };

/// The launch policy of one rank's program. The emission calls, per segment and pass:
/// begin_segment, then for each graph op in order() either host_pass_op (Pass::Host) or, for
/// each device op of the graph op (its casts, then itself), before_device_op and
/// after_device_op around appending it.
class LaunchPolicy {
 public:
  explicit LaunchPolicy(const TrainingGraph& t) : t_(t) {}
  virtual ~LaunchPolicy() = default;
  LaunchPolicy(const LaunchPolicy&) = delete;
  LaunchPolicy& operator=(const LaunchPolicy&) = delete;

  /// The order in which a segment of kind `k` emits its ops (computed once per kind).
  const std::vector<Vertex>& order(SegmentKind k);
  /// Whether graph edge `e` orders its two ops (a sequence edge orders separately launched
  /// graphs only, not two ops of one whole graph).
  virtual bool honours(const GraphEdge& e) const { return true; }
  /// Whether a segment's host ops can be handed out ahead of its device ops (compiled modes).
  virtual bool splits_host() const { return true; }
  /// Whether a segment's host ops wait for the previous segment's device ops, which must then
  /// be lowered first.
  virtual bool host_waits_for_device() const { return false; }
  /// Whether the segment's host ops lead it: its first op is a host op that waits only for the
  /// previous segment (eager: a dispatch).
  virtual bool host_leads() const { return false; }
  /// Whether the device ops of graph op `g` wait for a host op of their own segment (eager:
  /// their dispatch; compiled without `split`: their launch, unless `g` is prefetched).
  virtual bool waits_for_host(const GraphOp& g, bool split) const = 0;

  /// A segment of kind `k` starts (pass `pass`).
  virtual void begin_segment(OpSink& sink, SegmentKind k, Pass pass) {}
  /// Pass::Host: the host ops graph op `g` needs; each launch is appended to `launches`.
  virtual void host_pass_op(OpSink& sink, const GraphOp& g, std::vector<int32_t>& launches) {}
  /// Before device op `op` of graph op `g` is appended: adds to op.deps the host op it waits
  /// for, appending it if `pass` is Pass::All (Pass::Device: one of `launches`, in order).
  virtual void before_device_op(OpSink& sink, const GraphOp& g, models::Op& op, Pass pass,
                                const std::vector<int32_t>& launches) = 0;
  /// Device op `id` of graph op `g`, on `engine`, was appended.
  virtual void after_device_op(const GraphOp& g, models::Engine engine, int32_t id) {}

 protected:
  /// The emission order of a segment of kind `k` (see order()).
  virtual std::vector<Vertex> schedule(SegmentKind k) const = 0;
  const TrainingGraph& t_;

 private:
  std::array<std::optional<std::vector<Vertex>>, kSegmentKinds> orders_;
};

/// The launch policy of `rank`'s program: eager dispatch (mode eager), whole graphs (mode
/// compiled, frontend xla) or regional launch (mode compiled, frontend torchneuron).
std::unique_ptr<LaunchPolicy> make_launch_policy(const OpCostContext& cost, const Layout& layout, int rank,
                                                 const TrainingGraph& t);

}  // namespace trn::workloads
