// Merge path: the stable merge of two sorted runs A (m elements) and B (n elements) split into
// equal pieces of the output. Output position d (a "diagonal" of the m x n merge grid) is reached
// after taking split(d) elements of A and d - split(d) of B; the split is found by a binary search
// of at most log2(min(m, n)) + 1 steps, so any number of blocks and threads can each merge their
// own equal share with no communication. Stability: on equal keys the element of A comes first
// (as std::merge), so the result is also what a stable sort of A followed by B gives.
//
// The pieces, used by parallel_merge and tested by common/tests/merge_path_test.cu:
// - split: the binary search on any two sorted arrays (global or shared memory), one thread.
// - warp_split / partition: the split at every tile boundary (tiles + 1 entries), one warp each,
//   so the merging kernel starts streaming at once instead of searching global memory.
// - merge_block: one block merges its tile: both input runs staged in shared memory with
//   coalesced loads (16-byte vectors where the array is 16-byte aligned), each thread searches its
//   own diagonal in shared memory and merges kItems outputs in registers, and the outputs leave
//   through shared memory as coalesced (16-byte where aligned) stores.
//
// Keys are 4-byte (floats or ints) so that four make one 16-byte vector; `less(x, y)` is a strict
// weak order (for floats without NaN, operator<). Positions are 64-bit: m + n may pass 2^31.
#pragma once

#include "gpu/vendor.h"

#include <cstddef>
#include <cstdint>

