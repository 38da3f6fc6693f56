// Device-wide inclusive scan in a single pass: decoupled look-back (Merrill & Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", 2016), written once for warp32 and wave64.
//
// Every block scans one tile of `kBlockThreads * kItemsPerThread` items held in registers and
// learns the combination of all earlier tiles from a small array of tile states:
//   1. its tile index comes from an atomic ticket, or from blockIdx.x when the grid was launched
//      cooperatively (TileOrder), so every lower-numbered tile belongs to a block that is running;
//   2. its data warps load and scan the tile; the last of them to finish publishes the tile's
//      aggregate (status AGGREGATE). Meanwhile one more warp, the look-back warp, which holds no
//      items, inspects the states of the warp-size tiles before it from the moment the tile is
//      known: the nearest PREFIX (inclusive prefix known) ends the walk, otherwise the window's
//      aggregates are combined and the window moves back by a warp;
//   3. once both are done, the look-back warp publishes the tile's inclusive prefix (status
//      PREFIX), and the data warps add their exclusive prefix and write their items.
// A block holds its tile until its look-back ends, and that wait is what limits a scan that
// otherwise moves the same bytes as a copy: started with the tile, the look-back overlaps the
// tile's own loads instead of following them.
//
// Tile states, tickets and the look-back walk are primitives/lookback.h's: packed states (a 4-byte
// value and its status in one word) published with an atomic max, since the aggregate and the
// inclusive prefix of a tile are published by different warps in either order.
//
// Items are 4-byte values (int, unsigned, float) moved as 16-byte vectors: a warp owns a
// contiguous segment of the tile and reads it vector-row by vector-row, each row being one
// vector per lane, so every load and store instruction of the warp is fully coalesced.
#pragma once

#include "collectives/warp.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/launch.h"
#include "gpu/scoped_atomics.h"
#include "gpu/vendor.h"
#include "primitives/lookback.h"
#include "primitives/lookback_workspace.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace kit {

using lookback::TileOrder;

// A scan kernel's shape (the tuning tables in prefix_sum/tuning.h choose one per architecture).
template <int kBlockThreadsValue, int kItemsPerThreadValue, int kOccupancyHintValue,
          TileOrder kTileOrderValue>
struct ScanConfig {
  // Threads that hold items; the look-back warp comes on top of them at launch.
  static constexpr int kBlockThreads = kBlockThreadsValue;
  static constexpr int kItemsPerThread = kItemsPerThreadValue;
  // __launch_bounds__'s second argument: on NVIDIA the blocks per SM to fit, on AMD the waves
  // per SIMD (HIP passes it to amdgpu_waves_per_eu). 1 asks for nothing.
  static constexpr int kOccupancyHint = kOccupancyHintValue;
  static constexpr TileOrder kTileOrder = kTileOrderValue;
  static constexpr int kVectorItems = 4; // 16-byte vectors of 4-byte items
  static constexpr int kVectorsPerThread = kItemsPerThread / kVectorItems;
  static constexpr std::size_t kTileItems = std::size_t(kBlockThreads) * kItemsPerThread;
  // 64 lanes divide the block on either vendor, so one configuration serves both.
  static_assert(kBlockThreads % kMaxWarpSize == 0, "block size must be a multiple of 64");
  static_assert(kItemsPerThread % kVectorItems == 0, "items per thread must be whole vectors");
};

// What one launch needs to find its tile states.
struct ScanTileStates {
  std::uint64_t *words;   // packed states, one per tile
  unsigned int *ticket;   // 0 between launches
  std::uint64_t epoch;    // this launch's number, 1 .. lookback::kPackedEpochLimit - 1
  unsigned int tiles;     // tiles in this launch (= grid size)
  bool block_index_tiles; // tile = blockIdx.x: set only for a cooperative launch
};

