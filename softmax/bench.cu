// bench_softmax: device-resident softmax, every Engine method against references measured in the
// same run: a device-to-device copy (the bandwidth the 12-byte roofline is counted against), the
// plain three-kernel version (max, sum, normalise: the seeds' approach) and, when the device
// script passes its timings, torch.softmax on a 1-D tensor. Each timed output is checked against
// the CPU reference. Then the host-pointer solve() against bare pageable copies of the same data.
//
//   bench_softmax [--sizes N,N,...] [--torch FILE] [--solve-sizes N,N,...]
//
// Timing (common/event_timing.h): CUDA/HIP events around each call queued behind a spin kernel,
// L2 evicted by a read pass before every call, 3 warm-up calls, median of 31 (15 at N >= 5e7).
// Input: U(-50, 50) with 3 decimals, as in the contest samples.
#include "gpu/collectives.h"
#include "bench/event_timing.h"
#include "kernel.h"
#include "kernel_passes.h"
#include "bench/l2_eviction.h"
#include "reference.h"
#include "solve.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using softmax_gpu::Method;

constexpr int kBaselineBlock = 256;

// ------------------------------------------------------------------------------------------
// Baseline: three kernels, scalar loads, atomics into zeroed accumulators.
// ------------------------------------------------------------------------------------------

// Monotone map of floats to unsigned ints, so that atomicMax orders them like floats.
__device__ __forceinline__ unsigned float_key(float f) {
  const unsigned bits = __float_as_uint(f);
  return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}
__device__ __forceinline__ float key_float(unsigned key) {
  return __uint_as_float((key & 0x80000000u) ? key & 0x7fffffffu : ~key);
}

__global__ void baseline_max_kernel(const float *in, std::size_t n, unsigned *max_key) {
  __shared__ kit::BlockScratch<float, kBaselineBlock> scratch;
  float m = -INFINITY;
  for (std::size_t i = blockIdx.x * std::size_t{kBaselineBlock} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * kBaselineBlock)
    m = fmaxf(m, in[i]);
  m = kit::block_reduce<kBaselineBlock>(m, kit::Max{}, -INFINITY, scratch);
  if (threadIdx.x == 0)
    atomicMax(max_key, float_key(m));
}

__global__ void baseline_sum_kernel(const float *in, std::size_t n, const unsigned *max_key,
                                    float *sum) {
  __shared__ kit::BlockScratch<float, kBaselineBlock> scratch;
  const float m = key_float(*max_key);
  float s = 0.0f;
  for (std::size_t i = blockIdx.x * std::size_t{kBaselineBlock} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * kBaselineBlock)
    s += expf(in[i] - m);
  s = kit::block_reduce<kBaselineBlock>(s, kit::Plus{}, 0.0f, scratch);
  if (threadIdx.x == 0)
    atomicAdd(sum, s);
}

__global__ void baseline_normalize_kernel(const float *in, float *out, std::size_t n,
                                          const unsigned *max_key, const float *sum) {
  const float m = key_float(*max_key);
  const float inv = 1.0f / *sum;
  for (std::size_t i = blockIdx.x * std::size_t{kBaselineBlock} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * kBaselineBlock)
    out[i] = expf(in[i] - m) * inv;
}

struct Baseline {
  unsigned *max_key = nullptr;
  float *sum = nullptr;
  unsigned grid_limit = 0;

  Baseline() {
    GPU_CHECK(cudaMalloc(&max_key, sizeof(unsigned)));
    GPU_CHECK(cudaMalloc(&sum, sizeof(float)));
    grid_limit = 8u * kit::gpu::device_multiprocessors();
  }
  ~Baseline() {
    (void)cudaFree(max_key);
    (void)cudaFree(sum);
  }
  void run(const float *in, float *out, std::size_t n) {
    const unsigned grid = static_cast<unsigned>(
        std::min<std::size_t>(grid_limit, (n + kBaselineBlock - 1) / kBaselineBlock));
    GPU_CHECK(cudaMemsetAsync(max_key, 0, sizeof(unsigned))); // key 0 is below every float
    GPU_CHECK(cudaMemsetAsync(sum, 0, sizeof(float)));
    baseline_max_kernel<<<grid, kBaselineBlock>>>(in, n, max_key);
    GPU_CHECK_LAUNCH("baseline_max_kernel");
    baseline_sum_kernel<<<grid, kBaselineBlock>>>(in, n, max_key, sum);
    GPU_CHECK_LAUNCH("baseline_sum_kernel");
    baseline_normalize_kernel<<<grid, kBaselineBlock>>>(in, out, n, max_key, sum);
    GPU_CHECK_LAUNCH("baseline_normalize_kernel");
  }
};

