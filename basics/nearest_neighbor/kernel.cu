// nearest_neighbor (LeetGPU 38): for N points (x, y, z triples) indices[i] is the index j != i of
// the nearest point by squared Euclidean distance (DEVICE pointers; compared exactly).
//
// Exactness. The judge's reference (torch) takes the differences point i - point j, squares them as
// separate float products and sums the three squares as (x^2 + z^2) + y^2 (its reduction over a
// last dimension of 3 runs on two lanes: README.md), then takes argmin, whose ties go to the
// lowest index. The kernel computes the same float operations in the same order with the
// correctly rounded intrinsics, which are never fused into FMAs, and keeps the lowest index of
// the smallest distance, so near-ties resolve as the judge's do.
//
// O(N^2) on the FP32 pipes, 11 instructions per pair (3 subtractions, 3 products, 2 additions,
// a compare, two selects):
//  - a 256-thread block owns 512 query points (two per thread, each in registers with its best
//    distance and index) and one contiguous chunk of the candidates; blockIdx.y picks the chunk,
//    sized so that the grid is one wave of resident blocks. The chunk goes through shared memory
//    in tiles of 256 points (one staged per thread, padded to a 16-byte vector), which every
//    thread reads as broadcasts.
//  - Each thread scans its tile candidates in index order with a strict compare, so it keeps the
//    lowest index of its smallest distance; the blocks of different chunks combine through one
//    64-bit atomicMin per query on (distance bits << 32 | index): distances are non-negative
//    floats, whose bits order as unsigned integers, and equal distances fall to the lower index.
//    The result does not depend on the order the blocks run in.
//  - Only the blocks whose chunk holds one of their own query points test j != i, a block-uniform
//    choice between two instantiations of the scan.
//  - A second kernel turns each key into the index (0 where the best distance is +inf, and for
//    N = 1: torch.argmin's answer on a row of +inf) and resets the key to all ones, so the keys'
//    scratch (common/gpu/device_scratch.h) is all ones between calls and no call clears it first.
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/launch.h"
#include "gpu/vendor.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kQueriesPerThread = 2;
constexpr int kQueriesPerBlock = kThreads * kQueriesPerThread;
constexpr unsigned long long kNoKey = ~0ull;
constexpr unsigned kInfinityBits = 0x7f800000u;
// Resident blocks asked of the compiler. NVIDIA: eight per multiprocessor (at most 32 registers,
// no spills; sm_90 would take 40 and hold six), 64 warps to hide the shared-memory reads. HIP
// reads the second __launch_bounds__ argument differently (waves per execution unit): none asked.
#if KIT_CUDA
constexpr int kMinBlocksPerSm = 8;
#else
constexpr int kMinBlocksPerSm = 1;
#endif

// The judge's squared distance, operation for operation: (dx^2 + dz^2) + dy^2 of p - q.
__device__ __forceinline__ float judge_distance(const float4 &p, const float4 &q) {
#if KIT_HIP
  // hipcc contracts a product into the next addition by default, through its own rounded
  // intrinsics too; the pragma stops it for the operations written here.
#pragma clang fp contract(off)
  const float dx = p.x - q.x;
  const float dy = p.y - q.y;
  const float dz = p.z - q.z;
  return (dx * dx + dz * dz) + dy * dy;
#else
  const float dx = __fsub_rn(p.x, q.x);
  const float dy = __fsub_rn(p.y, q.y);
  const float dz = __fsub_rn(p.z, q.z);
  return __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dz, dz)), __fmul_rn(dy, dy));
#endif
}

struct Best {
  float distance;
  int index;
};

// One staged tile of `count` candidates starting at index `first`, against this thread's
// queries. kMaySelf: the tile may hold one of the queries, whose own index is skipped.
template <bool kMaySelf>
__device__ __forceinline__ void
scan_tile(const float4 *tile, int count, int first, const float4 (&query)[kQueriesPerThread],
          const int (&query_index)[kQueriesPerThread], Best (&best)[kQueriesPerThread]) {
#pragma unroll 4
  for (int k = 0; k < count; ++k) {
    const float4 candidate = tile[k];
    const int j = first + k;
#pragma unroll
    for (int q = 0; q < kQueriesPerThread; ++q) {
      const float d = judge_distance(query[q], candidate);
      const bool better = d < best[q].distance && (!kMaySelf || j != query_index[q]);
      best[q].distance = better ? d : best[q].distance;
      best[q].index = better ? j : best[q].index;
    }
  }
}

