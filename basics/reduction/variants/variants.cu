// Where reduction's time goes at the judge's size (N = 4,194,304): a measurement tool, not part
// of the solution. Each variant is one launch over the same device-resident input, timed like
// the basics benchmark (kit::basics::Timer: events, 3 warm-ups, median of 50 runs, L2 evicted
// before each run), next to the copy limit of the same bytes measured in the same process.
//
// The variants take the kernel apart:
//   shape    threads per block x 16-byte loads in flight per thread (one batch at this size);
//   mode     read-only (xor of the bits: the memory floor of the shape), double (every float
//            widened before it is added: the accurate sum), float4 (a float4's four floats added
//            in float, then widened: timing only, it loses the cancelling tests' tolerance);
//   combine  none (each block writes its partial, nothing combines them: the floor of the
//            shape), last (kit::grid_reduce_last_block, as committed), last-warp (fences and an
//            arrival counter, then one warp of the last block combines the partials), acq-rel
//            (the arrival counter as one acquire-release atomic, no separate fences; CUDA only),
//            poll (the highest-numbered block waits for every other block's partial, published
//            as one relaxed 64-bit store, and combines them in block order; poll-sleep: the
//            same with kit::gpu_sleep_hint between polls).
// The first row is the committed kernel itself (../kernel.cu is compiled into this file and its
// solve called, 256 x 8: block 0 collects the other blocks' published sums).
// Every variant's result is compared with the float64 sum of the input (and the double variants
// also on shuffled cancelling pairs, exact sum 0).
//
// Build and run (CUDA): basics/reduction/variants/run.sh [--quick] (the committed kernel and the
// 256 x 8 shape only).
#include "reduction/solve.h"

#include "reduction/kernel.cu" // the committed solve, timed as the first row

#include "gpu/collectives.h"
#include "gpu/gpu.h"

#include "bench/limits.h"
#include "device/timing.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace variants {

using kit::basics::Timer;
using kit::basics::Timing;

enum class Mode { kReadOnly, kDouble, kFloat4 };
enum class Combine { kNone, kLast, kLastWarp, kAcqRel, kPoll, kPollSleep };

constexpr int kMaxBlocks = 4096;
// A slot holds bits(partial) ^ kEmpty, so zero-initialised memory reads as "not yet published";
// kEmpty is a signalling NaN, which no arithmetic produces.
constexpr std::uint64_t kEmpty = 0x7FF0000000000001ull;

__device__ double g_partials[kMaxBlocks];
__device__ std::uint64_t g_slots[kMaxBlocks];
__device__ unsigned int g_arrivals;

template <Mode M> __device__ __forceinline__ double widen(float4 v, unsigned &bits) {
  if constexpr (M == Mode::kReadOnly) {
    bits ^=
        __float_as_uint(v.x) ^ __float_as_uint(v.y) ^ __float_as_uint(v.z) ^ __float_as_uint(v.w);
    return 0.0;
  } else if constexpr (M == Mode::kFloat4) {
    return static_cast<double>((v.x + v.y) + (v.z + v.w));
  } else {
    return (static_cast<double>(v.x) + static_cast<double>(v.y)) +
           (static_cast<double>(v.z) + static_cast<double>(v.w));
  }
}

template <int kThreads>
__device__ __forceinline__ void combine_warp(double block_sum, bool is_last, float *out) {
  if (!is_last || kit::warp_id() != 0)
    return;
  __threadfence();
  constexpr int kLoads = 16;
  const volatile double *p = g_partials;
  double v = 0;
  for (unsigned base = kit::lane_id(); base < gridDim.x; base += kLoads * KIT_WARP_SIZE) {
    double x[kLoads];
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
      const unsigned i = base + k * KIT_WARP_SIZE;
      x[k] = i < gridDim.x ? p[i] : 0.0;
    }
#pragma unroll
    for (int k = 0; k < kLoads; ++k)
      v += x[k];
  }
  v = kit::warp_reduce(v, kit::Plus());
  if (kit::lane_id() == 0) {
    *out = static_cast<float>(v);
    g_arrivals = 0;
  }
  (void)block_sum;
}