namespace kit::merge_path {

// Number of elements of A among the first `diagonal` outputs of the stable merge (A first on
// ties), for 0 <= diagonal <= m + n. Invariant of the search: the answer lies in [lo, hi]; a[mid]
// belongs to the first `diagonal` outputs exactly when it does not follow the B element that
// would otherwise take its place, b[diagonal - 1 - mid] (on equal keys A's comes first).
template <class T, class Less>
__host__ __device__ inline long long split(const T *a, long long m, const T *b, long long n,
                                           long long diagonal, Less less) {
  long long lo = diagonal > n ? diagonal - n : 0;
  long long hi = diagonal < m ? diagonal : m;
  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    if (less(b[diagonal - 1 - mid], a[mid]))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

struct FloatLess {
  __host__ __device__ bool operator()(float x, float y) const { return x < y; }
};

// The same split found by a whole warp: each step every lane tests one of KIT_WARP_SIZE probes
// spread evenly over the remaining range [lo, hi] and one ballot counts the probes whose A element
// belongs to the first `diagonal` outputs (the predicate is monotone: true, then false). The range
// shrinks KIT_WARP_SIZE + 1 times per step, so 25 million elements take 5 dependent loads per
// lane (6 on 32 lanes) instead of the 25 of one thread's search. All lanes of the warp call it
// with the same arguments and receive the same result.
template <class T, class Less>
__device__ inline long long warp_split(const T *a, long long m, const T *b, long long n,
                                       long long diagonal, Less less) {
  constexpr long long kParts = KIT_WARP_SIZE + 1;
  const long long lane = kit::lane_id();
  long long lo = diagonal > n ? diagonal - n : 0;
  long long hi = diagonal < m ? diagonal : m;
  while (lo < hi) { // lo and hi are the same in every lane
    const long long span = hi - lo;
    const long long probe = lo + span * (lane + 1) / kParts; // in [lo, hi), nondecreasing in lane
    const bool in_first = !less(b[diagonal - 1 - probe], a[probe]);
    const int k = kit::lane_mask_popcount(kit::warp_ballot(in_first)); // lanes 0 .. k-1 hold
    const long long next_lo = k > 0 ? lo + span * k / kParts + 1 : lo;
    const long long next_hi = k < KIT_WARP_SIZE ? lo + span * (k + 1) / kParts : hi;
    lo = next_lo;
    hi = next_hi;
  }
  return lo;
}

// splits[t] = split(min(t * tile, m + n)) for t = 0 .. tiles (tiles + 1 entries; the last is m),
// one warp per boundary. A split counts elements of A, so it fits an int (m is an int).
template <class T, class Less>
__global__ void partition_kernel(const T *a, long long m, const T *b, long long n, long long tile,
                                 long long tiles, int *splits, Less less) {
  const long long t =
      (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / KIT_WARP_SIZE;
  if (t > tiles) // the same for every lane of the warp
    return;
  const long long total = m + n;
  const long long diagonal = t * tile < total ? t * tile : total;
  const long long s = warp_split(a, m, b, n, diagonal, less);
  if (kit::lane_id() == 0)
    splits[t] = static_cast<int>(s);
}

inline constexpr int kPartitionThreads = 256;

// Launch of partition_kernel for `tiles` tiles of `tile` outputs; `warp_size` is the running
// device's (kit::gpu::device_warp_size()).
template <class T, class Less>
void partition(const T *a, long long m, const T *b, long long n, long long tile, long long tiles,
               int *splits, int warp_size, Less less) {
  const long long warps_per_block = kPartitionThreads / warp_size;
  const long long boundaries = tiles + 1;
  const unsigned blocks =
      static_cast<unsigned>((boundaries + warps_per_block - 1) / warps_per_block);
  partition_kernel<<<blocks, kPartitionThreads>>>(a, m, b, n, tile, tiles, splits, less);
}

// Shared memory of one tile: both runs with up to 3 elements of padding before and after each
// (the staging keeps 16-byte groups of the global array at 16-byte slots), and the tile's outputs
// afterwards (the same floats, reused).
template <class T, int kTile> struct BlockStorage {
  static_assert(kTile % 4 == 0, "a tile is whole 16-byte groups of outputs");
  alignas(16) T keys[kTile + 16];
};

// Copies x[first, last) of an array of `size` elements into shared memory at dst + shift, where
// shift = first % 4 and dst is 16-byte aligned: the group of four at x[4g] lands at a 16-byte
// slot, so where x is 16-byte aligned each thread moves whole groups with one 16-byte load and one
// 16-byte shared store (a warp's loads cover one contiguous span). Groups that straddle the end of
// the array, and every group when x is not aligned, go element by element. Elements of the first
// and last group outside [first, last) are copied too (they are in the array, and never read).
// Returns the number of floats written from dst (a multiple of 4).
template <int kThreads, class T>
__device__ inline long long stage_run(const T *__restrict__ x, long long size, long long first,
                                      long long last, bool vector_ok, T *dst) {
  static_assert(sizeof(T) == 4, "four keys make one 16-byte vector");
  if (first >= last)
    return 0;
  const long long base = first & ~3LL;
  const long long groups = (last - base + 3) / 4;
  for (long long g = threadIdx.x; g < groups; g += kThreads) {
    const long long at = base + 4 * g;
    if (vector_ok && at + 4 <= size) {
      const int4 v = *reinterpret_cast<const int4 *>(x + at);
      *reinterpret_cast<int4 *>(dst + 4 * g) = v;
    } else {
#pragma unroll
      for (int c = 0; c < 4; ++c)
        if (at + c < size)
          dst[4 * g + c] = x[at + c];
    }
  }
  return 4 * groups;
}

// Serial stable merge of kItems outputs from a[i..ma) and b[j..nb) into out[]; positions past the
// end of both runs are left unset (the caller writes only `count` of them).
template <int kItems, class T, class Less>
__device__ inline void merge_serial(const T *a, int ma, const T *b, int nb, int i, int j,
                                    T (&out)[kItems], Less less) {
  // The current head of each run stays in a register; only the run that advanced is read again.
  // Index 0 stands in for a used-up run (its key is never taken).
  T x = a[i < ma ? i : 0];
  T y = b[j < nb ? j : 0];
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    // A's key unless A is used up or B's is strictly smaller (A first on ties).
    const bool take_a = i < ma && (j >= nb || !less(y, x));
    out[k] = take_a ? x : y;
    if (take_a) {
      ++i;
      x = a[i < ma ? i : 0];
    } else {
      ++j;
      y = b[j < nb ? j : 0];
    }
  }
}

// Block `tile_index` merges outputs [tile_index * kTile, ...) of C (at most kTile of them), with
// kTile = kThreads * kItems (kItems odd keeps the per-thread shared stores free of bank
// conflicts). `splits` comes from partition() with the same tile. `vector_ok` says whether a, b
// and c are all 16-byte aligned. Every thread of the block must call it (it synchronises).
template <int kThreads, int kItems, class T, class Less>
__device__ inline void merge_block(const T *__restrict__ a, long long m, const T *__restrict__ b,
                                   long long n, T *__restrict__ c, const int *__restrict__ splits,
                                   long long tile_index, bool vector_ok,
                                   BlockStorage<T, kThreads * kItems> &storage, Less less) {
  constexpr int kTile = kThreads * kItems;
  const long long total = m + n;
  const long long d0 = tile_index * kTile;
  const long long d1 = d0 + kTile < total ? d0 + kTile : total;
  const long long a0 = splits[tile_index], a1 = splits[tile_index + 1];
  const long long b0 = d0 - a0, b1 = d1 - a1;
  const int ma = static_cast<int>(a1 - a0), nb = static_cast<int>(b1 - b0);
  const int tile_outputs = static_cast<int>(d1 - d0); // ma + nb

  // Stage both runs: A's at keys[shift_a ...], B's after A's groups at keys[b_at + shift_b ...].
  const long long a_floats = stage_run<kThreads>(a, m, a0, a1, vector_ok, storage.keys);
  const int b_at = static_cast<int>(a_floats);
  stage_run<kThreads>(b, n, b0, b1, vector_ok, storage.keys + b_at);
  __syncthreads();
  const T *sa = storage.keys + (a0 & 3);
  const T *sb = storage.keys + b_at + (b0 & 3);

  // This thread's outputs: [diagonal, diagonal + kItems) of the tile.
  const int first = static_cast<int>(threadIdx.x) * kItems;
  const int diagonal = first < tile_outputs ? first : tile_outputs;
  const int i = static_cast<int>(split(sa, ma, sb, nb, diagonal, less));
  T out[kItems];
  merge_serial<kItems>(sa, ma, sb, nb, i, diagonal - i, out, less);
  __syncthreads(); // every thread has read its inputs; the keys now hold outputs

#pragma unroll
  for (int k = 0; k < kItems; ++k)
    if (diagonal + k < tile_outputs)
      storage.keys[diagonal + k] = out[k];
  __syncthreads();

  // Coalesced stores of the tile (d0 is a multiple of 4, so C's groups match the staged ones).
  T *dst = c + d0;
  const int groups = vector_ok ? tile_outputs / 4 : 0;
  for (int g = static_cast<int>(threadIdx.x); g < groups; g += kThreads)
    *reinterpret_cast<int4 *>(dst + 4 * g) = *reinterpret_cast<const int4 *>(storage.keys + 4 * g);
  for (int e = 4 * groups + static_cast<int>(threadIdx.x); e < tile_outputs; e += kThreads)
    dst[e] = storage.keys[e];
}

} // namespace kit::merge_path
