// Sorting 32-bit keys on the GPU: a least-significant-digit radix sort, four stable passes over
// 8-bit digits, onesweep style (Adinets and Merrill, "Onesweep: A Faster Least Significant Digit
// Radix Sort for GPUs", 2022). Used by radix_sort (unsigned keys), sorting (floats, in place) and
// top_k_selection (the selected floats, descending).
//
// Keys are sorted as the unsigned words `Keys::order(word)` of their bits: a key transform maps a
// key's 32-bit word to a word whose unsigned order is the wanted key order, and `Keys::restore`
// maps it back. UnsignedKeys is the identity; FloatKeys orders floats as torch.sort does:
// -inf < ... < -0.0 <= +0.0 < ... < +inf, with -0.0 placed before +0.0 (equal values: the order
// between them is the words' order), NaNs with the sign bit clear (the NaN torch makes) after
// +inf, NaNs with the sign bit set before -inf (torch puts every NaN last). FloatKeysDescending
// is the reverse order (+inf first).
//
//  1. histogram_kernel reads the keys once and counts all four digits of every key (shared
//     memory copies, then global atomics); the last block to arrive turns the four 256-bin
//     histograms into each pass's digit offsets (exclusive scans) and clears the totals.
//  2. Four launches of onesweep_pass, one per digit, ping-ponging between a scratch buffer and
//     `out` (in -> scratch -> out -> scratch -> out, so the sorted keys always end in `out`). A
//     block draws its 4096-key tile from a ticket counter and
//      - ranks its keys by digit, stably, with a warp-level multi-split: per round every lane
//        holds one key, eight ballots (64-bit lane masks, so wave64 works) find the lanes with
//        the same digit, the lane's rank is the number of such lanes below it plus the warp's
//        running count of that digit in shared memory;
//      - adds the warps' counts per digit, publishes the tile's 256 digit counts at once, scans
//        them, and reorders the tile by digit in shared memory;
//      - looks back (one thread per digit, lookback::look_back_serial) over the preceding tiles'
//        published counts until one has published its inclusive count, publishes its own, and
//        scatters the reordered keys: consecutive threads write consecutive addresses of one
//        digit's run.
//     Every pass loads with Keys::order and stores with Keys::restore, so the scratch and `out`
//     hold real keys between passes (the identity transform costs nothing).
// A tile only waits on tiles with earlier tickets, which are running and publish without waiting
// on it, so no block waits on one that has not started.
//
// Tile status words are 32 bits: kind (aggregate or inclusive) in the top two bits, a count below
// (n < 2^30). Pass p uses state buffer p % 2 and clears its tile's words of the other buffer,
// which pass p + 1 will use and nobody reads during pass p; so at the end of every sort buffer 0
// is clean (passes 1 and 3 cleared what passes 0 and 2 wrote) and buffer 1 is cleaned by pass 0
// before pass 1 uses it. Both start at zero when the workspace is (re)allocated.
//
// Up to 4096 keys (one tile) a single block sorts everything in shared memory in one launch. That
// block loads every key before its first barrier and stores only after its last, so `in` may equal
// `out` there; the multi-tile passes never read and write one buffer, so every size sorts in place.
#pragma once

#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/launch.h"
#include "gpu/scoped_atomics.h"
#include "gpu/vendor.h"
#include "primitives/grid_reduce.h"
#include "primitives/lookback.h"
#include "primitives/radix_sort_tuning.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace kit::radix_sort {

// ---------------------------------------------------------------------------------------------
// Key transforms: order(word) is a word whose unsigned order is the key order; restore inverts it.
// ---------------------------------------------------------------------------------------------

struct UnsignedKeys {
  using Key = unsigned;
  __host__ __device__ static unsigned order(unsigned word) { return word; }
  __host__ __device__ static unsigned restore(unsigned bits) { return bits; }
};

