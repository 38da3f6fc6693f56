// Single-pass scans with decoupled look-back (Merrill and Garland, "Single-pass Parallel Prefix
// Scan with Decoupled Look-back", 2016), shared by the basics scans: segmented_prefix_sum,
// linear_recurrence and gae_reverse_scan use the whole tile kernel (scan_tiles) with a policy of
// their own; stream_compaction uses its pieces (tickets, status words, look-back) for its counts.
//
// The scan runs over a monoid of states S (a struct with no constructors, so it can live in
// shared memory):
//   S::identity()              the neutral state;
//   S::combine(earlier, later) associative, NOT necessarily commutative: every combination here
//                              keeps the elements' order;
//   s.absorbs()                (scan_tiles only) true when combine(p, s) == s for every p, i.e.
//                              nothing before s matters (a segment start, a zero coefficient of
//                              an affine map);
//   s.shfl_up(d), s.shfl(l)    the warp shuffles of each member (kit::warp_shfl_up / warp_shfl).
//
// How a launch proceeds (scan_tiles):
//  - A block draws its tile number from a ticket counter, so tiles start in ticket order and a
//    tile only ever waits on tiles that are already running: no block waits on one that has not
//    started, whatever the grid size and however the hardware schedules it.
//  - Each warp owns a contiguous run of the tile, loaded as kRounds groups of four elements per
//    lane (coalesced, every load issued before any is used); it folds each lane's group, scans
//    the lane totals round by round with shuffles and carries the round totals.
//  - Warp 0 scans the warp totals, publishes the tile's aggregate and looks back over the
//    preceding tiles one warp-width at a time until it meets one that has published its
//    inclusive prefix, then publishes its own. A tile whose aggregate absorbs publishes it as its
//    inclusive prefix at once; a tile whose first element absorbs needs no look-back at all.
// Tile status words carry the launch's epoch, so the status arrays never need clearing; the
// ticket counter is reset by the block that draws the last ticket. The exporter inlines this
// header into each submission file (kernel.cu includes it as "../passes/lookback_scan.h").
#pragma once

#include "gpu/gpu.h"

#include <cstddef>
#include <cstdint>

