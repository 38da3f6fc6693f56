// The single-pass tile scan over a policy: each block scans one tile of scan elements and learns
// the combination of all earlier tiles through the decoupled look-back (primitives/lookback.h).
// segmented_prefix_sum, prefix_sum, linear_recurrence and gae_reverse_scan are policies of it.
//
// The scan runs over a monoid of states S (a trivially copyable struct, so it can live in shared
// memory and cross lanes with the warp collectives' shuffles):
//   S::identity()              the neutral state;
//   S::combine(earlier, later) associative, NOT necessarily commutative: every combination here
//                              keeps the elements' order;
//   s.absorbs()                true when combine(p, s) == s for every p, i.e. nothing before s
//                              matters (a segment start, a zero coefficient of an affine map).
//
// How a launch proceeds (scan_tiles):
//  - A grid the device holds at once is launched cooperatively and block b scans tile b (no
//    atomic round trip before the loads); any other grid, or one whose cooperative launch is
//    refused, is launched normally and a block draws its tile number from a ticket
//    (lookback::draw_tile). Either way a tile only ever waits on tiles that are already running.
//  - Each warp owns a contiguous run of the tile, loaded as kRounds groups of four elements per
//    lane (coalesced, every load issued before any is used); it folds each lane's group, scans
//    the lane totals round by round with shuffles and carries the round totals.
//  - Warp 0 scans the warp totals, publishes the tile's aggregate and looks back
//    (lookback::look_back), then publishes its inclusive prefix. A tile whose aggregate absorbs
//    publishes it as its inclusive prefix at once; a tile whose first element absorbs needs no
//    look-back at all.
#pragma once

#include "collectives/warp.h"
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/launch.h"
#include "gpu/vendor.h"
#include "primitives/lookback.h"

#include <cstddef>
#include <cstdint>

namespace kit::lookback {

// The states' combination as a binary operator, for the warp collectives and the look-back.
template <class S> struct Combine {
  __device__ __forceinline__ S operator()(const S &earlier, const S &later) const {
    return S::combine(earlier, later);
  }
};

// Element e (0..3) of a group's four floats, as the policies' load() returns them.
__device__ __forceinline__ float component(float4 v, int e) {
  return e == 0 ? v.x : e == 1 ? v.y : e == 2 ? v.z : v.w;
}

// A ready-made state for first-order linear recurrences h[t] = a[t] * h[t - 1] + x[t]: the affine
// map h -> a * h + x of a run of elements, in double (linear_recurrence, gae_reverse_scan).
// combine(earlier, later) applies `earlier` first. A zero coefficient (the first element of a
// row, where h = x) absorbs everything before it, and so does a product of many coefficients
// below 1 once it underflows to exactly 0. With finite inputs that is exact: 0 * x = 0.
struct AffineMap {
  double a;
  double x;

  __device__ static AffineMap identity() { return {1.0, 0.0}; }
  __device__ static AffineMap combine(const AffineMap &earlier, const AffineMap &later) {
    return {later.a * earlier.a, fma(later.a, earlier.x, later.x)};
  }
  __device__ bool absorbs() const { return a == 0.0; }
};

// Bit e (e < 4) set when element i + e starts a row of `length` elements (index % length == 0).
__device__ __forceinline__ unsigned row_starts(std::size_t i, unsigned length) {
  // 32-bit division where the index allows it (a 64-bit one is several times longer).
  unsigned position =
      i <= 0xffffffffu ? static_cast<unsigned>(i) % length : static_cast<unsigned>(i % length);
  unsigned bits = 0;
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    bits |= unsigned{position == 0} << e;
    position = position + 1 == length ? 0 : position + 1;
  }
  return bits;
}

// The whole single-pass scan for a policy P describing the problem:
//   using State = ...;                      the monoid above
//   using Group = ...;                      the inputs of four consecutive scan elements
//   static constexpr int kThreads, kRounds; block size (a multiple of 64) and groups per lane
//   std::size_t n;                          scan elements
//   Group load(std::size_t i) const;        elements i .. i + 3 (those below n)
//   State lift(const Group &, std::size_t i, int e) const;  element i + e; identity if >= n
//   void store(const Group &, std::size_t i, State before) const;  writes the outputs of
//                                           elements i .. i + 3 below n; `before` is the scan
//                                           of every element before i
// Launch: launch_tile_scan(policy), which owns the tile states and the ticket. A null `ticket`:
// the grid was launched cooperatively (every block resident) and block b scans tile b.
template <class P> __host__ __device__ constexpr std::size_t tile_items() {
  return static_cast<std::size_t>(P::kThreads) * 4 * P::kRounds;
}
template <class P> unsigned tiles_for(std::size_t n) {
  return static_cast<unsigned>((n + tile_items<P>() - 1) / tile_items<P>());
}

