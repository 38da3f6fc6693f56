// The matrix-core layer (primitives/mma.h) on its own: each warp of a block owns one 32 x 32
// output tile of a rows x cols x depth product, stages k-steps of A and B into shared memory
// (zeros outside the matrices, so sizes that are not multiples of the tile work), multiplies them
// with WarpTile::mma and writes what WarpTile::visit hands it. Both element kinds, both B layouts,
// shared leading dimensions with and without a 16-byte pad. The inputs are chosen so that every
// sum is exact in the accumulator type (fp16 values m / 64 with |m| <= 64: every partial sum is a
// multiple of 2^-12 below 2^11; int8 sums far below 2^31), so the comparison with the host
// product is bit for bit whatever order the matrix unit sums in. visit() must hand every element
// of the tile to exactly one lane: a counter per output element checks it. Under the MI100
// persona this runs the wave64 MFMA fragment code with each instruction emulated.
#include "gpu/check.h"
#include "gpu/vendor.h"
#include "primitives/mma.h"
#include "testing/test_support.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using kit::mma::BLayout;
using kit::mma::Kind;

constexpr int kWarpsPerBlock = 2;

template <Kind K, BLayout kLayout, int kPadBytes>
__global__ void __launch_bounds__(kWarpsPerBlock *KIT_WARP_SIZE)
    warp_tile_product(const typename kit::mma::KindTraits<K>::Element *a,
                      const typename kit::mma::KindTraits<K>::Element *b,
                      typename kit::mma::KindTraits<K>::Accum *c, int *visits, int rows, int cols,
                      int depth) {
  using Tile = kit::mma::WarpTile<K>;
  using Element = typename Tile::Element;
  using Accum = typename Tile::Accum;
  constexpr int kDepth = Tile::kDepth;
  constexpr int kPad = kPadBytes / static_cast<int>(sizeof(Element));
  constexpr bool kDepthRows = kLayout == BLayout::DepthByCols;
  constexpr int kLdA = kDepth + kPad;
  constexpr int kLdB = (kDepthRows ? kit::mma::kTileCols : kDepth) + kPad;
  constexpr int kAElements = kit::mma::kTileRows * kLdA;
  constexpr int kBElements = (kDepthRows ? kDepth : kit::mma::kTileCols) * kLdB;
  constexpr int kAVectors = (kAElements * sizeof(Element) + 15) / 16;
  constexpr int kBVectors = (kBElements * sizeof(Element) + 15) / 16;
  __shared__ uint4 shared_a[kWarpsPerBlock][kAVectors];
  __shared__ uint4 shared_b[kWarpsPerBlock][kBVectors];

  const int warp = kit::warp_id(), lane = kit::lane_id();
  Element *const tile_a = reinterpret_cast<Element *>(shared_a[warp]);
  Element *const tile_b = reinterpret_cast<Element *>(shared_b[warp]);
  const int row0 = static_cast<int>(blockIdx.y) * kit::mma::kTileRows;
  const int col0 = (static_cast<int>(blockIdx.x) * kWarpsPerBlock + warp) * kit::mma::kTileCols;

  typename Tile::Acc acc;
  Tile::zero(acc);
  for (int k0 = 0; k0 < depth; k0 += kDepth) {
    for (int i = lane; i < kit::mma::kTileRows * kDepth; i += KIT_WARP_SIZE) {
      const int r = i / kDepth, k = i % kDepth;
      const bool inside = row0 + r < rows && k0 + k < depth;
      tile_a[r * kLdA + k] =
          inside ? a[static_cast<std::size_t>(row0 + r) * depth + k0 + k] : Element(0);
    }
    for (int i = lane; i < kit::mma::kTileCols * kDepth; i += KIT_WARP_SIZE) {
      const int col = i % kit::mma::kTileCols, k = i / kit::mma::kTileCols;
      const bool inside = col0 + col < cols && k0 + k < depth;
      Element value = Element(0);
      if (inside)
        value = kDepthRows ? b[static_cast<std::size_t>(k0 + k) * cols + col0 + col]
                           : b[static_cast<std::size_t>(col0 + col) * depth + k0 + k];
      tile_b[kDepthRows ? k * kLdB + col : col * kLdB + k] = value;
    }
    kit::warp_sync();
    typename Tile::A fragment_a;
    typename Tile::B fragment_b;
    Tile::load_a(fragment_a, tile_a, kLdA);
    Tile::template load_b<kLayout>(fragment_b, tile_b, kLdB);
    Tile::mma(acc, fragment_a, fragment_b);
    kit::warp_sync(); // every lane has read the tiles before they are written again
  }
  Tile::visit(acc, [&](int r, int col, Accum value) {
    const int row = row0 + r, column = col0 + col;
    if (row < rows && column < cols) {
      c[static_cast<std::size_t>(row) * cols + column] = value;
      atomicAdd(visits + static_cast<std::size_t>(row) * cols + column, 1);
    }
  });
}

// fp16 bits of a float that a half represents exactly as a normal number (or zero).
std::uint16_t exact_half_bits(float x) {
  if (x == 0.0f)
    return 0;
  std::uint32_t bits;
  std::memcpy(&bits, &x, 4);
  const std::uint32_t sign = (bits >> 16) & 0x8000u;
  const int exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
  return static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(exponent) << 10) |
                                    ((bits & 0x7fffffu) >> 13));
}

