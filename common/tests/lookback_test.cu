// The decoupled look-back on its own (primitives/lookback.h, primitives/tile_scan.h) and the warp
// and block collectives under an operator that is associative but not commutative, on a state
// that is a struct (shuffled word by word): any lane, tile or window combined out of order gives
// a wrong answer. The state is the affine map h -> a * h + b over unsigned integers (wrapping, so
// exact); scanning maps of random (a, b) computes h[i] = a[i] * h[i - 1] + b[i] from h[-1] = 0.
// A coefficient of 0 absorbs everything before it, which takes the scan's shortcuts (a tile whose
// first element absorbs skips its look-back, one whose total absorbs publishes it as inclusive).
// Sizes: one element, warp and window edges, tile +- 1, several tiles with a tail, and a large
// run of tiles; outputs are poisoned before every run.
#include "collectives/block.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "primitives/tile_scan.h"
#include "testing/test_support.h"

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace {

struct Affine {
  unsigned a;
  unsigned b;

  __host__ __device__ static Affine identity() { return {1u, 0u}; }
  // `earlier` first, then `later`: later(earlier(h)) = later.a * (earlier.a * h + earlier.b) +
  // later.b.
  __host__ __device__ static Affine combine(const Affine &earlier, const Affine &later) {
    return {later.a * earlier.a, later.a * earlier.b + later.b};
  }
  __host__ __device__ bool absorbs() const { return a == 0u; }
};

struct AffineOp {
  __host__ __device__ Affine operator()(const Affine &x, const Affine &y) const {
    return Affine::combine(x, y);
  }
};

// ---- warp and block collectives --------------------------------------------------------------

template <int kBlock> __global__ void block_scans_kernel(const Affine *in, Affine *out) {
  __shared__ kit::BlockScratch<Affine, kBlock> scratch;
  const int i = blockIdx.x * kBlock + threadIdx.x;
  const Affine v = in[i];
  Affine total;
  out[4 * i + 0] = kit::warp_inclusive_scan(v, AffineOp());
  out[4 * i + 1] = kit::warp_exclusive_scan(v, AffineOp(), Affine::identity(), total);
  out[4 * i + 2] =
      kit::block_inclusive_scan<kBlock>(v, AffineOp(), Affine::identity(), total, scratch);
  out[4 * i + 3] =
      kit::block_exclusive_scan<kBlock>(v, AffineOp(), Affine::identity(), total, scratch);
}

template <int kBlock>
void check_collectives(kit::test::Checker &check, std::mt19937 &rng, int warp) {
  constexpr int kBlocks = 3;
  std::vector<Affine> in(kBlocks * kBlock);
  for (Affine &x : in)
    x = {rng() % 5 == 0 ? 0u : static_cast<unsigned>(rng() | 1u), static_cast<unsigned>(rng())};
  std::vector<Affine> want(4 * in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::size_t warp_start = i / warp * warp, block_start = i / kBlock * kBlock;
    Affine w = Affine::identity(), b = Affine::identity();
    for (std::size_t j = warp_start; j < i; ++j)
      w = Affine::combine(w, in[j]);
    for (std::size_t j = block_start; j < i; ++j)
      b = Affine::combine(b, in[j]);
    want[4 * i + 0] = Affine::combine(w, in[i]);
    want[4 * i + 1] = w;
    want[4 * i + 2] = Affine::combine(b, in[i]);
    want[4 * i + 3] = b;
  }
  kit::test::DeviceBuffer<Affine> d_in(in.size()), d_out(want.size());
  d_in.upload(in);
  d_out.poison();
  block_scans_kernel<kBlock><<<kBlocks, kBlock>>>(d_in.get(), d_out.get());
  GPU_CHECK_LAUNCH("block_scans_kernel");
  char what[96];
  std::snprintf(what, sizeof what, "affine warp and block scans, block %d", kBlock);
  check.expect_equal(d_out.download(), want, what);
}

// ---- the tile scan ---------------------------------------------------------------------------

struct Recurrence {
  using State = Affine;
  struct Group {
    uint4 a;
    uint4 b;
  };
  static constexpr int kThreads = 256;
  static constexpr int kRounds = 2;

  const unsigned *a;
  const unsigned *b;
  unsigned *h;
  std::size_t n;

  __device__ static unsigned at(const uint4 &v, int e) {
    return e == 0 ? v.x : e == 1 ? v.y : e == 2 ? v.z : v.w;
  }
  __device__ Group load(std::size_t i) const {
    const auto get = [&](const unsigned *p, std::size_t k) { return k < n ? p[k] : 0u; };
    return {make_uint4(get(a, i), get(a, i + 1), get(a, i + 2), get(a, i + 3)),
            make_uint4(get(b, i), get(b, i + 1), get(b, i + 2), get(b, i + 3))};
  }
  __device__ Affine lift(const Group &g, std::size_t i, int e) const {
    return i + e < n ? Affine{at(g.a, e), at(g.b, e)} : Affine::identity();
  }
  __device__ void store(const Group &g, std::size_t i, Affine before) const {
    for (int e = 0; e < 4; ++e) {
      before = Affine::combine(before, lift(g, i, e));
      if (i + e < n)
        h[i + e] = before.b; // the map applied to h[-1] = 0
    }
  }
};

void check_tile_scan(kit::test::Checker &check, std::mt19937 &rng, std::size_t n, int zero_one_in) {
  std::vector<unsigned> a(n), b(n), want(n);
  unsigned h = 0;
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = zero_one_in > 0 && rng() % zero_one_in == 0 ? 0u : static_cast<unsigned>(rng());
    b[i] = static_cast<unsigned>(rng());
    h = a[i] * h + b[i];
    want[i] = h;
  }
  kit::test::DeviceBuffer<unsigned> d_a(n), d_b(n), d_h(n);
  d_a.upload(a);
  d_b.upload(b);
  for (int run = 0; run < 2; ++run) { // a second run reuses the states of the first
    d_h.poison();
    kit::lookback::launch_tile_scan(Recurrence{d_a.get(), d_b.get(), d_h.get(), n});
    char what[96];
    std::snprintf(what, sizeof what, "tile scan n=%zu zeros 1/%d run %d", n, zero_one_in, run);
    check.expect_equal(d_h.download(), want, what);
  }
}

} // namespace

int main() {
  kit::test::begin_gpu_test("lookback_test");
  const int warp = kit::gpu::device_warp_size();
  kit::test::Checker check;
  std::mt19937 rng(20261128);
  check_collectives<64>(check, rng, warp);
  check_collectives<256>(check, rng, warp);
  check_collectives<kit::test::kLargestBlock>(check, rng, warp);

  constexpr std::size_t kTile = kit::lookback::tile_items<Recurrence>();
  const std::size_t window = static_cast<std::size_t>(warp) * kTile; // one look-back window
  const std::size_t large = kit::test::small_scale() ? 3 * window + 7 : 40 * window + 7;
  for (std::size_t n :
       {std::size_t{1}, std::size_t{2}, std::size_t{31}, std::size_t{32}, std::size_t{33},
        std::size_t{63}, std::size_t{64}, std::size_t{65}, kTile - 1, kTile, kTile + 1,
        5 * kTile + 17, window - 1, window + 1, large}) {
    check_tile_scan(check, rng, n, 0);    // no absorbing element: every walk goes to tile 0
    check_tile_scan(check, rng, n, 1000); // rare ones: some tiles start or end absorbed
  }
  return check.finish("lookback_test");
}
