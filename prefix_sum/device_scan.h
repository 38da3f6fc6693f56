// Device-wide inclusive scan in a single pass: decoupled look-back (Merrill & Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", 2016), written once for warp32 and wave64.
//
// Every block scans one tile of `kBlockThreads * kItemsPerThread` items held in registers, then
// learns the combination of all earlier tiles from a small array of tile states:
//   1. it draws its tile index from an atomic ticket, so every lower-numbered tile belongs to a
//      block that has already started. Looking back therefore never waits on a tile that has not
//      been scheduled, which matters on GPUs that give no forward-progress guarantee to
//      unscheduled blocks (AMD) or that dispatch blocks out of blockIdx order. A grid that fits
//      on the GPU at once needs no ticket (TileOrder);
//   2. its data warps load and scan the tile; the last of them to finish publishes the tile's
//      aggregate (status AGGREGATE). Meanwhile a look-back warp, which holds no items, inspects
//      the states of the warp-size tiles before it from the moment the tile is known: the
//      nearest PREFIX (inclusive prefix known) ends the walk, otherwise the window's aggregates
//      are combined and the window moves back by a warp;
//   3. once both are done, the look-back warp publishes the tile's inclusive prefix (status
//      PREFIX), and the data warps add their exclusive prefix and write their items.
// Each state is one 8-byte-aligned 64-bit word {epoch:30, status:2, value:32}, written and read
// atomically, so a reader that sees a status also sees its value. The epoch is a launch counter:
// states left over from earlier launches read as "not yet published", which spares the separate
// initialisation kernel (or memset) before every scan. The ticket counter is reset by the block
// that draws the last ticket, so one launch is the whole scan.
//
// Why a separate look-back warp: a block holds its tile in registers until its look-back ends,
// and the waiting for predecessors is what limits a scan that is otherwise a copy. Started at
// the ticket, the look-back overlaps the tile's own loads instead of following them (measured on
// the H200: 70-71% -> 90-93% of copy bandwidth at N >= 1e8). The classic order (warp 0 looks
// back after the block has scanned) and an L2 prefetch of tiles ahead (gpu_prefetch_l2, which
// helps the classic order but not this one) stay available as configurations for the benchmark.
//
// Items are 4-byte values (int, unsigned, float) moved as 16-byte vectors: a warp owns a
// contiguous segment of the tile and reads it vector-row by vector-row, each row being one
// vector per lane, so every load and store instruction of the warp is fully coalesced.
#pragma once

#include "gpu/collectives.h"
#include "gpu/bulk_copy.h"
#include "gpu/gpu.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kit {

// How the tile states are published and observed.
enum class LookbackOrder {
  // Relaxed atomics. Sufficient here because a state word carries everything its reader uses:
  // the 64-bit store is single-copy atomic, so a reader never sees a status without its value,
  // and no other memory is communicated through the flag. This is what CUB does for packed words.
  kRelaxed,
  // Release store / acquire load (device scope): also orders every earlier write of the
  // publishing thread, at the cost of a fence before each publish. Kept to measure the cost.
  // (With a look-back warp, states are published by a relaxed atomic max in either order; only
  // the observing loads change.)
  kReleaseAcquire,
};

// Where a block's tile index comes from.
enum class TileOrder {
  // Always an atomic ticket (kept for the benchmark).
  kTicket,
  // blockIdx.x when the whole grid is resident (no more tiles than the occupancy API says the GPU
  // holds at once), else the ticket. In a resident grid every block is running or about to run,
  // so waiting on any lower tile is safe, and the loads start without the ticket's round trip
  // through L2 (H100, N = 1e6 / 2e6 / 3e6: 7.1 -> 6.8, 9.3 -> 8.6, 11.3 -> 10.4 us; H200 6.8 ->
  // 6.7, 8.9 -> 8.3, 10.7 -> 9.7 us; prefix_sum/README.md).
  kBlockIndexWhenResident,
};

template <int kBlockThreadsValue, int kItemsPerThreadValue,
          LookbackOrder kOrderValue = LookbackOrder::kRelaxed, int kPrefetchTilesValue = 0,
          bool kLookbackWarpValue = false, int kMinBlocksValue = 1,
          TileOrder kTileOrderValue = TileOrder::kBlockIndexWhenResident>