namespace scan_detail {

using lookback::bit_cast;

// Scans a warp's segment in place: each vector serially, each row across the lanes, rows in
// order. Returns the segment's total (in every lane).
template <int kVectors, class T, class Op>
__device__ __forceinline__ T scan_warp_segment(T (&x)[kVectors][4], Op op, T identity) {
  T warp_running = identity;
#pragma unroll
  for (int j = 0; j < kVectors; ++j) {
    x[j][1] = op(x[j][0], x[j][1]);
    x[j][2] = op(x[j][1], x[j][2]);
    x[j][3] = op(x[j][2], x[j][3]);
    T row_total;
    const T row_exclusive = warp_exclusive_scan(x[j][3], op, identity, row_total);
    const T before = op(warp_running, row_exclusive);
#pragma unroll
    for (int k = 0; k < 4; ++k)
      x[j][k] = op(before, x[j][k]);
    warp_running = op(warp_running, row_total);
  }
  return warp_running;
}

// Loads a warp's segment of a tile: x[j][k] is item k of this lane's vector in row j. Whole
// tiles with 16-byte aligned pointers move as vectors; the rest item by item, identity-padded.
template <class Config, class T>
__device__ __forceinline__ void load_segment(T (&x)[Config::kVectorsPerThread][4], const T *in,
                                             std::size_t n, T identity, bool whole_vectors,
                                             std::size_t warp_first) {
  const int lane = lane_id();
  if (whole_vectors) {
    const uint4 *src = reinterpret_cast<const uint4 *>(in + warp_first);
#pragma unroll
    for (int j = 0; j < Config::kVectorsPerThread; ++j) {
      const uint4 v = src[j * KIT_WARP_SIZE + lane];
      x[j][0] = bit_cast<T>(v.x);
      x[j][1] = bit_cast<T>(v.y);
      x[j][2] = bit_cast<T>(v.z);
      x[j][3] = bit_cast<T>(v.w);
    }
  } else {
#pragma unroll
    for (int j = 0; j < Config::kVectorsPerThread; ++j)
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const std::size_t i = warp_first + std::size_t(j * KIT_WARP_SIZE + lane) * 4 + k;
        x[j][k] = i < n ? in[i] : identity;
      }
  }
}

// Stores op(base, x) for a warp's segment, the inverse of load_segment.
template <class Config, class T, class Op>
__device__ __forceinline__ void store_segment(const T (&x)[Config::kVectorsPerThread][4], T base,
                                              Op op, T *out, std::size_t n, bool whole_vectors,
                                              std::size_t warp_first) {
  const int lane = lane_id();
  if (whole_vectors) {
    uint4 *dst = reinterpret_cast<uint4 *>(out + warp_first);
#pragma unroll
    for (int j = 0; j < Config::kVectorsPerThread; ++j) {
      uint4 v;
      v.x = bit_cast<unsigned int>(op(base, x[j][0]));
      v.y = bit_cast<unsigned int>(op(base, x[j][1]));
      v.z = bit_cast<unsigned int>(op(base, x[j][2]));
      v.w = bit_cast<unsigned int>(op(base, x[j][3]));
      dst[j * KIT_WARP_SIZE + lane] = v;
    }
  } else {
#pragma unroll
    for (int j = 0; j < Config::kVectorsPerThread; ++j)
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const std::size_t i = warp_first + std::size_t(j * KIT_WARP_SIZE + lane) * 4 + k;
        if (i < n)
          out[i] = op(base, x[j][k]);
      }
  }
}

} // namespace scan_detail

// Inclusive scan of `in[0, n)` into `out` (which may equal `in`). With `carry_in`, every output
// is additionally prefixed by *carry_in; with `total_out`, the last tile writes the inclusive
// total there (carry_in included). Both are device pointers read/written in stream order, which
// chains scans of consecutive chunks without a host round trip.
//
// Co-residency: block b waits only on tiles below its own, and those belong to running blocks:
// with `states.block_index_tiles` the grid was launched cooperatively (every block resident),
// otherwise the tile is an atomic ticket, drawn only by a block that has started.
template <class Config, class T, class Op>
__global__ void __launch_bounds__(Config::kBlockThreads + KIT_WARP_SIZE, Config::kOccupancyHint)
    decoupled_lookback_scan_kernel(const T *in, T *out, std::size_t n, Op op, T identity,
                                   ScanTileStates states, bool vector_io, const T *carry_in,
                                   T *total_out) {
  using namespace scan_detail;
  static_assert(sizeof(T) == 4, "tile states pack 4-byte values");
  constexpr int kWarps = Config::kBlockThreads / KIT_WARP_SIZE; // warps that hold items
  constexpr std::size_t kWarpItems = std::size_t(KIT_WARP_SIZE) * Config::kItemsPerThread;

  __shared__ T warp_totals[kWarps];
  __shared__ T tile_exclusive;
  __shared__ T tile_aggregate;
  __shared__ unsigned int tile_slot;
  __shared__ unsigned int warps_done;

  if (threadIdx.x == 0) {
    unsigned int drawn = blockIdx.x;
    if (!states.block_index_tiles) {
      drawn = lookback::draw_tile(states.ticket, states.tiles);
    }
    tile_slot = drawn;
    warps_done = 0;
  }
  __syncthreads();
  const unsigned int tile = tile_slot;
  const int lane = lane_id();
  const int warp = warp_id();
  const bool looks_back = warp == kWarps; // the last warp
  const std::size_t tile_first = std::size_t(tile) * Config::kTileItems;
  const std::size_t warp_first = tile_first + std::size_t(warp) * kWarpItems;
  const bool whole_vectors = vector_io && tile_first + Config::kTileItems <= n;
  const lookback::PackedStates<T> tile_states{states.words};
  T x[Config::kVectorsPerThread][4];

  T exclusive = identity;
  if (looks_back) {
    exclusive = tile == 0 ? (carry_in ? *carry_in : identity)
                          : lookback::look_back<T>(tile_states, tile, states.epoch, op, identity);
  } else {
    load_segment<Config>(x, in, n, identity, whole_vectors, warp_first);
    const T warp_total = scan_warp_segment(x, op, identity);
    if (lane == 0) {
      // The last data warp to arrive combines the warp totals and publishes the aggregate at
      // once: a barrier here would also wait for the look-back warp and serialise the look-backs
      // of consecutive tiles. So the totals cross warps without one, as block-scope atomics,
      // ordered by the fences around the arrival count.
      block_store_relaxed(&warp_totals[warp], warp_total);
      __threadfence_block();
      if (atomicAdd(&warps_done, 1u) == kWarps - 1) {
        __threadfence_block();
        T aggregate = block_load_relaxed(&warp_totals[0]);
        for (int w = 1; w < kWarps; ++w)
          aggregate = op(aggregate, block_load_relaxed(&warp_totals[w]));
        tile_aggregate = aggregate;
        if (tile > 0)
          tile_states.publish_monotonic(tile, states.epoch, lookback::kAggregate, aggregate);
      }
    }
  }
  __syncthreads();
  if (looks_back && lane == 0) {
    const T inclusive = op(exclusive, tile_aggregate);
    tile_states.publish_monotonic(tile, states.epoch, lookback::kInclusive, inclusive);
    tile_exclusive = exclusive;
    if (total_out && tile == states.tiles - 1)
      *total_out = inclusive;
  }
  __syncthreads();
  if (looks_back)
    return;
  T base = tile_exclusive;
  for (int w = 0; w < warp; ++w)
    base = op(base, warp_totals[w]);
  store_segment<Config>(x, base, op, out, n, whole_vectors, warp_first);
}

