// One relaxation d = min(d, a + b) of the min-plus inner loops, per distance type and spelling.
#pragma once

#include "gpu/math.h"
#include "gpu/vendor.h"

namespace kit::min_plus {

// How the product's inner loop spells its relaxations.
enum class MinPlusForm {
  AddMin,     // one add_min(a, b, d) per relaxation: one DPX VIADDMNMX on sm_90+ for int
  PairedMin3, // two k steps per min3(d, a1 + b1, a2 + b2): v_min3 on AMD, 1.5 instructions each
};

inline const char *form_name(MinPlusForm form) {
  return form == MinPlusForm::AddMin ? "add_min" : "paired_min3";
}

// The arithmetic of one distance type. Distances are non-negative and "unreachable" is a large
// value INF with INF + INF representable (int: 2^30 - 1; float: any large value, or +inf), so a
// + b never wraps and min(d, a + b) keeps INF when either operand is INF.
template <class T> struct MinPlusOps;

template <> struct MinPlusOps<int> {
  using Vector = int4;
#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
  static __device__ __forceinline__ Vector vector(int x, int y, int z, int w) {
    return make_int4(x, y, z, w);
  }
  static __device__ __forceinline__ int add_min(int a, int b, int d) {
    return kit::gpu_add_min(a, b, d);
  }
  static __device__ __forceinline__ int min3(int a, int b, int c) { return kit::gpu_min3(a, b, c); }
#endif
};

template <> struct MinPlusOps<float> {
  using Vector = float4;
#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
  static __device__ __forceinline__ Vector vector(float x, float y, float z, float w) {
    return make_float4(x, y, z, w);
  }
  static __device__ __forceinline__ float add_min(float a, float b, float d) {
    return fminf(a + b, d);
  }
  static __device__ __forceinline__ float min3(float a, float b, float c) {
    return fminf(fminf(a, b), c);
  }
#endif
};

} // namespace kit::min_plus
