// rms_normalization: output[i] = gamma * input[i] / rms + beta over one vector of N floats, where
// rms = sqrt(mean(input^2) + eps) (LeetGPU signature, device pointers; gamma, beta and eps are
// float scalars; tolerance 1e-5 absolute and relative).
//
// Memory-bound (8 bytes per element) but small: the judge's N = 100,000 is 800 KB, so the time is
// the launch and a few memory latencies. Every output needs the sum over ALL inputs, so blocks
// must exchange their partial sums; this does it in ONE cooperative launch (every block resident
// at once; one block where the runtime refuses it: kit::gpu::launch_cooperative_or_single_block)
// rather than two launches, as softmax does at the same
// sizes (see softmax/README.md for why one launch wins there):
//  1. each thread loads its first 16-byte vector (the grid is sized so that this is all of the
//     input up to 524,288 elements) and keeps it in registers; a block adds its squares and
//     publishes the sum with ONE relaxed 64-bit store: the word is the launch's 32-bit epoch and
//     the float's bits, so a word from an earlier launch is never taken for this one and nothing
//     is ever cleared, and no fence or arrival counter is needed;
//  2. warp 0 of every block loads every block's word (all of a lane's words at once), reloads
//     the ones not yet published until all carry this epoch, and adds them in double in a fixed
//     order, so every block gets bit-identical totals;
//  3. every thread writes gamma * x * (1 / rms) + beta for the values it kept (larger inputs than
//     the grid holds are read again, a path the judge's sizes never take).
// Squares are summed in float within a block (at most 4096 of them, all positive) and the block
// sums in double.
#include "collectives/block.h"
#include "gpu/backoff.h"
#include "gpu/launch.h"
#include "gpu/scoped_atomics.h"
#include "gpu/vendor.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 512;
constexpr int kWordsPerLane = kMaxBlocks / KIT_WARP_SIZE; // 16 on NVIDIA, 8 on AMD

// g_block_sums[b] = epoch << 32 | bits of block b's sum of squares (zero-initialised: epoch 0
// belongs to no launch).
__device__ std::uint64_t g_block_sums[kMaxBlocks];

__device__ __forceinline__ float squares(float4 v) {
  return v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
}

__device__ __forceinline__ float4 normalize(float4 v, float scale, float gamma, float beta) {
  return make_float4(gamma * (v.x * scale) + beta, gamma * (v.y * scale) + beta,
                     gamma * (v.z * scale) + beta, gamma * (v.w * scale) + beta);
}

// Warp 0 of each block: the sum, in double, of every block's published sum of squares. Lane l
// takes blocks l, l + warp, ...; the sums are added in that order, then across lanes with a
// butterfly, so every block computes the same bits.
__device__ double total_of_block_sums(std::uint32_t epoch) {
  const int lane = kit::lane_id();
  std::uint64_t word[kWordsPerLane];
  const auto published = [&](std::uint64_t w) {
    return static_cast<std::uint32_t>(w >> 32) == epoch;
  };
#pragma unroll
  for (int k = 0; k < kWordsPerLane; ++k) {
    const unsigned b = lane + k * KIT_WARP_SIZE;
    word[k] = b < gridDim.x ? kit::gpu_load_relaxed(&g_block_sums[b])
                            : static_cast<std::uint64_t>(epoch) << 32; // a published 0.0f
  }
  kit::SpinBackoff backoff;
  for (;;) {
    bool missing = false;
#pragma unroll
    for (int k = 0; k < kWordsPerLane; ++k)
      missing |= !published(word[k]);
    if (kit::warp_ballot(missing) == 0)
      break;
    backoff.wait();
#pragma unroll
    for (int k = 0; k < kWordsPerLane; ++k)
      if (!published(word[k]))
        word[k] = kit::gpu_load_relaxed(&g_block_sums[lane + k * KIT_WARP_SIZE]);
  }
  double sum = 0.0;
#pragma unroll
  for (int k = 0; k < kWordsPerLane; ++k)
    sum += static_cast<double>(__uint_as_float(static_cast<std::uint32_t>(word[k])));
  return kit::warp_reduce(sum, kit::Plus());
}

