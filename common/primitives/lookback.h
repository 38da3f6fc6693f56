// Decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", 2016): the one implementation of tile states, tile ordering and the look-back walk
// that every single-pass scan-like primitive shares (primitives/device_scan.h,
// primitives/tile_scan.h, stream compaction), as rocPRIM's lookback_scan_state serves its scan,
// select and partition.
//
// A scan over tiles publishes, per tile, its aggregate (the combination of its own elements) and
// then its inclusive prefix (the combination of every element up to its end). A tile learns the
// combination of all tiles before it by walking back one warp-width of predecessors at a time
// until it meets one with an inclusive prefix, combining the aggregates it passed.
//
//   Value types and operators: any value T with an associative (not necessarily commutative)
//   operator op(earlier, later) and its identity; states are combined in element order.
//   Tile states: PackedStates for 4-byte values (value and status in one 64-bit word, one load
//   reads both), SplitStates for any value (a status word published with release after the
//   value). Each word carries the launch's epoch, so states of earlier launches read as "not
//   published" and the arrays never need clearing between launches.
//   Tile order: a tile only ever waits for lower tiles, so those must belong to running blocks.
//   draw_tile hands out tickets in the order blocks start (safe for any grid on any GPU); a grid
//   launched cooperatively (gpu/launch.h) may use blockIdx.x instead.
//   Waiting: gpu/backoff.h's SpinBackoff between polls, restarted for each window.
#pragma once

#include "collectives/warp.h"
#include "gpu/backoff.h"
#include "gpu/scoped_atomics.h"
#include "gpu/vendor.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace kit::lookback {

// Where a block's tile index comes from (a primitive's tuning chooses).
enum class TileOrder {
  // Every launch is an ordinary launch whose blocks draw an atomic ticket: a lower ticket was
  // drawn by a block that has started.
  kTicket,
  // A grid the device holds at once is launched cooperatively and block b takes tile b, sparing
  // the ticket's round trip before the loads; a larger grid, a device without cooperative launch,
  // or a refused cooperative launch draws tickets.
  kCooperativeWhenResident,
};

// Status of a tile in the current launch.
inline constexpr std::uint64_t kUnpublished = 0;
inline constexpr std::uint64_t kAggregate = 1;
inline constexpr std::uint64_t kInclusive = 2;

// Packed epochs are 30 bits: 1 .. kPackedEpochLimit - 1.
inline constexpr std::uint64_t kPackedEpochLimit = std::uint64_t{1} << 30;

template <class To, class From> __host__ __device__ __forceinline__ To bit_cast(const From &from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast between types of different sizes");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

// Host side: the epoch of the next launch of split states, never 0 (62 bits never wrap).
inline std::uint64_t next_epoch(std::uint64_t &counter) { return ++counter; }
// The epoch of the next launch of packed states published with publish() (not
// publish_monotonic()), 1 .. kPackedEpochLimit - 1: a wrapped epoch only needs old words not to
// match, which a word written 2^30 - 1 launches ago cannot.
inline std::uint64_t next_packed_epoch(std::uint64_t &counter) {
  counter = counter % (kPackedEpochLimit - 1) + 1;
  return counter;
}

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)

// Thread 0 of a block draws the block's tile. The block drawing the last ticket resets the
// counter: every ticket of the launch is drawn by then, and the next launch is stream-ordered
// after this one.
__device__ __forceinline__ unsigned draw_tile(unsigned *ticket, unsigned num_tiles) {
  const unsigned tile = atomicAdd(ticket, 1u);
  if (tile == num_tiles - 1)
    atomicExch(ticket, 0u);
  return tile;
}

// 4-byte values packed with their status in one 64-bit word {epoch:30, status:2, value:32}: one
// relaxed load reads both, so a reader that sees a status sees its value, and no other memory is
// communicated through the word.
template <class T> struct PackedStates {
  static_assert(sizeof(T) == 4, "packed tile states hold 4-byte values");
  std::uint64_t *words;

  __device__ static std::uint64_t pack(std::uint64_t epoch, std::uint64_t kind, T value) {
    return epoch << 34 | kind << 32 | bit_cast<std::uint32_t>(value);
  }
  // For a tile whose aggregate and inclusive prefix are published by the same thread, in order.
  __device__ void publish(unsigned tile, std::uint64_t epoch, std::uint64_t kind, T value) const {
    gpu_store_relaxed(&words[tile], pack(epoch, kind, value));
  }
  // For a tile whose aggregate and inclusive prefix may be published by different warps in either
  // order: the maximum keeps the inclusive prefix, which outranks the aggregate of its epoch. A
  // later epoch outranks an earlier one, so the words must be cleared when the epoch wraps
  // (Workspace does).
  __device__ void publish_monotonic(unsigned tile, std::uint64_t epoch, std::uint64_t kind,
                                    T value) const {
    gpu_atomic_max_relaxed(&words[tile], pack(epoch, kind, value));
  }
  __device__ std::uint64_t word(long long tile) const { return gpu_load_relaxed(&words[tile]); }
  __device__ static std::uint64_t kind_of(std::uint64_t word, std::uint64_t epoch) {
    return (word >> 34) == epoch ? (word >> 32 & 3) : kUnpublished;
  }
  __device__ T value(long long, std::uint64_t word) const {
    return bit_cast<T>(static_cast<std::uint32_t>(word));
  }
};

