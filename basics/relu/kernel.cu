// relu: output = max(0, input) over N floats (LeetGPU signature, device pointers).
//
// Memory-bound: 8 bytes per element. Same shape as vector_add: four 16-byte loads in flight per
// thread, the last N % 4 elements done by the first threads of block 0, and a scalar kernel for
// pointers that are not 16-byte aligned.
#include "gpu.h"

#include <cstddef>
#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kVectorsPerThread = 4;

__device__ __forceinline__ float relu(float x) { return x > 0.0f ? x : 0.0f; }

__global__ void __launch_bounds__(kThreads)
    relu_vec4(const float *__restrict__ in, float *__restrict__ out, std::size_t n) {
  const std::size_t vectors = n / 4;
  const float4 *in4 = reinterpret_cast<const float4 *>(in);
  float4 *out4 = reinterpret_cast<float4 *>(out);
  const std::size_t first =
      static_cast<std::size_t>(blockIdx.x) * kThreads * kVectorsPerThread + threadIdx.x;
  float4 x[kVectorsPerThread];
#pragma unroll
  for (int k = 0; k < kVectorsPerThread; ++k) {
    const std::size_t i = first + k * kThreads;
    if (i < vectors)
      x[k] = in4[i];
  }
#pragma unroll
  for (int k = 0; k < kVectorsPerThread; ++k) {
    const std::size_t i = first + k * kThreads;
    if (i < vectors)
      out4[i] = make_float4(relu(x[k].x), relu(x[k].y), relu(x[k].z), relu(x[k].w));
  }
  const std::size_t tail = vectors * 4 + threadIdx.x;
  if (blockIdx.x == 0 && tail < n)
    out[tail] = relu(in[tail]);
}

__global__ void __launch_bounds__(kThreads)
    relu_scalar(const float *in, float *out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i < n)
    out[i] = relu(in[i]);
}

bool aligned16(const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

} // namespace

extern "C" void solve(const float *input, float *output, int N) {
  if (N <= 0)
    return;
  const std::size_t n = static_cast<std::size_t>(N);
  if (aligned16(input) && aligned16(output)) {
    const std::size_t per_block = static_cast<std::size_t>(kThreads) * kVectorsPerThread * 4;
    relu_vec4<<<static_cast<unsigned>((n + per_block - 1) / per_block), kThreads>>>(input, output,
                                                                                    n);
    GPU_CHECK_LAUNCH("relu_vec4");
  } else {
    relu_scalar<<<static_cast<unsigned>((n + kThreads - 1) / kThreads), kThreads>>>(input, output,
                                                                                    n);
    GPU_CHECK_LAUNCH("relu_scalar");
  }
}
