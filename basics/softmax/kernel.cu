// softmax: output[i] = exp(input[i] - max) / sum_j exp(input[j] - max) over N floats (LeetGPU
// signature, device pointers).
//
// One cooperative launch with a grid-wide barrier instead of the usual three kernels:
//  1. every thread folds its elements into an online (max, sum of exp) pair; the block combines
//     its threads' pairs and publishes one pair;
//  2. grid barrier; every block combines all published pairs in the same order (so every block
//     gets bit-identical max and sum) and
//  3. writes exp(x - max) / sum for its elements. A thread's first kUnroll elements stay in
//     registers across the barrier; only inputs larger than the resident grid times kUnroll
//     elements per thread are read a second time (from L2, up to its size). At the judge's sizes
//     (N <= 500,000) every element is read once and written once.
// The max is initialised from the data (-inf identity, never 0), and out-of-range threads
// contribute the identity pair, so no input can be mis-scaled.
// Co-residency: cooperative launch. Every block waits at the grid barrier for every other block,
// so the whole grid must be resident at once: a cooperative launch of at most resident_blocks() of
// this kernel on the running device; where the runtime refuses it, one block does the whole
// input (kit::gpu::launch_cooperative_or_single_block), never a hang.
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
constexpr int kUnroll = 4;
constexpr int kPartialsPerThread = 4;
constexpr int kMaxBlocks = kThreads * kPartialsPerThread; // every thread loads <= 4 block pairs

__device__ float g_block_max[kMaxBlocks];
__device__ float g_block_sum[kMaxBlocks];
__device__ unsigned int g_arrived;
__device__ std::uint64_t g_generation;

// Online softmax state: `sum` is the sum of exp(x - max) over the values folded so far.
struct MaxSum {
  float max = -INFINITY;
  float sum = 0.0f;
  __device__ void add(float x) {
    if (x > max) {
      sum = sum * expf(max - x) + 1.0f; // exp(-inf) = 0 covers the empty state
      max = x;
    } else {
      sum += expf(x - max);
    }
  }
};

// Grid-wide barrier for a cooperative launch (all blocks resident). The last block to arrive
// resets the count and advances the generation that the others wait on, so the barrier needs no
// host-side reset between launches. The fences around the arrival make every write of a block
// before the barrier visible to every block after it.
__device__ void grid_barrier() {
  __syncthreads();
  if (threadIdx.x == 0) {
    const std::uint64_t generation = kit::gpu_load_relaxed(&g_generation);
    __threadfence();
    if (atomicAdd(&g_arrived, 1u) == gridDim.x - 1) {
      kit::gpu_store_relaxed(&g_arrived, 0u);
      __threadfence();
      atomicAdd(reinterpret_cast<unsigned long long *>(&g_generation), 1ull);
    } else {
      kit::SpinBackoff backoff;
      while (kit::gpu_load_acquire(&g_generation) == generation)
        backoff.wait();
    }
    __threadfence();
  }
  __syncthreads();
}

__global__ void __launch_bounds__(kThreads)
    softmax_kernel(const float *__restrict__ in, float *__restrict__ out, int n_int) {
  __shared__ kit::BlockScratch<float, kThreads> scratch;
  const std::size_t n = static_cast<std::size_t>(n_int);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kThreads;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;

  // kUnroll loads are issued before their values are used: a thread's few elements should cost
  // one memory latency, not one each. The first batch is kept for the last phase.
  float kept[kUnroll] = {};
  MaxSum mine;
  for (std::size_t base = first; base < n; base += kUnroll * stride) {
    float x[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::size_t i = base + u * stride;
      x[u] = i < n ? in[i] : -INFINITY;
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (base + u * stride < n)
        mine.add(x[u]);
      if (base == first)
        kept[u] = x[u];
    }
  }
  // Block pair: the block max, then every thread rescales its sum to it.
  const float block_max = kit::block_reduce<kThreads>(mine.max, kit::Max(), -INFINITY, scratch);
  const float rescaled = mine.sum == 0.0f ? 0.0f : mine.sum * expf(mine.max - block_max);
  const float block_sum = kit::block_reduce<kThreads>(rescaled, kit::Plus(), 0.0f, scratch);
  if (threadIdx.x == 0) {
    kit::gpu_store_relaxed(&g_block_max[blockIdx.x], block_max);
    kit::gpu_store_relaxed(&g_block_sum[blockIdx.x], block_sum);
  }
  grid_barrier();

  // Other blocks' pairs, through device-scope loads (gpu.h: never a non-coherent cache). All of
  // a thread's (at most kPartialsPerThread) pairs are loaded at once and kept for both passes.
  float pair_max[kPartialsPerThread], pair_sum[kPartialsPerThread];
#pragma unroll
  for (int k = 0; k < kPartialsPerThread; ++k) {
    const unsigned b = threadIdx.x + k * kThreads;
    pair_max[k] = b < gridDim.x ? kit::gpu_load_relaxed(&g_block_max[b]) : -INFINITY;
    pair_sum[k] = b < gridDim.x ? kit::gpu_load_relaxed(&g_block_sum[b]) : 0.0f;
  }
  float m = -INFINITY;
#pragma unroll
  for (int k = 0; k < kPartialsPerThread; ++k)
    m = fmaxf(m, pair_max[k]);
  const float global_max = kit::block_reduce<kThreads>(m, kit::Max(), -INFINITY, scratch);
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < kPartialsPerThread; ++k)
    if (pair_sum[k] != 0.0f)
      s += pair_sum[k] * expf(pair_max[k] - global_max);
  const float global_sum = kit::block_reduce<kThreads>(s, kit::Plus(), 0.0f, scratch);

  const float inverse = 1.0f / global_sum;
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
    const std::size_t i = first + u * stride;
    if (i < n)
      out[i] = expf(kept[u] - global_max) * inverse;
  }
  for (std::size_t base = first + kUnroll * stride; base < n; base += kUnroll * stride) {
    float x[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::size_t i = base + u * stride;
      x[u] = i < n ? in[i] : 0.0f;
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::size_t i = base + u * stride;
      if (i < n)
        out[i] = expf(x[u] - global_max) * inverse;
    }
  }
}

} // namespace

extern "C" void solve(const float *input, float *output, int N) {
  if (N <= 0)
    return;
  static const int resident =
      std::min(kMaxBlocks, kit::gpu::resident_blocks(softmax_kernel, kThreads));
  // kUnroll elements per thread at least: fewer blocks make the barrier and the combine cheaper.
  const std::size_t per_block = static_cast<std::size_t>(kUnroll) * kThreads;
  const std::size_t wanted = (static_cast<std::size_t>(N) + per_block - 1) / per_block;
  const int blocks = static_cast<int>(std::min<std::size_t>(wanted, resident));
  kit::gpu::launch_cooperative_or_single_block("softmax_kernel", softmax_kernel, blocks, kThreads,
                                               0, 0, input, output, N);
}