// Values of any size: a status word per tile (epoch << 2 | kind) published with a release store
// after the value, and the value in one of two arrays (the aggregate stays readable after the
// inclusive prefix is published). One thread publishes both states of a tile.
template <class T> struct SplitStates {
  std::uint64_t *status;
  T *aggregate;
  T *inclusive;

  __device__ void publish(unsigned tile, std::uint64_t epoch, std::uint64_t kind,
                          const T &value) const {
    (kind == kInclusive ? inclusive : aggregate)[tile] = value;
    gpu_store_release(&status[tile], epoch << 2 | kind); // orders the value store first
  }
  // The status word of `tile` (acquire: the value read after it is the published one).
  __device__ std::uint64_t word(long long tile) const { return gpu_load_acquire(&status[tile]); }
  __device__ static std::uint64_t kind_of(std::uint64_t word, std::uint64_t epoch) {
    return (word >> 2) == epoch ? (word & 3) : kUnpublished;
  }
  __device__ T value(long long tile, std::uint64_t word) const {
    return (word & 3) == kInclusive ? inclusive[tile] : aggregate[tile];
  }
};

// Called by all lanes of one warp for tile `tile` (> 0): the combination, in order, of every tile
// before it. Lane l of a window reads tile window_end - warp + l, so the nearest predecessor sits
// in the highest lane; the walk waits until the nearest tile with an inclusive prefix, and every
// tile after it, has published (the tiles before that prefix do not matter), combines those, and
// moves back a window while no inclusive prefix was found. Tiles before tile 0 read as an
// inclusive identity. Every tile it waits on is lower in tile order, so it is running and
// publishes without waiting on this one.
template <class T, class States, class Op>
__device__ T look_back(const States &states, unsigned tile, std::uint64_t epoch, Op op,
                       T identity) {
  const int lane = lane_id();
  T exclusive = identity; // combination of the tiles after the current window
  for (long long window_end = tile;; window_end -= KIT_WARP_SIZE) {
    const long long pred = window_end - KIT_WARP_SIZE + lane;
    std::uint64_t word = 0;
    std::uint64_t kind = pred >= 0 ? kUnpublished : kInclusive;
    int stop;
    SpinBackoff backoff;
    for (;;) {
      if (pred >= 0 && kind != kInclusive) { // an inclusive prefix stays published
        word = states.word(pred);
        kind = States::kind_of(word, epoch);
      }
      stop = lane_mask_highest(warp_ballot(kind == kInclusive));
      const lane_mask_t from_stop = ~((lane_mask_t{1} << (stop < 0 ? 0 : stop)) - 1);
      if ((warp_ballot(kind == kUnpublished) & from_stop) == 0)
        break;
      backoff.wait();
    }
    T value = identity;
    if (pred >= 0 && lane >= stop)
      value = states.value(pred, word);
    exclusive = op(shuffle(warp_inclusive_scan(value, op), KIT_WARP_SIZE - 1), exclusive);
    if (stop >= 0)
      return exclusive;
  }
}

// The same walk by one thread for one scan, one predecessor at a time: for many independent scans
// over the same tiles at once, one per thread (radix sort's digit counts, CUB's onesweep), where
// a warp-wide window per scan would multiply the loads. Returns the combination of every tile
// before `tile` (> 0); tile 0 must publish an inclusive state, which ends every walk.
template <class T, class States, class Op>
__device__ __forceinline__ T look_back_serial(const States &states, unsigned tile,
                                              std::uint64_t epoch, Op op, T identity) {
  T exclusive = identity;
  // A 32-bit predecessor index: the walk is the critical path of a chain of tiles (each tile's
  // inclusive state waits on it), so its address arithmetic is kept to 32-bit widening multiplies.
  for (unsigned pred = tile - 1;; --pred) {
    auto word = states.word(pred);
    SpinBackoff backoff;
    while (States::kind_of(word, epoch) == kUnpublished) {
      backoff.wait();
      word = states.word(pred);
    }
    exclusive = op(states.value(pred, word), exclusive);
    if (States::kind_of(word, epoch) == kInclusive)
      return exclusive;
  }
}

#endif // device compilation

} // namespace kit::lookback
