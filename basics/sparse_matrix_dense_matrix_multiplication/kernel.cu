// sparse_matrix_dense_matrix_multiplication (LeetGPU 75): C = A B in FP32, A an M x N row-major
// matrix stored densely with about 35% of its entries non-zero, B N x K, C M x K (DEVICE pointers;
// tolerance 1e-3 absolute and relative). N is the inner (summed) size.
//
// The dense SIMT product of primitives/gemm.h, with the tile gemm_tuning.h picks for the shape
// (the 64 x 64 tile at the judge's 4096 x 2048 x 512: 512 blocks). At 35% density the zeros are
// not worth skipping: a compacted form of A drives one load of B per FMA, and a tiled product
// that branches over the zero entries of its slices issued fewer FMAs but ran 1.4x slower than
// this one on the H200 (README.md). Every element of C is one thread's FMA chain over the inner
// index in order, as in matrix_multiplication.
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/vendor.h"
#include "primitives/gemm.h"
#include "primitives/gemm_tuning.h"

#include <cstddef>

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K, int nnz) {
  (void)nnz; // the product is dense: the count of non-zeros does not change it
  if (M <= 0 || K <= 0)
    return;
  kit::gemm::Operands ops;
  ops.a = A;
  ops.lda = static_cast<std::size_t>(N);
  ops.b = B;
  ops.ldb = static_cast<std::size_t>(K);
  ops.rows = M;
  ops.cols = K;
  ops.depth = N;
  const kit::gemm::Store store{C, static_cast<std::size_t>(K), 0};
  static const int multiprocessors = kit::gpu::device_multiprocessors();
  kit::gemm::launch_auto<kit::gemm::BLayout::DepthByCols>(ops, store, multiprocessors, nullptr);
}