// A float's word with its sign bit flipped when positive, every bit flipped when negative: larger
// positive floats have larger words, larger negative floats smaller ones, so every negative word
// ends below every positive one.
struct FloatKeys {
  using Key = float;
  __host__ __device__ static unsigned order(unsigned word) {
    return word ^ (static_cast<unsigned>(static_cast<int>(word) >> 31) | 0x80000000u);
  }
  // Ordered words with the top bit set came from positive floats (flip the sign back), the others
  // from negative ones (flip every bit back).
  __host__ __device__ static unsigned restore(unsigned bits) {
    return bits ^ (((bits >> 31) - 1u) | 0x80000000u);
  }
};

struct FloatKeysDescending {
  using Key = float;
  __host__ __device__ static unsigned order(unsigned word) { return ~FloatKeys::order(word); }
  __host__ __device__ static unsigned restore(unsigned bits) { return FloatKeys::restore(~bits); }
};

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)

constexpr int kWarps = kThreads / KIT_WARP_SIZE;
constexpr int kWarpKeys = KIT_WARP_SIZE * kKeysPerThread;
// Keys past n in the last tile: the largest ordered word has the largest digit in every pass, and
// the stable ranking puts these (last in input order) after every real key, so they land past n.
constexpr unsigned kPadKey = 0xffffffffu;

constexpr unsigned kAggregate = static_cast<unsigned>(kit::lookback::kAggregate) << 30;
constexpr unsigned kInclusive = static_cast<unsigned>(kit::lookback::kInclusive) << 30;
constexpr unsigned kCountMask = (1u << 30) - 1;

constexpr kit::lane_mask_t kWarpLanes =
    KIT_WARP_SIZE == 64 ? ~kit::lane_mask_t{0} : (kit::lane_mask_t{1} << (KIT_WARP_SIZE % 64)) - 1;

// Digit totals of the histogram pass, cleared by its last block; the arrival counter; each
// pass's digit offsets (where the keys of digit d start in that pass's output); the tickets.
// Sorts on one stream use them one after another.
__device__ unsigned g_digit_totals[kPasses * kDigits];
__device__ unsigned g_histogram_arrivals;
__device__ unsigned g_digit_offsets[kPasses * kDigits];
__device__ unsigned g_next_tile;

__device__ __forceinline__ unsigned digit_of(unsigned key, int shift) {
  return key >> shift & (kDigits - 1);
}

// ---------------------------------------------------------------------------------------------
// Histogram of the four digits, and each pass's digit offsets.
// ---------------------------------------------------------------------------------------------

__device__ __forceinline__ void count_key(unsigned *counts, unsigned key, int copy) {
#pragma unroll
  for (int p = 0; p < kPasses; ++p)
    atomicAdd(&counts[(p * kDigits + digit_of(key, p * kRadixBits)) * kHistogramCopies + copy], 1u);
}

