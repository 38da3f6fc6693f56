// The matrix-core GEMM (primitives/mma_gemm.h) against an exact host product: every tile shape of
// mma_gemm_tuning.h, both element kinds, both B layouts, batches with strides (and A shared across
// the batch), sizes 1, 31, 32, 33, 63, 64, 65 and tile +- 1 in each dimension, leading dimensions
// that allow 16-byte loads and odd ones that take the element-by-element path, and a custom B
// loader (int8 codes dequantised to fp16 while B is staged: the hook a quantised matmul uses), and
// an epilogue taking runs of columns (store_vector, through shared memory). On NVIDIA the plain
// 16-byte loaders take the cp.async ring, every other pair the register path.
// The inputs make every sum exact in the accumulator (fp16 values m / 64 with |m| <= 64, depths
// below 2^11; int8 sums far below 2^31), so the comparison is bit for bit whatever order the
// matrix unit sums in. Outputs are poisoned first; elements between rows (ldc > cols) must keep
// their poison.
#include "gpu/check.h"
#include "gpu/half.h"
#include "gpu/vendor.h"
#include "primitives/mma_gemm.h"
#include "primitives/mma_gemm_tuning.h"
#include "testing/test_support.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using kit::mma::BLayout;
using kit::mma::Kind;

// Stores the sum as it is (fp32 or int32).
template <class Accum> struct StoreSum {
  Accum *c;
  std::size_t ldc;
  std::size_t batch_stride;
  __device__ void operator()(int batch, int row, int col, Accum value) const {
    c[static_cast<std::size_t>(batch) * batch_stride + static_cast<std::size_t>(row) * ldc + col] =
        value;
  }
};

// The same stores taking runs of 8 columns through store_vector (the epilogue's shared-memory
// pass); 16-byte stores where the run is 16-byte aligned, element by element otherwise.
template <class Accum> struct StoreRuns : StoreSum<Accum> {
  static constexpr int kVectorColumns = 8;
  __device__ void store_vector(int batch, int row, int col, const Accum (&values)[8]) const {
    Accum *const out = this->c + static_cast<std::size_t>(batch) * this->batch_stride +
                       static_cast<std::size_t>(row) * this->ldc + col;
    if (reinterpret_cast<std::uintptr_t>(out) % 16 == 0) {
      uint4 halves[2];
      std::memcpy(halves, values, sizeof halves);
      reinterpret_cast<uint4 *>(out)[0] = halves[0];
      reinterpret_cast<uint4 *>(out)[1] = halves[1];
    } else {
      for (int e = 0; e < 8; ++e)
        out[e] = values[e];
    }
  }
};

// B as int8 codes q, depth x cols row-major, staged as the fp16 values q / 64 (exact).
struct DequantisingLoader {
  static constexpr BLayout kSharedLayout = BLayout::DepthByCols;
  static constexpr int kRun = 8; // codes per slot: 8 fp16 = one 16-byte shared store
  const std::int8_t *codes;
  std::size_t ld;
  std::size_t batch_stride;
  int cols;
  int depth;

  template <class Stage> struct Registers {
    static constexpr int kSlots = Stage::kOuter * Stage::kDepth / kRun;
    static_assert(kSlots % Stage::kThreads == 0, "a stage must split evenly over the threads");
    std::int8_t q[kSlots / Stage::kThreads][kRun];
  };
  template <class Stage>
  __device__ void fetch(Registers<Stage> &r, int batch, int col0, int depth0) const {
    constexpr int kPerThread = Registers<Stage>::kSlots / Stage::kThreads;
    const std::int8_t *base = codes + static_cast<std::size_t>(batch) * batch_stride;
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) {
      const int slot = static_cast<int>(threadIdx.x) + i * Stage::kThreads;
      const int k = depth0 + slot / (Stage::kOuter / kRun);
      const int col = col0 + (slot % (Stage::kOuter / kRun)) * kRun;
#pragma unroll
      for (int j = 0; j < kRun; ++j)
        r.q[i][j] = (k < depth && col + j < cols) ? base[static_cast<std::size_t>(k) * ld + col + j]
                                                  : std::int8_t(0);
    }
  }
  template <class Stage>
  __device__ void store(const Registers<Stage> &r, std::uint16_t *stage, int ld_stage) const {
    constexpr int kPerThread = Registers<Stage>::kSlots / Stage::kThreads;
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) {
      const int slot = static_cast<int>(threadIdx.x) + i * Stage::kThreads;
      const int k = slot / (Stage::kOuter / kRun);
      const int col = (slot % (Stage::kOuter / kRun)) * kRun;
      std::uint32_t words[kRun / 2];
#pragma unroll
      for (int w = 0; w < kRun / 2; ++w) {
        auto half_bits = [](std::int8_t q) {
          return static_cast<std::uint32_t>(
              __half_as_ushort(__float2half_rn(static_cast<float>(q) * (1.0f / 64))));
        };
        words[w] = half_bits(r.q[i][2 * w]) | half_bits(r.q[i][2 * w + 1]) << 16;
      }
      *reinterpret_cast<uint4 *>(stage + k * ld_stage + col) =
          make_uint4(words[0], words[1], words[2], words[3]);
    }
  }
};

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

