// reduction: output[0] = sum of the N floats in input (LeetGPU signature, device pointers). The
// judge's reference sums in float64 and the output arrives uninitialised.
//
// Memory-bound: 4 bytes read per element. Every element is widened to double before it is added,
// so the only rounding that matters is the final one to float: float accumulation would lose
// the 1e-5 absolute tolerance whenever large values cancel (N = 1e8 values in [-1000, 1000]).
//
// One grid-stride kernel, at most one block per resident slot, eight 16-byte loads in flight per
// thread (at the judge's size a single batch per thread). At that size everything after the last
// load arrives is on the critical path, so the blocks' sums are combined with as few serial steps
// as possible:
//   - a block adds its threads' sums with one barrier (the sum is needed in one thread only);
//   - every block but block 0 publishes its sum with ONE relaxed 64-bit store (the word carries
//     the whole message, so there is no fence and no arrival counter);
//   - block 0, which has done its own share first, keeps one warp polling those words, all of a
//     lane's slots loaded at once, and adds them in block order (a deterministic result); its
//     loads of the words are already in flight when the last block publishes (README, "Design
//     notes": a last-block or last-ticket combine starts those loads only after its own read).
// Co-residency: cooperative launch. Block 0 waits for every other block, so every block must be
// running at once: the grid never exceeds what the GPU holds (resident_blocks), and a cooperative
// launch makes the runtime guarantee it; where the runtime refuses, one block sums the whole input
// (kit::gpu::launch_cooperative_or_single_block).
#include "collectives/warp.h"
#include "gpu/backoff.h"
#include "gpu/launch.h"
#include "gpu/scoped_atomics.h"
#include "gpu/vendor.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / KIT_WARP_SIZE;
constexpr int kUnroll = 8;
constexpr int kMaxBlocks = 4096;
constexpr int kPollLoads = 16; // published words a polling lane loads at once

// g_published[b] holds bits(block b's sum) ^ kUnpublished, so the zero-initialised (and, after
// each launch, re-zeroed) word means "not published yet". kUnpublished is a signalling NaN, a
// value no arithmetic produces, so no sum encodes to zero.
constexpr std::uint64_t kUnpublished = 0x7FF0000000000001ull;
__device__ std::uint64_t g_published[kMaxBlocks];

__device__ __forceinline__ std::uint64_t encode(double sum) {
  return static_cast<std::uint64_t>(__double_as_longlong(sum)) ^ kUnpublished;
}
__device__ __forceinline__ double decode(std::uint64_t word) {
  return __longlong_as_double(static_cast<long long>(word ^ kUnpublished));
}

__device__ __forceinline__ double sum4(float4 v) {
  return (static_cast<double>(v.x) + static_cast<double>(v.y)) +
         (static_cast<double>(v.z) + static_cast<double>(v.w));
}

// The block's sum, valid in warp 0 (every lane of it); one barrier.
__device__ __forceinline__ double block_sum_in_warp0(double v, double *warp_sums) {
  v = kit::warp_reduce(v, kit::Plus());
  if (kit::lane_id() == 0)
    warp_sums[kit::warp_id()] = v;
  __syncthreads();
  double s = 0;
  if (kit::warp_id() == 0) {
    s = kit::lane_id() < kWarps ? warp_sums[kit::lane_id()] : 0.0;
    s = kit::warp_reduce(s, kit::Plus());
  }
  return s;
}

// Block 0, warp 0: the sum of the words published by blocks 1 .. gridDim.x - 1, each lane taking
// every warp-size-th block in order; every word read is reset for the next launch. Block 0 starts
// polling long before most blocks publish, so each round reloads ALL of a lane's still-missing
// words at once: after the last word is published, it is seen within one round.
__device__ __forceinline__ double collect_published() {
  double total = 0;
  for (unsigned base = 1 + kit::lane_id(); base < gridDim.x; base += kPollLoads * KIT_WARP_SIZE) {
    std::uint64_t word[kPollLoads];
#pragma unroll
    for (int k = 0; k < kPollLoads; ++k) {
      const unsigned b = base + k * KIT_WARP_SIZE;
      word[k] = b < gridDim.x ? kit::gpu_load_relaxed(&g_published[b]) : encode(0.0);
    }
    kit::SpinBackoff backoff;
    for (;;) {
      bool missing = false;
#pragma unroll
      for (int k = 0; k < kPollLoads; ++k)
        missing |= word[k] == 0;
      if (!missing)
        break;
      backoff.wait();
#pragma unroll
      for (int k = 0; k < kPollLoads; ++k)
        if (word[k] == 0)
          word[k] = kit::gpu_load_relaxed(&g_published[base + k * KIT_WARP_SIZE]);
    }
#pragma unroll
    for (int k = 0; k < kPollLoads; ++k) {
      if (base + k * KIT_WARP_SIZE < gridDim.x)
        kit::gpu_store_relaxed(&g_published[base + k * KIT_WARP_SIZE], std::uint64_t{0});
      total += decode(word[k]);
    }
  }
  return kit::warp_reduce(total, kit::Plus());
}

__global__ void __launch_bounds__(kThreads)
    sum_floats(const float *__restrict__ in, std::size_t n, bool vectorized, float *out) {
  __shared__ double warp_sums[kWarps];
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kThreads;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  double sum = 0;
  std::size_t scalar_begin = 0;
  if (vectorized) {
    const float4 *v = reinterpret_cast<const float4 *>(in);
    const std::size_t vectors = n / 4;
    // Every batch issues all kUnroll loads before using any (out-of-range ones read nothing), so
    // a thread's share costs one memory latency per batch, the last partial batch included.
    for (std::size_t base = thread; base < vectors; base += kUnroll * stride) {
      float4 x[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        x[u] = base + u * stride < vectors ? v[base + u * stride] : make_float4(0, 0, 0, 0);
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        sum += sum4(x[u]);
    }
    scalar_begin = vectors * 4;
  }
  for (std::size_t i = scalar_begin + thread; i < n; i += stride)
    sum += in[i];

  const double block_sum = block_sum_in_warp0(sum, warp_sums);
  if (kit::warp_id() != 0)
    return;
  if (blockIdx.x != 0) {
    if (kit::lane_id() == 0)
      kit::gpu_store_relaxed(&g_published[blockIdx.x], encode(block_sum));
    return;
  }
  const double others = collect_published();
  if (kit::lane_id() == 0)
    *out = static_cast<float>(block_sum + others);
}

} // namespace

extern "C" void solve(const float *input, float *output, int N) {
  static const int resident = kit::gpu::resident_blocks(sum_floats, kThreads);
  const std::size_t n = N > 0 ? static_cast<std::size_t>(N) : 0;
  const std::size_t per_block = static_cast<std::size_t>(kThreads) * kUnroll * 4;
  const int blocks = static_cast<int>(std::max<std::size_t>(
      1, std::min<std::size_t>({(n + per_block - 1) / per_block, static_cast<std::size_t>(resident),
                                static_cast<std::size_t>(kMaxBlocks)})));
  const bool vectorized = reinterpret_cast<std::uintptr_t>(input) % 16 == 0;
  kit::gpu::launch_cooperative_or_single_block("sum_floats", sum_floats,
                                               static_cast<unsigned>(blocks), kThreads, 0, nullptr,
                                               input, n, vectorized, output);
}
