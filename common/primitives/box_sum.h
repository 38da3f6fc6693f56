// The sum of the ints in a box of a row-major array: `slabs` x `rows` segments of `length`
// consecutive ints, segment (s, r) starting at element origin + s * slab_stride + r * row_stride.
// Shared by subarray_sum (one segment), 2d_subarray_sum (rows of a matrix) and 3d_subarray_sum
// (rows of a 3-D array): only the box's rows are read.
//
// The sum is taken modulo 2^32 in unsigned arithmetic and stored as an int: the exact sum when it
// fits, and otherwise what the judge's reference stores (torch sums int32 into int64 and the
// assignment to the int32 output truncates). Integer addition in any order gives the same result,
// so the result is deterministic.
//
// Memory-bound: 4 bytes read per element of the box. One launch:
//   - 16-byte loads are anchored at the 16-byte aligned address at or below the array's start, so
//     any int-aligned array (the tests' misaligned runs included) takes the vector path. A
//     segment is its aligned 16-byte vectors plus at most 3 head and 3 tail ints before and after
//     them, loaded as scalars; nothing outside the box's segments is read.
//   - A segment's vectors are split into `chunks` equal runs; a team of 1 to 256 threads (a power
//     of two, sized so that each thread has up to kSlots vectors of a run) takes one run at a
//     time, all its loads issued before any is added. Work items (segment, run) are spread over a
//     grid that fills the GPU once: long 1-D ranges become many runs of one segment, short rows
//     many small teams per block.
//   - The block sums go through kit::grid_reduce_last_block (the last block to finish adds them
//     and stores the result): no block waits for another. A one-block grid stores its sum
//     directly. The output arrives uninitialised: the kernel writes it, it never accumulates.
//
// The exporter inlines this header into each submission file (basics/<name>/kernel.cu includes
// it as "primitives/box_sum.h").
#pragma once

#include "gpu/check.h"
#include "gpu/launch.h"
#include "gpu/vendor.h"
#include "primitives/grid_reduce.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace kit::box_sum {

inline constexpr int kThreads = 256;
inline constexpr int kSlots = 8; // 16-byte loads in flight per thread and work item
inline constexpr int kMaxBlocks = 4096;

// Per-launch state of the grid reduction. A submission file is one translation unit holding one
// solve, so one set is enough (solve is never called concurrently by the judge).
namespace {
__device__ unsigned int g_block_sums[kMaxBlocks];
__device__ unsigned int g_arrivals;
} // namespace

// Element indices are counted from `base`, the 16-byte aligned address at or below the array.
struct Box {
  const int *base;
  std::size_t origin;
  std::size_t slab_stride;
  std::size_t row_stride;
  unsigned int slabs;
  unsigned int rows;
  unsigned int length;
};

struct Plan {
  unsigned int team_shift;    // threads per work item: 1 << team_shift
  unsigned int chunks;        // runs per segment
  unsigned int chunk_vectors; // vectors per run (the last run of a segment may have fewer)
  unsigned int items;         // slabs * rows * chunks
};

// std::min / std::max are host functions for nvcc without --expt-relaxed-constexpr (the judge's
// compile).
__device__ __forceinline__ std::size_t smaller(std::size_t a, std::size_t b) {
  return a < b ? a : b;
}
__device__ __forceinline__ std::size_t larger(std::size_t a, std::size_t b) {
  return a < b ? b : a;
}

__device__ __forceinline__ unsigned int sum4(int4 v) {
  return (static_cast<unsigned>(v.x) + static_cast<unsigned>(v.y)) +
         (static_cast<unsigned>(v.z) + static_cast<unsigned>(v.w));
}

