// The grid-stride read of one array that the counting passes share (primitives/count.h,
// histogramming): every element visited exactly once over the whole grid, as 16-byte vectors with
// kUnroll loads in flight per thread before any is visited, then the last n % 4 elements one by
// one.
#pragma once

#include "gpu/vendor.h"

#include <cstddef>

namespace kit::grid_stride {

template <class T> struct Vector4;
template <> struct Vector4<int> { using type = int4; };
template <> struct Vector4<float> { using type = float4; };

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
// Calls visit_vector(v) for each 16-byte vector (when `vectorized`: `in` 16-byte aligned) and
// visit_item(x) for each remaining element, in the calling thread. Blocks of kThreads threads.
template <int kThreads, int kUnroll, class T, class VisitVector, class VisitItem>
__device__ __forceinline__ void for_each(const T *__restrict__ in, std::size_t n, bool vectorized,
                                         VisitVector &&visit_vector, VisitItem &&visit_item) {
  using V = typename Vector4<T>::type;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kThreads;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  std::size_t scalar_begin = 0;
  if (vectorized) {
    const V *v = reinterpret_cast<const V *>(in);
    const std::size_t vectors = n / 4;
    std::size_t i = thread;
    for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
      V x[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        x[u] = v[i + u * stride];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        visit_vector(x[u]);
    }
    for (; i < vectors; i += stride)
      visit_vector(v[i]);
    scalar_begin = vectors * 4;
  }
  for (std::size_t i = scalar_begin + thread; i < n; i += stride)
    visit_item(in[i]);
}
#endif

} // namespace kit::grid_stride