template <class Keys>
__global__ void __launch_bounds__(kHistogramThreads)
    histogram_kernel(const unsigned *__restrict__ in, unsigned n, bool vectorized) {
  // Counter of digit d of pass p, copy c at (p * 256 + d) * 8 + c.
  __shared__ unsigned counts[kPasses * kDigits * kHistogramCopies];
  __shared__ kit::BlockScratch<unsigned, kHistogramThreads> scratch;
  for (int i = threadIdx.x; i < kPasses * kDigits * kHistogramCopies; i += kHistogramThreads)
    counts[i] = 0;
  __syncthreads();

  const int copy = kit::lane_id() % kHistogramCopies;
  const unsigned stride = gridDim.x * kHistogramThreads;
  const unsigned thread = blockIdx.x * kHistogramThreads + threadIdx.x;
  unsigned scalar_begin = 0;
  if (vectorized) {
    const uint4 *v = reinterpret_cast<const uint4 *>(in);
    const unsigned vectors = n / 4;
    unsigned i = thread;
    for (; i + (kHistogramUnroll - 1) * stride < vectors; i += kHistogramUnroll * stride) {
      uint4 x[kHistogramUnroll];
#pragma unroll
      for (int u = 0; u < kHistogramUnroll; ++u)
        x[u] = v[i + u * stride];
#pragma unroll
      for (int u = 0; u < kHistogramUnroll; ++u) {
        count_key(counts, Keys::order(x[u].x), copy);
        count_key(counts, Keys::order(x[u].y), copy);
        count_key(counts, Keys::order(x[u].z), copy);
        count_key(counts, Keys::order(x[u].w), copy);
      }
    }
    for (; i < vectors; i += stride) {
      const uint4 x = v[i];
      count_key(counts, Keys::order(x.x), copy);
      count_key(counts, Keys::order(x.y), copy);
      count_key(counts, Keys::order(x.z), copy);
      count_key(counts, Keys::order(x.w), copy);
    }
    scalar_begin = vectors * 4;
  }
  for (unsigned i = scalar_begin + thread; i < n; i += stride)
    count_key(counts, Keys::order(in[i]), copy);
  __syncthreads();

  // Each counter's copies, read starting at a different copy per counter (spread over banks).
  for (int b = threadIdx.x; b < kPasses * kDigits; b += kHistogramThreads) {
    unsigned total = 0;
    for (int c = 0; c < kHistogramCopies; ++c)
      total += counts[b * kHistogramCopies + (b + c) % kHistogramCopies];
    if (total != 0)
      atomicAdd(&g_digit_totals[b], total);
  }
  if (!kit::block_arrives_last(&g_histogram_arrivals))
    return;
  const int d = threadIdx.x;
  for (int p = 0; p < kPasses; ++p) {
    const unsigned total = kit::gpu_load_relaxed(&g_digit_totals[p * kDigits + d]);
    kit::gpu_store_relaxed(&g_digit_totals[p * kDigits + d], 0u);
    unsigned all;
    g_digit_offsets[p * kDigits + d] =
        kit::block_exclusive_scan<kHistogramThreads>(total, kit::Plus(), 0u, all, scratch);
  }
}

// ---------------------------------------------------------------------------------------------
// Ranking a tile by one digit.
// ---------------------------------------------------------------------------------------------

struct TileShared {
  unsigned keys[kTileKeys];              // the tile's ordered words, reordered by digit
  unsigned warp_counts[kWarps][kDigits]; // per warp: count, then where its run of a digit starts
  unsigned digit_base[kDigits];          // output index of tile position 0 for each digit
  kit::BlockScratch<unsigned, kThreads> scan;
  unsigned tile;
};

// The lanes of the warp whose digit equals this lane's: one ballot per digit bit.
__device__ __forceinline__ kit::lane_mask_t lanes_with_digit(unsigned digit) {
  kit::lane_mask_t peers = kWarpLanes;
#pragma unroll
  for (int b = 0; b < kRadixBits; ++b) {
    const bool bit = (digit >> b & 1) != 0;
    const kit::lane_mask_t vote = kit::warp_ballot(bit);
    peers &= bit ? vote : ~vote;
  }
  return peers;
}

// The warp's keys (round r, lane l: the warp's key r * warp + l, in input order) ranked stably by
// digit: rank[r] = how many of the warp's keys before it have the same digit. `counts` (the
// warp's 256 counters in shared memory) ends with the warp's count of each digit.
__device__ __forceinline__ void rank_warp_keys(const unsigned (&keys)[kKeysPerThread], int shift,
                                               unsigned *counts, unsigned (&rank)[kKeysPerThread]) {
  const int lane = kit::lane_id();
  for (int i = lane; i < kDigits; i += KIT_WARP_SIZE)
    counts[i] = 0;
  kit::warp_sync();
  const kit::lane_mask_t below = kit::lane_mask_lt();
#pragma unroll
  for (int r = 0; r < kKeysPerThread; ++r) {
    const unsigned d = digit_of(keys[r], shift);
    const kit::lane_mask_t peers = lanes_with_digit(d);
    const unsigned base = counts[d];
    rank[r] = base + static_cast<unsigned>(kit::lane_mask_popcount(peers & below));
    kit::warp_sync(); // every peer has read the count before the highest one moves it on
    if ((peers >> lane) == 1)
      counts[d] = base + static_cast<unsigned>(kit::lane_mask_popcount(peers));
    kit::warp_sync();
  }
}

