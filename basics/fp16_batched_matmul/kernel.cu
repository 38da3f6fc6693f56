// fp16_batched_matmul (LeetGPU basics): C[b] = A[b] B[b] for b < BATCH, row-major fp16, DEVICE
// pointers. A is BATCH x M x K, B is BATCH x K x N, C is BATCH x M x N; K is the inner dimension.
//
// The kit's matrix-core GEMM (common/primitives/mma_gemm.h): fp16 products summed in fp32 on the
// tensor cores (mma.sync on NVIDIA, MFMA on gfx908), every batch in one launch (blockIdx.z), the
// tile mma_gemm_tuning.h picks for the size (128 x 64 blocks at the judge's 32 x 256 x 256 x 256:
// 256 blocks). Each sum is rounded once to fp16 (round to nearest even), as the judge rounds its
// float32 result.
#include "gpu/device.h"
#include "gpu/half.h"
#include "gpu/vendor.h"
#include "primitives/mma_gemm.h"
#include "primitives/mma_gemm_tuning.h"

#include <cstddef>
#include <cstdint>

namespace {

struct StoreHalf {
  std::uint16_t *c;
  std::size_t ldc;
  std::size_t batch_stride;
  __device__ void operator()(int batch, int row, int col, float sum) const {
    c[static_cast<std::size_t>(batch) * batch_stride + static_cast<std::size_t>(row) * ldc + col] =
        __half_as_ushort(__float2half_rn(sum));
  }
};

} // namespace

extern "C" void solve(const __half *A, const __half *B, __half *C, int BATCH, int M, int N, int K) {
  using kit::mma::Kind;
  static const int multiprocessors = kit::gpu::device_multiprocessors();
  kit::mma::Problem problem;
  problem.rows = M;
  problem.cols = N;
  problem.depth = K;
  problem.batches = BATCH;
  const kit::mma::Matrix<Kind::F16> a{reinterpret_cast<const std::uint16_t *>(A),
                                      static_cast<std::size_t>(K), static_cast<std::size_t>(M) * K};
  const kit::mma::Matrix<Kind::F16> b{reinterpret_cast<const std::uint16_t *>(B),
                                      static_cast<std::size_t>(N), static_cast<std::size_t>(K) * N};
  const StoreHalf epilogue{reinterpret_cast<std::uint16_t *>(C), static_cast<std::size_t>(N),
                           static_cast<std::size_t>(M) * N};
  kit::mma::launch_auto<Kind::F16, kit::mma::BLayout::DepthByCols>(problem, a, b, epilogue,
                                                                   multiprocessors, nullptr);
}
