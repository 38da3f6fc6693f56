// Counting the ints equal to K in a contiguous array: shared by count_array_element (a 1-D array)
// and count_2d_array_element (a row-major N x M array is one contiguous run of N*M ints).
//
// Memory-bound: 4 bytes read per element. One grid-stride kernel sized to fill the GPU once; each
// thread keeps four 16-byte loads in flight, counts, and the block total goes through
// kit::grid_reduce_last_block: the last block to finish adds all block counts and stores the
// answer, so there is one launch and no separate clearing of the output (which arrives
// uninitialised: solve writes it, it never accumulates).
//
// The exporter inlines this header into each submission file (basics/<name>/kernel.cu includes
// it as "../passes/count.h").
#pragma once

#include "gpu/collectives.h"
#include "gpu/gpu.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace kit::basics::count {

inline constexpr int kThreads = 256;
inline constexpr int kUnroll = 4;
inline constexpr int kMaxBlocks = 4096;

// Per-launch state of the grid reduction. A submission file is one translation unit holding one
// solve, so one set is enough (solve is never called concurrently by the judge).
namespace {
__device__ int g_block_counts[kMaxBlocks];
__device__ unsigned int g_arrivals;
} // namespace

__device__ __forceinline__ int matches(int4 v, int k) {
  return (v.x == k) + (v.y == k) + (v.z == k) + (v.w == k);
}

__global__ void __launch_bounds__(kThreads)
    count_equal_kernel(const int *__restrict__ in, std::size_t n, int k, bool vectorized,
                       int *out) {
  __shared__ kit::BlockScratch<int, kThreads> scratch;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kThreads;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  int count = 0;
  std::size_t scalar_begin = 0;
  if (vectorized) {
    const int4 *v = reinterpret_cast<const int4 *>(in);
    const std::size_t vectors = n / 4;
    std::size_t i = thread;
    for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
      int4 x[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        x[u] = v[i + u * stride];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        count += matches(x[u], k);
    }
    for (; i < vectors; i += stride)
      count += matches(v[i], k);
    scalar_begin = vectors * 4;
  }
  for (std::size_t i = scalar_begin + thread; i < n; i += stride)
    count += in[i] == k;

  const int block_count = kit::block_reduce<kThreads>(count, kit::Plus(), 0, scratch);
  int total;
  if (kit::grid_reduce_last_block<kThreads>(block_count, kit::Plus(), 0, g_block_counts,
                                            &g_arrivals, total, scratch) &&
      threadIdx.x == 0)
    *out = total;
}

// *out = how many of the n ints at `in` equal k (device pointers; the default stream, no
// synchronisation).
inline void count_equal(const int *in, std::size_t n, int k, int *out) {
  static const int resident = kit::gpu::resident_blocks(count_equal_kernel, kThreads);
  const std::size_t per_block = static_cast<std::size_t>(kThreads) * kUnroll * 4;
  const int blocks = static_cast<int>(std::max<std::size_t>(
      1, std::min<std::size_t>({(n + per_block - 1) / per_block, static_cast<std::size_t>(resident),
                                static_cast<std::size_t>(kMaxBlocks)})));
  const bool vectorized = reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  count_equal_kernel<<<blocks, kThreads>>>(in, n, k, vectorized, out);
  GPU_CHECK_LAUNCH("count_equal_kernel");
}

} // namespace kit::basics::count
