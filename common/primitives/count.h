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
// it as "primitives/count.h").
#pragma once

#include "gpu/check.h"
#include "gpu/launch.h"
#include "gpu/vendor.h"
#include "primitives/grid_reduce.h"
#include "primitives/grid_stride.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace kit::count {

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
  int count = 0;
  grid_stride::for_each<kThreads, kUnroll>(
      in, n, vectorized, [&](int4 v) { count += matches(v, k); }, [&](int x) { count += x == k; });

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

} // namespace kit::count
