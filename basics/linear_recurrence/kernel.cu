// linear_recurrence: per row b of B rows of L, h[b][0] = x[b][0] and
// h[b][t] = a[b][t] * h[b][t - 1] + x[b][t] (LeetGPU signature, device pointers; tolerance 1e-5
// absolute and relative).
//
// Memory-bound: 12 bytes per element (two floats read, one written). The rows are contiguous, so
// the whole B x L array is ONE scan of N = B * L elements over affine maps h -> a * h + x,
// combined in order (AffineMap of primitives/tile_scan.h), where the first element of every
// row gets a = 0: nothing before a row start reaches it. One launch of the shared single-pass
// scan with decoupled look-back:
//  - tiles of 4096 elements (256 threads, four groups of four per lane, a and x loaded as 16-byte
//    vectors before the scan): the judge's 64 x 16,384 is 256 tiles. At 100 registers per thread
//    (sm_90) two blocks share a multiprocessor, so all 256 are resident at once and the whole
//    input is requested in one round trip (2048-element tiles took 76 registers: 512 tiles, three
//    per multiprocessor, a second wave);
//  - a tile holding a row start absorbs everything before it and publishes its inclusive map at
//    once, and a tile starting a row needs no look-back. With the judge's a in [0, 1) the product
//    of a tile's coefficients underflows to exactly 0, so every tile publishes its inclusive map
//    at once and a look-back ends at the nearest predecessor;
//  - maps are composed in double (coefficients and offsets) and each h rounded to float once;
//    with a = 1 (a prefix sum of up to 65,536 normal values) a float carry can drift past the
//    1e-5 tolerance where h crosses zero.
// The row position of each group of four comes from one 32-bit division.
#include "gpu/check.h"
#include "gpu/vendor.h"
#include "primitives/tile_scan.h"

#include <cstddef>
#include <cstdint>

namespace {

namespace lookback = kit::lookback;
using kit::lookback::AffineMap;
using kit::lookback::component;

constexpr int kThreads = 256;
constexpr int kRounds = 4;

// Four consecutive elements: their coefficients and inputs, and a bit per row start.
struct Group {
  float4 a;
  float4 x;
  unsigned starts;
};

struct Recurrence {
  using State = AffineMap;
  using Group = ::Group;
  static constexpr int kThreads = ::kThreads;
  static constexpr int kRounds = ::kRounds;

  const float *a;
  const float *x;
  float *h;
  std::size_t n;   // B * L
  unsigned length; // L
  bool vectorized; // all three pointers 16-byte aligned

  __device__ Group load(std::size_t i) const {
    Group g;
    if (vectorized && i + 3 < n) {
      g.a = *reinterpret_cast<const float4 *>(a + i);
      g.x = *reinterpret_cast<const float4 *>(x + i);
    } else {
      g.a = make_float4(i < n ? a[i] : 0.0f, i + 1 < n ? a[i + 1] : 0.0f,
                        i + 2 < n ? a[i + 2] : 0.0f, i + 3 < n ? a[i + 3] : 0.0f);
      g.x = make_float4(i < n ? x[i] : 0.0f, i + 1 < n ? x[i + 1] : 0.0f,
                        i + 2 < n ? x[i + 2] : 0.0f, i + 3 < n ? x[i + 3] : 0.0f);
    }
    g.starts = lookback::row_starts(i, length);
    return g;
  }
  __device__ AffineMap lift(const Group &g, std::size_t i, int e) const {
    if (i + e >= n)
      return AffineMap::identity();
    const double coefficient = (g.starts >> e & 1) ? 0.0 : static_cast<double>(component(g.a, e));
    return {coefficient, static_cast<double>(component(g.x, e))};
  }
  __device__ void store(const Group &g, std::size_t i, AffineMap before) const {
    float out[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      before = AffineMap::combine(before, lift(g, i, e));
      out[e] = static_cast<float>(before.x); // the map applied to h = 0 before the row
    }
    if (vectorized && i + 3 < n) {
      *reinterpret_cast<float4 *>(h + i) = make_float4(out[0], out[1], out[2], out[3]);
      return;
    }
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (i + e < n)
        h[i + e] = out[e];
  }
};

} // namespace

extern "C" void solve(const float *a, const float *x, float *h, int B, int L) {
  if (B <= 0 || L <= 0)
    return;
  const auto aligned = [](const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  const Recurrence scan{a,
                        x,
                        h,
                        static_cast<std::size_t>(B) * static_cast<std::size_t>(L),
                        static_cast<unsigned>(L),
                        aligned(a) && aligned(x) && aligned(h)};
  lookback::launch_tile_scan(scan);
}
