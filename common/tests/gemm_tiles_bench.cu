// gemm_tiles_bench (CUDA only): the FP32 SIMT GEMM (primitives/gemm.h) at the GEMM-family judge
// shapes, every tile class of gemm_tuning.h with 1, 2, 4 and 8 depth parts (launch_split: parts >
// 1 sum their planes in one more pass, which is timed with them), against cuBLAS's SGEMM in FP32
// (CUBLAS_DEFAULT_MATH: no TF32). Device-resident data, the L2 evicted before every round, GPU
// events around each round (bench/event_timing.h), warm-up rounds discarded, the median of the
// rest. One row per (shape, variant): the median in ms, its ratio to cuBLAS's (above 1: slower),
// and marks on the split planner's pick (pick_split) and on launch_auto's (pick_tile).
// A parts count is tried when every part keeps at least one slice of the depth; the planner itself
// asks for kSplitLeastSlicesPerPart. Usage: gemm_tiles_bench [runs] (default 20).
#include "bench/event_timing.h"
#include "bench/l2_eviction.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"
#include "primitives/gemm.h"
#include "primitives/gemm_tuning.h"

#include <cublas_v2.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

using kit::gemm::BLayout;
using kit::gemm::TileClass;

void check_cublas(cublasStatus_t status, const char *what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s failed: status %d\n", what, static_cast<int>(status));
    std::exit(1);
  }
}

struct Problem {
  const char *name;
  int rows, cols, depth, batches;
  BLayout layout;
  bool whole_grid_only; // only one part per tile class (large outputs: the planes would be GBs)
};

// Operands for a problem on packed device buffers (batch strides of whole matrices).
kit::gemm::Operands operands(const Problem &p, const float *a, const float *b) {
  kit::gemm::Operands ops;
  ops.a = a;
  ops.lda = static_cast<std::size_t>(p.depth);
  ops.a_batch_stride = static_cast<std::size_t>(p.rows) * p.depth;
  ops.b = b;
  ops.ldb = static_cast<std::size_t>(p.layout == BLayout::DepthByCols ? p.cols : p.depth);
  ops.b_batch_stride = static_cast<std::size_t>(p.depth) * p.cols;
  ops.rows = p.rows;
  ops.cols = p.cols;
  ops.depth = p.depth;
  ops.batches = p.batches;
  return ops;
}

template <BLayout kLayout>
void run_class(TileClass tile, const kit::gemm::Operands &ops, const kit::gemm::Store &out,
               int parts, kit::gpu::DeviceScratch &scratch, int multiprocessors) {
  kit::gemm::with_tile(tile, [&](auto shape) {
    kit::gemm::launch_split<decltype(shape), kLayout>(ops, out, parts, scratch, multiprocessors,
                                                      nullptr);
  });
}

constexpr int kTileDepth = kit::gemm::LargeTile::kTileDepth;
static_assert(kit::gemm::MediumTile::kTileDepth == kTileDepth &&
                  kit::gemm::SmallTile::kTileDepth == kTileDepth &&
                  kit::gemm::TinyTile::kTileDepth == kTileDepth,
              "one slice depth for the parts' validity");

const char *class_name(TileClass tile) {
  switch (tile) {
  case TileClass::Large:
    return "large 256x128";
  case TileClass::Medium:
    return "medium 128x128";
  case TileClass::Small:
    return "small 64x64";
  case TileClass::Tiny:
    return "tiny 32x32";
  }
  return "?";
}

// Row-major C = A B (or A B^T) on column-major cuBLAS: C^T = B^T A^T.
void cublas_gemm(cublasHandle_t handle, const Problem &p, const float *a, const float *b,
                 float *c) {
  const float one = 1.0f, zero = 0.0f;
  const bool transposed = p.layout == BLayout::ColsByDepth;
  const int ldb = transposed ? p.depth : p.cols;
  const long long a_stride = static_cast<long long>(p.rows) * p.depth;
  const long long b_stride = static_cast<long long>(p.depth) * p.cols;
  const long long c_stride = static_cast<long long>(p.rows) * p.cols;
  check_cublas(cublasSgemmStridedBatched(handle, transposed ? CUBLAS_OP_T : CUBLAS_OP_N,
                                         CUBLAS_OP_N, p.cols, p.rows, p.depth, &one, b, ldb,
                                         b_stride, a, p.depth, a_stride, &zero, c, p.cols, c_stride,
                                         p.batches),
               "cublasSgemmStridedBatched");
}

} // namespace

