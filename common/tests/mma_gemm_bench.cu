// mma_gemm_bench (CUDA only): the matrix-core GEMM (primitives/mma_gemm.h) at the judge shapes of
// the GEMM problems it serves, against cuBLAS's tensor-core GEMM in the same run (cublasGemmEx /
// cublasGemmStridedBatchedEx, fp32 or int32 accumulation). Each block shape runs on both paths:
// the cp.async ring (plain 16-byte loaders on sm_80+) and the register path (what a transforming
// loader gets; int8 B by rows takes the transposing loader, on the register path). One row per
// (problem, shape, path): the median in ms, its ratio to cuBLAS's
// (above 1: faster), TFLOP/s (TOP/s for int8), the fraction of the GPU's dense matrix peak, and a
// mark on the shape launch_auto picks. Device-resident data, the L2 evicted before every round,
// GPU events, warm-up rounds discarded, the median of the rest (bench/event_timing.h).
// Usage: mma_gemm_bench [runs] (default 20).
#include "bench/event_timing.h"
#include "bench/l2_eviction.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/vendor.h"
#include "primitives/mma_gemm.h"
#include "primitives/mma_gemm_tuning.h"

#include <cublas_v2.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

using kit::mma::BLayout;
using kit::mma::BlockShape;
using kit::mma::Kind;

void check_cublas(cublasStatus_t status, const char *what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s failed: status %d\n", what, static_cast<int>(status));
    std::exit(1);
  }
}

struct Problem {
  const char *name;
  int rows, cols, depth, batches;
};

// Dense matrix-unit operations per clock and multiprocessor (an FMA counts 2) by compute
// capability, from the vendor's peak figures: A100 312 TFLOP/s fp16 on 108 SMs at 1.41 GHz,
// H100 SXM 989 on 132 at 1.83, B200 2250 on 148 at 1.97 (rounded to the power of two); int8
// doubles them. 0 where unknown (no fraction printed).
double dense_ops_per_clock(int major, Kind kind) {
  const double fp16 = major == 8 ? 2048 : major == 9 ? 4096 : major == 10 ? 8192 : 0;
  return kind == Kind::I8 ? 2 * fp16 : fp16;
}

// Shapes swept: the table's three (mma_gemm_tuning.h) and alternatives around them. Parameters:
// block rows, cols, warps along rows, along cols, k-steps per stage, blocks per SM, ring stages.
using Shapes = std::tuple<kit::mma::LargeTile, kit::mma::MediumTile, kit::mma::SmallTile,
                          BlockShape<128, 128, 2, 4, 2, 1, 4>, BlockShape<128, 128, 2, 2, 4, 1, 3>,
                          BlockShape<128, 64, 2, 2, 4, 2, 3>, BlockShape<64, 64, 2, 2, 4, 3, 3>>;

template <class Shape> void shape_name(char *text, std::size_t size) {
  std::snprintf(text, size, "%dx%d w%dx%d k%d s%d m%d", Shape::kBlockRows, Shape::kBlockCols,
                Shape::kWarpsAlongRows, Shape::kWarpsAlongCols, Shape::kStageSteps,
                Shape::kRingStages, Shape::kMinBlocksPerSm);
}

// The plain 16-byte loader without its asynchronous copy: the register path.
template <Kind K, BLayout kLayout>
struct RegisterLoader : kit::mma::MatrixLoader<K, kLayout, true> {
  static constexpr bool kAsyncCopy = false;
};

template <class Accum> struct Store;
template <> struct Store<float> {
  std::uint16_t *c;
  int cols;
  std::size_t batch_stride;
  __device__ void operator()(int batch, int row, int col, float value) const {
    c[batch * batch_stride + static_cast<std::size_t>(row) * cols + col] =
        __half_as_ushort(__float2half_rn(value));
  }
};
template <> struct Store<std::int32_t> {
  std::int32_t *c;
  int cols;
  std::size_t batch_stride;
  __device__ void operator()(int batch, int row, int col, std::int32_t value) const {
    c[batch * batch_stride + static_cast<std::size_t>(row) * cols + col] = value;
  }
};

