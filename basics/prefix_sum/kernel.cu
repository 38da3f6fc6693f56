// prefix_sum: output[i] = input[0] + ... + input[i] over N floats (LeetGPU signature, device
// pointers; tolerance 1e-2 absolute and relative).
//
// Single-pass scan with decoupled look-back (Merrill & Garland): one launch, each element read
// once and written once. Sums are carried in double and rounded to float once per output: float
// carries drift by far more than 1e-2 at N = 1e8 with values in [-1000, 1000].
//  - A block draws the next tile number from a ticket counter, so tiles start in order and a tile
//    only ever waits for tiles that are already running.
//  - Tiles are 8192 elements: each warp loads its contiguous segment as kRounds = 8 float4 per
//    lane (coalesced, all in flight at once), then scans it pass by pass, carrying the segment
//    total in registers. Large tiles keep the look-back short: at the judge's N = 250,000 there
//    are 31 tiles, all within one warp-width of look-back.
//  - Warp 0 scans the warp totals, publishes the tile's aggregate, then looks back at the
//    preceding tiles one warp-width at a time (one tile per lane) until it meets a tile that has
//    published its inclusive prefix; it publishes its own inclusive prefix and the block writes.
// Tile status words carry the launch's epoch, so the status array never needs clearing; the
// ticket counter is reset by the block that draws the last ticket.
// Co-residency: ticket order. A tile waits only for tiles with smaller tickets, which were drawn
// by blocks that had already started; tile 0 waits for nobody, so by induction every wait ends
// whatever the grid size and however the GPU schedules blocks: a plain launch is safe.
#include "gpu/collectives.h"
#include "gpu/gpu.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kRounds = 8;                             // float4 passes per warp and tile
constexpr int kTileItems = kThreads * 4 * kRounds;     // 8192 elements
constexpr int kMaxTiles = 0x7fffffff / kTileItems + 1; // any int N: 6 MB of status
constexpr std::uint64_t kAggregate = 1;
constexpr std::uint64_t kInclusive = 2;

__device__ std::uint64_t g_status[kMaxTiles]; // epoch << 2 | kAggregate or kInclusive
__device__ double g_aggregate[kMaxTiles];
__device__ double g_inclusive[kMaxTiles];
__device__ unsigned int g_next_tile;

__device__ __forceinline__ float4 load4(const float *in, std::size_t i, std::size_t n,
                                        bool vectorized) {
  if (vectorized && i + 3 < n)
    return *reinterpret_cast<const float4 *>(in + i);
  float4 x;
  x.x = i < n ? in[i] : 0.0f;
  x.y = i + 1 < n ? in[i + 1] : 0.0f;
  x.z = i + 2 < n ? in[i + 2] : 0.0f;
  x.w = i + 3 < n ? in[i + 3] : 0.0f;
  return x;
}

__device__ __forceinline__ void store4(float *out, std::size_t i, std::size_t n, bool vectorized,
                                       float4 x) {
  if (vectorized && i + 3 < n) {
    *reinterpret_cast<float4 *>(out + i) = x;
    return;
  }
  if (i < n)
    out[i] = x.x;
  if (i + 1 < n)
    out[i + 1] = x.y;
  if (i + 2 < n)
    out[i + 2] = x.z;
  if (i + 3 < n)
    out[i + 3] = x.w;
}

// The value goes out first; the release store of the status word orders it before the status.
__device__ __forceinline__ void publish(unsigned tile, std::uint64_t epoch, std::uint64_t kind,
                                        double value) {
  kit::gpu_store_relaxed(&(kind == kInclusive ? g_inclusive : g_aggregate)[tile], value);
  kit::gpu_store_release(&g_status[tile], epoch << 2 | kind);
}

// Called by all lanes of one warp; returns the sum of all tiles before `tile`.
__device__ double look_back(unsigned tile, std::uint64_t epoch) {
  const int lane = kit::lane_id();
  double exclusive = 0.0;
  long long window_end = tile; // this pass looks at tiles [window_end - warp, window_end)
  while (true) {
    const long long pred = window_end - KIT_WARP_SIZE + lane;
    std::uint64_t word;
    kit::SpinBackoff backoff;
    while (true) {
      // Tiles before the first one read as an inclusive prefix of zero.
      word = pred >= 0 ? kit::gpu_load_acquire(&g_status[pred]) : (epoch << 2 | kInclusive);
      const bool ready = (word >> 2) == epoch && (word & 3) != 0;
      if (kit::warp_ballot(!ready) == 0)
        break;
      backoff.wait();
    }
    // The value was published before the status word this lane's acquire load saw.
    const bool inclusive = (word & 3) == kInclusive;
    const double value = pred < 0    ? 0.0
                         : inclusive ? kit::gpu_load_relaxed(&g_inclusive[pred])
                                     : kit::gpu_load_relaxed(&g_aggregate[pred]);
    // The nearest predecessor with an inclusive prefix ends the look-back: add it and the
    // aggregates of the tiles after it.
    const int stop = kit::lane_mask_highest(kit::warp_ballot(inclusive));
    exclusive += kit::warp_reduce(lane >= stop ? value : 0.0, kit::Plus());
    if (stop >= 0)
      return exclusive;
    window_end -= KIT_WARP_SIZE;
  }
}