template <int kThreads, int kUnroll, Mode M, Combine C>
__global__ void __launch_bounds__(kThreads)
    reduce_variant(const float *__restrict__ in, std::size_t n, float *out) {
  __shared__ kit::BlockScratch<double, kThreads> scratch;
  __shared__ bool is_last;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kThreads;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  const float4 *v = reinterpret_cast<const float4 *>(in);
  const std::size_t vectors = n / 4;
  double sum = 0;
  unsigned bits = 0;
  for (std::size_t base = thread; base < vectors; base += kUnroll * stride) {
    float4 x[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      x[u] = base + u * stride < vectors ? v[base + u * stride] : make_float4(0, 0, 0, 0);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      sum += widen<M>(x[u], bits);
  }
  if constexpr (M == Mode::kReadOnly)
    sum = static_cast<double>(bits & 1u);
  const double block_sum = kit::block_reduce<kThreads>(sum, kit::Plus(), 0.0, scratch);

  if constexpr (C == Combine::kNone) {
    if (threadIdx.x == 0) {
      g_partials[blockIdx.x] = block_sum;
      if (blockIdx.x == 0)
        *out = static_cast<float>(block_sum);
    }
  } else if constexpr (C == Combine::kLast) {
    double total;
    if (kit::grid_reduce_last_block<kThreads>(block_sum, kit::Plus(), 0.0, g_partials, &g_arrivals,
                                              total, scratch) &&
        threadIdx.x == 0)
      *out = static_cast<float>(total);
  } else if constexpr (C == Combine::kLastWarp) {
    if (threadIdx.x == 0) {
      g_partials[blockIdx.x] = block_sum;
      __threadfence();
      is_last = atomicAdd(&g_arrivals, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    combine_warp<kThreads>(block_sum, is_last, out);
  } else if constexpr (C == Combine::kAcqRel) {
    if (threadIdx.x == 0) {
      g_partials[blockIdx.x] = block_sum;
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> arrivals(g_arrivals);
      is_last = arrivals.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last || kit::warp_id() != 0)
      return;
    constexpr int kLoads = 16;
    double t = 0;
    for (unsigned base = kit::lane_id(); base < gridDim.x; base += kLoads * KIT_WARP_SIZE) {
      double x[kLoads];
#pragma unroll
      for (int k = 0; k < kLoads; ++k) {
        const unsigned i = base + k * KIT_WARP_SIZE;
        x[k] = i < gridDim.x ? __longlong_as_double(static_cast<long long>(kit::gpu_load_relaxed(
                                   reinterpret_cast<const std::uint64_t *>(&g_partials[i]))))
                             : 0.0;
      }
#pragma unroll
      for (int k = 0; k < kLoads; ++k)
        t += x[k];
    }
    t = kit::warp_reduce(t, kit::Plus());
    if (kit::lane_id() == 0) {
      *out = static_cast<float>(t);
      g_arrivals = 0;
    }
  } else { // kPoll, kPollSleep
    const unsigned combiner = gridDim.x - 1;
    if (blockIdx.x != combiner) {
      if (threadIdx.x == 0)
        kit::gpu_store_relaxed(&g_slots[blockIdx.x],
                               static_cast<std::uint64_t>(__double_as_longlong(block_sum)) ^
                                   kEmpty);
      return;
    }
    double t = 0;
    for (unsigned i = threadIdx.x; i < combiner; i += kThreads) {
      std::uint64_t word;
      while ((word = kit::gpu_load_relaxed(&g_slots[i])) == 0) {
        if constexpr (C == Combine::kPollSleep)
          kit::gpu_sleep_hint();
      }
      kit::gpu_store_relaxed(&g_slots[i], 0);
      t += __longlong_as_double(static_cast<long long>(word ^ kEmpty));
    }
    t = kit::block_reduce<kThreads>(t, kit::Plus(), 0.0, scratch);
    if (threadIdx.x == 0)
      *out = static_cast<float>(t + block_sum);
  }
}

__global__ void empty_kernel(float *out) {
  if (threadIdx.x == 0)
    *out = 1.0f;
}

struct Result {
  std::string name;
  double ms;
  double error;        // |result - float64 sum| on the judge's data
  double cancel_error; // |result| on cancelling pairs (exact sum 0); -1 when not checked
};

const char *mode_name(Mode m) {
  return m == Mode::kReadOnly ? "read-only" : m == Mode::kDouble ? "double" : "float4";
}
const char *combine_name(Combine c) {
  switch (c) {
  case Combine::kNone:
    return "none";
  case Combine::kLast:
    return "last";
  case Combine::kLastWarp:
    return "last-warp";
  case Combine::kAcqRel:
    return "acq-rel";
  case Combine::kPoll:
    return "poll";
  default:
    return "poll-sleep";
  }
}

struct Data {
  const float *judge;
  const float *cancelling;
  std::size_t n;
  double judge_sum;
  float *out;
};

float launch_and_read(void (*launch)(const float *, std::size_t, float *), const float *in,
                      std::size_t n, float *out) {
  launch(in, n, out);
  GPU_CHECK(cudaDeviceSynchronize());
  float got = 0;
  GPU_CHECK(cudaMemcpy(&got, out, sizeof(float), cudaMemcpyDeviceToHost));
  return got;
}

template <int kThreads, int kUnroll, Mode M, Combine C>
void run_variant(Timer &timer, const Data &d, std::vector<Result> &results) {
  static auto launch = [](const float *in, std::size_t n, float *out) {
    const std::size_t per_block = static_cast<std::size_t>(kThreads) * kUnroll * 4;
    const int blocks =
        static_cast<int>(std::min<std::size_t>((n + per_block - 1) / per_block, kMaxBlocks));
    reduce_variant<kThreads, kUnroll, M, C><<<blocks, kThreads>>>(in, n, out);
    GPU_CHECK_LAUNCH("reduce_variant");
  };
  const float got = launch_and_read(launch, d.judge, d.n, d.out);
  double cancel = -1;
  if (M == Mode::kDouble || M == Mode::kFloat4)
    cancel = std::fabs(launch_and_read(launch, d.cancelling, d.n, d.out));
  const Timing t = timer.measure([&] { launch(d.judge, d.n, d.out); }, 3, 50);
  char name[96];
  std::snprintf(name, sizeof name, "%d x %d | %s | %s", kThreads, kUnroll, mode_name(M),
                combine_name(C));
  results.push_back({name, t.median_ms, std::fabs(got - d.judge_sum), cancel});
}

template <int kThreads, int kUnroll>
void run_shape(Timer &timer, const Data &d, std::vector<Result> &results) {
  run_variant<kThreads, kUnroll, Mode::kReadOnly, Combine::kNone>(timer, d, results);
  run_variant<kThreads, kUnroll, Mode::kDouble, Combine::kNone>(timer, d, results);
  run_variant<kThreads, kUnroll, Mode::kFloat4, Combine::kNone>(timer, d, results);
  run_variant<kThreads, kUnroll, Mode::kDouble, Combine::kLast>(timer, d, results);
  run_variant<kThreads, kUnroll, Mode::kDouble, Combine::kLastWarp>(timer, d, results);
  run_variant<kThreads, kUnroll, Mode::kDouble, Combine::kAcqRel>(timer, d, results);
  run_variant<kThreads, kUnroll, Mode::kDouble, Combine::kPoll>(timer, d, results);
  run_variant<kThreads, kUnroll, Mode::kDouble, Combine::kPollSleep>(timer, d, results);
  run_variant<kThreads, kUnroll, Mode::kFloat4, Combine::kPoll>(timer, d, results);
}

} // namespace variants

int main(int argc, char **argv) {
  using namespace variants;
  // --quick: the committed kernel and the 256 x 8 shape only.
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  constexpr std::size_t n = 4194304;
  std::mt19937 rng(12345);
  std::vector<float> judge(n), cancelling(n);
  std::uniform_real_distribution<float> u01(0.0f, 1000.0f), usym(-1000.0f, 1000.0f);
  double judge_sum = 0;
  for (auto &x : judge) {
    x = u01(rng);
    judge_sum += x;
  }
  for (std::size_t i = 0; i < n; i += 2) {
    cancelling[i] = usym(rng);
    cancelling[i + 1] = -cancelling[i];
  }
  std::shuffle(cancelling.begin(), cancelling.end(), rng);

  float *d_judge, *d_cancel, *d_out, *d_copy;
  GPU_CHECK(cudaMalloc(&d_judge, n * sizeof(float)));
  GPU_CHECK(cudaMalloc(&d_cancel, n * sizeof(float)));
  GPU_CHECK(cudaMalloc(&d_out, sizeof(float)));
  GPU_CHECK(cudaMalloc(&d_copy, n * sizeof(float)));
  GPU_CHECK(cudaMemcpy(d_judge, judge.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  GPU_CHECK(cudaMemcpy(d_cancel, cancelling.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  Timer timer;
  const std::size_t half = n * sizeof(float) / 2;
  const Timing memcpy_t = timer.measure(
      [&] { GPU_CHECK(cudaMemcpyAsync(d_copy, d_judge, half, cudaMemcpyDeviceToDevice, 0)); }, 3,
      50);
  const Timing kernel_t =
      timer.measure([&] { kit::basics::copy_with_kernel(d_judge, d_copy, half); }, 3, 50);
  const Timing read_t =
      timer.measure([&] { kit::basics::read_through(d_judge, n * sizeof(float)); }, 3, 50);
  const Timing empty_t = timer.measure([&] { empty_kernel<<<1, 32>>>(d_out); }, 3, 50);
  const double copy_ms = std::min(memcpy_t.median_ms, kernel_t.median_ms);
  std::printf("copy of %.1f MB each way: cudaMemcpyAsync %.4f ms, copy kernel %.4f ms\n",
              half / 1e6, memcpy_t.median_ms, kernel_t.median_ms);
  std::printf("read-only grid-stride pass over %.1f MB (resident grid): %.4f ms\n",
              n * sizeof(float) / 1e6, read_t.median_ms);
  std::printf("empty kernel (1 block): %.4f ms\n", empty_t.median_ms);

  Data d{d_judge, d_cancel, n, judge_sum, d_out};
  std::vector<Result> results;
  {
    const auto call = [](const float *in, std::size_t count, float *out) {
      solve(in, out, static_cast<int>(count));
    };
    const float got = launch_and_read(call, d.judge, n, d.out);
    const float cancel = launch_and_read(call, d.cancelling, n, d.out);
    const Timing t = timer.measure([&] { solve(d.judge, d.out, static_cast<int>(n)); }, 3, 50);
    results.push_back({"256 x 8 | double | collect (kernel.cu)", t.median_ms,
                       std::fabs(got - judge_sum), std::fabs(cancel)});
  }
  run_shape<256, 8>(timer, d, results);
  if (!quick) {
    run_shape<256, 4>(timer, d, results);
    run_shape<256, 16>(timer, d, results);
    run_shape<512, 4>(timer, d, results);
    run_shape<512, 8>(timer, d, results);
    run_shape<1024, 4>(timer, d, results);
    run_shape<1024, 8>(timer, d, results);
  }

  std::printf("\n| threads x loads | mode | combine | ms | %% of copy | |err| judge | |err| "
              "cancelling |\n|---|---|---|---|---|---|---|\n");
  for (const Result &r : results) {
    std::printf("| %s | %.4f | %.1f%% | %.3g | %s |\n", r.name.c_str(), r.ms, 100 * copy_ms / r.ms,
                r.error, r.cancel_error < 0 ? "-" : std::to_string(r.cancel_error).c_str());
  }
  return 0;
}