// ------------------------------------------------------------------------------------------
// Floors: what a launch and a grid barrier cost with nothing else in the kernel.
// ------------------------------------------------------------------------------------------

__global__ void empty_kernel() {}

template <class Barrier>
__global__ void barrier_only_kernel(softmax_gpu::detail::Control *control) {
  Barrier barrier(control);
  barrier.wait();
}

// ------------------------------------------------------------------------------------------
// Timing and checking
// ------------------------------------------------------------------------------------------

class Timer {
public:
  // Median of `runs` calls after 3 warm-up calls, each after evicting the L2 (by reading a
  // buffer of twice its size: clean lines, nothing for the timed call to write back).
  template <class Launch> double median_ms(Launch &&launch, int runs) {
    return kit::bench::time_events(3, runs, launch, evict_l2_).median_ms;
  }

private:
  kit::bench::L2Eviction evict_l2_;
};

// Values outside a tenth of the grader's tolerance (see tests/gpu_test.cu), NaN included.
std::size_t count_bad(const std::vector<float> &got, const std::vector<float> &want) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(std::fabs(static_cast<double>(got[i]) - want[i]) <= 1e-7 + 1e-6 * std::fabs(want[i])))
      ++bad;
  return bad;
}

std::vector<float> contest_input(std::size_t n, std::mt19937_64 &rng) {
  std::vector<float> x(n);
  std::uniform_int_distribution<int> milli(-50000, 50000);
  for (auto &v : x)
    v = static_cast<float>(milli(rng) / 1000.0);
  return x;
}

[[noreturn]] void usage(const char *what) {
  std::fprintf(stderr,
               "bench_softmax: %s\nusage: bench_softmax [--sizes N,N,...] [--torch FILE] "
               "[--solve-sizes N,N,...] [--variants 0|1]\n",
               what);
  std::exit(2);
}

std::vector<std::size_t> parse_sizes(const char *text) {
  std::vector<std::size_t> sizes;
  const char *p = text;
  while (*p) {
    char *end = nullptr;
    const double v = std::strtod(p, &end); // accepts 1e8
    if (end == p || v < 1 || v > 2e9 || (*end && *end != ','))
      usage((std::string("bad size list '") + text + "' at '" + p + "'").c_str());
    sizes.push_back(static_cast<std::size_t>(v));
    p = *end ? end + 1 : end;
  }
  return sizes;
}

// Lines "N milliseconds" written by bench_torch.py.
std::map<std::size_t, double> read_torch(const char *path) {
  std::map<std::size_t, double> times;
  std::ifstream file(path);
  if (!file)
    usage((std::string("cannot read torch timings '") + path + "'").c_str());
  double n = 0, ms = 0;
  while (file >> n >> ms)
    times[static_cast<std::size_t>(n)] = ms;
  return times;
}

struct Row {
  std::string name;
  double ms;
  double bytes_per_element; // 12 for softmax, 8 for the copy, 0 for a floor (time only)
  std::string check;
};

void print_rows(std::size_t n, const std::vector<Row> &rows, double copy_gbs, double baseline_ms,
                double torch_ms) {
  for (const Row &r : rows) {
    const double gbs = r.bytes_per_element * static_cast<double>(n) / (r.ms * 1e6);
    if (r.bytes_per_element == 0) { // a floor: time only
      std::printf("%11zu  %-28s %9.4f\n", n, r.name.c_str(), r.ms);
      continue;
    }
    std::printf("%11zu  %-28s %9.4f %9.1f %7.1f%%", n, r.name.c_str(), r.ms, gbs,
                100.0 * gbs / copy_gbs);
    if (r.bytes_per_element == 12)
      std::printf(" %8.2fx", baseline_ms / r.ms);
    else
      std::printf(" %9s", "");
    if (torch_ms > 0 && r.bytes_per_element == 12)
      std::printf(" %8.2fx", torch_ms / r.ms);
    else
      std::printf(" %9s", "");
    std::printf("  %s\n", r.check.c_str());
  }
}