namespace kit::basics::lookback {

inline constexpr std::uint64_t kAggregate = 1;
inline constexpr std::uint64_t kInclusive = 2;

// Element e (0..3) of a group's four floats, as the policies' load() returns them.
__device__ __forceinline__ float component(float4 v, int e) {
  return e == 0 ? v.x : e == 1 ? v.y : e == 2 ? v.z : v.w;
}

// Ordered warp scans over a state type (collectives.h's scans shuffle the value as one register;
// these shuffle the state's members). Every lane of the warp must call them.
template <class S> __device__ __forceinline__ S warp_inclusive_scan(S v) {
  const int lane = kit::lane_id();
#pragma unroll
  for (int offset = 1; offset < KIT_WARP_SIZE; offset *= 2) {
    const S earlier = v.shfl_up(offset);
    if (lane >= offset)
      v = S::combine(earlier, v);
  }
  return v;
}

// Exclusive scan; lane 0 gets the identity and `total` the combination of all lanes.
template <class S> __device__ __forceinline__ S warp_exclusive_scan(S v, S &total) {
  const S inclusive = warp_inclusive_scan(v);
  total = inclusive.shfl(KIT_WARP_SIZE - 1);
  const S before = inclusive.shfl_up(1);
  return kit::lane_id() == 0 ? S::identity() : before;
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
  __device__ AffineMap shfl_up(unsigned delta) const {
    return {kit::warp_shfl_up(a, delta), kit::warp_shfl_up(x, delta)};
  }
  __device__ AffineMap shfl(int src) const {
    return {kit::warp_shfl(a, src), kit::warp_shfl(x, src)};
  }
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

// Thread 0 of a block draws the block's tile. Tickets are handed out in the order blocks start;
// the block drawing the last ticket resets the counter, which is safe because every ticket of
// the launch is drawn by then and the next launch is stream-ordered after this one.
__device__ __forceinline__ unsigned draw_tile(unsigned *next_tile, unsigned num_tiles) {
  const unsigned tile = atomicAdd(next_tile, 1u);
  if (tile == num_tiles - 1)
    atomicExch(next_tile, 0u);
  return tile;
}

// Tile states of any size: a status word per tile (epoch << 2 | kind) published with a release
// store after the value, and the value in one of two arrays (the aggregate stays readable after
// the inclusive prefix is published). The arrays are zero-initialised device globals of the
// kernel file; epoch 0 belongs to no launch.
template <class S> struct SplitStates {
  std::uint64_t *status;
  S *aggregate;
  S *inclusive;

  __device__ void publish(unsigned tile, std::uint64_t epoch, std::uint64_t kind,
                          const S &value) const {
    (kind == kInclusive ? inclusive : aggregate)[tile] = value;
    kit::gpu_store_release(&status[tile], epoch << 2 | kind); // orders the value store first
  }
  // The status word of `tile` (acquire: the value read after it is the published one).
  __device__ std::uint64_t word(long long tile) const {
    return kit::gpu_load_acquire(&status[tile]);
  }
  __device__ static std::uint64_t kind_of(std::uint64_t word, std::uint64_t epoch) {
    return (word >> 2) == epoch ? (word & 3) : 0;
  }
  __device__ S value(long long tile, std::uint64_t word) const {
    return (word & 3) == kInclusive ? inclusive[tile] : aggregate[tile];
  }
};

// Tile states of 32 bits packed with their status in one 64-bit word (epoch << 34 | kind << 32 |
// value): one relaxed store publishes both, one relaxed load reads both. S is a 4-byte state with
// bits() and from_bits(). Epochs are 30 bits here (next_packed_epoch).
template <class S> struct PackedStates {
  std::uint64_t *words;

  __device__ void publish(unsigned tile, std::uint64_t epoch, std::uint64_t kind,
                          const S &value) const {
    kit::gpu_store_relaxed(&words[tile], epoch << 34 | kind << 32 | value.bits());
  }
  __device__ std::uint64_t word(long long tile) const {
    return kit::gpu_load_relaxed(&words[tile]);
  }
  __device__ static std::uint64_t kind_of(std::uint64_t word, std::uint64_t epoch) {
    return (word >> 34) == epoch ? (word >> 32 & 3) : 0;
  }
  __device__ S value(long long, std::uint64_t word) const {
    return S::from_bits(static_cast<std::uint32_t>(word));
  }
};

// Host side: the epoch of the next launch, never 0. Split states take 62 bits, packed ones 30.
inline std::uint64_t next_epoch(std::uint64_t &counter) { return ++counter; }
inline std::uint64_t next_packed_epoch(std::uint64_t &counter) {
  counter = counter % ((std::uint64_t{1} << 30) - 1) + 1;
  return counter;
}

// Called by all lanes of one warp of the block owning `tile` (> 0), after it published its
// aggregate: the combination, in order, of every tile before `tile`. Looks at one warp-width of
// predecessors per step (lane l takes tile window_end - warp + l) and waits until the nearest one
// with an inclusive prefix, and every tile after it, has published something (the tiles before
// that prefix do not matter); then combines those aggregates with that prefix. Every tile it
// waits on holds an earlier ticket, so it is running and publishes without waiting on this one.
// Tiles before tile 0 read as an inclusive identity.
template <class S, class States>
__device__ S look_back(const States &states, unsigned tile, std::uint64_t epoch) {
  const int lane = kit::lane_id();
  S exclusive = S::identity();
  long long window_end = tile;
  for (;;) {
    const long long pred = window_end - KIT_WARP_SIZE + lane;
    std::uint64_t word = 0;
    std::uint64_t kind = pred >= 0 ? 0 : kInclusive; // 0: nothing published (yet)
    int stop;
    kit::SpinBackoff backoff;
    for (;;) {
      if (pred >= 0 && kind != kInclusive) { // an inclusive prefix stays published
        word = states.word(pred);
        kind = States::kind_of(word, epoch);
      }
      stop = kit::lane_mask_highest(kit::warp_ballot(kind == kInclusive));
      const kit::lane_mask_t from_stop = ~((kit::lane_mask_t{1} << (stop < 0 ? 0 : stop)) - 1);
      if ((kit::warp_ballot(kind == 0) & from_stop) == 0)
        break;
      backoff.wait();
    }
    S value = S::identity();
    if (pred >= 0 && lane >= stop)
      value = states.value(pred, word);
    exclusive = S::combine(warp_inclusive_scan(value).shfl(KIT_WARP_SIZE - 1), exclusive);
    if (stop >= 0)
      return exclusive;
    window_end -= KIT_WARP_SIZE;
  }
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
//   SplitStates<State> states() const;      the tile states (zero-initialised device globals of
//                                           the kernel file, or scratch zeroed when allocated)
//   static unsigned *next_tile();           the ticket counter (a zero-initialised global)
// Launch: scan_tiles<P><<<tiles_for<P>(n), P::kThreads>>>(policy, tiles, epoch).
template <class P> __host__ __device__ constexpr std::size_t tile_items() {
  return static_cast<std::size_t>(P::kThreads) * 4 * P::kRounds;
}
template <class P> unsigned tiles_for(std::size_t n) {
  return static_cast<unsigned>((n + tile_items<P>() - 1) / tile_items<P>());
}

template <class P>
__global__ void __launch_bounds__(P::kThreads)
    scan_tiles(const P p, unsigned num_tiles, std::uint64_t epoch) {
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
    tile_shared = draw_tile(P::next_tile(), num_tiles);
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
    const S before = warp_exclusive_scan(total, round_total);
    lane_before[r] = S::combine(carry, before);
    carry = S::combine(carry, round_total);
  }
  if (lane == 0)
    warp_scan[warp] = carry;
  __syncthreads();

  if (warp == 0) {
    const S warp_total = lane < kWarps ? warp_scan[lane] : S::identity();
    S tile_total;
    const S warp_before = warp_exclusive_scan(warp_total, tile_total);
    // Lane 0 of warp 0 holds the tile's first element. If it absorbs, so does every state that
    // includes it, and nothing before the tile can change an output.
    const int first_absorbs = kit::warp_shfl(
        static_cast<int>(lane == 0 && p.lift(group[0], first_of(0), 0).absorbs()), 0);
    const SplitStates<S> states = p.states();
    S tile_prefix = S::identity();
    if (tile > 0 && !first_absorbs) {
      const bool total_absorbs = tile_total.absorbs();
      if (lane == 0)
        states.publish(tile, epoch, total_absorbs ? kInclusive : kAggregate, tile_total);
      tile_prefix = look_back<S>(states, tile, epoch);
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

} // namespace kit::basics::lookback
