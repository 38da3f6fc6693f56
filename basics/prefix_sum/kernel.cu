// prefix_sum: output[i] = input[0] + ... + input[i] over N floats (LeetGPU signature, device
// pointers; tolerance 1e-2 absolute and relative).
//
// A policy of the shared single-pass tile scan (primitives/tile_scan.h: decoupled look-back, one
// launch, each element read once and written once). Sums are carried in double and rounded to
// float once per output: float carries drift by far more than 1e-2 at N = 1e8 with values in
// [-1000, 1000].
//  - Tiles are 8192 elements on NVIDIA: each warp loads its contiguous segment as kRounds = 8
//    float4 per lane (coalesced, all in flight at once). Large tiles keep the look-back short: at
//    the judge's N = 250,000 there are 31 tiles, all within one warp-width of look-back.
//  - Co-residency: ticket order (lookback::draw_tile): a tile waits only for tiles with smaller
//    tickets, drawn by blocks that had already started, so a plain launch is safe.
#include "gpu/check.h"
#include "gpu/tuning_dispatch.h"
#include "gpu/vendor.h"
#include "primitives/columns.h"
#include "primitives/tile_scan.h"
#include "tuning.h"

#include <cstddef>
#include <cstdint>

namespace {

namespace lookback = kit::lookback;

// The tile shape, per target (tuning.h).
using Tuning = kit::gpu::VendorTuning<prefix_sum::PrefixSumTuning>;
constexpr int kThreads = Tuning::kThreads;
constexpr int kRounds = Tuning::kRounds;

// The scan state: a sum in double.
struct Sum {
  double value;

  __device__ static Sum identity() { return {0.0}; }
  __device__ static Sum combine(const Sum &earlier, const Sum &later) {
    return {earlier.value + later.value};
  }
  __device__ bool absorbs() const { return false; }
};

struct PrefixSum {
  using State = Sum;
  using Group = float4;
  static constexpr int kThreads = ::kThreads;
  static constexpr int kRounds = ::kRounds;

  const float *input;
  float *output;
  std::size_t n;
  bool vectorized; // both pointers 16-byte aligned

  __device__ float4 load(std::size_t i) const { return kit::load_four(input, i, n, vectorized); }
  __device__ Sum lift(const float4 &g, std::size_t i, int e) const {
    return {i + e < n ? static_cast<double>(lookback::component(g, e)) : 0.0};
  }
  __device__ void store(const float4 &g, std::size_t i, Sum before) const {
    const double a = before.value + g.x;
    const double b = a + g.y;
    const double c = b + g.z;
    const double d = c + g.w;
    if (vectorized && i + 3 < n) {
      *reinterpret_cast<float4 *>(output + i) =
          make_float4(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c),
                      static_cast<float>(d));
      return;
    }
    const double sums[4] = {a, b, c, d};
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (i + e < n)
        output[i + e] = static_cast<float>(sums[e]);
  }
};

} // namespace

extern "C" void solve(const float *input, float *output, int N) {
  if (N <= 0)
    return;
  const std::size_t n = static_cast<std::size_t>(N);
  const bool vectorized = reinterpret_cast<std::uintptr_t>(input) % 16 == 0 &&
                          reinterpret_cast<std::uintptr_t>(output) % 16 == 0;
  lookback::launch_tile_scan(PrefixSum{input, output, n, vectorized});
}
