// Tiled matmul and HBM streaming kernels (see matmul_kernel.h).
#include "models/kernels/matmul_kernel.h"

#include <algorithm>
#include <cmath>

#include "models/cost/engine_cost.h"

namespace trn::models {
namespace {
int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

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

MatmulKernel lower_matmul(const ChipSpec& chip, const MatmulShape& s) {
  MatmulKernel k;
  const auto& t = chip.tensor;
  k.cost = matmul_cost(t, chip.psum.banks, s, true);
  const double in_b = dtype_bytes(s.dtype);
  const double out_b = s.dtype == DType::FP32 ? 4.0 : 2.0;
  const int64_t m_tile = t.cols;

  const int64_t n_block = block_columns(chip, s);
  k.n_block = n_block;
  k.b_resident = fits(chip, s, n_block);

  const int64_t k_inst = k.cost.k_per_instruction;
  const int64_t kt = ceil_div(s.k, k_inst);
  const int64_t chunks = std::min<int64_t>(kt, 8);
  const int64_t m_tiles = ceil_div(s.m, m_tile);
  const int64_t n_blocks = ceil_div(s.n, n_block);
  Program& p = k.program;
  std::vector<int32_t> evac_ids;  // per group, in order
  std::vector<int32_t> mm_last;   // last tensor op of each group
  int64_t group = 0;

  for (int64_t nb = 0; nb < n_blocks; ++nb) {
    const int64_t n_w = std::min(n_block, s.n - nb * n_block);
    std::vector<int32_t> b_chunks;
    auto load_b = [&](std::vector<int32_t> deps) {
      b_chunks.clear();
      for (int64_t c = 0; c < chunks; ++c) {
        int64_t k_rows = std::min(ceil_div(kt, chunks) * k_inst, s.k - c * ceil_div(kt, chunks) * k_inst);
        if (k_rows <= 0) break;
        Op op;
        op.engine = Engine::Dma;
        op.queue = 1 + static_cast<int>(c % 2);
        op.bytes = static_cast<double>(k_rows) * n_w * in_b;
        op.deps = deps;
        op.name = "load_b";
        k.dma_bytes += op.bytes;
        b_chunks.push_back(p.add(op));
      }
    };
    if (k.b_resident) load_b(nb > 0 && !mm_last.empty() ? std::vector<int32_t>{mm_last.back()} : std::vector<int32_t>{});
    for (int64_t mi = 0; mi < m_tiles; ++mi, ++group) {
      const int64_t m_w = std::min(m_tile, s.m - mi * m_tile);
      if (!k.b_resident) load_b(mm_last.empty() ? std::vector<int32_t>{} : std::vector<int32_t>{mm_last.back()});
      Op a;
      a.engine = Engine::Dma;
      a.queue = 0;
      a.bytes = static_cast<double>(s.k) * m_w * in_b;
      a.name = "load_a";
      if (group >= 2) a.deps.push_back(mm_last[static_cast<size_t>(group - 2)]);  // A double buffer
      k.dma_bytes += a.bytes;
      int32_t a_id = p.add(a);
      // Tensor ops: split into k-chunks when this group is the first to use fresh B chunks.
      bool split = (mi == 0) || !k.b_resident;
      int64_t parts = split ? static_cast<int64_t>(b_chunks.size()) : 1;
      int32_t prev = -1;
      for (int64_t c = 0; c < parts; ++c) {
        int64_t k_rows = split ? std::min(ceil_div(kt, chunks) * k_inst, s.k - c * ceil_div(kt, chunks) * k_inst) : s.k;
        Op mm;
        mm.engine = Engine::Tensor;
        mm.tensor_busy = true;
        MatmulShape sub{m_w, n_w, k_rows, s.dtype};
        MatmulCost mc = matmul_cost(t, chip.psum.banks, sub, false);
        mm.duration_s = mc.time_s;
        mm.flops = mc.flops;
        mm.deps.push_back(a_id);
        if (split) mm.deps.push_back(b_chunks[static_cast<size_t>(c)]);
        if (prev >= 0) mm.deps.push_back(prev);
        if (group >= 2 && c == 0) mm.deps.push_back(evac_ids[static_cast<size_t>(group - 2)]);  // PSUM half free
        mm.name = "matmul";
        prev = p.add(mm);
      }
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
      st.queue = 3;
      st.bytes = static_cast<double>(m_w) * n_w * out_b;
      st.deps.push_back(ev_id);
      st.name = "store_c";
      k.dma_bytes += st.bytes;
      p.add(st);
    }
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