template <class P>
__global__ void __launch_bounds__(P::kThreads)
    scan_tiles(const P p, const SplitStates<typename P::State> states, unsigned *ticket,
               unsigned num_tiles, std::uint64_t epoch) {
  using S = typename P::State;
  using G = typename P::Group;
  constexpr int kRounds = P::kRounds;
  constexpr int kWarps = P::kThreads / KIT_WARP_SIZE;
  constexpr std::size_t kWarpItems = static_cast<std::size_t>(KIT_WARP_SIZE) * 4 * kRounds;
  static_assert(P::kThreads % 64 == 0, "block sizes are multiples of 64 (AMD wave64)");
  static_assert(kWarps <= KIT_WARP_SIZE, "warp 0 scans the warp totals");
  __shared__ unsigned tile_shared;
  __shared__ S warp_scan[kWarps];

  if (threadIdx.x == 0)
    tile_shared = ticket ? draw_tile(ticket, num_tiles) : blockIdx.x;
  __syncthreads();
  const unsigned tile = tile_shared;
  const int lane = kit::lane_id();
  const int warp = kit::warp_id();
  const std::size_t tile_begin = static_cast<std::size_t>(tile) * tile_items<P>();
  const std::size_t warp_begin = tile_begin + static_cast<std::size_t>(warp) * kWarpItems;
  const auto first_of = [&](int r) {
    return warp_begin + (static_cast<std::size_t>(r) * KIT_WARP_SIZE + lane) * 4;
  };

  // All loads first: one memory latency per tile.
  G group[kRounds];
#pragma unroll
  for (int r = 0; r < kRounds; ++r)
    group[r] = p.load(first_of(r));
  // lane_before[r]: the scan of the warp's run before this lane's group of round r.
  S lane_before[kRounds];
  S carry = S::identity();
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    S total = p.lift(group[r], first_of(r), 0);
#pragma unroll
    for (int e = 1; e < 4; ++e)
      total = S::combine(total, p.lift(group[r], first_of(r), e));
    S round_total;
    const S before = warp_exclusive_scan(total, Combine<S>(), S::identity(), round_total);
    lane_before[r] = S::combine(carry, before);
    carry = S::combine(carry, round_total);
  }
  if (lane == 0)
    warp_scan[warp] = carry;
  __syncthreads();

  if (warp == 0) {
    const S warp_total = lane < kWarps ? warp_scan[lane] : S::identity();
    S tile_total;
    const S warp_before = warp_exclusive_scan(warp_total, Combine<S>(), S::identity(), tile_total);
    // Lane 0 of warp 0 holds the tile's first element. If it absorbs, so does every state that
    // includes it, and nothing before the tile can change an output.
    const int first_absorbs = kit::warp_shfl(
        static_cast<int>(lane == 0 && p.lift(group[0], first_of(0), 0).absorbs()), 0);
    S tile_prefix = S::identity();
    if (tile > 0 && !first_absorbs) {
      const bool total_absorbs = tile_total.absorbs();
      if (lane == 0)
        states.publish(tile, epoch, total_absorbs ? kInclusive : kAggregate, tile_total);
      tile_prefix = look_back<S>(states, tile, epoch, Combine<S>(), S::identity());
      if (lane == 0 && !total_absorbs)
        states.publish(tile, epoch, kInclusive, S::combine(tile_prefix, tile_total));
    } else if (lane == 0) {
      states.publish(tile, epoch, kInclusive, tile_total);
    }
    if (lane < kWarps)
      warp_scan[lane] = S::combine(tile_prefix, warp_before);
  }
  __syncthreads();

  const S warp_prefix = warp_scan[warp];
#pragma unroll
  for (int r = 0; r < kRounds; ++r)
    p.store(group[r], first_of(r), S::combine(warp_prefix, lane_before[r]));
}

// Host side: the split tile states and the ticket of one policy's launches, in scratch device
// memory zeroed whenever it grows (epoch 0 is no launch, a zero ticket is the next launch's first);
// after that each launch's epoch keeps earlier launches' states from matching, and the block that
// draws the last ticket resets it.
template <class S> class TileScanScratch {
public:
  // States for at least `tiles` tiles; the ticket follows the states.
  SplitStates<S> reserve(unsigned tiles) {
    static_assert(alignof(S) <= alignof(std::uint64_t), "states follow the 8-byte status words");
    if (tiles > capacity_) {
      const std::size_t bytes = tiles * (sizeof(std::uint64_t) + 2 * sizeof(S)) + sizeof(unsigned);
      char *base = static_cast<char *>(scratch_.reserve(bytes));
      GPU_CHECK(cudaMemsetAsync(base, 0, bytes));
      states_.status = reinterpret_cast<std::uint64_t *>(base);
      states_.aggregate = reinterpret_cast<S *>(base + tiles * sizeof(std::uint64_t));
      states_.inclusive = states_.aggregate + tiles;
      ticket_ = reinterpret_cast<unsigned *>(states_.inclusive + tiles);
      capacity_ = tiles;
    }
    return states_;
  }
  unsigned *ticket() const { return ticket_; }
  std::uint64_t next_epoch() { return lookback::next_epoch(epoch_); }

private:
  gpu::DeviceScratch scratch_;
  SplitStates<S> states_{};
  unsigned *ticket_ = nullptr;
  unsigned capacity_ = 0;
  std::uint64_t epoch_ = 0;
};

// One single-pass scan of policy p over its p.n elements, in the default stream (the LeetGPU
// solve()'s), with the states and ticket of policy P's own scratch.
template <class P> void launch_tile_scan(const P &p) {
  static TileScanScratch<typename P::State> scratch;
  const unsigned tiles = tiles_for<P>(p.n);
  if (tiles == 0)
    return;
  const SplitStates<typename P::State> states = scratch.reserve(tiles);
  const std::uint64_t epoch = scratch.next_epoch();
  static const unsigned resident =
      gpu::cooperative_launch_works()
          ? static_cast<unsigned>(gpu::resident_blocks(scan_tiles<P>, P::kThreads))
          : 0u;
  unsigned *const block_order = nullptr; // tiles in block order: no ticket
  if (tiles <= resident &&
      gpu::try_launch_cooperative("lookback::scan_tiles", scan_tiles<P>, tiles, P::kThreads, 0,
                                  nullptr, p, states, block_order, tiles, epoch))
    return;
  scan_tiles<P><<<tiles, P::kThreads>>>(p, states, scratch.ticket(), tiles, epoch);
  GPU_CHECK_LAUNCH("lookback::scan_tiles");
}

} // namespace kit::lookback
