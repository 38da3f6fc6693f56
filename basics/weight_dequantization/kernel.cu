// weight_dequantization: Y = X * S expanded, where S holds one scale per TILE_SIZE x TILE_SIZE
// tile of the M x N matrix X (the partial tiles at the right and bottom edges included):
// Y[i][j] = X[i][j] * S[i / TILE_SIZE][j / TILE_SIZE] (LeetGPU signature, device pointers;
// tolerance 1e-5 absolute and relative).
//
// Memory-bound: 8 bytes per element (X read, Y written); S (ceil(M / T) x ceil(N / T) floats,
// 16 KB at the judge's size) is read from cache. The grid is two-dimensional, so no thread
// divides its element index to find its row:
//  - blockIdx.y is the row (rows stride by gridDim.y past 65,535), so the row of tiles and its
//    row of S are the same for the whole block; blockIdx.x and the thread give the column;
//  - vector path (N % 4 == 0 and TILE_SIZE % 4 == 0, so a 16-byte vector never straddles two
//    tiles; X and Y 16-byte aligned, always true for the judge's tensors): a thread takes
//    kVectors 16-byte vectors of its row (the element-wise pass's count: one on NVIDIA, four on
//    gfx908 unless that leaves a multiprocessor idle, primitives/elementwise.h), all loaded before
//    any is stored; one division by TILE_SIZE per vector finds its scale;
//  - scalar path (anything else): one element per thread, same grid.
// Each product is one float multiplication, as in the judge's float32 reference: bit for bit.
#include "gpu/check.h"
#include "gpu/vendor.h"
#include "primitives/elementwise.h"

#include <algorithm>
#include <cstddef>

namespace {

namespace elementwise = kit::elementwise;
constexpr int kThreads = elementwise::kThreads;
constexpr int kMaxGridRows = 65535; // gridDim.y's limit on both vendors

template <int kVectors>
__global__ void __launch_bounds__(kThreads)
    dequantize_vec4(const float *__restrict__ x, const float *__restrict__ scales,
                    float *__restrict__ y, int M, int N, int tile, int scale_cols) {
  const int vectors_per_row = N / 4;
  const int first = static_cast<int>(blockIdx.x) * kThreads * kVectors + threadIdx.x;
  for (int row = blockIdx.y; row < M; row += gridDim.y) {
    const float *scale_row = scales + static_cast<std::size_t>(row / tile) * scale_cols;
    const float4 *in = reinterpret_cast<const float4 *>(x + static_cast<std::size_t>(row) * N);
    float4 *out = reinterpret_cast<float4 *>(y + static_cast<std::size_t>(row) * N);
    float4 v[kVectors];
    float s[kVectors];
#pragma unroll
    for (int k = 0; k < kVectors; ++k) { // every load, X's and its scale's, before any store
      const int c = first + k * kThreads;
      if (c < vectors_per_row) {
        v[k] = in[c];
        s[k] = scale_row[4u * static_cast<unsigned>(c) / static_cast<unsigned>(tile)];
      }
    }
#pragma unroll
    for (int k = 0; k < kVectors; ++k) {
      const int c = first + k * kThreads;
      if (c < vectors_per_row)
        out[c] = make_float4(v[k].x * s[k], v[k].y * s[k], v[k].z * s[k], v[k].w * s[k]);
    }
  }
}

__global__ void __launch_bounds__(kThreads)
    dequantize_scalar(const float *x, const float *scales, float *y, int M, int N, int tile,
                      int scale_cols) {
  const int c = static_cast<int>(blockIdx.x) * kThreads + threadIdx.x;
  if (c >= N)
    return;
  const int scale_col = c / tile;
  for (int row = blockIdx.y; row < M; row += gridDim.y) {
    const std::size_t i = static_cast<std::size_t>(row) * N + c;
    y[i] = x[i] * scales[static_cast<std::size_t>(row / tile) * scale_cols + scale_col];
  }
}

} // namespace

extern "C" void solve(const float *X, const float *S, float *Y, int M, int N, int TILE_SIZE) {
  if (M <= 0 || N <= 0 || TILE_SIZE <= 0)
    return;
  const int scale_cols = (N + TILE_SIZE - 1) / TILE_SIZE;
  const unsigned grid_rows = static_cast<unsigned>(std::min(M, kMaxGridRows));
  if (N % 4 == 0 && TILE_SIZE % 4 == 0 && elementwise::aligned16(X) && elementwise::aligned16(Y)) {
    const std::size_t n = static_cast<std::size_t>(M) * N;
    elementwise::with_vector_shape(n, [&](auto vectors, unsigned) {
      constexpr int kVectors = decltype(vectors)::value;
      const dim3 grid(elementwise::blocks_for(static_cast<std::size_t>(N) / 4, kVectors),
                      grid_rows);
      dequantize_vec4<kVectors><<<grid, kThreads>>>(X, S, Y, M, N, TILE_SIZE, scale_cols);
    });
    GPU_CHECK_LAUNCH("dequantize_vec4");
  } else {
    const dim3 grid(elementwise::blocks_for(static_cast<std::size_t>(N), 1), grid_rows);
    dequantize_scalar<<<grid, kThreads>>>(X, S, Y, M, N, TILE_SIZE, scale_cols);
    GPU_CHECK_LAUNCH("dequantize_scalar");
  }
}
