// Device-wide inclusive scan in a single pass: decoupled look-back (Merrill & Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", 2016), written once for warp32 and wave64.
//
// The input is cut into tiles of `kBlockThreads * kItemsPerThread` items. For each tile a block
//   1. takes the tile's index from an atomic ticket, so every lower-numbered tile belongs to a
//      block that is already running. Looking back therefore never waits on a tile that has not
//      been scheduled, which matters on GPUs that give no forward-progress guarantee to blocks
//      that have not started (AMD) or that dispatch blocks out of blockIdx order;
//   2. scans the tile in registers and publishes the tile's aggregate (status AGGREGATE);
//   3. lets one warp inspect the states of the tiles before it, a window of several states per
//      lane at a time: the nearest PREFIX (inclusive prefix known) ends the walk, otherwise the
//      window's aggregates are combined and the window moves further back;
//   4. publishes its inclusive prefix (status PREFIX) and writes the tile's results.
// Blocks are persistent (as many as fit on the GPU) and software-pipelined: the next tile's ticket
// is drawn one tile ahead, and its loads are issued before the current tile's look-back, so the
// memory system stays busy while a block waits for its predecessors.
//
// Each state is one 8-byte-aligned 64-bit word {epoch:30, status:2, value:32}, written and read
// atomically, so a reader that sees a status also sees its value. The epoch is a launch counter:
// states left over from earlier launches read as "not published", which spares an initialisation
// kernel (or memset) before every scan. The ticket counter is reset by the block that draws the
// last ticket, so one kernel launch is the whole scan.
//
// Items are 4-byte values (int, unsigned, float) moved as 16-byte vectors: a warp owns a
// contiguous segment of the tile and reads it row by row, one vector per lane, so every load and
// store instruction of the warp is fully coalesced.
#pragma once

#include "collectives.h"
#include "gpu.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kit {

// How the tile states are published and observed.
enum class LookbackOrder {
  // Relaxed atomics. Sufficient because a state word carries everything its reader uses: the
  // 64-bit store is single-copy atomic, so a reader never sees a status without its value, and no
  // other memory is communicated through the flag. CUB does the same for packed words.
  kRelaxed,
  // Release store / acquire load (device scope): also orders every earlier write of the
  // publishing thread, at the cost of a fence before each publish. Kept to measure that cost.
  kReleaseAcquire,
};

template <int kBlockThreadsValue, int kItemsPerThreadValue, int kLookbackStatesPerLaneValue = 4,
          LookbackOrder kOrderValue = LookbackOrder::kRelaxed>
struct ScanConfig {
  static constexpr int kBlockThreads = kBlockThreadsValue;
  static constexpr int kItemsPerThread = kItemsPerThreadValue;
  // States each look-back lane reads per step: the window is warp size times this many tiles.
  static constexpr int kLookbackStatesPerLane = kLookbackStatesPerLaneValue;
  static constexpr LookbackOrder kOrder = kOrderValue;
  static constexpr int kVectorItems = 4; // 16-byte vectors of 4-byte items
  static constexpr int kVectorsPerThread = kItemsPerThread / kVectorItems;
  static constexpr std::size_t kTileItems = std::size_t(kBlockThreads) * kItemsPerThread;
  // 64 lanes divide the block on either vendor, so one configuration serves both.
  static_assert(kBlockThreads % kMaxWarpSize == 0, "block size must be a multiple of 64");
  static_assert(kItemsPerThread % kVectorItems == 0, "items per thread must be whole vectors");
  static_assert(kLookbackStatesPerLane >= 1, "the look-back reads at least one state per lane");
};

// The configuration the kit uses (chosen by measurement, see prefix_sum/README.md).
using DefaultScanConfig = ScanConfig<256, 16>;