struct Geometry {
  int rows, cols, depth, batches;
  int pad;      // extra elements per row of every operand and the output
  bool share_a; // A's batch stride 0
};

enum class BSource { Plain, Dequantised };

enum class Output { Elements, Runs }; // the epilogue's operator() alone, or store_vector too

template <class Shape, Kind K, BLayout kLayout, BSource kSource = BSource::Plain,
          Output kOutput = Output::Elements>
void check_one(kit::test::Checker &check, std::mt19937 &rng, const Geometry &g, const char *name) {
  using Traits = kit::mma::KindTraits<K>;
  using Element = typename Traits::Element;
  using Accum = typename Traits::Accum;
  constexpr bool kDepthRows = kLayout == BLayout::DepthByCols;
  const std::size_t lda = g.depth + g.pad;
  const std::size_t a_stride = g.share_a ? 0 : static_cast<std::size_t>(g.rows) * lda;
  const std::size_t ldb = (kDepthRows ? g.cols : g.depth) + g.pad;
  const std::size_t b_stride = static_cast<std::size_t>(kDepthRows ? g.depth : g.cols) * ldb;
  const std::size_t ldc = g.cols + g.pad;
  const std::size_t c_stride = static_cast<std::size_t>(g.rows) * ldc;
  const std::size_t a_count = g.share_a ? a_stride + g.rows * lda : a_stride * g.batches;
  const std::size_t b_count = b_stride * g.batches, c_count = c_stride * g.batches;

  std::vector<Element> a(a_count), b(b_count);
  std::vector<std::int8_t> codes(kSource == BSource::Dequantised ? b_count : 0);
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
  for (std::size_t i = 0; i < b_count; ++i) {
    draw(b[i], b_value[i]);
    if constexpr (kSource == BSource::Dequantised) {
      codes[i] = static_cast<std::int8_t>(b_value[i] * 64);
    }
  }
  std::vector<Accum> want(c_count);
  for (int z = 0; z < g.batches; ++z)
    for (int r = 0; r < g.rows; ++r)
      for (int col = 0; col < g.cols; ++col) {
        double sum = 0.0;
        for (int k = 0; k < g.depth; ++k)
          sum += a_value[z * a_stride + r * lda + k] *
                 b_value[z * b_stride + (kDepthRows ? k * ldb + col : col * ldb + k)];
        want[z * c_stride + r * ldc + col] = static_cast<Accum>(sum);
      }

  kit::test::DeviceBuffer<Element> d_a(a_count), d_b(b_count);
  kit::test::DeviceBuffer<std::int8_t> d_codes(codes.empty() ? 1 : codes.size());
  kit::test::DeviceBuffer<Accum> d_c(c_count);
  d_a.upload(a);
  d_b.upload(b);
  if (!codes.empty())
    d_codes.upload(codes);

  kit::mma::Problem p;
  p.rows = g.rows;
  p.cols = g.cols;
  p.depth = g.depth;
  p.batches = g.batches;
  const kit::mma::Matrix<K> ma{d_a.get(), lda, a_stride};
  const kit::mma::Matrix<K> mb{d_b.get(), ldb, b_stride};
  const StoreSum<Accum> epilogue{d_c.get(), ldc, c_stride};
  if constexpr (kOutput == Output::Runs) {
    kit::mma::launch_matrices<Shape, K, kLayout>(p, ma, mb, StoreRuns<Accum>{epilogue}, nullptr);
  } else if constexpr (kSource == BSource::Plain) {
    kit::mma::launch_matrices<Shape, K, kLayout>(p, ma, mb, epilogue, nullptr);
  } else {
    using ALoader = kit::mma::MatrixLoader<K, BLayout::ColsByDepth, false>;
    const DequantisingLoader b_loader{d_codes.get(), ldb, b_stride, g.cols, g.depth};
    kit::mma::launch<Shape, K>(p, ALoader{ma, g.rows, g.depth}, b_loader, epilogue, nullptr);
  }
  GPU_CHECK(cudaDeviceSynchronize());
  const std::vector<Accum> got = d_c.download();
  int wrong = 0;
  std::size_t first = 0;
  for (int z = 0; z < g.batches; ++z)
    for (int r = 0; r < g.rows; ++r)
      for (std::size_t col = 0; col < ldc; ++col) {
        const std::size_t i = z * c_stride + r * ldc + col;
        bool ok;
        if (col < static_cast<std::size_t>(g.cols)) {
          ok = std::memcmp(&got[i], &want[i], sizeof(Accum)) == 0;
        } else {
          std::uint32_t poison;
          std::memset(&poison, 0xA5, sizeof poison);
          ok = std::memcmp(&got[i], &poison, sizeof(Accum)) == 0;
        }
        if (!ok && wrong++ == 0)
          first = i;
      }
  char what[200];
  std::snprintf(what, sizeof what, "%s %s %s%s%s rows=%d cols=%d depth=%d batches=%d pad=%d%s",
                name, K == Kind::F16 ? "f16" : "s8", kDepthRows ? "A*B" : "A*B^T",
                kSource == BSource::Dequantised ? " dequantised-B" : "",
                kOutput == Output::Runs ? " runs-epilogue" : "", g.rows, g.cols, g.depth, g.batches,
                g.pad, g.share_a ? " shared-A" : "");
  if (wrong > 0)
    std::printf("  %s: %d wrong, first at %zu: got %.9g, want %.9g\n", what, wrong, first,
                static_cast<double>(got[first]), static_cast<double>(want[first]));
  check.expect(wrong == 0, what);
}

