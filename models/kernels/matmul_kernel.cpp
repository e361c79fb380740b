// Tiled matmul and HBM streaming kernels (see matmul_kernel.h).
#include "models/kernels/matmul_kernel.h"

#include <algorithm>
#include <cmath>

#include "models/cost/engine_cost.h"
#include "sim/base/shared_helpers.h"

namespace trn::models {
namespace {

using sim::ceil_div;
// SBUF bytes of one resident B block (k x nb) and the double-buffered A tile (2 x k x m_tile).
double working_set(const ChipSpec& chip, const MatmulShape& s, int64_t nb) {
  const double in_b = dtype_bytes(s.dtype);
  return static_cast<double>(s.k) * nb * in_b + 2.0 * s.k * chip.tensor.cols * in_b;
}
bool fits(const ChipSpec& chip, const MatmulShape& s, int64_t nb) {
  return working_set(chip, s, nb) <= 0.9 * chip.sbuf.total_bytes();
}
// Columns of B kept resident at once: PSUM half-banks wide, halved until the block fits.
int64_t block_columns(const ChipSpec& chip, const MatmulShape& s) {
  const int64_t nfree = chip.tensor.moving_free_max;
  const int64_t half = std::max(1, chip.psum.banks / 2);
  int64_t n_block = std::min<int64_t>(s.n, nfree * half);
  while (n_block > nfree && !fits(chip, s, n_block)) n_block = std::max<int64_t>(nfree, n_block / 2);
  return n_block;
}
}  // namespace

double matmul_sbuf_bytes(const ChipSpec& chip, const MatmulShape& s) {
  if (s.m <= 0 || s.n <= 0 || s.k <= 0) return 0;
  return working_set(chip, s, block_columns(chip, s));
}

namespace {

// The DMA queues of the tiled matmul: A tiles on one queue, B chunks alternating over two, C
// stores on a fourth, so that loads of the next tile overlap the store of the previous.
enum DmaQueue : int { kQueueA = 0, kQueueB = 1, kQueuesB = 2, kQueueC = 3 };

// Builds the tiled matmul's program: per block of B columns, per tile of A rows (a group),
// the A load, the tensor ops (split into k-chunks when the group is the first to use fresh B
// chunks), the PSUM evacuation and the C store.
struct MatmulLowering {
  const ChipSpec& chip;
  const MatmulShape& s;
  MatmulKernel& k;
  double in_b = 0, out_b = 0;
  int64_t m_tile = 0, n_block = 0, k_inst = 0, kt = 0, chunks = 0;
  std::vector<int32_t> evac_ids;  // per group, in order
  std::vector<int32_t> mm_last;   // last tensor op of each group
  std::vector<int32_t> b_chunks;  // the B chunks loaded last
  int64_t group = 0;

  MatmulLowering(const ChipSpec& c, const MatmulShape& shape, MatmulKernel& kernel) : chip(c), s(shape), k(kernel) {
    const auto& t = chip.tensor;
    k.cost = matmul_cost(t, chip.psum.banks, s, true);
    in_b = dtype_bytes(s.dtype);
    out_b = s.dtype == DType::FP32 ? 4.0 : 2.0;
    m_tile = t.cols;
    n_block = block_columns(chip, s);
    k.n_block = n_block;
    k.b_resident = fits(chip, s, n_block);
    k_inst = k.cost.k_per_instruction;
    kt = ceil_div(s.k, k_inst);
    chunks = std::min<int64_t>(kt, 8);
  }
  int64_t chunk_rows(int64_t c) const {
    return std::min(ceil_div(kt, chunks) * k_inst, s.k - c * ceil_div(kt, chunks) * k_inst);
  }
  std::vector<int32_t> after_last_group() const {
    return mm_last.empty() ? std::vector<int32_t>{} : std::vector<int32_t>{mm_last.back()};
  }

  void load_b(int64_t n_w, const std::vector<int32_t>& deps) {
    b_chunks.clear();
    for (int64_t c = 0; c < chunks; ++c) {
      int64_t k_rows = chunk_rows(c);
      if (k_rows <= 0) break;
      Op op;
      op.engine = Engine::Dma;
      op.queue = kQueueB + static_cast<int>(c % kQueuesB);
      op.bytes = static_cast<double>(k_rows) * n_w * in_b;
      op.deps = deps;
      op.name = "load_b";
      k.dma_bytes += op.bytes;
      b_chunks.push_back(k.program.add(op));
    }
  }

