// Runs of kWidth consecutive floats (1 or 4) read and written as one access: a 16-byte vector when
// kWidth == 4 (the address 16-byte aligned), a plain float otherwise. The stencil kernels
// (jacobi_stencil_2d, causal_depthwise_conv1d) take their columns four at a time when the row
// length and the pointers allow it and one at a time otherwise, from one templated body.
#pragma once

#include "gpu/vendor.h"

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

} // namespace kit
