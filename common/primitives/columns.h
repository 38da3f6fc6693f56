// Runs of consecutive floats read as one access where they can be.
// - Columns<kWidth>: kWidth floats (1 or 4) read and written as one access: a 16-byte vector when
//   kWidth == 4 (the address 16-byte aligned), a plain float otherwise. The stencil kernels
//   (jacobi_stencil_2d, causal_depthwise_conv1d) take their columns four at a time when the row
//   length and the pointers allow it and one at a time otherwise, from one templated body.
// - load_four: four consecutive floats of an array, those past its end read as 0 (prefix_sum's and
//   stream_compaction's groups, 2d_convolution's staging).
#pragma once

#include "gpu/vendor.h"

#include <cstddef>

namespace kit {

template <int kWidth> struct Columns {
  static_assert(kWidth == 1 || kWidth == 4, "a run of columns is one float or one float4");
  float v[kWidth];
};

template <int kWidth>
__device__ __forceinline__ Columns<kWidth> load_columns(const float *__restrict__ p) {
  Columns<kWidth> c;
  if constexpr (kWidth == 4) {
    const float4 q = *reinterpret_cast<const float4 *>(p);
    c.v[0] = q.x;
    c.v[1] = q.y;
    c.v[2] = q.z;
    c.v[3] = q.w;
  } else {
    c.v[0] = *p;
  }
  return c;
}

template <int kWidth>
__device__ __forceinline__ void store_columns(float *__restrict__ p, const Columns<kWidth> &c) {
  if constexpr (kWidth == 4)
    *reinterpret_cast<float4 *>(p) = make_float4(c.v[0], c.v[1], c.v[2], c.v[3]);
  else
    *p = c.v[0];
}

// p[i .. i + 3] of an n-element array, elements at or past n read as 0: one 16-byte load when all
// four exist and `vectorized` (p 16-byte aligned, so p + i is whenever i is a multiple of 4), else
// one load per existing element.
__device__ __forceinline__ float4 load_four(const float *p, std::size_t i, std::size_t n,
                                            bool vectorized) {
  if (vectorized && i + 3 < n)
    return *reinterpret_cast<const float4 *>(p + i);
  return make_float4(i < n ? p[i] : 0.0f, i + 1 < n ? p[i + 1] : 0.0f, i + 2 < n ? p[i + 2] : 0.0f,
                     i + 3 < n ? p[i + 3] : 0.0f);
}

} // namespace kit