// The on-chip configurations --variants 1 times, named "on-chip <shape> [change]".
std::vector<std::pair<std::string, softmax_gpu::OnChipConfig>> onchip_variants() {
  std::vector<std::pair<std::string, softmax_gpu::OnChipConfig>> list;
  for (softmax_gpu::OnChipShape shape : softmax_gpu::kOnChipShapes) {
    softmax_gpu::OnChipConfig base;
    base.shape = shape;
    base.wide_beyond_registers = false; // the shape itself up to its capacity
    const std::string name = std::string("on-chip ") + softmax_gpu::shape_name(shape);
    list.push_back({name, base});
    for (unsigned groups : {2u, 4u}) {
      softmax_gpu::OnChipConfig c = base;
      c.copy_groups = groups;
      list.push_back({name + " cg=" + std::to_string(groups), c});
    }
    softmax_gpu::OnChipConfig c = base;
    c.pass2_shared_first = !base.pass2_shared_first;
    list.push_back({name + (c.pass2_shared_first ? " p2-smem-first" : " p2-regs-first"), c});
    c = base;
    c.shared_first = !base.shared_first;
    list.push_back({name + (c.shared_first ? " smem-first" : " regs-first"), c});
    c = base;
    c.bulk_copy = false;
    list.push_back({name + " per-thread-copies", c});
    for (unsigned block_items : {1024u, 4096u}) {
      c = base;
      c.min_block_items = block_items;
      list.push_back({name + " mb=" + std::to_string(block_items), c});
    }
  }
  return list;
}

