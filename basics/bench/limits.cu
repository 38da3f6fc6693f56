#include "limits.h"

#include "device/timing.h"
#include "gpu/gpu.h"
#include "gpu/resources.h"

#include <cstdio>
#include <cstdlib>

namespace kit::basics {

namespace {

constexpr int kThreads = 256;
constexpr int kChains = 8; // independent chains per thread: covers the pipelines' latency

__global__ void __launch_bounds__(kThreads)
    fma_chains(float *sink, float multiplier, float addend, int iterations) {
  float x[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k)
    x[k] = static_cast<float>(threadIdx.x + k);
  for (int i = 0; i < iterations; ++i)
#pragma unroll
    for (int k = 0; k < kChains; ++k)
      x[k] = fmaf(x[k], multiplier, addend);
  float sum = 0;
#pragma unroll
  for (int k = 0; k < kChains; ++k)
    sum += x[k];
  if (sum == 12345.678f) // never true; keeps the chains alive
    sink[0] = sum;
}

__device__ __forceinline__ unsigned fnv1a_round(unsigned v) {
  unsigned h = 2166136261u;
  h = (h ^ (v & 0xffu)) * 16777619u;
  h = (h ^ ((v >> 8) & 0xffu)) * 16777619u;
  h = (h ^ ((v >> 16) & 0xffu)) * 16777619u;
  h = (h ^ (v >> 24)) * 16777619u;
  return h;
}

__global__ void __launch_bounds__(kThreads) fnv_chains(unsigned *sink, unsigned seed, int rounds) {
  unsigned w[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k)
    w[k] = seed ^ (blockIdx.x * kThreads + threadIdx.x) * (k + 1);
  for (int r = 0; r < rounds; ++r)
#pragma unroll
    for (int k = 0; k < kChains; ++k)
      w[k] = fnv1a_round(w[k]);
  unsigned all = 0;
#pragma unroll
  for (int k = 0; k < kChains; ++k)
    all ^= w[k];
  if (all == 0x9E3779B9u) // almost never true; keeps the chains alive
    sink[0] = all;
}

template <int kVectors>
__global__ void __launch_bounds__(kThreads)
    copy_vectors(const uint4 *__restrict__ src, uint4 *__restrict__ dst, std::size_t vectors) {
  const std::size_t first =
      static_cast<std::size_t>(blockIdx.x) * kThreads * kVectors + threadIdx.x;
  uint4 v[kVectors];
#pragma unroll
  for (int k = 0; k < kVectors; ++k)
    if (first + k * kThreads < vectors)
      v[k] = src[first + k * kThreads];
#pragma unroll
  for (int k = 0; k < kVectors; ++k)
    if (first + k * kThreads < vectors)
      dst[first + k * kThreads] = v[k];
}

// The copy kernel without its stores: the loads are folded into one word, stored only if it
// equals a constant that the benchmark's buffers (every byte 1) never produce.
template <int kVectors>
__global__ void __launch_bounds__(kThreads)
    read_vectors(const uint4 *__restrict__ src, std::size_t vectors, unsigned *sink) {
  const std::size_t first =
      static_cast<std::size_t>(blockIdx.x) * kThreads * kVectors + threadIdx.x;
  uint4 v[kVectors];
#pragma unroll
  for (int k = 0; k < kVectors; ++k)
    v[k] = first + k * kThreads < vectors ? src[first + k * kThreads] : make_uint4(0, 0, 0, 0);
  unsigned folded = 0;
#pragma unroll
  for (int k = 0; k < kVectors; ++k)
    folded ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
  if (folded == 0x9E3779B9u)
    sink[0] = folded;
}

template <int kVectors> void launch_copy(const void *src, void *dst, std::size_t vectors) {
  const std::size_t per_block = static_cast<std::size_t>(kThreads) * kVectors;
  copy_vectors<kVectors>
      <<<static_cast<unsigned>((vectors + per_block - 1) / per_block), kThreads>>>(
          static_cast<const uint4 *>(src), static_cast<uint4 *>(dst), vectors);
  GPU_CHECK_LAUNCH("copy_vectors");
}

// One element of device memory that the measuring kernels may write, kept for the process.
template <class T> T *scratch_sink() {
  static const kit::gpu::DeviceArray<T> sink(1);
  return sink.get();
}

} // namespace

double measure_fma_rate(Timer &timer) {
  const int blocks = kit::gpu::resident_blocks(fma_chains, kThreads);
  constexpr int kIterations = 16384;
  float *sink = scratch_sink<float>();
  const Timing t = timer.measure(
      [&] {
        fma_chains<<<blocks, kThreads>>>(sink, 0.999f, 0.001f, kIterations);
        GPU_CHECK_LAUNCH("fma_chains");
      },
      2, 10);
  const double fmas = static_cast<double>(blocks) * kThreads * kIterations * kChains;
  return fmas / (t.median_ms * 1e-3);
}

double measure_fnv_round_rate(Timer &timer) {
  const int blocks = kit::gpu::resident_blocks(fnv_chains, kThreads);
  constexpr int kRounds = 1024;
  unsigned *sink = scratch_sink<unsigned>();
  const Timing t = timer.measure(
      [&] {
        fnv_chains<<<blocks, kThreads>>>(sink, 12345u, kRounds);
        GPU_CHECK_LAUNCH("fnv_chains");
      },
      2, 10);
  const double rounds = static_cast<double>(blocks) * kThreads * kRounds * kChains;
  return rounds / (t.median_ms * 1e-3);
}

void copy_with_kernel(const void *src, void *dst, std::size_t bytes, int vectors_per_thread) {
  const std::size_t vectors = bytes / 16;
  switch (vectors_per_thread) {
  case 1:
    return launch_copy<1>(src, dst, vectors);
  case 2:
    return launch_copy<2>(src, dst, vectors);
  case 4:
    return launch_copy<4>(src, dst, vectors);
  default:
    std::fprintf(stderr, "copy_with_kernel: %d vectors per thread (1, 2 or 4)\n",
                 vectors_per_thread);
    std::exit(2);
  }
}

void read_with_kernel(const void *src, std::size_t bytes, int vectors_per_thread) {
  const std::size_t vectors = bytes / 16;
  const std::size_t per_block = static_cast<std::size_t>(kThreads) * vectors_per_thread;
  const unsigned blocks = static_cast<unsigned>((vectors + per_block - 1) / per_block);
  const auto *words = static_cast<const uint4 *>(src);
  unsigned *sink = scratch_sink<unsigned>();
  switch (vectors_per_thread) {
  case 1:
    read_vectors<1><<<blocks, kThreads>>>(words, vectors, sink);
    break;
  case 2:
    read_vectors<2><<<blocks, kThreads>>>(words, vectors, sink);
    break;
  case 4:
    read_vectors<4><<<blocks, kThreads>>>(words, vectors, sink);
    break;
  default:
    std::fprintf(stderr, "read_with_kernel: %d vectors per thread (1, 2 or 4)\n",
                 vectors_per_thread);
    std::exit(2);
  }
  GPU_CHECK_LAUNCH("read_vectors");
}

} // namespace kit::basics
