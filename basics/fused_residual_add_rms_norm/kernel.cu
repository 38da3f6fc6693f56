// fused_residual_add_rms_norm: per row of N x C, z = x + residual and
// out = z / sqrt(mean(z^2) + eps) * weight (LeetGPU signature, device pointers; tolerance 1e-5
// absolute and relative).
//
// Memory-bound: 12 bytes per element (two floats read, one written; the weight is read once per
// thread and kept). The sum z never goes to memory: a row's x and residual are loaded into
// registers (the row slices of primitives/rows.h), added there, reduced and scaled, so every
// element is read once and written once:
//  - up to 8 * 4 * warp columns (1024 on NVIDIA, 2048 on AMD) a WARP owns a row (no barrier in
//    its reduction); up to 8192 columns a 256-thread block does (the judge's C = 4096: four
//    16-byte vectors of each input per thread); wider rows (the challenge allows 65,536) take
//    a kernel that reads the row twice, the second time mostly from L2;
//  - groups stride over the rows with at most the resident number of blocks and load their next
//    row before reducing the current one, so a row's loads are always in flight;
//  - squares are summed in float per thread (at most 32 terms, all positive) and across the group
//    in float; the wide kernel sums in double. The relative error of the mean of squares stays
//    far below the 1e-5 the outputs allow.
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
    add_rms_norm(const float *__restrict__ x, const float *__restrict__ residual,
                 const float *__restrict__ weight, float *__restrict__ out, int N, int C,
                 float eps) {
  constexpr int kGroup = kWarpRows ? KIT_WARP_SIZE : kThreads;
  constexpr int kGroupsPerBlock = kThreads / kGroup;
  using Row = rows::Slice<kGroup, kVec, kVector>;
  __shared__ kit::BlockScratch<float, kThreads> scratch;
  const int t = static_cast<int>(threadIdx.x) % kGroup;
  const long long stride = static_cast<long long>(gridDim.x) * kGroupsPerBlock;
  long long row = static_cast<long long>(blockIdx.x) * kGroupsPerBlock + threadIdx.x / kGroup;
  const auto row_at = [&](long long r) { return static_cast<std::size_t>(r) * C; };

  Row w, a, b;
  w.load(weight, C, t);
  if (row < N) {
    a.load(x + row_at(row), C, t);
    b.load(residual + row_at(row), C, t);
  }
  const float columns = static_cast<float>(C);
  for (; row < N; row += stride) {
    Row z = a;
#pragma unroll
    for (int k = 0; k < kVec; ++k)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        Row::at(z.item[k], e) += Row::at(b.item[k], e); // columns past C: 0 + 0
    if (row + stride < N) {                             // in flight while this row is reduced
      a.load(x + row_at(row + stride), C, t);
      b.load(residual + row_at(row + stride), C, t);
    }
    float squares = 0.0f;
    z.for_each(t, [&](float v, int) { squares += v * v; });
    const float mean_square =
        rows::group_reduce<kGroup, kThreads>(squares, kit::Plus(), 0.0f, scratch) / columns;
    const float inv_rms = 1.0f / sqrtf(mean_square + eps);
#pragma unroll
    for (int k = 0; k < kVec; ++k)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        Row::at(z.item[k], e) = Row::at(z.item[k], e) * inv_rms * Row::at(w.item[k], e);
    z.store(out + row_at(row), C, t);
  }
}

// Rows wider than a block's registers hold (more than 8192 columns): one block per row, the mean
// of squares in double over a first read, the outputs from a second read (mostly from L2: a row
// of 65,536 columns is 512 KB of inputs).
__global__ void __launch_bounds__(kThreads)
    add_rms_norm_wide(const float *__restrict__ x, const float *__restrict__ residual,
                      const float *__restrict__ weight, float *__restrict__ out, int N, int C,
                      float eps) {
  __shared__ kit::BlockScratch<double, kThreads> scratch;
  for (long long row = blockIdx.x; row < N; row += gridDim.x) {
    const std::size_t base = static_cast<std::size_t>(row) * C;
    double squares = 0.0;
    for (int c = threadIdx.x; c < C; c += kThreads) {
      const float z = x[base + c] + residual[base + c];
      squares += static_cast<double>(z) * z;
    }
    const double total = kit::block_reduce<kThreads>(squares, kit::Plus(), 0.0, scratch);
    const float inv_rms = static_cast<float>(1.0 / sqrt(total / C + eps));
    for (int c = threadIdx.x; c < C; c += kThreads)
      out[base + c] = (x[base + c] + residual[base + c]) * inv_rms * weight[c];
  }
}

struct Args {
  const float *x, *residual, *weight;
  float *out;
  int N, C;
  float eps;
};

template <bool kVector> void dispatch(const Args &a, int warp) {
  const auto launch = [&](auto warp_rows, auto vec) {
    constexpr bool kWarpRows = decltype(warp_rows)::value;
    rows::launch_rows<add_rms_norm<kWarpRows, decltype(vec)::value, kVector>, kThreads, kWarpRows>(
        "add_rms_norm", a.N, warp, a.x, a.residual, a.weight, a.out, a.N, a.C, a.eps);
  };
  if (!rows::launch_row_shape<kThreads, 8>(a.C, warp, launch))
    rows::launch_rows<add_rms_norm_wide, kThreads, false>(
        "add_rms_norm_wide", a.N, warp, a.x, a.residual, a.weight, a.out, a.N, a.C, a.eps);
}

} // namespace

extern "C" void solve(const float *x, const float *residual, const float *weight, float *out, int N,
                      int C, float eps) {
  if (N <= 0 || C <= 0)
    return;
  static const int warp = kit::gpu::device_warp_size();
  const Args a{x, residual, weight, out, N, C, eps};
  if (C % 4 == 0 && rows::aligned16(x) && rows::aligned16(residual) && rows::aligned16(weight) &&
      rows::aligned16(out))
    dispatch<true>(a, warp);
  else
    dispatch<false>(a, warp);
}