// After rank_warp_keys and a barrier; thread d handles digit d. Turns the warps' counts of d into
// where each warp's run of d starts among the tile's keys of d; returns the tile's count of d.
__device__ __forceinline__ unsigned warp_runs(TileShared &s) {
  const int d = threadIdx.x;
  unsigned total = 0;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    const unsigned c = s.warp_counts[w][d];
    s.warp_counts[w][d] = total;
    total += c;
  }
  return total;
}

// Then: scans the tile's digit counts and moves the warps' runs to their places in the tile
// reordered by digit; returns where the tile's run of d starts. Ends with a barrier.
__device__ __forceinline__ unsigned tile_runs(TileShared &s, unsigned total) {
  const int d = threadIdx.x;
  unsigned all;
  const unsigned digit_start =
      kit::block_exclusive_scan<kThreads>(total, kit::Plus(), 0u, all, s.scan);
#pragma unroll
  for (int w = 0; w < kWarps; ++w)
    s.warp_counts[w][d] += digit_start;
  __syncthreads();
  return digit_start;
}

// Writes the thread's keys to their places in the tile reordered by digit.
__device__ __forceinline__ void reorder_keys(TileShared &s, const unsigned (&keys)[kKeysPerThread],
                                             const unsigned (&rank)[kKeysPerThread], int shift) {
  const unsigned *runs = s.warp_counts[kit::warp_id()];
#pragma unroll
  for (int r = 0; r < kKeysPerThread; ++r)
    s.keys[runs[digit_of(keys[r], shift)] + rank[r]] = keys[r];
}

// ---------------------------------------------------------------------------------------------
// One pass over all tiles.
// ---------------------------------------------------------------------------------------------

// The tile states of digit d's count: one 32-bit word per tile, {kind:2, count:30}, zeroed
// before the pass (0: not published), so no epoch. Thread d of tile `tile` (> 0) walks back over
// them for the number of keys with digit d in all earlier tiles (lookback::look_back_serial); tile
// 0 always publishes an inclusive count, so every walk ends.
struct DigitCounts {
  const unsigned *state;
  int digit;

  __device__ unsigned word(long long tile) const {
    return kit::gpu_load_relaxed(state + static_cast<std::size_t>(tile) * kDigits + digit);
  }
  // Decoded with the tests the walk needs, not a shift: a published word is never 0 (its kind bits
  // are not), and only an inclusive word has bit 31 set; the walk polls on the critical path of
  // the tile chain.
  __device__ static std::uint64_t kind_of(unsigned word, std::uint64_t) {
    if (word == 0)
      return kit::lookback::kUnpublished;
    return static_cast<int>(word) < 0 ? kit::lookback::kInclusive : kit::lookback::kAggregate;
  }
  __device__ unsigned value(long long, unsigned word) const { return word & kCountMask; }
};