  // The tensor ops of one group after its A load `a_id`; returns the last.
  int32_t tensor_ops(int64_t m_w, int64_t n_w, bool split, int32_t a_id) {
    int64_t parts = split ? static_cast<int64_t>(b_chunks.size()) : 1;
    int32_t prev = -1;
    for (int64_t c = 0; c < parts; ++c) {
      int64_t k_rows = split ? chunk_rows(c) : s.k;
      Op mm;
      mm.engine = Engine::Tensor;
      mm.tensor_busy = true;
      MatmulShape sub{m_w, n_w, k_rows, s.dtype};
      MatmulCost mc = matmul_cost(chip.tensor, chip.psum.banks, sub, false);
      mm.duration_s = mc.time_s;
      mm.flops = mc.flops;
      mm.deps.push_back(a_id);
      if (split) mm.deps.push_back(b_chunks[static_cast<size_t>(c)]);
      if (prev >= 0) mm.deps.push_back(prev);
      if (group >= 2 && c == 0) mm.deps.push_back(evac_ids[static_cast<size_t>(group - 2)]);  // PSUM half free
      mm.name = "matmul";
      prev = k.program.add(mm);
    }
    return prev;
  }

  void row_group(int64_t mi, int64_t n_w) {
    Program& p = k.program;
    const int64_t m_w = std::min(m_tile, s.m - mi * m_tile);
    if (!k.b_resident) load_b(n_w, after_last_group());
    Op a;
    a.engine = Engine::Dma;
    a.queue = kQueueA;
    a.bytes = static_cast<double>(s.k) * m_w * in_b;
    a.name = "load_a";
    if (group >= 2) a.deps.push_back(mm_last[static_cast<size_t>(group - 2)]);  // A double buffer
    k.dma_bytes += a.bytes;
    int32_t a_id = p.add(a);
    int32_t prev = tensor_ops(m_w, n_w, (mi == 0) || !k.b_resident, a_id);
    mm_last.push_back(prev);
    Op ev;
    ev.engine = Engine::Vector;
    StreamOp so;
    so.elements = static_cast<double>(chip.psum.partitions) * n_w;  // free size n_w on all lanes
    ev.duration_s = stream_time(chip.vector, so);
    ev.deps.push_back(prev);
    ev.name = "psum_evacuate";
    int32_t ev_id = p.add(ev);
    evac_ids.push_back(ev_id);
    Op st;
    st.engine = Engine::Dma;
    st.queue = kQueueC;
    st.bytes = static_cast<double>(m_w) * n_w * out_b;
    st.deps.push_back(ev_id);
    st.name = "store_c";
    k.dma_bytes += st.bytes;
    p.add(st);
  }
};

}  // namespace

MatmulKernel lower_matmul(const ChipSpec& chip, const MatmulShape& s) {
  MatmulKernel k;
  MatmulLowering l(chip, s, k);
  const int64_t m_tiles = ceil_div(s.m, l.m_tile);
  const int64_t n_blocks = ceil_div(s.n, l.n_block);
  for (int64_t nb = 0; nb < n_blocks; ++nb) {
    const int64_t n_w = std::min(l.n_block, s.n - nb * l.n_block);
    if (k.b_resident) l.load_b(n_w, nb > 0 ? l.after_last_group() : std::vector<int32_t>{});
    for (int64_t mi = 0; mi < m_tiles; ++mi, ++l.group) l.row_group(mi, n_w);
  }
  return k;
}

Program lower_hbm_stream(const ChipSpec& chip, double bytes, int queues) {
  Program p;
  queues = std::max(1, queues);
  double chunk = std::min(bytes / (4.0 * queues), 4.0 * 1024 * 1024);
  chunk = std::max(chunk, std::min(bytes, 64.0 * 1024));
  int64_t n = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(bytes / chunk)));
  double left = bytes;
  for (int64_t i = 0; i < n; ++i) {
    Op op;
    op.engine = Engine::Dma;
    op.queue = static_cast<int>(i % queues);
    op.bytes = std::min(chunk, left);
    left -= op.bytes;
    op.name = "hbm_read";
    p.add(op);
  }
  return p;
}

}  // namespace trn::models