template <Kind K, BLayout kLayout> struct Run {
  using Element = typename kit::mma::KindTraits<K>::Element;
  using Accum = typename kit::mma::KindTraits<K>::Accum;
  const Problem &p;
  const Element *a, *b;
  void *c;
  cublasHandle_t handle;
  double peak_ops; // per second, 0 if unknown
  double cublas_ms;
  const kit::bench::L2Eviction &evict;
  int runs;
  int multiprocessors;

  kit::mma::Problem problem() const { return {p.rows, p.cols, p.depth, p.batches}; }
  kit::mma::Matrix<K> matrix_a() const {
    return {a, static_cast<std::size_t>(p.depth), static_cast<std::size_t>(p.rows) * p.depth};
  }
  kit::mma::Matrix<K> matrix_b() const {
    return {b, static_cast<std::size_t>(kLayout == BLayout::DepthByCols ? p.cols : p.depth),
            static_cast<std::size_t>(p.cols) * p.depth};
  }
  Store<Accum> store() const {
    return {static_cast<decltype(Store<Accum>::c)>(c), p.cols,
            static_cast<std::size_t>(p.rows) * p.cols};
  }

  // Row-major C = A B (or A B^T) on column-major cuBLAS: C^T = B^T A^T.
  void cublas() const {
    const bool transposed = kLayout == BLayout::ColsByDepth;
    const int ldb = transposed ? p.depth : p.cols;
    const long long a_stride = static_cast<long long>(p.rows) * p.depth;
    const long long b_stride = static_cast<long long>(p.depth) * p.cols;
    const long long c_stride = static_cast<long long>(p.rows) * p.cols;
    const cublasOperation_t op_b = transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    if constexpr (K == Kind::F16) {
      const float one = 1.0f, zero = 0.0f;
      check_cublas(cublasGemmStridedBatchedEx(
                       handle, op_b, CUBLAS_OP_N, p.cols, p.rows, p.depth, &one, b, CUDA_R_16F, ldb,
                       b_stride, a, CUDA_R_16F, p.depth, a_stride, &zero, c, CUDA_R_16F, p.cols,
                       c_stride, p.batches, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmStridedBatchedEx (fp16)");
    } else {
      const std::int32_t one = 1, zero = 0;
      check_cublas(cublasGemmStridedBatchedEx(
                       handle, op_b, CUBLAS_OP_N, p.cols, p.rows, p.depth, &one, b, CUDA_R_8I, ldb,
                       b_stride, a, CUDA_R_8I, p.depth, a_stride, &zero, c, CUDA_R_32I, p.cols,
                       c_stride, p.batches, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmStridedBatchedEx (int8)");
    }
  }

  template <class Work> double time(Work &&work) const {
    return kit::bench::time_events(3, runs, work, [&] { evict(); }).median_ms;
  }

  void row(const char *variant, double ms, const char *mark) const {
    const double ops = 2.0 * p.rows * p.cols * p.depth * p.batches;
    char fraction[16] = "-";
    if (peak_ops > 0)
      std::snprintf(fraction, sizeof fraction, "%.0f%%", 100.0 * ops / (ms * 1e-3) / peak_ops);
    std::printf("  %-30s %9.4f %7.2f %8.1f %6s  %s\n", variant, ms, cublas_ms / ms,
                ops / (ms * 1e-3) / 1e12, fraction, mark);
  }

  template <class Shape> void shape(kit::mma::TileClass picked) const {
    using AFast = kit::mma::MatrixLoader<K, BLayout::ColsByDepth, true>;
    using BFast = kit::mma::MatrixLoader<K, kLayout, true>;
    char name[64], variant[80];
    shape_name<Shape>(name, sizeof name);
    const bool is_pick =
        (picked == kit::mma::TileClass::Large && std::is_same_v<Shape, kit::mma::LargeTile>) ||
        (picked == kit::mma::TileClass::Medium && std::is_same_v<Shape, kit::mma::MediumTile>) ||
        (picked == kit::mma::TileClass::Small && std::is_same_v<Shape, kit::mma::SmallTile>);
    const auto pa = AFast{matrix_a(), p.rows, p.depth};
    if constexpr (K == Kind::I8 && kLayout == BLayout::DepthByCols) {
      // int8 B by rows: the transposing loader (register path), as launch_matrices stages it.
      const kit::mma::TransposingLoader<K> tb{matrix_b(), p.cols, p.depth};
      const double ms =
          time([&] { kit::mma::launch<Shape, K>(problem(), pa, tb, store(), nullptr); });
      std::snprintf(variant, sizeof variant, "%s transposing", name);
      row(variant, ms, is_pick ? "<- launch_auto" : "");
    } else {
      const auto pb = BFast{matrix_b(), p.cols, p.depth};
      const double ring_ms =
          time([&] { kit::mma::launch<Shape, K>(problem(), pa, pb, store(), nullptr); });
      std::snprintf(variant, sizeof variant, "%s ring", name);
      row(variant, ring_ms, is_pick ? "<- launch_auto" : "");
      using ARegisters = RegisterLoader<K, BLayout::ColsByDepth>;
      using BRegisters = RegisterLoader<K, kLayout>;
      const ARegisters ra{pa};
      const BRegisters rb{pb};
      const double register_ms =
          time([&] { kit::mma::launch<Shape, K>(problem(), ra, rb, store(), nullptr); });
      std::snprintf(variant, sizeof variant, "%s registers", name);
      row(variant, register_ms, "");
    }
  }

  void all() const {
    const kit::mma::TileClass picked =
        kit::mma::pick_tile(p.rows, p.cols, p.batches, multiprocessors);
    std::apply([&](auto... shapes) { (shape<decltype(shapes)>(picked), ...); }, Shapes{});
  }
};

template <Kind K, BLayout kLayout>
void bench(const Problem &p, cublasHandle_t handle, const kit::bench::L2Eviction &evict, int runs,
           int multiprocessors, double peak_per_clock_sm, double clock_hz, std::mt19937 &rng) {
  using Element = typename kit::mma::KindTraits<K>::Element;
  using Accum = typename kit::mma::KindTraits<K>::Accum;
  const std::size_t a_count = static_cast<std::size_t>(p.batches) * p.rows * p.depth;
  const std::size_t b_count = static_cast<std::size_t>(p.batches) * p.depth * p.cols;
  const std::size_t c_count = static_cast<std::size_t>(p.batches) * p.rows * p.cols;
  std::vector<Element> host(std::max(a_count, b_count));
  std::uniform_int_distribution<int> small(-64, 64);
  for (Element &x : host) {
    if constexpr (K == Kind::F16)
      x = __half_as_ushort(__float2half_rn(small(rng) / 64.0f));
    else
      x = static_cast<Element>(small(rng));
  }
  Element *a, *b;
  void *c;
  GPU_CHECK(cudaMalloc(&a, a_count * sizeof(Element)));
  GPU_CHECK(cudaMalloc(&b, b_count * sizeof(Element)));
  GPU_CHECK(cudaMalloc(&c, c_count * sizeof(Accum)));
  GPU_CHECK(cudaMemcpy(a, host.data(), a_count * sizeof(Element), cudaMemcpyHostToDevice));
  GPU_CHECK(cudaMemcpy(b, host.data(), b_count * sizeof(Element), cudaMemcpyHostToDevice));

  Run<K, kLayout> run{p,      a,
                      b,      c,
                      handle, peak_per_clock_sm * multiprocessors * clock_hz,
                      0.0,    evict,
                      runs,   multiprocessors};
  run.cublas_ms = run.time([&] { run.cublas(); });
  std::printf("%s: %d x %d x %d, %d batch(es), %s, B %s\n", p.name, p.rows, p.cols, p.depth,
              p.batches, K == Kind::F16 ? "fp16 -> fp32" : "int8 -> int32",
              kLayout == BLayout::DepthByCols ? "depth x cols" : "cols x depth");
  run.row("cuBLAS", run.cublas_ms, "");
  run.all();
  GPU_CHECK(cudaFree(a));
  GPU_CHECK(cudaFree(b));
  GPU_CHECK(cudaFree(c));
}

} // namespace

int main(int argc, char **argv) {
  int device_count = 0;
  if (cudaGetDeviceCount(&device_count) != cudaSuccess || device_count == 0) {
    std::printf("mma_gemm_bench: no GPU, nothing timed\n");
    return 0;
  }
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  int device = 0, major = 0, clock_khz = 0;
  GPU_CHECK(cudaGetDevice(&device));
  GPU_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  GPU_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  const int multiprocessors = kit::gpu::device_multiprocessors();
  const double clock_hz = clock_khz * 1e3;
  cublasHandle_t handle;
  check_cublas(cublasCreate(&handle), "cublasCreate");
  const kit::bench::L2Eviction evict;
  std::printf("mma_gemm_bench: %d multiprocessors at %.2f GHz, median of %d runs after 3 warm-up, "
              "L2 evicted before each; columns: ms, speed relative to cuBLAS (above 1: faster), "
              "TFLOP/s, fraction of the dense peak\n",
              multiprocessors, clock_hz * 1e-9, runs);
  std::mt19937 rng(12345);
  const double f16 = dense_ops_per_clock(major, Kind::F16),
               i8 = dense_ops_per_clock(major, Kind::I8);
  bench<Kind::F16, BLayout::DepthByCols>({"gemm", 1024, 1024, 1024, 1}, handle, evict, runs,
                                         multiprocessors, f16, clock_hz, rng);
  bench<Kind::F16, BLayout::DepthByCols>({"fp16_batched_matmul", 256, 256, 256, 32}, handle, evict,
                                         runs, multiprocessors, f16, clock_hz, rng);
  bench<Kind::F16, BLayout::ColsByDepth>(
      {"x W^T (int4_matmul's dequantised W)", 4096, 4096, 4096, 1}, handle, evict, runs,
      multiprocessors, f16, clock_hz, rng);
  bench<Kind::I8, BLayout::DepthByCols>({"int8_quantized_matmul", 8192, 4096, 2048, 1}, handle,
                                        evict, runs, multiprocessors, i8, clock_hz, rng);
  bench<Kind::I8, BLayout::ColsByDepth>(
      {"int8 A B^T (int8_quantized_matmul with B transposed)", 8192, 4096, 2048, 1}, handle, evict,
      runs, multiprocessors, i8, clock_hz, rng);
  check_cublas(cublasDestroy(handle), "cublasDestroy");
  return 0;
}
