#include "limits.h"

#include "device/timing.h"
#include "gpu/check.h"
#include "gpu/launch.h"
#include "gpu/resources.h"
#include "gpu/vendor.h"

#include <cstdio>
#include <cstdlib>
#include <type_traits>

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

// The streaming kernel behind the copy and read limits: block b's threads take kVectors 16-byte
// vectors each, kThreads apart, all loaded before any is used. kStore: stored to dst (a copy).
// Otherwise nothing is written: the loads are folded into one word, stored to `sink` only if it
// equals a constant that the benchmark's buffers (every byte 1) never produce.
template <int kVectors, bool kStore>
__global__ void __launch_bounds__(kThreads)
    stream_vectors(const uint4 *__restrict__ src, uint4 *__restrict__ dst, std::size_t vectors,
                   unsigned *sink) {
  const std::size_t first =
      static_cast<std::size_t>(blockIdx.x) * kThreads * kVectors + threadIdx.x;
  uint4 v[kVectors];
#pragma unroll
  for (int k = 0; k < kVectors; ++k)
    if (first + k * kThreads < vectors)
      v[k] = src[first + k * kThreads];
  if constexpr (kStore) {
#pragma unroll
    for (int k = 0; k < kVectors; ++k)
      if (first + k * kThreads < vectors)
        dst[first + k * kThreads] = v[k];
  } else {
    unsigned folded = 0;
#pragma unroll
    for (int k = 0; k < kVectors; ++k)
      if (first + k * kThreads < vectors)
        folded ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
    if (folded == 0x9E3779B9u)
      sink[0] = folded;
  }
}

// One element of device memory that the measuring kernels may write, kept for the process.
template <class T> T *scratch_sink() {
  static const kit::gpu::DeviceArray<T> sink(1);
  return sink.get();
}

// Streams bytes / 16 vectors from src (to dst when kStore) with `vectors_per_thread` (1, 2 or 4)
// per thread; `caller` names the public function in the error for any other count.
template <bool kStore>
void launch_stream(const void *src, void *dst, std::size_t bytes, int vectors_per_thread,
                   const char *caller) {
  const std::size_t vectors = bytes / 16;
  const auto launch = [&](auto per_thread) {
    constexpr int kVectors = decltype(per_thread)::value;
    const std::size_t per_block = static_cast<std::size_t>(kThreads) * kVectors;
    stream_vectors<kVectors, kStore>
        <<<static_cast<unsigned>((vectors + per_block - 1) / per_block), kThreads>>>(
            static_cast<const uint4 *>(src), static_cast<uint4 *>(dst), vectors,
            scratch_sink<unsigned>());
  };
  switch (vectors_per_thread) {
  case 1:
    launch(std::integral_constant<int, 1>());
    break;
  case 2:
    launch(std::integral_constant<int, 2>());
    break;
  case 4:
    launch(std::integral_constant<int, 4>());
    break;
  default:
    std::fprintf(stderr, "%s: %d vectors per thread (1, 2 or 4)\n", caller, vectors_per_thread);
    std::exit(2);
  }
  GPU_CHECK_LAUNCH("stream_vectors");
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
  launch_stream<true>(src, dst, bytes, vectors_per_thread, "copy_with_kernel");
}

void read_with_kernel(const void *src, std::size_t bytes, int vectors_per_thread) {
  launch_stream<false>(src, nullptr, bytes, vectors_per_thread, "read_with_kernel");
}

} // namespace kit::basics