// What one launch needs to find its tile states.
struct ScanTileStates {
  std::uint64_t *words; // one per tile, zero-initialised once at allocation
  unsigned int *ticket; // 0 between launches
  std::uint32_t epoch;  // this launch's number, 1 .. kEpochLimit - 1
  unsigned int tiles;   // tiles in this launch
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

// Run by one whole warp of tile `tile` (> 0) once its aggregate is published. Returns the
// combination of all tiles before it, in order. A window holds warp * kPerLane consecutive
// tiles; lane l owns kPerLane consecutive ones, so the nearest predecessor is the last state of
// the highest lane and an in-order combination is a per-lane fold followed by a warp scan.
template <LookbackOrder kOrder, int kPerLane, class T, class Op>
__device__ __forceinline__ T look_back(const ScanTileStates &states, unsigned int tile, Op op,
                                       T identity) {
  constexpr int kWindow = KIT_WARP_SIZE * kPerLane;
  const int lane = lane_id();
  T exclusive = identity; // combination of the tiles after the current window
  long long window_last = static_cast<long long>(tile) - 1;
  for (;;) {
    const long long lane_first = window_last - (kWindow - 1) + lane * kPerLane;
    std::uint32_t status[kPerLane];
    T value[kPerLane];
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) {
      status[i] = kStatusPrefix; // before tile 0: nothing to add
      value[i] = identity;
      if (lane_first + i >= 0) {
        const std::uint64_t word = observe_state<kOrder>(states.words + lane_first + i);
        status[i] = state_status(word, states.epoch);
        value[i] = state_value<T>(word);
      }
    }
    // Within the lane: the last PREFIX, the fold from there on, and whether any of those states
    // is still unpublished.
    int lane_prefix = -1;
#pragma unroll
    for (int i = 0; i < kPerLane; ++i)
      if (status[i] == kStatusPrefix)
        lane_prefix = i;
    T lane_value = identity;
    bool lane_waits = false;
#pragma unroll
    for (int i = 0; i < kPerLane; ++i)
      if (i >= lane_prefix) {
        lane_value = op(lane_value, value[i]);
        lane_waits = lane_waits || status[i] == kStatusInvalid;
      }
    // Across lanes: only lanes from the nearest PREFIX upwards are needed.
    const int nearest_prefix = lane_mask_highest(warp_ballot(lane_prefix >= 0));
    const lane_mask_t needed =
        nearest_prefix < 0 ? ~lane_mask_t{0} : ~((lane_mask_t{1} << nearest_prefix) - 1);
    if (warp_ballot(lane_waits) & needed) {
      // A predecessor holds its ticket but has not published yet: it is running, so waiting is
      // safe. The back-off lets it (and other waves on this SIMD) issue.
      gpu_sleep_hint();
      continue;
    }
    T contribution = lane >= nearest_prefix ? lane_value : identity;
    contribution = warp_shfl(warp_inclusive_scan(contribution, op), KIT_WARP_SIZE - 1);
    exclusive = op(contribution, exclusive);
    if (nearest_prefix >= 0)
      return exclusive;
    window_last -= kWindow;
  }
}

// Every block draws tickets until it gets one past the last tile, so a launch draws exactly
// tiles + gridDim.x of them; whoever draws the very last one resets the counter for the next
// launch (ordered after this one by the stream).
__device__ __forceinline__ unsigned int draw_ticket(const ScanTileStates &states) {
  const unsigned int drawn = atomicAdd(states.ticket, 1u);
  if (drawn == states.tiles + gridDim.x - 1)
    atomicExch(states.ticket, 0u);
  return drawn;
}