double wall_ms(const std::chrono::steady_clock::time_point &t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::size_t> sizes = {500000, 1000000, 10000000, 100000000};
  std::vector<std::size_t> solve_sizes = {10000000, 100000000};
  std::map<std::size_t, double> torch_ms;
  bool variants = false; // on-chip tuning alternatives as extra rows
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc)
      usage(("missing value after " + arg).c_str());
    if (arg == "--sizes")
      sizes = parse_sizes(argv[++i]);
    else if (arg == "--solve-sizes")
      solve_sizes = parse_sizes(argv[++i]);
    else if (arg == "--torch")
      torch_ms = read_torch(argv[++i]);
    else if (arg == "--variants")
      variants = std::string(argv[++i]) != "0";
    else
      usage(("unknown option " + arg).c_str());
  }

  int device = 0;
  GPU_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop;
  GPU_CHECK(cudaGetDeviceProperties(&prop, device));
  softmax_gpu::Engine engine;
  Baseline baseline;
  Timer timer;
  std::printf("device %s: %d SMs, L2 %d MB, warp %d; resident capacity %zu elements; on-chip "
              "capacity %zu elements (grid %u, %zu B shared memory per block; 256x40 above %zu)\n",
              prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20,
              kit::gpu::device_warp_size(), engine.resident_capacity(), engine.onchip_capacity(),
              engine.grid(Method::kOnChip, engine.onchip_capacity()), engine.onchip_shared_bytes(),
              engine.onchip_wide_from());
  std::printf("on-chip shapes (threads x float4 in registers):");
  for (softmax_gpu::OnChipShape shape : softmax_gpu::kOnChipShapes) {
    softmax_gpu::OnChipConfig config;
    config.shape = shape;
    config.wide_beyond_registers = false;
    engine.tune_onchip(config);
    std::printf("  %s capacity %zu (grid %u, %zu B shared memory)%s",
                softmax_gpu::shape_name(shape), engine.onchip_shape_capacity(),
                engine.grid(Method::kOnChip, engine.onchip_shape_capacity()),
                engine.onchip_shared_bytes(),
                shape == softmax_gpu::OnChipConfig{}.shape ? " [default]" : "");
    // With the variants: each shape also at its own capacity (the shared memory full).
    if (variants &&
        std::find(sizes.begin(), sizes.end(), engine.onchip_shape_capacity()) == sizes.end())
      sizes.push_back(engine.onchip_shape_capacity());
  }
  std::printf("\n");
  engine.tune_onchip(softmax_gpu::OnChipConfig{});

  // Floors, timed like everything else (events, L2 flushed before each call): an empty kernel,
  // and kernels that only cross a grid barrier (the one the kernels use, and the epoch barrier
  // it replaced) on several grid sizes.
  softmax_gpu::detail::Control *floor_control = nullptr;
  GPU_CHECK(cudaMalloc(&floor_control, sizeof(softmax_gpu::detail::Control)));
  GPU_CHECK(cudaMemset(floor_control, 0, sizeof(softmax_gpu::detail::Control)));
  auto barrier_ms = [&](unsigned grid, bool epoch) {
    return timer.median_ms(
        [&] {
          if (epoch)
            barrier_only_kernel<softmax_gpu::detail::EpochBarrier>
                <<<grid, softmax_gpu::detail::kBlockThreads>>>(floor_control);
          else
            barrier_only_kernel<softmax_gpu::detail::GridBarrier>
                <<<grid, softmax_gpu::detail::kBlockThreads>>>(floor_control);
          GPU_CHECK_LAUNCH("barrier_only_kernel");
        },
        31);
  };
  const double launch_floor_ms = timer.median_ms(
      [&] {
        empty_kernel<<<1, softmax_gpu::detail::kBlockThreads>>>();
        GPU_CHECK_LAUNCH("empty_kernel");
      },
      31);
  std::printf("launch floor (empty kernel, 1 block): %.4f ms\n", launch_floor_ms);
  std::printf("barrier-only kernel, ms by grid:");
  const unsigned full_grid = engine.grid(Method::kOnChip, engine.onchip_capacity());
  const unsigned resident_full = engine.grid(Method::kResident, engine.resident_capacity());
  for (unsigned grid : {1u, 8u, 33u, full_grid / 2, full_grid, resident_full})
    std::printf("  g=%u %.4f (epoch barrier %.4f)", grid, barrier_ms(grid, false),
                barrier_ms(grid, true));
  std::printf("\n");

  // Reference bandwidth: a 1 GiB device-to-device copy (bytes read + written).
  double copy_gbs = 0;
  {
    const std::size_t bytes = std::size_t{1} << 30;
    void *a = nullptr, *b = nullptr;
    GPU_CHECK(cudaMalloc(&a, bytes));
    GPU_CHECK(cudaMalloc(&b, bytes));
    GPU_CHECK(cudaMemset(a, 1, bytes));
    const double ms = timer.median_ms(
        [&] { GPU_CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0)); }, 15);
    copy_gbs = 2.0 * bytes / (ms * 1e6);
    GPU_CHECK(cudaFree(a));
    GPU_CHECK(cudaFree(b));
    std::printf("copy bandwidth (1 GiB device-to-device): %.3f ms, %.0f GB/s\n", ms, copy_gbs);
  }

  std::printf("\nDevice-resident softmax; GB/s at 12 bytes/element (copy rows: 8), %% of the copy "
              "bandwidth,\nspeed-up over the three-kernel baseline and over torch.softmax, check "
              "against the CPU reference\n");
  std::printf("%11s  %-28s %9s %9s %8s %9s %9s  %s\n", "N", "method", "ms", "GB/s", "%copy",
              "vs 3-kern", "vs torch", "check");
  std::mt19937_64 rng(7);
  for (std::size_t n : sizes) {
    const std::vector<float> input = contest_input(n, rng);
    std::vector<float> want(n), got(n);
    softmax_reference(input.data(), want.data(), n);
    float *d_in = nullptr, *d_out = nullptr;
    GPU_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    GPU_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    GPU_CHECK(cudaMemcpy(d_in, input.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    const int runs = n >= 50000000 ? 15 : 31;
    auto checked = [&] {
      GPU_CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
      const std::size_t bad = count_bad(got, want);
      GPU_CHECK(cudaMemset(d_out, 0xFF, n * sizeof(float))); // NaN for the next method
      return bad ? "FAIL: " + std::to_string(bad) + " values" : std::string("ok");
    };

    std::vector<Row> rows;
    rows.push_back({"copy (D2D)",
                    timer.median_ms(
                        [&] {
                          GPU_CHECK(cudaMemcpyAsync(d_out, d_in, n * sizeof(float),
                                                    cudaMemcpyDeviceToDevice, 0));
                        },
                        runs),
                    8, ""});
    rows.push_back({"12 B roofline", 12.0 * n / (copy_gbs * 1e6), 12, ""});
    rows.push_back({"floor: launch", launch_floor_ms, 0, ""});
    const double baseline_ms = timer.median_ms([&] { baseline.run(d_in, d_out, n); }, runs);
    rows.push_back({"three-kernel", baseline_ms, 12, checked()});
    const unsigned auto_grid = engine.grid(Method::kAuto, n);
    rows.push_back(
        {"floor: barrier g=" + std::to_string(auto_grid), barrier_ms(auto_grid, false), 0, ""});
    for (Method method : {Method::kTwoPass, Method::kTwoPassReverse, Method::kPersistent,
                          Method::kResident, Method::kOnChip, Method::kAuto}) {
      if (method == Method::kResident && n > engine.resident_capacity())
        continue;
      if (method == Method::kOnChip && n > engine.onchip_capacity())
        continue;
      const double ms = timer.median_ms([&] { engine.run(d_in, d_out, n, 0, method); }, runs);
      std::string name = softmax_gpu::method_name(method);
      if (method == Method::kAuto)
        name += std::string("=") + softmax_gpu::method_name(engine.auto_method(n));
      rows.push_back({name, ms, 12, checked()});
    }
    if (variants) {
      // The on-chip method in every block shape, each with its alternatives: the shared-memory
      // copies waited for in 2 or 4 groups, pass 2 on the shared-memory items first, the register
      // loads issued first, 16-byte copies per thread instead of bulk copies (sm_90+), the grid
      // shrinking below 1024 or 4096 float4 per block (default 2048).
      for (const auto &[name, config] : onchip_variants()) {
        engine.tune_onchip(config);
        if (n > engine.onchip_shape_capacity()) // kOnChip would run it in the 256x40 shape
          continue;
        const double ms =
            timer.median_ms([&] { engine.run(d_in, d_out, n, 0, Method::kOnChip); }, runs);
        rows.push_back(
            {name + " g=" + std::to_string(engine.grid(Method::kOnChip, n)), ms, 12, checked()});
      }
      engine.tune_onchip(softmax_gpu::OnChipConfig{});
    }
    const auto torch = torch_ms.find(n);
    if (torch != torch_ms.end())
      rows.push_back({"torch.softmax", torch->second, 12, "(bench_torch.py)"});
    print_rows(n, rows, copy_gbs, baseline_ms, torch != torch_ms.end() ? torch->second : 0);
    GPU_CHECK(cudaFree(d_in));
    GPU_CHECK(cudaFree(d_out));
  }
  GPU_CHECK(cudaFree(floor_control));

  if (!solve_sizes.empty()) {
    std::printf("\nHost-pointer solve() (pageable arrays, wall clock, median of 5 after a first "
                "call, which is shown too:\nit sets up the pipeline at the first size) against "
                "bare pageable copies of the same bytes up and down\n");
    std::printf("%11s %12s %12s %14s %8s  %s\n", "N", "first call", "solve ms", "copies ms",
                "ratio", "check");
  }
  for (std::size_t n : solve_sizes) {
    const std::vector<float> input = contest_input(n, rng);
    std::vector<float> want(n), got(n);
    softmax_reference(input.data(), want.data(), n);
    float *d = nullptr;
    GPU_CHECK(cudaMalloc(&d, n * sizeof(float)));
    std::vector<double> solve_times, copy_times;
    double first_ms = 0;
    for (int i = -1; i < 5; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      solve(input.data(), got.data(), static_cast<int>(n));
      const double solve_ms = wall_ms(t0);
      t0 = std::chrono::steady_clock::now();
      GPU_CHECK(cudaMemcpy(d, input.data(), n * sizeof(float), cudaMemcpyHostToDevice));
      GPU_CHECK(cudaMemcpy(got.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
      const double copy_ms = wall_ms(t0);
      if (i < 0)
        first_ms = solve_ms;
      if (i >= 0) {
        solve_times.push_back(solve_ms);
        copy_times.push_back(copy_ms);
      }
    }
    solve(input.data(), got.data(), static_cast<int>(n));
    const std::size_t bad = count_bad(got, want);
    const std::string check = bad ? "FAIL: " + std::to_string(bad) + " values" : "ok";
    std::sort(solve_times.begin(), solve_times.end());
    std::sort(copy_times.begin(), copy_times.end());
    std::printf("%11zu %12.2f %12.2f %14.2f %7.2fx  %s\n", n, first_ms, solve_times[2],
                copy_times[2], copy_times[2] / solve_times[2], check.c_str());
    GPU_CHECK(cudaFree(d));
  }
  return 0;
}
