// int8_quantized_matmul (LeetGPU basics): C = requantise(A B) for int8 A (M x K), B (K x N) and
// C (M x N), row-major, DEVICE pointers. Exact: the judge's tolerance is 0.
//
// Each element's sum acc = sum_k (A[m][k] - zero_point_A) (B[k][n] - zero_point_B) is formed
// exactly in int32 (|acc| <= 256^2 * 8192 < 2^31), and requantised by requantize.h, torch's
// sequence of FP32 operations, so every byte is the judge's. The judge's own sum is an FP32
// matrix product rounded to an integer, the exact integer for every case it draws (README.md).
//
// The kernel: a 64 x 64 tile of C per 256-thread block, 4 x 4 outputs per thread; slices of 32
// along K staged in shared memory already shifted by the zero points (so the inner loop is plain
// int32 multiply-adds), every load bounds-checked, so any M, N, K >= 1 works.
#include "gpu/check.h"
#include "gpu/vendor.h"
#include "requantize.h"

#include <cstddef>
#include <cstdint>

namespace {

using kit::int8_quantized_matmul::Requantize;

constexpr int kTile = 64;     // rows and columns of C per block
constexpr int kDepth = 32;    // K per shared-memory slice
constexpr int kThreads = 256; // 16 x 16 threads, 4 x 4 outputs each
constexpr int kPerThread = 4;

__global__ void __launch_bounds__(kThreads)
    int8_gemm_simt(const std::int8_t *__restrict__ A, const std::int8_t *__restrict__ B,
                   std::int8_t *__restrict__ C, int M, int N, int K, int zero_point_A,
                   int zero_point_B, Requantize requantize) {
  __shared__ int a_tile[kDepth][kTile]; // a_tile[k][m]: A shifted, transposed
  __shared__ int b_tile[kDepth][kTile]; // b_tile[k][n]: B shifted
  const int tx = static_cast<int>(threadIdx.x) % 16, ty = static_cast<int>(threadIdx.x) / 16;
  const int row0 = static_cast<int>(blockIdx.y) * kTile,
            col0 = static_cast<int>(blockIdx.x) * kTile;
  int acc[kPerThread][kPerThread] = {};
  for (int k0 = 0; k0 < K; k0 += kDepth) {
    // 64 x 32 elements of each operand, 8 per thread; outside the matrices they are the zero
    // point, so they add 0 once shifted.
    for (int i = static_cast<int>(threadIdx.x); i < kTile * kDepth; i += kThreads) {
      const int am = i / kDepth, ak = i % kDepth; // A: consecutive threads along K
      const int ga = row0 + am, gk = k0 + ak;
      a_tile[ak][am] =
          (ga < M && gk < K ? A[static_cast<std::size_t>(ga) * K + gk] : zero_point_A) -
          zero_point_A;
      const int bk = i / kTile, bn = i % kTile; // B: consecutive threads along N
      const int gb = k0 + bk, gn = col0 + bn;
      b_tile[bk][bn] =
          (gb < K && gn < N ? B[static_cast<std::size_t>(gb) * N + gn] : zero_point_B) -
          zero_point_B;
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < kDepth; ++k) {
      int a[kPerThread], b[kPerThread];
#pragma unroll
      for (int r = 0; r < kPerThread; ++r) {
        a[r] = a_tile[k][ty + 16 * r];
        b[r] = b_tile[k][tx + 16 * r];
      }
#pragma unroll
      for (int r = 0; r < kPerThread; ++r)
#pragma unroll
        for (int c = 0; c < kPerThread; ++c)
          acc[r][c] += a[r] * b[c];
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < kPerThread; ++r) {
    const int m = row0 + ty + 16 * r;
#pragma unroll
    for (int c = 0; c < kPerThread; ++c) {
      const int n = col0 + tx + 16 * c;
      if (m < M && n < N)
        C[static_cast<std::size_t>(m) * N + n] = requantize(acc[r][c]);
    }
  }
}

} // namespace

extern "C" void solve(const std::int8_t *A, const std::int8_t *B, std::int8_t *C, int M, int N,
                      int K, float scale_A, float scale_B, float scale_C, int zero_point_A,
                      int zero_point_B, int zero_point_C) {
  if (M <= 0 || N <= 0 || K <= 0)
    return;
  const Requantize requantize{scale_A, scale_B, kit::int8_quantized_matmul::reciprocal_of(scale_C),
                              zero_point_C};
  const dim3 grid(static_cast<unsigned>((N + kTile - 1) / kTile),
                  static_cast<unsigned>((M + kTile - 1) / kTile));
  int8_gemm_simt<<<grid, kThreads>>>(A, B, C, M, N, K, zero_point_A, zero_point_B, requantize);
  GPU_CHECK_LAUNCH("int8_gemm_simt");
}