__global__ void __launch_bounds__(kThreads)
    rms_normalize(const float *__restrict__ in, float *__restrict__ out, int n_int, float gamma,
                  float beta, float eps, std::uint32_t epoch, bool vectorized) {
  __shared__ kit::BlockScratch<float, kThreads> scratch;
  __shared__ float scale_shared;
  const std::size_t n = static_cast<std::size_t>(n_int);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kThreads;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  // Vector path: vector k covers elements 4k .. 4k + 3; the n % 4 elements after the last whole
  // vector belong to the first threads of block 0. Scalar path: element k, in .x.
  const std::size_t items = vectorized ? n / 4 : n;
  const std::size_t tail = vectorized ? items * 4 + threadIdx.x : n;
  const bool has_tail = vectorized && blockIdx.x == 0 && tail < n;

  float4 kept = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float kept_tail = 0.0f;
  if (first < items)
    kept = vectorized ? reinterpret_cast<const float4 *>(in)[first]
                      : make_float4(in[first], 0.0f, 0.0f, 0.0f);
  if (has_tail)
    kept_tail = in[tail];
  float sum = squares(kept) + kept_tail * kept_tail;
  for (std::size_t k = first + stride; k < items; k += stride) {
    const float4 v =
        vectorized ? reinterpret_cast<const float4 *>(in)[k] : make_float4(in[k], 0.0f, 0.0f, 0.0f);
    sum += squares(v);
  }
  const float block_sum = kit::block_reduce<kThreads>(sum, kit::Plus(), 0.0f, scratch);
  if (threadIdx.x == 0)
    kit::gpu_store_relaxed(&g_block_sums[blockIdx.x],
                           static_cast<std::uint64_t>(epoch) << 32 | __float_as_uint(block_sum));
  if (kit::warp_id() == 0) {
    const double total = total_of_block_sums(epoch);
    if (kit::lane_id() == 0)
      scale_shared = static_cast<float>(1.0 / sqrt(total / static_cast<double>(n) + eps));
  }
  __syncthreads();

  const float scale = scale_shared;
  if (first < items) {
    if (vectorized)
      reinterpret_cast<float4 *>(out)[first] = normalize(kept, scale, gamma, beta);
    else
      out[first] = gamma * (kept.x * scale) + beta;
  }
  if (has_tail)
    out[tail] = gamma * (kept_tail * scale) + beta;
  for (std::size_t k = first + stride; k < items; k += stride) {
    if (vectorized)
      reinterpret_cast<float4 *>(out)[k] =
          normalize(reinterpret_cast<const float4 *>(in)[k], scale, gamma, beta);
    else
      out[k] = gamma * (in[k] * scale) + beta;
  }
}

// One epoch per launch, never 0.
std::uint32_t g_launch_epoch = 0;

} // namespace

extern "C" void solve(const float *input, float gamma, float beta, float *output, int N,
                      float eps) {
  if (N <= 0)
    return;
  static const int resident =
      std::min(kMaxBlocks, kit::gpu::resident_blocks(rms_normalize, kThreads));
  const bool vectorized = reinterpret_cast<std::uintptr_t>(input) % 16 == 0 &&
                          reinterpret_cast<std::uintptr_t>(output) % 16 == 0;
  const std::size_t items = vectorized ? static_cast<std::size_t>(N) / 4 : N;
  const std::size_t wanted = std::max<std::size_t>(1, (items + kThreads - 1) / kThreads);
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>(wanted, resident));
  g_launch_epoch = g_launch_epoch == 0xffffffffu ? 1 : g_launch_epoch + 1;
  kit::gpu::launch_cooperative_or_single_block("rms_normalize", rms_normalize, blocks, kThreads, 0,
                                               0, input, output, N, gamma, beta, eps,
                                               g_launch_epoch, vectorized);
}