__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
    nearest_in_chunks(const float *__restrict__ points, unsigned long long *__restrict__ keys,
                      int N, int chunk) {
  __shared__ float4 tile[kThreads];
  const int t = static_cast<int>(threadIdx.x);
  const int first_query = static_cast<int>(blockIdx.x) * kQueriesPerBlock;
  const int chunk_begin = static_cast<int>(blockIdx.y) * chunk;
  const int chunk_end = min(N, chunk_begin + chunk);

  float4 query[kQueriesPerThread];
  int query_index[kQueriesPerThread];
  Best best[kQueriesPerThread];
#pragma unroll
  for (int q = 0; q < kQueriesPerThread; ++q) {
    const int i = first_query + t + q * kThreads;
    query_index[q] = i;
    const int at = min(i, N - 1); // past N: a copy of the last point, never stored
    query[q] = make_float4(points[3 * static_cast<std::size_t>(at)],
                           points[3 * static_cast<std::size_t>(at) + 1],
                           points[3 * static_cast<std::size_t>(at) + 2], 0.f);
    best[q] = {__int_as_float(static_cast<int>(kInfinityBits)), -1};
  }
  // Block-uniform: does this chunk hold any of the block's queries?
  const bool may_self = chunk_begin < first_query + kQueriesPerBlock && first_query < chunk_end;

  for (int base = chunk_begin; base < chunk_end; base += kThreads) {
    const int j = base + t;
    __syncthreads(); // the previous tile is read by everyone
    if (j < chunk_end)
      tile[t] = make_float4(points[3 * static_cast<std::size_t>(j)],
                            points[3 * static_cast<std::size_t>(j) + 1],
                            points[3 * static_cast<std::size_t>(j) + 2], 0.f);
    __syncthreads();
    const int count = min(kThreads, chunk_end - base);
    if (may_self)
      scan_tile<true>(tile, count, base, query, query_index, best);
    else
      scan_tile<false>(tile, count, base, query, query_index, best);
  }

#pragma unroll
  for (int q = 0; q < kQueriesPerThread; ++q)
    if (query_index[q] < N && best[q].index >= 0)
      atomicMin(keys + query_index[q],
                (static_cast<unsigned long long>(__float_as_uint(best[q].distance)) << 32) |
                    static_cast<unsigned>(best[q].index));
}

__global__ void __launch_bounds__(kThreads)
    keys_to_indices(unsigned long long *__restrict__ keys, int *__restrict__ indices, int N) {
  for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < N;
       i += static_cast<int>(gridDim.x * blockDim.x)) {
    const unsigned long long key = keys[i];
    keys[i] = kNoKey;
    const unsigned distance_bits = static_cast<unsigned>(key >> 32);
    indices[i] = distance_bits >= kInfinityBits ? 0 : static_cast<int>(key & 0xffffffffu);
  }
}

} // namespace

// points holds N (x, y, z) triples; indices receives N indices.
extern "C" void solve(const float *points, int *indices, int N) {
  if (N <= 0)
    return;
  static kit::gpu::DeviceScratch scratch;
  bool grew = false;
  auto *keys = static_cast<unsigned long long *>(
      scratch.reserve(static_cast<std::size_t>(N) * sizeof(unsigned long long), &grew));
  if (grew) // all ones from here on: keys_to_indices restores them after every use
    GPU_CHECK(cudaMemsetAsync(keys, 0xff, scratch.capacity()));

  static const int resident = kit::gpu::resident_blocks(nearest_in_chunks, kThreads);
  const int query_blocks = (N + kQueriesPerBlock - 1) / kQueriesPerBlock;
  // As many candidate chunks as keep the grid within one wave of resident blocks.
  const int wanted_chunks = std::max(1, std::min(resident / query_blocks, N));
  const int chunk = (N + wanted_chunks - 1) / wanted_chunks;
  const int chunks = (N + chunk - 1) / chunk;
  nearest_in_chunks<<<dim3(static_cast<unsigned>(query_blocks), static_cast<unsigned>(chunks)),
                      kThreads>>>(points, keys, N, chunk);
  GPU_CHECK_LAUNCH("nearest_in_chunks");

  static const int finish_blocks = kit::gpu::resident_blocks(keys_to_indices, kThreads);
  const int blocks = std::min(finish_blocks, (N + kThreads - 1) / kThreads);
  keys_to_indices<<<blocks, kThreads>>>(keys, indices, N);
  GPU_CHECK_LAUNCH("keys_to_indices");
}
