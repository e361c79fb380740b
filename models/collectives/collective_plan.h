// Collective plans: an algorithm lowered into chunked point-to-point transfers with
// dependencies (a DAG), which the SystemC fabric then simulates; no closed-form collective
// formula decides the simulated time.
//
// Each algorithm is one file behind algorithm.h (docs/model.md section 8):
//   ring.cpp      : n-1 steps per phase, data split into segments and pipelined chunks.
//   kangaring.cpp : Trn2's large-message ring (S22), a 2-channel bidirectional ring.
//   mesh.cpp      : every rank exchanges directly with every peer (one step per phase).
//   rdh.cpp       : recursive halving and doubling, log2 n steps; S22's two stages on chips.
// hierarchical.cpp composes them across instances (intra RS -> inter AR -> intra AG);
// selection.h chooses by size band and SDK release; group_plan.h plans a group of system ranks.
// Message size semantics follow nccom-test: all-reduce S = buffer; all-gather S = output;
// reduce-scatter S = input; all-to-all S = send buffer per rank; send-recv: S from rank 0
// of the group to rank 1 (pipeline stages).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>
#include "models/collectives/algorithm_list.h"
#include "models/collectives/plan_symmetry.h"
#include "models/collectives/sdk_release.h"

namespace trn::models {

enum class CollectiveOp { AllReduce, AllGather, ReduceScatter, AllToAll, SendRecv };
/// The registered algorithms (algorithm_list.h), in registration order.
#define TRN_ALGORITHM_ENUMERATOR(enumerator, function) enumerator,
enum class Algorithm { TRN_COLLECTIVE_ALGORITHMS(TRN_ALGORITHM_ENUMERATOR) };
#undef TRN_ALGORITHM_ENUMERATOR

bool parse_collective_op(const std::string& s, CollectiveOp* out);
const char* collective_op_name(CollectiveOp op);
std::string collective_op_names();
/// By the registered name (algorithm.h: CollectiveAlgorithm::name).
bool parse_algorithm(const std::string& s, Algorithm* out);
const char* algorithm_name(Algorithm a);

/// nccom-test busbw factor: all-reduce 2(n-1)/n, others (n-1)/n.
double busbw_factor(CollectiveOp op, int ranks);

/// A transfer's dependencies: up to two stored inline (every ring, rdh and mesh transfer),
/// more (barriers) on the heap. Plans of large collectives have millions of transfers, so no
/// allocation per transfer.
class DepList {
 public:
  DepList() = default;
  DepList(std::initializer_list<int32_t> v) {
    for (int32_t d : v) push_back(d);
  }
  DepList(const std::vector<int32_t>& v) {  // NOLINT: implicit, like the vector it replaces
    for (int32_t d : v) push_back(d);
  }
  DepList(const DepList& o) {
    for (int32_t d : o) push_back(d);
  }
  DepList(DepList&& o) noexcept { take(o); }
  DepList& operator=(const DepList& o) {
    if (this != &o) {
      clear();
      for (int32_t d : o) push_back(d);
    }
    return *this;
  }
  DepList& operator=(DepList&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~DepList() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int32_t* begin() { return data(); }
  int32_t* end() { return data() + size_; }
  const int32_t* begin() const { return data(); }
  const int32_t* end() const { return data() + size_; }
  int32_t& operator[](size_t i) { return data()[i]; }
  int32_t operator[](size_t i) const { return data()[i]; }
  void clear() { size_ = 0; }
  void push_back(int32_t d) {
    if (size_ == cap_) grow();
    data()[size_++] = d;
  }
  /// Drops [first, end()) (as after std::unique).
  void erase(int32_t* first, int32_t* last) {
    if (last != end()) {
      int32_t* out = first;
      for (int32_t* p = last; p != end(); ++p) *out++ = *p;
      size_ = static_cast<uint32_t>(out - data());
    } else {
      size_ = static_cast<uint32_t>(first - data());
    }
  }

 private:
  static constexpr uint32_t kInline = 2;
  int32_t* data() { return cap_ > kInline ? u_.heap : u_.local; }
  const int32_t* data() const { return cap_ > kInline ? u_.heap : u_.local; }
  void grow() {
    const uint32_t cap = cap_ * 2;
    int32_t* p = new int32_t[cap];
    for (uint32_t i = 0; i < size_; ++i) p[i] = data()[i];
    release();
    u_.heap = p;
    cap_ = cap;
  }
  void release() {
    if (cap_ > kInline) delete[] u_.heap;
    cap_ = kInline;
  }
  void take(DepList& o) {
    size_ = o.size_;
    cap_ = o.cap_;
    if (o.cap_ > kInline) {
      u_.heap = o.u_.heap;
    } else {
      for (uint32_t i = 0; i < o.size_; ++i) u_.local[i] = o.u_.local[i];
    }
    o.size_ = 0;
    o.cap_ = kInline;
  }
  uint32_t size_ = 0, cap_ = kInline;
  union {
    int32_t local[kInline];
    int32_t* heap;
  } u_{};
};

struct Transfer {
  int32_t src = 0, dst = 0;  // group-local rank indices
  double bytes = 0;
  DepList deps;          // indices of transfers that must complete first
  bool reduce = false;   // read-add-write reduction done by the sending rank's DMA
                         // engines, at reduce_rate of their copy bandwidth
  bool barrier = false;  // zero-cost join node (src == dst), no data moves
  /// The transfer stands for `repeat` transfers of `bytes` over the same route, each issued when
  /// the one before has arrived (a chain of ring steps, PlanOptions::max_chain_segments): run as
  /// one flow of repeat x bytes after repeat x the route's latency and (repeat - 1) issues.
  uint32_t repeat = 1;
};

struct CollectivePlan {
  std::string algorithm;
  std::vector<Transfer> transfers;
  int steps = 0;  // sequential communication steps on the critical path
  /// Transfers (barrier nodes aside) of the whole plan: of `transfers` and, in a quotient
  /// (PlanOptions::quotient, hw::quotient_plan), of the transfers it stands for.
  uint64_t full_transfers = 0;
  /// Built as its quotient (PlanOptions::quotient): hw::quotient_plan would drop nothing more.
  bool quotient = false;
  /// Share of the source rank's collective DMA rate each transfer can use: 1, or for the
  /// legacy ring of an older runtime PlanOptions::legacy_ring_dma_share (docs/model.md 8.7).
  double dma_share = 1.0;
  double bytes_moved() const;
};

struct PlanOptions {
  int channels = 2;  // rings for ring/kangaring
  double max_chunk_bytes = 4.0 * 1024 * 1024;
  int max_chunks = 16;      // per segment
  int pipeline_pieces = 4;  // hierarchical: independent pieces so phases overlap
  double min_piece_bytes = 64.0 * 1024 * 1024;
  /// Where the plan's ranks sit, for RDH (S22): per plan-local rank, its chip and that chip's
  /// hypercube label (Topology::cube_label). With them, rdh runs as the runtime does: a stage
  /// inside each chip (reduce-scatter first, broadcast last) and recursive halving / doubling
  /// between chips whose labels differ in one bit, i.e. torus neighbours. Empty, or ranks whose
  /// chips are not a sub-cube with the same number of ranks each: the flat form over the plan
  /// order (partner p XOR d).
  std::vector<int> rank_chip, rank_cube;
  /// The Neuron SDK release whose runtime runs the plan (collectives.sdk; {} = current) and the
  /// share of the collective DMA rate its legacy ring reaches (collectives.legacy_ring_dma_share):
  /// plan_group_collective runs an all-reduce as that ring where legacy_allreduce() says so.
  SdkRelease sdk;
  double legacy_ring_dma_share = 1.0;
  /// Build the plan's quotient under this symmetry of its ranks (plan_symmetry.h) instead of the
  /// whole plan: the plan hw::quotient_plan would make of it, without the transfers it drops
  /// (quotient_sink.h). Not owned; nullptr: the whole plan.
  const PlanSymmetry* quotient = nullptr;
  /// A quotient's ring over symmetric instances, built by images (ring.cpp), keeps the
  /// 2 (n - 1) steps of its kept rank, a chain on one route. When its chunks are latency-bound
  /// (at most max_chain_chunk_bytes each) and it has more than max_chain_segments steps, a chain
  /// is simulated in at most that many transfers, each standing for consecutive steps
  /// (Transfer::repeat), so that a ring over thousands of instances does not cost a flow per
  /// instance (docs/workloads.md 1.6.1; checked against --exact by test/cli/chain_segments.sh).
  /// A bandwidth-bound chain is not merged: its steps' latencies overlap other chains' transfers,
  /// which one long flow would not. 0 bytes (the default): every step.
  int max_chain_segments = 64;
  double max_chain_chunk_bytes = 0;
};

/// Flat plans over ranks 0..n-1; `order` is the ring order (a permutation of 0..n-1).
CollectivePlan plan_flat(CollectiveOp op, Algorithm algo, double bytes, const std::vector<int>& order,
                         const PlanOptions& opt = {});

/// Hierarchical plan: `groups[g]` lists the ranks of instance g in ring order (all groups
/// equal size). Phases per op as described above; algorithms chosen per phase by size
/// (selection.h) unless `force` is set. Large messages are cut into up to `pipeline_pieces` pieces of at
/// least `min_piece_bytes`, each an independent hierarchical plan, so that one piece's
/// inter-instance phase overlaps the next piece's intra-instance phase (pipelining).
CollectivePlan plan_hierarchical(CollectiveOp op, double bytes, const std::vector<std::vector<int>>& groups,
                                 Algorithm large_algorithm, const PlanOptions& opt = {},
                                 const Algorithm* force_intra = nullptr);

}  // namespace trn::models