__global__ void __launch_bounds__(kThreads) box_sum_kernel(Box box, Plan plan, int *out) {
  __shared__ kit::BlockScratch<unsigned int, kThreads> scratch;
  const unsigned int team = 1u << plan.team_shift;
  const unsigned int lane = threadIdx.x & (team - 1);
  const unsigned int teams_per_block = kThreads >> plan.team_shift;
  const int4 *vectors = reinterpret_cast<const int4 *>(box.base);
  unsigned int sum = 0;
  for (unsigned int item = blockIdx.x * teams_per_block + (threadIdx.x >> plan.team_shift);
       item < plan.items; item += gridDim.x * teams_per_block) {
    const unsigned int segment = item / plan.chunks;
    const unsigned int chunk = item - segment * plan.chunks;
    const unsigned int slab = segment / box.rows;
    const unsigned int row = segment - slab * box.rows;
    const std::size_t first = box.origin + slab * box.slab_stride + row * box.row_stride;
    const std::size_t end = first + box.length;
    // [first, head_end) head scalars, [head_end, tail_begin) whole vectors, [tail_begin, end)
    // tail scalars; a segment inside one vector is all head.
    const std::size_t head_end = smaller((first + 3) & ~std::size_t{3}, end);
    const std::size_t tail_begin = larger(end & ~std::size_t{3}, head_end);
    const std::size_t run_begin =
        head_end / 4 + static_cast<std::size_t>(chunk) * plan.chunk_vectors;
    const std::size_t run_end = smaller(tail_begin / 4, run_begin + plan.chunk_vectors);

    int4 x[kSlots];
#pragma unroll
    for (int k = 0; k < kSlots; ++k) {
      const std::size_t v = run_begin + lane + static_cast<std::size_t>(k) * team;
      x[k] = v < run_end ? vectors[v] : make_int4(0, 0, 0, 0);
    }
    // The head and tail scalars (at most 6) go to the first run's threads, after the vector loads
    // are issued so that their latencies overlap.
    if (chunk == 0) {
      const unsigned int head = static_cast<unsigned int>(head_end - first);
      const unsigned int edges = head + static_cast<unsigned int>(end - tail_begin);
      for (unsigned int t = lane; t < edges; t += team)
        sum += static_cast<unsigned int>(box.base[t < head ? first + t : tail_begin + (t - head)]);
    }
#pragma unroll
    for (int k = 0; k < kSlots; ++k)
      sum += sum4(x[k]);
  }

  const unsigned int block_sum = kit::block_reduce<kThreads>(sum, kit::Plus(), 0u, scratch);
  kit::grid_reduce_store<kThreads>(block_sum, kit::Plus(), 0u, g_block_sums, &g_arrivals, scratch,
                                   [&](unsigned int total) { *out = static_cast<int>(total); });
}

// *out = the sum (mod 2^32) of the box of `input` described above (device pointers; the default
// stream, no synchronisation). `input` must be int-aligned; any of slabs, rows, length may be 0
// (an empty box: *out = 0).
inline void sum_box(const int *input, std::size_t origin, std::size_t slab_stride,
                    std::size_t row_stride, unsigned int slabs, unsigned int rows,
                    unsigned int length, int *out) {
  static const int resident = kit::gpu::resident_blocks(box_sum_kernel, kThreads);
  const std::size_t phase = (reinterpret_cast<std::uintptr_t>(input) % 16) / sizeof(int);
  const Box box{input - phase, origin + phase, slab_stride, row_stride, slabs, rows, length};

  // Whole vectors in a segment: at most length / 4 whatever its alignment. The team is the
  // smallest power of two that covers them with kSlots loads per thread (at most the block); a
  // longer segment is split into equal runs of at most kThreads * kSlots vectors.
  const unsigned int vectors = length / 4;
  unsigned int team_shift = 0;
  while ((1u << team_shift) < static_cast<unsigned>(kThreads) &&
         (static_cast<unsigned>(kSlots) << team_shift) < vectors)
    ++team_shift;
  const unsigned int run_limit = static_cast<unsigned>(kSlots) << team_shift;
  const unsigned int chunks = std::max(1u, (vectors + run_limit - 1) / run_limit);
  const unsigned int chunk_vectors = (vectors + chunks - 1) / chunks;
  const std::size_t segments = static_cast<std::size_t>(slabs) * rows;
  const Plan plan{team_shift, chunks, chunk_vectors,
                  length == 0 ? 0u : static_cast<unsigned int>(segments * chunks)};

  const unsigned int teams_per_block = kThreads >> team_shift;
  const int blocks = static_cast<int>(std::max<std::size_t>(
      1, std::min<std::size_t>({(plan.items + teams_per_block - 1) / teams_per_block,
                                static_cast<std::size_t>(resident),
                                static_cast<std::size_t>(kMaxBlocks)})));
  box_sum_kernel<<<blocks, kThreads>>>(box, plan, out);
  GPU_CHECK_LAUNCH("box_sum_kernel");
}

} // namespace kit::box_sum
