// One float result from two float arrays: out = finish(sum over i of term(a[i], b[i])), the sum
// taken in double. Shared by dot_product (term a * b) and mean_squared_error (term (a - b)^2,
// finish: divide by n).
//
// Memory-bound: 8 bytes read per element. One grid-stride kernel sized to fill the GPU once (at
// most one block per 4096 elements); each thread keeps four 16-byte loads per input in flight
// (a scalar loop when either pointer is not 16-byte aligned, and for the last n % 4 elements).
// Every term is added in double: float accumulation would lose the 1e-5 absolute tolerance as
// soon as large terms cancel, and the double adds cost nothing next to the loads.
//
// The block sums go through kit::grid_reduce_last_block: the last block to finish adds them in
// block order with a fixed tree and stores the result, so there is one launch, no block waits
// for another, and the result is the same on every call (for a given GPU: the grid is sized from
// its occupancy). A one-block grid (n <= 4096, e.g. the dot product's N = 5 performance case)
// stores its sum directly. The output arrives uninitialised: the kernel writes it, it never
// accumulates into it.
//
// The exporter inlines this header into each submission file (basics/<name>/kernel.cu includes
// it as "primitives/pair_sum.h").
#pragma once

#include "gpu/check.h"
#include "gpu/launch.h"
#include "gpu/vendor.h"
#include "primitives/grid_reduce.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace kit::pair_sum {

inline constexpr int kThreads = 256;
inline constexpr int kUnroll = 4;
inline constexpr int kMaxBlocks = 4096;

// Per-launch state of the grid reduction. A submission file is one translation unit holding one
// solve, so one set is enough (solve is never called concurrently by the judge).
namespace {
__device__ double g_block_sums[kMaxBlocks];
__device__ unsigned int g_arrivals;
} // namespace

// Op provides `__device__ double term(float a, float b) const` and
// `__device__ float finish(double sum, std::size_t n) const`.
template <class Op> __device__ __forceinline__ double terms4(const Op &op, float4 a, float4 b) {
  return (op.term(a.x, b.x) + op.term(a.y, b.y)) + (op.term(a.z, b.z) + op.term(a.w, b.w));
}

template <class Op>
__global__ void __launch_bounds__(kThreads)
    pair_sum_kernel(const float *__restrict__ a, const float *__restrict__ b, std::size_t n,
                    bool vectorized, Op op, float *out) {
  __shared__ kit::BlockScratch<double, kThreads> scratch;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kThreads;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  double sum = 0;
  std::size_t scalar_begin = 0;
  if (vectorized) {
    const float4 *a4 = reinterpret_cast<const float4 *>(a);
    const float4 *b4 = reinterpret_cast<const float4 *>(b);
    const std::size_t vectors = n / 4;
    std::size_t i = thread;
    for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
      float4 x[kUnroll], y[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        x[u] = a4[i + u * stride];
        y[u] = b4[i + u * stride];
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        sum += terms4(op, x[u], y[u]);
    }
    for (; i < vectors; i += stride)
      sum += terms4(op, a4[i], b4[i]);
    scalar_begin = vectors * 4;
  }
  for (std::size_t i = scalar_begin + thread; i < n; i += stride)
    sum += op.term(a[i], b[i]);

  const double block_sum = kit::block_reduce<kThreads>(sum, kit::Plus(), 0.0, scratch);
  if (gridDim.x == 1) {
    if (threadIdx.x == 0)
      *out = op.finish(block_sum, n);
    return;
  }
  double total;
  if (kit::grid_reduce_last_block<kThreads>(block_sum, kit::Plus(), 0.0, g_block_sums, &g_arrivals,
                                            total, scratch) &&
      threadIdx.x == 0)
    *out = op.finish(total, n);
}

// *out = op.finish(sum of op.term(a[i], b[i]) for i < n, n) (device pointers; the default
// stream, no synchronisation).
template <class Op>
inline void pair_sum(const float *a, const float *b, std::size_t n, Op op, float *out) {
  static const int resident = kit::gpu::resident_blocks(pair_sum_kernel<Op>, kThreads);
  const std::size_t per_block = static_cast<std::size_t>(kThreads) * kUnroll * 4;
  const int blocks = static_cast<int>(std::max<std::size_t>(
      1, std::min<std::size_t>({(n + per_block - 1) / per_block, static_cast<std::size_t>(resident),
                                static_cast<std::size_t>(kMaxBlocks)})));
  const bool vectorized = reinterpret_cast<std::uintptr_t>(a) % 16 == 0 &&
                          reinterpret_cast<std::uintptr_t>(b) % 16 == 0;
  pair_sum_kernel<<<blocks, kThreads>>>(a, b, n, vectorized, op, out);
  GPU_CHECK_LAUNCH("pair_sum_kernel");
}

} // namespace kit::pair_sum
