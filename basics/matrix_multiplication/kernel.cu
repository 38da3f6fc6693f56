// matrix_multiplication (LeetGPU basics): C = A * B in FP32, row-major, DEVICE pointers.
// A is M x N, B is N x K, C is M x K; N is the inner (summed) dimension.
//
// The judge compares with torch's FP32 product (cuBLAS's) at 1e-4 absolute and relative, below the
// rounding error of an FP32 sum over thousands of terms, so the product must be summed in
// cuBLAS's order, not merely to FP32 accuracy (an FP32-accurate 3xTF32 tensor-core product fails
// it: README.md). The kit's SIMT SGEMM (common/primitives/gemm.h) forms every output element as
// one thread's sequential FMA chain over the whole inner dimension, the order a plain dot product
// uses and cuBLAS's FP32 kernel uses at the judge's sizes: the results are bit for bit cuBLAS's
// there. The tile is the large one of gemm_tuning.h (256 x 128 outputs per block, 16 x 8 per
// thread), the fastest of the shapes swept at the judge's size (README.md, design notes).
//
// Any M, N, K >= 1 works: loads outside the matrices read as zero and stores outside C are
// skipped. 16-byte global loads and stores are used only when every row stride is a multiple of 4
// floats and every pointer is 16-byte aligned; otherwise the same kernel loads single floats.
#include "gpu/check.h"
#include "gpu/vendor.h"
#include "primitives/gemm.h"
#include "primitives/gemm_tuning.h"

#include <cstddef>

// A is M x N, B is N x K, C is M x K; all device pointers, row-major.
extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
  kit::gemm::Operands ops;
  ops.a = A;
  ops.lda = static_cast<std::size_t>(N);
  ops.b = B;
  ops.ldb = static_cast<std::size_t>(K);
  ops.rows = M;
  ops.cols = K;
  ops.depth = N;
  const kit::gemm::Store store{C, static_cast<std::size_t>(K), 0};
  kit::gemm::launch<kit::gemm::LargeTile, kit::gemm::BLayout::DepthByCols>(ops, store, nullptr);
  GPU_CHECK(cudaDeviceSynchronize());
}
