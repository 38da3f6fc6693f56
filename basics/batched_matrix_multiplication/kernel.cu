// batched_matrix_multiplication (LeetGPU basics): C[b] = A[b] * B[b] for b < BATCH, FP32,
// row-major, DEVICE pointers. A is BATCH x M x K, B is BATCH x K x N, C is BATCH x M x N; K is the
// inner (summed) dimension.
//
// The judge compares with torch.bmm (cuBLAS's strided batched SGEMM) at 1e-5 absolute and
// relative, below the rounding error of an FP32 sum of 256 products of U(-10, 10) values near
// zero, so each element must be summed in cuBLAS's order: the kit's SIMT SGEMM
// (common/primitives/gemm.h) forms it as one thread's FMA chain over ascending k, one launch for
// every batch (blockIdx.z), with the tile gemm_tuning.h picks for the batch's size (the 64 x 64
// tile at the judge's 32 x 256 x 256 x 256: 512 blocks).
#include "gpu/device.h"
#include "gpu/vendor.h"
#include "primitives/gemm.h"
#include "primitives/gemm_tuning.h"

#include <cstddef>

// A is BATCH x M x K, B is BATCH x K x N, C is BATCH x M x N; all device pointers, row-major.
extern "C" void solve(const float *A, const float *B, float *C, int BATCH, int M, int N, int K) {
  static const int multiprocessors = kit::gpu::device_multiprocessors();
  kit::gemm::Operands ops;
  ops.a = A;
  ops.lda = static_cast<std::size_t>(K);
  ops.a_batch_stride = static_cast<std::size_t>(M) * K;
  ops.b = B;
  ops.ldb = static_cast<std::size_t>(N);
  ops.b_batch_stride = static_cast<std::size_t>(K) * N;
  ops.rows = M;
  ops.cols = N;
  ops.depth = K;
  ops.batches = BATCH;
  const kit::gemm::Store store{C, static_cast<std::size_t>(N), static_cast<std::size_t>(M) * N};
  kit::gemm::launch_auto<kit::gemm::BLayout::DepthByCols>(ops, store, multiprocessors, nullptr);
}