struct ScanConfig {
  // With a look-back warp, the block has one extra warp that holds no items: it starts the
  // look-back as soon as the tile is known, while the other warps load and scan the tile, so
  // the wait for the predecessors overlaps the tile's own loads.
  static constexpr bool kLookbackWarp = kLookbackWarpValue;
  static constexpr int kMinBlocks = kMinBlocksValue; // __launch_bounds__ occupancy hint
  // Threads that hold items; a look-back warp comes on top of them at launch.
  static constexpr int kBlockThreads = kBlockThreadsValue;
  static constexpr int kItemsPerThread = kItemsPerThreadValue;
  static constexpr LookbackOrder kOrder = kOrderValue;
  // When > 0, the block that draws tile t asks L2 to fetch tile t + kPrefetchTiles
  // (gpu_prefetch_l2): by the time a block draws that ticket its loads hit L2, and DRAM stays
  // busy with requests that hold no registers. 0 turns it off. (Measured: +12-14 points of copy
  // bandwidth for the classic order at 128 tiles, 1-2 points lost with the look-back warp.)
  static constexpr int kPrefetchTiles = kPrefetchTilesValue;
  static constexpr TileOrder kTileOrder = kTileOrderValue;
  static constexpr int kVectorItems = 4; // 16-byte vectors of 4-byte items
  static constexpr int kVectorsPerThread = kItemsPerThread / kVectorItems;
  static constexpr std::size_t kTileItems = std::size_t(kBlockThreads) * kItemsPerThread;
  // 64 lanes divide the block on either vendor, so one configuration serves both.
  static_assert(kBlockThreads % kMaxWarpSize == 0, "block size must be a multiple of 64");
  static_assert(kItemsPerThread % kVectorItems == 0, "items per thread must be whole vectors");
};

// The configuration the kit uses (prefix_sum/README.md has the measurements, H200): 256 data
// threads x 32 items in registers (power-of-two tiles of 8192 items) plus the look-back warp.
// Within 1% of the fastest shape measured at N = 1e8 and 1e9.
using DefaultScanConfig = ScanConfig<256, 32, LookbackOrder::kRelaxed, 0, true>;

// What one launch needs to find its tile states.
struct ScanTileStates {
  std::uint64_t *words;   // one per tile, zero-initialised once at allocation
  unsigned int *ticket;   // 0 between launches
  std::uint32_t epoch;    // this launch's number, 1 .. kEpochLimit - 1
  unsigned int tiles;     // tiles in this launch (= grid size)
  bool block_index_tiles; // tile = blockIdx.x, no ticket (the grid is resident: TileOrder)
};

