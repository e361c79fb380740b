// SBUF working set of the tiled matmul kernel (the figure behind the trace's SBUF occupancy
// counter): the resident B block plus the double-buffered A tile that lower_matmul() sizes.
#include <catch2/catch.hpp>

#include "models/kernels/matmul_kernel.h"
#include "models/spec/system_spec.h"

using namespace trn::models;

TEST_CASE("matmul SBUF working set is the kernel's B block plus two A tiles", "[kernels][sbuf]") {
  ChipSpec c = load_chip("trn2", {});
  const double sbuf = c.sbuf.total_bytes();
  for (MatmulShape s : {MatmulShape{4096, 4096, 4096, DType::BF16}, MatmulShape{512, 8192, 5120, DType::BF16},
                        MatmulShape{128, 300, 64, DType::BF16}, MatmulShape{4096, 4096, 4096, DType::FP32}}) {
    MatmulKernel k = lower_matmul(c, s);
    const double in_b = dtype_bytes(s.dtype);
    const double expect = double(s.k) * k.n_block * in_b + 2.0 * s.k * c.tensor.cols * in_b;
    CHECK(matmul_sbuf_bytes(c, s) == expect);
    CHECK(k.b_resident);
    CHECK(matmul_sbuf_bytes(c, s) <= 0.9 * sbuf);
  }
  // A contraction so long that even the narrowest B block does not fit: B is not resident
  // and the working set exceeds the SBUF (the trace counter caps it).
  MatmulShape huge{4096, 4096, 1 << 20, DType::BF16};
  CHECK_FALSE(lower_matmul(c, huge).b_resident);
  CHECK(matmul_sbuf_bytes(c, huge) > sbuf);
  CHECK(matmul_sbuf_bytes(c, MatmulShape{0, 4096, 4096, DType::BF16}) == 0);
}