struct Size {
  int rows, cols, depth;
};

template <Kind K, BLayout kLayout, int kPadBytes>
void check_one(kit::test::Checker &check, std::mt19937 &rng, Size s) {
  using Traits = kit::mma::KindTraits<K>;
  using Element = typename Traits::Element;
  using Accum = typename Traits::Accum;
  const std::size_t a_count = static_cast<std::size_t>(s.rows) * s.depth;
  const std::size_t b_count = static_cast<std::size_t>(s.depth) * s.cols;
  const std::size_t c_count = static_cast<std::size_t>(s.rows) * s.cols;
  std::vector<Element> a(a_count), b(b_count);
  std::vector<double> a_value(a_count), b_value(b_count);
  auto draw = [&](Element &bits, double &value) {
    if constexpr (K == Kind::F16) {
      const int m = std::uniform_int_distribution<int>(-64, 64)(rng);
      value = m / 64.0;
      bits = exact_half_bits(static_cast<float>(value));
    } else {
      const int m = std::uniform_int_distribution<int>(-128, 127)(rng);
      value = m;
      bits = static_cast<Element>(m);
    }
  };
  for (std::size_t i = 0; i < a_count; ++i)
    draw(a[i], a_value[i]);
  for (std::size_t i = 0; i < b_count; ++i)
    draw(b[i], b_value[i]);
  const bool depth_rows = kLayout == BLayout::DepthByCols;
  std::vector<Accum> want(c_count);
  for (int r = 0; r < s.rows; ++r)
    for (int col = 0; col < s.cols; ++col) {
      double sum = 0.0;
      for (int k = 0; k < s.depth; ++k)
        sum += a_value[static_cast<std::size_t>(r) * s.depth + k] *
               b_value[depth_rows ? static_cast<std::size_t>(k) * s.cols + col
                                  : static_cast<std::size_t>(col) * s.depth + k];
      want[static_cast<std::size_t>(r) * s.cols + col] = static_cast<Accum>(sum);
    }

  kit::test::DeviceBuffer<Element> d_a(a_count), d_b(b_count);
  kit::test::DeviceBuffer<Accum> d_c(c_count);
  kit::test::DeviceBuffer<int> d_visits(c_count);
  d_a.upload(a);
  d_b.upload(b);
  GPU_CHECK(cudaMemset(d_visits.get(), 0, d_visits.bytes()));
  const int col_tiles = (s.cols + kit::mma::kTileCols - 1) / kit::mma::kTileCols;
  const dim3 grid((col_tiles + kWarpsPerBlock - 1) / kWarpsPerBlock,
                  (s.rows + kit::mma::kTileRows - 1) / kit::mma::kTileRows);
  warp_tile_product<K, kLayout, kPadBytes><<<grid, kWarpsPerBlock * KIT_WARP_SIZE>>>(
      d_a.get(), d_b.get(), d_c.get(), d_visits.get(), s.rows, s.cols, s.depth);
  GPU_CHECK_LAUNCH("warp_tile_product");
  GPU_CHECK(cudaDeviceSynchronize());
  const std::vector<Accum> got = d_c.download();
  const std::vector<int> visits = d_visits.download();
  int wrong = 0, miscounted = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < c_count; ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(Accum)) != 0 && wrong++ == 0)
      first = i;
    if (visits[i] != 1)
      ++miscounted;
  }
  char what[160];
  std::snprintf(what, sizeof what, "%s %s pad=%dB rows=%d cols=%d depth=%d",
                K == Kind::F16 ? "f16->f32" : "s8->s32", depth_rows ? "A*B" : "A*B^T", kPadBytes,
                s.rows, s.cols, s.depth);
  if (wrong > 0)
    std::printf("  %s: %d wrong, first at (%zu, %zu): got %.9g, want %.9g\n", what, wrong,
                first / s.cols, first % s.cols, static_cast<double>(got[first]),
                static_cast<double>(want[first]));
  if (miscounted > 0)
    std::printf("  %s: %d elements not visited exactly once\n", what, miscounted);
  check.expect(wrong == 0 && miscounted == 0, what);
}

template <Kind K> void check_kind(kit::test::Checker &check, std::mt19937 &rng) {
  constexpr int d = kit::mma::KindTraits<K>::kDepth;
  const Size sizes[] = {{1, 1, 1},       {32, 32, d},         {32, 64, 4 * d},     {33, 31, d + 1},
                        {31, 33, d - 1}, {64, 65, 2 * d + 3}, {65, 63, 3 * d - 5}, {7, 97, 100},
                        {100, 7, 37},    {96, 128, 200},      {2, 2, 3},           {17, 129, 64}};
  for (const Size &s : sizes) {
    check_one<K, BLayout::DepthByCols, 0>(check, rng, s);
    check_one<K, BLayout::ColsByDepth, 0>(check, rng, s);
    check_one<K, BLayout::DepthByCols, 16>(check, rng, s);
    check_one<K, BLayout::ColsByDepth, 16>(check, rng, s);
  }
}

} // namespace

int main() {
  kit::test::begin_gpu_test("mma_test");
  kit::test::Checker check;
  std::mt19937 rng(20261128);
  check_kind<Kind::F16>(check, rng);
  check_kind<Kind::I8>(check, rng);
  return check.finish("mma_test");
}
