// int4_matmul (LeetGPU basics): y = x W^T for fp16 x (M x K) and 4-bit weights W (N x K) packed
// two per byte in w_q (N x K/2: the even k in the high nibble, stored as the weight + 8), with one
// fp16 scale per group of group_size consecutive k in each row (scales: N x K/group_size); y is
// M x N fp16. DEVICE pointers; tolerance 0.01 absolute and relative.
//
// The general kernel: a 64 x 64 tile of y per 256-thread block, 4 x 4 outputs per thread, slices
// of 32 along K staged in shared memory as floats, W dequantised while staging exactly as the
// judge does (the 4-bit integer times its scale in FP32: exact), FP32 fused multiply-adds, the
// sum rounded once to half. Every load is bounds-checked: any M, N, even K and group_size
// dividing K works.
#include "gpu/check.h"
#include "gpu/half.h"
#include "gpu/vendor.h"

#include <cstddef>

namespace {

constexpr int kTile = 64;     // rows of y (of x) and columns of y (rows of W) per block
constexpr int kDepth = 32;    // K per shared-memory slice
constexpr int kThreads = 256; // 16 x 16 threads, 4 x 4 outputs each
constexpr int kPerThread = 4;

// W[n][k] as the judge dequantises it: (nibble - 8) * scale, in FP32 (exact).
__device__ __forceinline__ float dequantised_weight(const unsigned char *__restrict__ w_q,
                                                    const __half *__restrict__ scales, int K,
                                                    int group_size, int n, int k) {
  const unsigned byte = w_q[static_cast<std::size_t>(n) * (K / 2) + k / 2];
  const int nibble = static_cast<int>(k % 2 == 0 ? byte >> 4 : byte & 0xFu);
  const float scale =
      __half2float(scales[static_cast<std::size_t>(n) * (K / group_size) + k / group_size]);
  return static_cast<float>(nibble - 8) * scale;
}

__global__ void __launch_bounds__(kThreads)
    int4_gemm_simt(const __half *__restrict__ x, const unsigned char *__restrict__ w_q,
                   const __half *__restrict__ scales, __half *__restrict__ y, int M, int N, int K,
                   int group_size) {
  __shared__ float x_tile[kDepth][kTile]; // x_tile[k][m]
  __shared__ float w_tile[kDepth][kTile]; // w_tile[k][n]
  const int tx = static_cast<int>(threadIdx.x) % 16, ty = static_cast<int>(threadIdx.x) / 16;
  const int row0 = static_cast<int>(blockIdx.y) * kTile;
  const int col0 = static_cast<int>(blockIdx.x) * kTile;
  float acc[kPerThread][kPerThread] = {};
  for (int k0 = 0; k0 < K; k0 += kDepth) {
    // Consecutive threads along K for both operands (both are K-contiguous); zeros outside.
    for (int i = static_cast<int>(threadIdx.x); i < kTile * kDepth; i += kThreads) {
      const int r = i / kDepth, kk = i % kDepth, k = k0 + kk;
      const int m = row0 + r, n = col0 + r;
      x_tile[kk][r] = m < M && k < K ? __half2float(x[static_cast<std::size_t>(m) * K + k]) : 0.0f;
      w_tile[kk][r] = n < N && k < K ? dequantised_weight(w_q, scales, K, group_size, n, k) : 0.0f;
    }
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < kDepth; ++kk) {
      float a[kPerThread], b[kPerThread];
#pragma unroll
      for (int r = 0; r < kPerThread; ++r) {
        a[r] = x_tile[kk][ty + 16 * r];
        b[r] = w_tile[kk][tx + 16 * r];
      }
#pragma unroll
      for (int r = 0; r < kPerThread; ++r)
#pragma unroll
        for (int c = 0; c < kPerThread; ++c)
          acc[r][c] = fmaf(a[r], b[c], acc[r][c]);
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
        y[static_cast<std::size_t>(m) * N + n] = __float2half_rn(acc[r][c]);
    }
  }
}

} // namespace

extern "C" void solve(const __half *x, const unsigned char *w_q, const __half *scales, __half *y,
                      int M, int N, int K, int group_size) {
  if (M <= 0 || N <= 0 || K <= 0 || group_size <= 0)
    return;
  const dim3 grid(static_cast<unsigned>((N + kTile - 1) / kTile),
                  static_cast<unsigned>((M + kTile - 1) / kTile));
  int4_gemm_simt<<<grid, kThreads>>>(x, w_q, scales, y, M, N, K, group_size);
  GPU_CHECK_LAUNCH("int4_gemm_simt");
}