int main(int argc, char **argv) {
  int device_count = 0;
  if (cudaGetDeviceCount(&device_count) != cudaSuccess || device_count == 0) {
    std::printf("gemm_tiles_bench: no GPU, nothing timed\n");
    return 0;
  }
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  constexpr int kWarmup = 3;
  const int multiprocessors = kit::gpu::device_multiprocessors();
  cublasHandle_t handle;
  check_cublas(cublasCreate(&handle), "cublasCreate");
  check_cublas(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  const kit::bench::L2Eviction evict;
  kit::gpu::DeviceScratch scratch;

  constexpr BLayout kRowMajor = BLayout::DepthByCols, kTransposed = BLayout::ColsByDepth;
  const std::vector<Problem> problems = {
      {"lora x W^T", 256, 4096, 4096, 1, kTransposed, false},
      {"lora x W^T | x A^T (stacked)", 256, 4096 + 64, 4096, 1, kTransposed, false},
      {"lora hidden B^T", 256, 4096, 64, 1, kTransposed, false},
      {"lora x A^T", 256, 64, 4096, 1, kTransposed, false},
      {"swiglu down", 512, 4096, 14336, 1, kRowMajor, false},
      {"batched 32 x 256^3", 256, 256, 256, 32, kRowMajor, false},
      {"gpt2 qkv", 1024, 2304, 768, 1, kRowMajor, false},
      {"gpt2 proj", 1024, 768, 768, 1, kRowMajor, false},
      {"gpt2 fc", 1024, 3072, 768, 1, kRowMajor, false},
      {"gpt2 fc proj", 1024, 768, 3072, 1, kRowMajor, false},
      {"matrix_multiplication", 8192, 6144, 4096, 1, kRowMajor, true},
  };

  std::printf("gemm_tiles_bench: %d multiprocessors, median of %d runs after %d warm-up, L2 "
              "evicted before each\n",
              multiprocessors, runs, kWarmup);
  std::printf("%-30s %-22s %-16s %5s %10s %8s  %s\n", "shape", "rows x cols x depth (b)", "variant",
              "parts", "ms", "/cuBLAS", "pick");
  std::mt19937 rng(12345);
  for (const Problem &p : problems) {
    const std::size_t a_count = static_cast<std::size_t>(p.batches) * p.rows * p.depth;
    const std::size_t b_count = static_cast<std::size_t>(p.batches) * p.depth * p.cols;
    const std::size_t c_count = static_cast<std::size_t>(p.batches) * p.rows * p.cols;
    float *a, *b, *c;
    GPU_CHECK(cudaMalloc(&a, a_count * sizeof(float)));
    GPU_CHECK(cudaMalloc(&b, b_count * sizeof(float)));
    GPU_CHECK(cudaMalloc(&c, c_count * sizeof(float)));
    {
      std::normal_distribution<float> normal(0.f, 1.f);
      std::vector<float> host(a_count > b_count ? a_count : b_count);
      for (float &x : host)
        x = normal(rng);
      GPU_CHECK(cudaMemcpy(a, host.data(), a_count * sizeof(float), cudaMemcpyHostToDevice));
      GPU_CHECK(cudaMemcpy(b, host.data(), b_count * sizeof(float), cudaMemcpyHostToDevice));
    }
    char size_text[64];
    std::snprintf(size_text, sizeof size_text, "%dx%dx%d (%d)", p.rows, p.cols, p.depth, p.batches);

    const double cublas_ms =
        kit::bench::time_events(
            kWarmup, runs, [&] { cublas_gemm(handle, p, a, b, c); }, [&] { evict(); })
            .median_ms;
    std::printf("%-30s %-22s %-16s %5s %10.4f %8.2f\n", p.name, size_text, "cuBLAS SGEMM", "-",
                cublas_ms, 1.0);

    const kit::gemm::SplitPlan plan =
        kit::gemm::pick_split(p.rows, p.cols, p.batches, p.depth, multiprocessors);
    const TileClass whole = kit::gemm::pick_tile(p.rows, p.cols, p.batches, multiprocessors);
    const kit::gemm::Operands ops = operands(p, a, b);
    const kit::gemm::Store out{c, static_cast<std::size_t>(p.cols),
                               static_cast<std::size_t>(p.rows) * p.cols};
    const int slices = (p.depth + kTileDepth - 1) / kTileDepth;
    for (TileClass tile :
         {TileClass::Large, TileClass::Medium, TileClass::Small, TileClass::Tiny}) {
      for (int parts : {1, 2, 4, 8}) {
        if (parts > 1 && (p.whole_grid_only || parts > slices))
          continue;
        const double ms =
            kit::bench::time_events(
                kWarmup, runs,
                [&] {
                  if (p.layout == kRowMajor)
                    run_class<kRowMajor>(tile, ops, out, parts, scratch, multiprocessors);
                  else
                    run_class<kTransposed>(tile, ops, out, parts, scratch, multiprocessors);
                },
                [&] { evict(); })
                .median_ms;
        std::string marks;
        if (plan.tile == tile && plan.parts == parts)
          marks += "<- pick_split ";
        if (whole == tile && parts == 1)
          marks += "<- pick_tile";
        std::printf("%-30s %-22s %-16s %5d %10.4f %8.2f  %s\n", p.name, size_text, class_name(tile),
                    parts, ms, ms / cublas_ms, marks.c_str());
      }
    }
    if (plan.parts > 1 && plan.parts != 2 && plan.parts != 4 && plan.parts != 8) {
      // The planner's own count when the sweep's list misses it.
      const double ms =
          kit::bench::time_events(
              kWarmup, runs,
              [&] {
                if (p.layout == kRowMajor)
                  run_class<kRowMajor>(plan.tile, ops, out, plan.parts, scratch, multiprocessors);
                else
                  run_class<kTransposed>(plan.tile, ops, out, plan.parts, scratch, multiprocessors);
              },
              [&] { evict(); })
              .median_ms;
      std::printf("%-30s %-22s %-16s %5d %10.4f %8.2f  %s\n", p.name, size_text,
                  class_name(plan.tile), plan.parts, ms, ms / cublas_ms, "<- pick_split");
    }
    GPU_CHECK(cudaFree(a));
    GPU_CHECK(cudaFree(b));
    GPU_CHECK(cudaFree(c));
  }
  check_cublas(cublasDestroy(handle), "cublasDestroy");
  return 0;
}