// Tile states and ticket shared by consecutive scans. Scans that use one workspace must be
// ordered (same stream, or chained with events): the epoch and the ticket assume it.
using ScanWorkspace = lookback::Workspace;

// Threads of a block of the scan kernel: the data threads plus the look-back warp.
template <class Config> int scan_block_threads() {
  static const int threads = Config::kBlockThreads + gpu::device_warp_size();
  return threads;
}

// The largest launch, in tiles, that takes its tiles in blockIdx order under a cooperative launch:
// as many blocks of the kernel as the current device holds at once, or 0 (every launch draws
// tickets) for TileOrder::kTicket and on a device without cooperative launch. A cooperative launch
// the runtime refuses falls back to tickets too (device_inclusive_scan).
template <class Config, class T, class Op> std::size_t scan_cooperative_tiles() {
  static const std::size_t tiles =
      Config::kTileOrder == TileOrder::kCooperativeWhenResident && gpu::cooperative_launch_works()
          ? gpu::resident_blocks(decoupled_lookback_scan_kernel<Config, T, Op>,
                                 scan_block_threads<Config>())
          : 0;
  return tiles;
}

// Inclusive scan of n items, one kernel launch in `stream` (see decoupled_lookback_scan_kernel
// for carry_in / total_out). n == 0 launches nothing and writes nothing.
template <class Config, class T, class Op>
void device_inclusive_scan(const T *in, T *out, std::size_t n, Op op, T identity,
                           ScanWorkspace &workspace, cudaStream_t stream = 0,
                           const T *carry_in = nullptr, T *total_out = nullptr) {
  if (n == 0)
    return;
  const std::size_t tiles = (n + Config::kTileItems - 1) / Config::kTileItems;
  if (tiles > 0x7fffffffu) {
    std::fprintf(stderr, "device_inclusive_scan: %zu items need %zu tiles, more than one grid\n", n,
                 tiles);
    std::exit(gpu::kGpuFailureExitCode);
  }
  workspace.reserve(tiles);
  const bool vector_io = reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                         reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  const unsigned int grid = static_cast<unsigned int>(tiles);
  const unsigned int block = static_cast<unsigned int>(scan_block_threads<Config>());
  ScanTileStates states{workspace.words(), workspace.ticket(), workspace.next_epoch(stream), grid,
                        false};
  if (tiles <= scan_cooperative_tiles<Config, T, Op>()) {
    ScanTileStates cooperative = states;
    cooperative.block_index_tiles = true;
    if (gpu::try_launch_cooperative("decoupled_lookback_scan_kernel",
                                    decoupled_lookback_scan_kernel<Config, T, Op>, grid, block, 0,
                                    stream, in, out, n, op, identity, cooperative, vector_io,
                                    carry_in, total_out))
      return;
  }
  decoupled_lookback_scan_kernel<Config><<<grid, block, 0, stream>>>(
      in, out, n, op, identity, states, vector_io, carry_in, total_out);
  GPU_CHECK_LAUNCH("decoupled_lookback_scan_kernel");
}

} // namespace kit