template <class Keys>
__global__ void __launch_bounds__(kThreads)
    onesweep_pass(const unsigned *__restrict__ in, unsigned *__restrict__ out, unsigned n, int pass,
                  unsigned num_tiles, unsigned *__restrict__ state,
                  unsigned *__restrict__ next_state) {
  __shared__ TileShared s;
  if (threadIdx.x == 0)
    s.tile = kit::lookback::draw_tile(&g_next_tile, num_tiles);
  __syncthreads();
  const unsigned tile = s.tile;
  const int shift = pass * kRadixBits;
  const int lane = kit::lane_id();
  const int warp = kit::warp_id();
  const unsigned tile_begin = tile * kTileKeys;
  const unsigned warp_begin = tile_begin + warp * kWarpKeys;

  // All loads first (one memory latency per tile); each round of a warp is 128 (256) contiguous
  // bytes. Only the last tile has keys past n.
  unsigned keys[kKeysPerThread];
#pragma unroll
  for (int r = 0; r < kKeysPerThread; ++r) {
    const unsigned i = warp_begin + r * KIT_WARP_SIZE + lane;
    keys[r] = i < n ? Keys::order(in[i]) : kPadKey;
  }
  unsigned rank[kKeysPerThread];
  rank_warp_keys(keys, shift, s.warp_counts[warp], rank);
  __syncthreads();

  // Thread d publishes the tile's count of digit d before anything else, so that later tiles
  // waiting on it can go on; tile 0's count is already inclusive.
  const int d = threadIdx.x;
  const std::size_t word = static_cast<std::size_t>(tile) * kDigits + d;
  const unsigned total = warp_runs(s);
  kit::gpu_store_relaxed(&state[word], (tile == 0 ? kInclusive : kAggregate) | total);
  next_state[word] = 0; // for the next pass (nobody reads that buffer during this one)
  const unsigned digit_start = tile_runs(s, total);
  reorder_keys(s, keys, rank, shift);

  unsigned before = 0;
  if (tile > 0) {
    before =
        kit::lookback::look_back_serial<unsigned>(DigitCounts{state, d}, tile, 0, kit::Plus(), 0u);
    kit::gpu_store_relaxed(&state[word], kInclusive | (before + total));
  }
  // Key at tile position i with digit d goes to output index digit_base[d] + i (mod 2^32).
  s.digit_base[d] = g_digit_offsets[pass * kDigits + d] + before - digit_start;
  __syncthreads();

  const unsigned valid = min(static_cast<unsigned>(kTileKeys), n - tile_begin);
#pragma unroll
  for (int r = 0; r < kKeysPerThread; ++r) {
    const unsigned i = r * kThreads + threadIdx.x;
    if (i < valid) {
      const unsigned key = s.keys[i];
      out[s.digit_base[digit_of(key, shift)] + i] = Keys::restore(key);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Up to one tile: everything in one block.
// ---------------------------------------------------------------------------------------------

// One block per launch: registers are not shared with other blocks (bounds of (256, 1) leave ptxas
// free to use them; the default bounds spilled on sm_100). Every load comes before the first
// barrier and every store after the last, so `in` may be `out` (a sort in place).
template <class Keys>
__global__ void __launch_bounds__(kThreads, 1)
    sort_one_tile(const unsigned *__restrict__ in, unsigned *__restrict__ out, unsigned n) {
  __shared__ TileShared s;
  const int lane = kit::lane_id();
  const int warp = kit::warp_id();
  const unsigned warp_begin = warp * kWarpKeys;
  unsigned keys[kKeysPerThread];
#pragma unroll
  for (int r = 0; r < kKeysPerThread; ++r) {
    const unsigned i = warp_begin + r * KIT_WARP_SIZE + lane;
    keys[r] = i < n ? Keys::order(in[i]) : kPadKey;
  }
  for (int pass = 0; pass < kPasses; ++pass) {
    const int shift = pass * kRadixBits;
    unsigned rank[kKeysPerThread];
    rank_warp_keys(keys, shift, s.warp_counts[warp], rank);
    __syncthreads();
    tile_runs(s, warp_runs(s));
    reorder_keys(s, keys, rank, shift);
    __syncthreads();
    // The reordered tile, back in the layout the ranking reads (round r, lane l).
#pragma unroll
    for (int r = 0; r < kKeysPerThread; ++r)
      keys[r] = s.keys[warp_begin + r * KIT_WARP_SIZE + lane];
    __syncthreads(); // before the next pass clears and reuses the counters and the tile
  }
#pragma unroll
  for (int r = 0; r < kKeysPerThread; ++r) {
    const unsigned i = warp_begin + r * KIT_WARP_SIZE + lane;
    if (i < n)
      out[i] = Keys::restore(keys[r]);
  }
}

// ---------------------------------------------------------------------------------------------
// Host side.
// ---------------------------------------------------------------------------------------------

// The device memory of multi-tile sorts, kept from one call to the next (gpu/device_scratch.h):
// two state buffers of `capacity_tiles` x 256 words, then room for as many tiles of keys. The
// layout depends only on the capacity, which changes only when the scratch is reallocated (and
// its states zeroed), so the cleaning invariant of the state buffers holds across sorts of any
// size and key type. Sorts sharing a workspace run one after another on one stream.
class Workspace {
public:
  struct Buffers {
    unsigned *state[2];
    unsigned *keys;
  };

  Buffers reserve(unsigned n) {
    const std::size_t tiles = (static_cast<std::size_t>(n) + kTileKeys - 1) / kTileKeys;
    if (tiles > capacity_tiles_) {
      const std::size_t state_bytes = tiles * kDigits * sizeof(unsigned);
      base_ = static_cast<unsigned *>(
          scratch_.reserve(2 * state_bytes + tiles * kTileKeys * sizeof(unsigned)));
      GPU_CHECK(cudaMemsetAsync(base_, 0, 2 * state_bytes));
      capacity_tiles_ = tiles;
    }
    return {{base_, base_ + capacity_tiles_ * kDigits}, base_ + 2 * capacity_tiles_ * kDigits};
  }

private:
  gpu::DeviceScratch scratch_;
  unsigned *base_ = nullptr;
  std::size_t capacity_tiles_ = 0;
};

// Sorts the n keys of `in` into `out` (device pointers; `out` may be `in`) in the order of
// Keys::order, stably. No host synchronisation; n = 0 does nothing. n >= 2^30 is refused with a
// message naming `caller`.
template <class Keys>
void sort(const typename Keys::Key *in, typename Keys::Key *out, unsigned n, Workspace &workspace,
          const char *caller) {
  static_assert(sizeof(typename Keys::Key) == sizeof(unsigned), "keys are 32-bit words");
  if (n == 0)
    return;
  const unsigned *words = reinterpret_cast<const unsigned *>(in);
  unsigned *sorted = reinterpret_cast<unsigned *>(out);
  if (n <= static_cast<unsigned>(kTileKeys)) {
    sort_one_tile<Keys><<<1, kThreads>>>(words, sorted, n);
    GPU_CHECK_LAUNCH("sort_one_tile");
    return;
  }
  if (n > kCountMask) {
    std::fprintf(stderr, "%s: N = %u exceeds the radix sort's 30-bit tile counts\n", caller, n);
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
  const Workspace::Buffers scratch = workspace.reserve(n);
  const unsigned tiles = (n + kTileKeys - 1) / kTileKeys;

  static const int resident = kit::gpu::resident_blocks(histogram_kernel<Keys>, kHistogramThreads);
  const unsigned per_block = kHistogramThreads * kHistogramUnroll * 4;
  const unsigned histogram_blocks =
      std::max(1u, std::min((n + per_block - 1) / per_block, static_cast<unsigned>(resident)));
  const bool vectorized = reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  histogram_kernel<Keys><<<histogram_blocks, kHistogramThreads>>>(words, n, vectorized);
  GPU_CHECK_LAUNCH("histogram_kernel");

  // in -> scratch -> out -> scratch -> out.
  const unsigned *from = words;
  for (int pass = 0; pass < kPasses; ++pass) {
    unsigned *to = pass % 2 == 0 ? scratch.keys : sorted;
    onesweep_pass<Keys><<<tiles, kThreads>>>(from, to, n, pass, tiles, scratch.state[pass % 2],
                                             scratch.state[(pass + 1) % 2]);
    GPU_CHECK_LAUNCH("onesweep_pass");
    from = to;
  }
}

#endif // device compilation

} // namespace kit::radix_sort