namespace scan_detail {

constexpr std::uint32_t kStatusInvalid = 0; // not published in this launch
constexpr std::uint32_t kStatusAggregate = 1;
constexpr std::uint32_t kStatusPrefix = 2;
constexpr std::uint32_t kEpochLimit = 1u << 30;

template <class To, class From> __host__ __device__ __forceinline__ To bit_cast(const From &from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast between types of different sizes");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

template <class T>
__device__ __forceinline__ std::uint64_t pack_state(std::uint32_t status, std::uint32_t epoch,
                                                    T value) {
  const std::uint32_t high = (epoch << 2) | status;
  return (std::uint64_t{high} << 32) | bit_cast<std::uint32_t>(value);
}

__device__ __forceinline__ std::uint32_t state_status(std::uint64_t word, std::uint32_t epoch) {
  const std::uint32_t high = static_cast<std::uint32_t>(word >> 32);
  return (high >> 2) == epoch ? (high & 3u) : kStatusInvalid;
}

template <class T> __device__ __forceinline__ T state_value(std::uint64_t word) {
  return bit_cast<T>(static_cast<std::uint32_t>(word));
}

template <LookbackOrder kOrder>
__device__ __forceinline__ void publish_state(std::uint64_t *word, std::uint64_t value) {
  if constexpr (kOrder == LookbackOrder::kRelaxed)
    gpu_store_relaxed(word, value);
  else
    gpu_store_release(word, value);
}

template <LookbackOrder kOrder>
__device__ __forceinline__ std::uint64_t observe_state(const std::uint64_t *word) {
  if constexpr (kOrder == LookbackOrder::kRelaxed)
    return gpu_load_relaxed(word);
  else
    return gpu_load_acquire(word);
}

// Run by one whole warp of tile `tile` (> 0) once its `aggregate` is published. Returns the
// combination of all tiles before it, in order. Lane l of a window reads tile
// `window_last - (warp - 1) + l`, so the nearest predecessor sits in the highest lane.
template <LookbackOrder kOrder, class T, class Op>
__device__ __forceinline__ T look_back(const ScanTileStates &states, unsigned int tile, Op op,
                                       T identity) {
  const int lane = lane_id();
  T exclusive = identity; // combination of the tiles after the current window
  long long window_last = static_cast<long long>(tile) - 1;
  SpinBackoff backoff;
  for (;;) {
    const long long index = window_last - (KIT_WARP_SIZE - 1) + lane;
    std::uint32_t status = kStatusPrefix; // before tile 0: nothing to add
    T value = identity;
    if (index >= 0) {
      const std::uint64_t word = observe_state<kOrder>(states.words + index);
      status = state_status(word, states.epoch);
      value = state_value<T>(word);
    }
    const int nearest_prefix = lane_mask_highest(warp_ballot(status == kStatusPrefix));
    const lane_mask_t invalid = warp_ballot(status == kStatusInvalid);
    // Only the tiles from the nearest PREFIX upwards are needed; all of them must have published.
    const lane_mask_t needed =
        nearest_prefix < 0 ? ~lane_mask_t{0} : ~((lane_mask_t{2} << nearest_prefix) - 1);
    if (invalid & needed) {
      // A predecessor has its tile but not its aggregate yet: it is running, so waiting is
      // safe. The back-off lets it (and other waves on this SIMD) issue.
      backoff.wait();
      continue;
    }
    T contribution = lane >= nearest_prefix ? value : identity;
    contribution = warp_shfl(warp_inclusive_scan(contribution, op), KIT_WARP_SIZE - 1);
    exclusive = op(contribution, exclusive);
    if (nearest_prefix >= 0)
      return exclusive;
    window_last -= KIT_WARP_SIZE;
  }
}

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
template <class Config, class T, class Op>
__global__ void __launch_bounds__(Config::kBlockThreads +
                                      (Config::kLookbackWarp ? KIT_WARP_SIZE : 0),
                                  Config::kMinBlocks)
    decoupled_lookback_scan_kernel(const T *in, T *out, std::size_t n, Op op, T identity,
                                   ScanTileStates states, bool vector_io, const T *carry_in,
                                   T *total_out) {
  using namespace scan_detail;
  static_assert(sizeof(T) == 4, "tile states pack 4-byte values");
  constexpr int kWarps = Config::kBlockThreads / KIT_WARP_SIZE; // warps that hold items
  constexpr std::size_t kWarpItems = std::size_t(KIT_WARP_SIZE) * Config::kItemsPerThread;
  static_assert(kWarps <= KIT_WARP_SIZE, "warp totals are scanned by one warp");

  __shared__ T warp_prefix[kWarps];
  __shared__ T tile_exclusive;
  __shared__ T tile_aggregate;
  __shared__ unsigned int tile_slot;
  __shared__ unsigned int warps_done;

  if (threadIdx.x == 0) {
    unsigned int drawn = blockIdx.x;
    if (!states.block_index_tiles) {
      drawn = atomicAdd(states.ticket, 1u);
      // Every other block has drawn before the last ticket; the next launch is ordered after this
      // kernel by the stream, so it starts from 0.
      if (drawn == states.tiles - 1)
        atomicExch(states.ticket, 0u);
    }
    tile_slot = drawn;
    warps_done = 0;
    if constexpr (Config::kPrefetchTiles > 0) {
      const std::size_t ahead = (std::size_t(drawn) + Config::kPrefetchTiles) * Config::kTileItems;
      if (vector_io && ahead < n) {
        // Whole 16-byte vectors only; the last few items of the input simply miss the hint.
        const std::size_t left = n - ahead;
        const std::size_t items =
            (left < Config::kTileItems ? left : Config::kTileItems) & ~std::size_t{3};
        if (items > 0)
          gpu_prefetch_l2(in + ahead, static_cast<unsigned int>(items * sizeof(T)));
      }
    }
  }
  __syncthreads();
  const unsigned int tile = tile_slot;
  const int lane = lane_id();
  const int warp = warp_id();
  const std::size_t tile_first = std::size_t(tile) * Config::kTileItems;
  const std::size_t warp_first = tile_first + std::size_t(warp) * kWarpItems;
  const bool whole_vectors = vector_io && tile_first + Config::kTileItems <= n;
  std::uint64_t *own_state = states.words + tile;
  T x[Config::kVectorsPerThread][4];

  if constexpr (Config::kLookbackWarp) {
    // The last warp holds no items: it looks back from the moment the tile is known, so its
    // wait for the predecessors overlaps the other warps' loads and scans. Those publish the
    // aggregate (the last of them to finish), the look-back warp the prefix; both publish with an
    // atomic max, under which a prefix word outranks the aggregate word of the same epoch, so
    // the state only moves forward whichever reaches memory first.
    const bool looks_back = warp == kWarps;
    T exclusive = identity;
    if (looks_back) {
      exclusive = tile == 0 ? (carry_in ? *carry_in : identity)
                            : look_back<Config::kOrder>(states, tile, op, identity);
    } else {
      load_segment<Config>(x, in, n, identity, whole_vectors, warp_first);
      const T warp_total = scan_warp_segment(x, op, identity);
      if (lane == 0) {
        warp_prefix[warp] = warp_total;
        __threadfence_block(); // the total is visible before the arrival is counted
        if (atomicAdd(&warps_done, 1u) == kWarps - 1) {
          __threadfence_block();
          const volatile T *totals = warp_prefix;
          T aggregate = identity;
          for (int w = 0; w < kWarps; ++w)
            aggregate = op(aggregate, T(totals[w]));
          tile_aggregate = aggregate;
          if (tile > 0)
            gpu_atomic_max_relaxed(own_state,
                                   pack_state(kStatusAggregate, states.epoch, aggregate));
        }
      }
    }
    __syncthreads();
    if (looks_back && lane == 0) {
      const T inclusive = op(exclusive, tile_aggregate);
      gpu_atomic_max_relaxed(own_state, pack_state(kStatusPrefix, states.epoch, inclusive));
      tile_exclusive = exclusive;
      if (total_out && tile == states.tiles - 1)
        *total_out = inclusive;
    }
    __syncthreads();
    if (looks_back)
      return;
    T base = tile_exclusive;
    for (int w = 0; w < warp; ++w)
      base = op(base, warp_prefix[w]);
    store_segment<Config>(x, base, op, out, n, whole_vectors, warp_first);
  } else {
    // Warp 0 combines the warp totals, publishes the aggregate and then looks back.
    load_segment<Config>(x, in, n, identity, whole_vectors, warp_first);
    const T warp_total = scan_warp_segment(x, op, identity);
    if (lane == 0)
      warp_prefix[warp] = warp_total;
    __syncthreads();
    if (warp == 0) {
      // Each lane reads and rewrites only its own slot, so no barrier is needed in between.
      const T total = lane < kWarps ? warp_prefix[lane] : identity;
      T aggregate;
      const T warp_exclusive = warp_exclusive_scan(total, op, identity, aggregate);
      if (lane < kWarps)
        warp_prefix[lane] = warp_exclusive;
      T exclusive;
      if (tile == 0) {
        exclusive = carry_in ? *carry_in : identity;
      } else {
        // Publish early: successors can combine this aggregate while we are still looking back.
        if (lane == 0)
          publish_state<Config::kOrder>(own_state,
                                        pack_state(kStatusAggregate, states.epoch, aggregate));
        exclusive = look_back<Config::kOrder>(states, tile, op, identity);
      }
      const T inclusive = op(exclusive, aggregate);
      if (lane == 0) {
        publish_state<Config::kOrder>(own_state,
                                      pack_state(kStatusPrefix, states.epoch, inclusive));
        tile_exclusive = exclusive;
        if (total_out && tile == states.tiles - 1)
          *total_out = inclusive;
      }
    }
    __syncthreads();
    store_segment<Config>(x, op(tile_exclusive, warp_prefix[warp]), op, out, n, whole_vectors,
                          warp_first);
  }
}

// Tile states and ticket shared by consecutive scans. Scans that use one workspace must be
// ordered (same stream, or chained with events): the epoch and the ticket assume it.
class ScanWorkspace {
public:
  ScanWorkspace() = default;
  ScanWorkspace(const ScanWorkspace &) = delete;
  ScanWorkspace &operator=(const ScanWorkspace &) = delete;
  ~ScanWorkspace() {
    (void)cudaFree(words_);
    (void)cudaFree(ticket_);
  }

  // Makes room for `tiles` states. Growing allocates and synchronises the device, so a stream
  // pipeline calls it once before it starts; otherwise it costs nothing.
  void reserve(std::size_t tiles) {
    if (!ticket_) {
      GPU_CHECK(cudaMalloc(&ticket_, sizeof(unsigned int)));
      GPU_CHECK(cudaMemset(ticket_, 0, sizeof(unsigned int)));
      GPU_CHECK(cudaDeviceSynchronize()); // the memset must land before any stream uses it
    }
    if (tiles > capacity_) {
      GPU_CHECK(cudaFree(words_)); // waits for scans still using the old array
      words_ = nullptr;
      GPU_CHECK(cudaMalloc(&words_, tiles * sizeof(std::uint64_t)));
      GPU_CHECK(cudaMemset(words_, 0, tiles * sizeof(std::uint64_t)));
      capacity_ = tiles;
      GPU_CHECK(cudaDeviceSynchronize());
    }
  }

  // The states for the next launch of `tiles` tiles in `stream`. After 2^30 - 1 launches the
  // epoch wraps: clearing the words in stream order keeps old states from matching again.
  ScanTileStates next_launch(unsigned int tiles, cudaStream_t stream) {
    if (++epoch_ == scan_detail::kEpochLimit) {
      GPU_CHECK(cudaMemsetAsync(words_, 0, capacity_ * sizeof(std::uint64_t), stream));
      epoch_ = 1;
    }
    return ScanTileStates{words_, ticket_, epoch_, tiles, false};
  }

private:
  std::uint64_t *words_ = nullptr;
  unsigned int *ticket_ = nullptr;
  std::size_t capacity_ = 0;
  std::uint32_t epoch_ = 0;
};

// Threads of a block of the scan kernel: the data threads plus, with a look-back warp, one warp.
template <class Config> int scan_block_threads() {
  static const int threads =
      Config::kBlockThreads + (Config::kLookbackWarp ? gpu::device_warp_size() : 0);
  return threads;
}

// The largest launch, in tiles, whose blocks take their tile from blockIdx.x (TileOrder): the
// most blocks of the kernel the current GPU holds at once, or 0 for TileOrder::kTicket.
template <class Config, class T, class Op> std::size_t scan_block_index_tiles() {
  static const std::size_t tiles =
      Config::kTileOrder == TileOrder::kTicket
          ? 0
          : gpu::resident_blocks(decoupled_lookback_scan_kernel<Config, T, Op>,
                                 scan_block_threads<Config>());
  return tiles;
}

// Inclusive scan of n items, one kernel launch in `stream` (see decoupled_lookback_scan_kernel
// for carry_in / total_out). n == 0 launches nothing and writes nothing.
template <class Config = DefaultScanConfig, class T, class Op>
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
  ScanTileStates states = workspace.next_launch(static_cast<unsigned int>(tiles), stream);
  states.block_index_tiles = tiles <= scan_block_index_tiles<Config, T, Op>();
  decoupled_lookback_scan_kernel<Config>
      <<<static_cast<unsigned int>(tiles), scan_block_threads<Config>(), 0, stream>>>(
          in, out, n, op, identity, states, vector_io, carry_in, total_out);
  GPU_CHECK_LAUNCH("decoupled_lookback_scan_kernel");
}

} // namespace kit
