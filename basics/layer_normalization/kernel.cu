// layer_normalization: per row of an N x C matrix, output = weight * (x - mean) / sqrt(var + eps)
// + bias, with the row's mean and biased variance (LeetGPU signature, device pointers; tolerance
// 1e-4 absolute and relative).
//
// Memory-bound: 8 bytes per element (one float read, one written; weight and bias are read once
// per thread and kept). A row lives in registers from its load to its store (the row slices of
// primitives/rows.h), so each element is read once:
//  - up to 8 * 4 * warp columns (1024 on NVIDIA, 2048 on AMD) a WARP owns a row, with no barrier
//    in its reductions; wider rows, up to the challenge's 4096, belong to a whole 256-thread
//    block (wider still: layer_norm_wide, two passes over global memory);
//  - the statistics take two passes over the registers, on the values shifted by the row's first
//    value: their mean, then the mean of squared deviations, each a float sum per thread and a
//    group reduction. Two passes never cancel catastrophically (E[x^2] - mean^2 would), and the
//    shift keeps the deviations exact for rows far from 0 with little spread (100 +- 0.01 is
//    tested), where a float mean of the raw values is off by more than the tolerance allows;
//  - groups stride over the rows of a grid of at most the resident blocks, and each group loads its
//    next row before it reduces the current one, so a load is always in flight;
//  - 16-byte loads and stores when C % 4 == 0 and the pointers are aligned (the judge's C = 512),
//    4-byte ones otherwise; both with consecutive threads on consecutive addresses.
#include "collectives/block.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/launch.h"
#include "gpu/vendor.h"
#include "primitives/rows.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace {

namespace rows = kit::rows;

constexpr int kThreads = 256;

template <bool kWarpRows, int kVec, bool kVector>
__global__ void __launch_bounds__(kThreads)
    layer_norm(const float *__restrict__ in, const float *__restrict__ weight,
               const float *__restrict__ bias, float *__restrict__ out, int N, int C, float eps) {
  constexpr int kGroup = kWarpRows ? KIT_WARP_SIZE : kThreads;
  constexpr int kGroupsPerBlock = kThreads / kGroup;
  using Row = rows::Slice<kGroup, kVec, kVector>;
  __shared__ kit::BlockScratch<float, kThreads> scratch;
  const int t = static_cast<int>(threadIdx.x) % kGroup;
  const long long stride = static_cast<long long>(gridDim.x) * kGroupsPerBlock;
  long long row = static_cast<long long>(blockIdx.x) * kGroupsPerBlock + threadIdx.x / kGroup;
  const auto row_at = [&](long long r) { return static_cast<std::size_t>(r) * C; };

  Row w, b, x;
  float pivot = 0.0f;
  w.load(weight, C, t);
  b.load(bias, C, t);
  if (row < N) {
    x.load(in + row_at(row), C, t);
    pivot = in[row_at(row)];
  }
  for (; row < N; row += stride) {
    Row next = x;
    float next_pivot = pivot;
    if (row + stride < N) { // in flight while this row is reduced
      next.load(in + row_at(row + stride), C, t);
      next_pivot = in[row_at(row + stride)];
    }

    const rows::Moments m = rows::shifted_moments<kGroup, kThreads>(x, t, C, pivot, eps, scratch);
#pragma unroll
    for (int k = 0; k < kVec; ++k)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        Row::at(x.item[k], e) =
            Row::at(w.item[k], e) * ((Row::at(x.item[k], e) - m.mean) * m.inv_std) +
            Row::at(b.item[k], e);
    x.store(out + row_at(row), C, t);
    x = next;
    pivot = next_pivot;
  }
}

// Rows wider than a block's registers hold (more than 4096 columns: beyond the challenge's
// limit, kept so that any C is correct): one block per row, the sums and sums of squares in
// double in one pass over global memory, then a second pass for the outputs.
__global__ void __launch_bounds__(kThreads)
    layer_norm_wide(const float *__restrict__ in, const float *__restrict__ weight,
                    const float *__restrict__ bias, float *__restrict__ out, int N, int C,
                    float eps) {
  __shared__ kit::BlockScratch<double, kThreads> scratch;
  for (long long row = blockIdx.x; row < N; row += gridDim.x) {
    const float *x = in + static_cast<std::size_t>(row) * C;
    float *y = out + static_cast<std::size_t>(row) * C;
    double sum = 0.0, squares = 0.0;
    for (int c = threadIdx.x; c < C; c += kThreads) {
      const double v = x[c];
      sum += v;
      squares += v * v;
    }
    const double mean = kit::block_reduce<kThreads>(sum, kit::Plus(), 0.0, scratch) / C;
    const double mean_square = kit::block_reduce<kThreads>(squares, kit::Plus(), 0.0, scratch) / C;
    const float inv_std =
        static_cast<float>(1.0 / sqrt(fmax(mean_square - mean * mean, 0.0) + eps));
    for (int c = threadIdx.x; c < C; c += kThreads)
      y[c] = weight[c] * (static_cast<float>(x[c] - mean) * inv_std) + bias[c];
  }
}

struct Args {
  const float *in, *weight, *bias;
  float *out;
  int N, C;
  float eps;
};

template <bool kVector> void dispatch(const Args &a, int warp) {
  const auto launch = [&](auto warp_rows, auto vec) {
    constexpr bool kWarpRows = decltype(warp_rows)::value;
    rows::launch_rows<layer_norm<kWarpRows, decltype(vec)::value, kVector>, kThreads, kWarpRows>(
        "layer_norm", a.N, warp, a.in, a.weight, a.bias, a.out, a.N, a.C, a.eps);
  };
  if (!rows::launch_row_shape<kThreads, 4>(a.C, warp, launch))
    rows::launch_rows<layer_norm_wide, kThreads, false>("layer_norm_wide", a.N, warp, a.in,
                                                        a.weight, a.bias, a.out, a.N, a.C, a.eps);
}

} // namespace

extern "C" void solve(const float *input, const float *weight, const float *bias, float *output,
                      int N, int C, float eps) {
  if (N <= 0 || C <= 0)
    return;
  static const int warp = kit::gpu::device_warp_size();
  const Args a{input, weight, bias, output, N, C, eps};
  if (C % 4 == 0 && rows::aligned16(input) && rows::aligned16(weight) && rows::aligned16(bias) &&
      rows::aligned16(output))
    dispatch<true>(a, warp);
  else
    dispatch<false>(a, warp);
}