template <class Shape, Kind K, BLayout kLayout>
void check_layout(kit::test::Checker &check, std::mt19937 &rng, const char *name) {
  const int tr = Shape::kBlockRows, tc = Shape::kBlockCols;
  const int td = Shape::kStageSteps * kit::mma::KindTraits<K>::kDepth;
  std::vector<int> sizes = {1, 31, 32, 33, 63, 64, 65};
  for (int s : {tr - 1, tr + 1, tc - 1, tc + 1})
    sizes.push_back(s);
  for (int s : sizes) {
    check_one<Shape, K, kLayout>(check, rng, {s, 40, 2 * td + 3, 1, 0, false}, name);
    check_one<Shape, K, kLayout>(check, rng, {17, s, 64, 1, 0, false}, name);
    check_one<Shape, K, kLayout>(check, rng, {tr + 1, tc + 8, s, 1, 0, false}, name);
  }
  // Whole tiles with 16-byte loads, padded leading dimensions (a multiple of 16 bytes: still
  // vectors; odd: element by element), batches, A shared across the batch.
  for (int pad : {0, 16, 1}) {
    check_one<Shape, K, kLayout>(check, rng, {2 * tr, 2 * tc, 4 * td, 3, pad, false}, name);
    check_one<Shape, K, kLayout>(check, rng, {tr + 3, tc - 8, 3 * td + 16, 2, pad, true}, name);
  }
}

template <class Shape>
void check_shape(kit::test::Checker &check, std::mt19937 &rng, const char *name) {
  check_layout<Shape, Kind::F16, BLayout::DepthByCols>(check, rng, name);
  check_layout<Shape, Kind::F16, BLayout::ColsByDepth>(check, rng, name);
  check_layout<Shape, Kind::I8, BLayout::DepthByCols>(check, rng, name);
  check_layout<Shape, Kind::I8, BLayout::ColsByDepth>(check, rng, name);
  for (const Geometry &g : {Geometry{33, 70, 100, 2, 0, false}, Geometry{64, 64, 64, 1, 0, false},
                            Geometry{1, 1, 1, 1, 0, false}, Geometry{65, 129, 47, 3, 3, true}})
    check_one<Shape, Kind::F16, BLayout::DepthByCols, BSource::Dequantised>(check, rng, g, name);
  // The runs epilogue: columns 1, a run -+ 1, the block -+ 1 (a run crossing the right edge),
  // rows past a warp tile row, batches, a padded ldc (unaligned runs).
  const int tr = Shape::kBlockRows, tc = Shape::kBlockCols;
  for (const Geometry &g :
       {Geometry{33, 1, 40, 1, 0, false}, Geometry{tr + 1, 7, 64, 2, 0, false},
        Geometry{tr - 1, 9, 100, 1, 0, false}, Geometry{2 * tr + 5, tc + 1, 96, 1, 0, false},
        Geometry{65, tc - 1, 64, 3, 0, true}, Geometry{tr, 2 * tc, 64, 1, 16, false},
        Geometry{31, tc + 8, 33, 2, 3, false}}) {
    check_one<Shape, Kind::F16, BLayout::DepthByCols, BSource::Plain, Output::Runs>(check, rng, g,
                                                                                    name);
    check_one<Shape, Kind::I8, BLayout::ColsByDepth, BSource::Plain, Output::Runs>(check, rng, g,
                                                                                   name);
  }
}

} // namespace

int main() {
  kit::test::begin_gpu_test("mma_gemm_test");
  kit::test::Checker check;
  std::mt19937 rng(20261128);
  check_shape<kit::mma::SmallTile>(check, rng, "small");
  check_shape<kit::mma::MediumTile>(check, rng, "medium");
  check_shape<kit::mma::LargeTile>(check, rng, "large");
  using kit::mma::pick_tile;
  using kit::mma::TileClass;
  check.expect(pick_tile(1024, 1024, 1, 132) == TileClass::Small, "pick 1024 x 1024");
  check.expect(pick_tile(256, 256, 32, 132) == TileClass::Medium, "pick 32 x 256 x 256");
  check.expect(pick_tile(4096, 4096, 1, 132) == TileClass::Large, "pick 4096 x 4096");
  return check.finish("mma_gemm_test");
}