__global__ void __launch_bounds__(kThreads)
    scan_tiles(const float *__restrict__ in, float *__restrict__ out, std::size_t n,
               unsigned num_tiles, std::uint64_t epoch, bool vectorized) {
  constexpr int kWarps = kThreads / KIT_WARP_SIZE;
  constexpr int kWarpItems = KIT_WARP_SIZE * 4 * kRounds;
  __shared__ unsigned tile_shared;
  __shared__ double warp_offsets[kWarps];

  if (threadIdx.x == 0) {
    const unsigned drawn = atomicAdd(&g_next_tile, 1u);
    if (drawn == num_tiles - 1)
      atomicExch(&g_next_tile, 0u); // every ticket is drawn: ready for the next launch
    tile_shared = drawn;
  }
  __syncthreads();
  const unsigned tile = tile_shared;
  const int lane = kit::lane_id();
  const int warp = kit::warp_id();
  const std::size_t warp_begin =
      static_cast<std::size_t>(tile) * kTileItems + static_cast<std::size_t>(warp) * kWarpItems;

  // All loads first (one memory latency per tile), then the warp scans.
  float4 x[kRounds];
#pragma unroll
  for (int r = 0; r < kRounds; ++r)
    x[r] = load4(in, warp_begin + (static_cast<std::size_t>(r) * KIT_WARP_SIZE + lane) * 4, n,
                 vectorized);
  // lane_offset[r]: the sum of the warp's segment before this lane's float4 of pass r, in double.
  double lane_offset[kRounds];
  double carry = 0.0;
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    const double lane_total = ((static_cast<double>(x[r].x) + x[r].y) + x[r].z) + x[r].w;
    double round_total;
    lane_offset[r] = carry + kit::warp_exclusive_scan(lane_total, kit::Plus(), 0.0, round_total);
    carry += round_total;
  }
  if (lane == 0)
    warp_offsets[warp] = carry;
  __syncthreads();

  if (warp == 0) {
    const double warp_total = lane < kWarps ? warp_offsets[lane] : 0.0;
    double tile_total;
    const double warp_prefix = kit::warp_exclusive_scan(warp_total, kit::Plus(), 0.0, tile_total);
    double tile_prefix;
    if (tile == 0) {
      tile_prefix = 0.0;
    } else {
      if (lane == 0)
        publish(tile, epoch, kAggregate, tile_total);
      tile_prefix = look_back(tile, epoch);
    }
    if (lane == 0)
      publish(tile, epoch, kInclusive, tile_prefix + tile_total);
    if (lane < kWarps)
      warp_offsets[lane] = tile_prefix + warp_prefix;
  }
  __syncthreads();

  const double warp_offset = warp_offsets[warp];
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    const double a = warp_offset + lane_offset[r] + x[r].x;
    const double b = a + x[r].y;
    const double c = b + x[r].z;
    const double d = c + x[r].w;
    store4(out, warp_begin + (static_cast<std::size_t>(r) * KIT_WARP_SIZE + lane) * 4, n,
           vectorized,
           make_float4(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c),
                       static_cast<float>(d)));
  }
}

// One epoch per launch: status words from earlier launches never match.
std::uint64_t g_launch_epoch = 0;

} // namespace

extern "C" void solve(const float *input, float *output, int N) {
  if (N <= 0)
    return;
  const std::size_t n = static_cast<std::size_t>(N);
  const bool vectorized = reinterpret_cast<std::uintptr_t>(input) % 16 == 0 &&
                          reinterpret_cast<std::uintptr_t>(output) % 16 == 0;
  const unsigned tiles = static_cast<unsigned>((n + kTileItems - 1) / kTileItems);
  scan_tiles<<<tiles, kThreads>>>(input, output, n, tiles, ++g_launch_epoch, vectorized);
  GPU_CHECK_LAUNCH("scan_tiles");
}