// The calling lane's items of tile `tile`: x[j][k] is item k of its vector in row j of its
// warp's segment. Items past n read as `identity`.
template <class Config, class T>
__device__ __forceinline__ void load_tile(T (&x)[Config::kVectorsPerThread][4], const T *in,
                                          std::size_t n, unsigned int tile, bool vector_io,
                                          T identity) {
  constexpr std::size_t kWarpItems = std::size_t(KIT_WARP_SIZE) * Config::kItemsPerThread;
  const std::size_t tile_first = std::size_t(tile) * Config::kTileItems;
  const std::size_t warp_first = tile_first + std::size_t(warp_id()) * kWarpItems;
  const int lane = lane_id();
  if (vector_io && tile_first + Config::kTileItems <= n) {
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

// Writes op(base, x) to the lane's positions of tile `tile` (the layout of load_tile).
template <class Config, class T, class Op>
__device__ __forceinline__ void store_tile(const T (&x)[Config::kVectorsPerThread][4], T base,
                                           Op op, T *out, std::size_t n, unsigned int tile,
                                           bool vector_io) {
  constexpr std::size_t kWarpItems = std::size_t(KIT_WARP_SIZE) * Config::kItemsPerThread;
  const std::size_t tile_first = std::size_t(tile) * Config::kTileItems;
  const std::size_t warp_first = tile_first + std::size_t(warp_id()) * kWarpItems;
  const int lane = lane_id();
  if (vector_io && tile_first + Config::kTileItems <= n) {
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

// Turns the lane's items into inclusive prefixes within the warp's segment (each vector
// serially, each row across the lanes, rows in order) and returns the segment's total.
template <int kVectors, class T, class Op>
__device__ __forceinline__ T scan_warp_segment(T (&x)[kVectors][4], Op op, T identity) {
  T running = identity;
#pragma unroll
  for (int j = 0; j < kVectors; ++j) {
    x[j][1] = op(x[j][0], x[j][1]);
    x[j][2] = op(x[j][1], x[j][2]);
    x[j][3] = op(x[j][2], x[j][3]);
    T row_total;
    const T row_exclusive = warp_exclusive_scan(x[j][3], op, identity, row_total);
    const T before = op(running, row_exclusive);
#pragma unroll
    for (int k = 0; k < 4; ++k)
      x[j][k] = op(before, x[j][k]);
    running = op(running, row_total);
  }
  return running;
}

} // namespace scan_detail

// Inclusive scan of `in[0, n)` into `out` (which may equal `in`). With `carry_in`, every output
// is additionally prefixed by *carry_in; with `total_out`, the last tile writes the inclusive
// total there (carry_in included). Both are device pointers read/written in stream order, which
// chains scans of consecutive chunks without a host round trip.
template <class Config, class T, class Op>
__global__ void __launch_bounds__(Config::kBlockThreads)
    decoupled_lookback_scan_kernel(const T *in, T *out, std::size_t n, Op op, T identity,
                                   ScanTileStates states, bool vector_io, const T *carry_in,
                                   T *total_out) {
  using namespace scan_detail;
  static_assert(sizeof(T) == 4, "tile states pack 4-byte values");
  constexpr int kWarps = Config::kBlockThreads / KIT_WARP_SIZE;
  constexpr int kVectors = Config::kVectorsPerThread;
  static_assert(kWarps <= KIT_WARP_SIZE, "warp totals are scanned by one warp");

  __shared__ T warp_prefix[kWarps];
  __shared__ T tile_exclusive;
  // Two ticket slots: a slow warp may still be reading the first ticket when thread 0 publishes
  // the next one (ticket_slot is then protected by the loop's barriers).
  __shared__ unsigned int first_ticket;
  __shared__ unsigned int ticket_slot;

  const int lane = lane_id();
  const int warp = warp_id();
  if (threadIdx.x == 0)
    first_ticket = draw_ticket(states);
  __syncthreads();
  unsigned int tile = first_ticket;
  if (tile >= states.tiles)
    return;
  T x[kVectors][4];
  load_tile<Config>(x, in, n, tile, vector_io, identity);
  // Thread 0 holds the next tile's ticket; its value is first needed a whole tile later, so the
  // atomic's latency hides behind this tile's loads and scan.
  unsigned int drawn_ahead = 0;
  if (threadIdx.x == 0)
    drawn_ahead = draw_ticket(states);

  for (;;) {
    const T warp_total = scan_warp_segment(x, op, identity);
    if (lane == 0)
      warp_prefix[warp] = warp_total;
    if (threadIdx.x == 0)
      ticket_slot = drawn_ahead;
    __syncthreads(); // (A) warp totals and the next ticket are visible

    // Prefetch: the next tile's loads fly while this tile looks back and stores.
    const unsigned int next_tile = ticket_slot;
    const bool has_next = next_tile < states.tiles;
    T x_next[kVectors][4];
    if (has_next) {
      load_tile<Config>(x_next, in, n, next_tile, vector_io, identity);
      if (threadIdx.x == 0)
        drawn_ahead = draw_ticket(states);
    }

    if (warp == 0) {
      // Each lane reads and rewrites only its own slot, so no barrier is needed in between.
      const T total = lane < kWarps ? warp_prefix[lane] : identity;
      T aggregate;
      const T exclusive_of_warp = warp_exclusive_scan(total, op, identity, aggregate);
      if (lane < kWarps)
        warp_prefix[lane] = exclusive_of_warp;

      std::uint64_t *own_state = states.words + tile;
      T exclusive;
      if (tile == 0) {
        exclusive = carry_in ? *carry_in : identity;
      } else {
        // Publish early: successors combine this aggregate while we are still looking back.
        if (lane == 0)
          publish_state<Config::kOrder>(own_state,
                                        pack_state(kStatusAggregate, states.epoch, aggregate));
        exclusive =
            look_back<Config::kOrder, Config::kLookbackStatesPerLane>(states, tile, op, identity);
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
    __syncthreads(); // (B) tile_exclusive and the warp prefixes are visible
    // Shared slots are rewritten only after the next (A), which every thread reaches after
    // reading them here: a warp rewrites only its own warp_prefix slot before (A).
    store_tile<Config>(x, op(tile_exclusive, warp_prefix[warp]), op, out, n, tile, vector_io);

    if (!has_next)
      return;
    tile = next_tile;
#pragma unroll
    for (int j = 0; j < kVectors; ++j)
#pragma unroll
      for (int k = 0; k < 4; ++k)
        x[j][k] = x_next[j][k];
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
    return ScanTileStates{words_, ticket_, epoch_, tiles};
  }

private:
  std::uint64_t *words_ = nullptr;
  unsigned int *ticket_ = nullptr;
  std::size_t capacity_ = 0;
  std::uint32_t epoch_ = 0;
};

// Blocks of the scan kernel that fit on the current device at once (asked once per kernel).
template <class Config, class T, class Op> unsigned int resident_scan_blocks() {
  static const unsigned int blocks = [] {
    int per_multiprocessor = 0;
    GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_multiprocessor, decoupled_lookback_scan_kernel<Config, T, Op>, Config::kBlockThreads,
        0));
    return static_cast<unsigned int>(std::max(1, per_multiprocessor) *
                                     gpu::device_multiprocessors());
  }();
  return blocks;
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
    std::fprintf(stderr, "device_inclusive_scan: %zu items need %zu tiles, more than supported\n",
                 n, tiles);
    std::exit(gpu::kGpuFailureExitCode);
  }
  workspace.reserve(tiles);
  const bool vector_io = reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                         reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  const unsigned int blocks =
      std::min(static_cast<unsigned int>(tiles), resident_scan_blocks<Config, T, Op>());
  const ScanTileStates states = workspace.next_launch(static_cast<unsigned int>(tiles), stream);
  decoupled_lookback_scan_kernel<Config><<<blocks, Config::kBlockThreads, 0, stream>>>(
      in, out, n, op, identity, states, vector_io, carry_in, total_out);
  GPU_CHECK_LAUNCH("decoupled_lookback_scan_kernel");
}

} // namespace kit
