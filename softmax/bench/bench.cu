// bench_softmax: the device-resident softmax's production methods against references measured in
// the same run: a device-to-device copy (the bandwidth the 12-byte roofline is counted against),
// the plain three-kernel version (max, sum, normalise: the seeds' approach) and, when given,
// torch.softmax on a 1-D tensor (torch_softmax.py's output). Each timed output is checked against
// the CPU reference. Then the host-pointer solve() against bare pageable copies of the same data.
// Prints Markdown tables; with no arguments, the README's results table.
//
//   bench_softmax [--sizes N,N,...] [--solve-sizes N,N,...] [--torch FILE] [--variants]
//
// Timing (common/bench/event_timing.h): events around each call queued behind a spin kernel, L2
// evicted by a read pass before every call, 3 warm-up calls, median of 31 (15 at N >= 5e7).
// Input: U(-50, 50) with 3 decimals, as in the contest samples.
#include "bench/event_timing.h"
#include "bench/l2_eviction.h"
#include "bench/options.h"
#include "collectives/block.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/launch.h"
#include "gpu/resources.h"
#include "gpu/tuning_dispatch.h"
#include "kernel.h"
#include "kernel_passes.h"
#include "reference.h"
#include "solve.h"
#include "testing/random.h"
#include "variants.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

using softmax::Method;

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

class Baseline {
public:
  Baseline() : max_key_(1), sum_(1), grid_limit_(8u * kit::gpu::device_multiprocessors()) {}

  void run(const float *in, float *out, std::size_t n) {
    const unsigned grid = static_cast<unsigned>(
        std::min<std::size_t>(grid_limit_, (n + kBaselineBlock - 1) / kBaselineBlock));
    GPU_CHECK(cudaMemsetAsync(max_key_.get(), 0, sizeof(unsigned))); // below every float's key
    GPU_CHECK(cudaMemsetAsync(sum_.get(), 0, sizeof(float)));
    baseline_max_kernel<<<grid, kBaselineBlock>>>(in, n, max_key_.get());
    GPU_CHECK_LAUNCH("baseline_max_kernel");
    baseline_sum_kernel<<<grid, kBaselineBlock>>>(in, n, max_key_.get(), sum_.get());
    GPU_CHECK_LAUNCH("baseline_sum_kernel");
    baseline_normalize_kernel<<<grid, kBaselineBlock>>>(in, out, n, max_key_.get(), sum_.get());
    GPU_CHECK_LAUNCH("baseline_normalize_kernel");
  }

private:
  kit::gpu::DeviceArray<unsigned> max_key_;
  kit::gpu::DeviceArray<float> sum_;
  unsigned grid_limit_;
};

// ------------------------------------------------------------------------------------------
// Floors: what a launch and a grid barrier cost with nothing else in the kernel, for the grids
// the single-kernel methods launch, with the plain and the cooperative launch.
// ------------------------------------------------------------------------------------------

constexpr int kFloorBlock = 256;

__global__ void empty_kernel(int) {}

__global__ void barrier_only_kernel(softmax::detail::Control *control) {
  softmax::detail::GridBarrier barrier(control);
  barrier.wait();
}

// ------------------------------------------------------------------------------------------
// Timing and checking
// ------------------------------------------------------------------------------------------

class Timer {
public:
  // Median of `runs` calls after 3 warm-up calls, each after evicting the L2.
  template <class Launch> double median_ms(Launch &&launch, int runs = 31) {
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

std::vector<float> contest_input(std::size_t n, kit::Rng &rng) {
  std::vector<float> x(n);
  for (float &v : x)
    v = static_cast<float>(static_cast<double>(rng.uniform_int(-50000, 50000)) / 1000.0);
  return x;
}

// Lines "N milliseconds" written by torch_softmax.py.
bool read_torch(const std::string &path, std::map<std::size_t, double> *times) {
  std::ifstream file(path);
  if (!file)
    return false;
  double n = 0, ms = 0;
  while (file >> n >> ms)
    (*times)[static_cast<std::size_t>(n)] = ms;
  return true;
}

std::string shape_name(const softmax::OnChipShapeInfo &shape) {
  return std::to_string(shape.threads) + "x" + std::to_string(shape.register_items);
}

// The method's name in the table, with the on-chip shape it runs n in.
std::string row_name(const softmax::Engine &engine, Method method, std::size_t n) {
  std::string name = softmax::method_name(method);
  const Method resolved = method == Method::kAuto ? engine.auto_method(n) : method;
  if (method == Method::kAuto)
    name += std::string(" = ") + softmax::method_name(resolved);
  if (resolved == Method::kOnChip)
    name += " " + shape_name(*engine.onchip_shape(n));
  return name;
}

struct Row {
  std::string name;
  unsigned grid; // 0: not a kernel of ours
  double ms;
  double bytes_per_element; // 12 for softmax, 8 for the copy
  std::string check;
};

std::string ratio(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx", x);
  return text;
}

void print_rows(std::size_t n, const std::vector<Row> &rows, double copy_gbs, double roofline_ms,
                double baseline_ms, double torch_ms) {
  for (const Row &r : rows) {
    const double gbs = r.bytes_per_element * static_cast<double>(n) / (r.ms * 1e6);
    const bool is_softmax = r.bytes_per_element == 12;
    std::printf("| %zu | %s | %s | %.4f | %.0f | %.1f %% | %s | %s | %s | %s |\n", n,
                r.name.c_str(), r.grid ? std::to_string(r.grid).c_str() : "", r.ms, gbs,
                100.0 * gbs / copy_gbs, is_softmax ? ratio(r.ms / roofline_ms).c_str() : "",
                is_softmax ? ratio(baseline_ms / r.ms).c_str() : "",
                is_softmax && torch_ms > 0 ? ratio(torch_ms / r.ms).c_str() : "", r.check.c_str());
  }
}

double wall_ms(const std::chrono::steady_clock::time_point &t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::size_t> sizes = {500000,   1000000,  2000000,  4000000,  8000000,
                                    10000000, 12000000, 20000000, 100000000};
  std::vector<std::size_t> solve_sizes = {1000000, 10000000, 100000000};
  std::string torch_path;
  bool variants = false;
  kit::bench::Options options("bench_softmax",
                              "times every production softmax method against a same-run copy, "
                              "the three-kernel baseline and torch (when given)");
  options.sizes("--sizes", &sizes, "device-resident sizes (1e8 notation accepted)")
      .sizes("--solve-sizes", &solve_sizes, "sizes for the host-pointer solve()")
      .text("--torch", &torch_path, "FILE", "torch.softmax times from torch_softmax.py")
      .flag("--variants", &variants,
            "also time the variants (bench/variants.h) against the production path");
  options.parse(argc, argv);
  std::map<std::size_t, double> torch_ms;
  if (!torch_path.empty() && !read_torch(torch_path, &torch_ms)) {
    std::fprintf(stderr, "bench_softmax: cannot read torch timings '%s'\n", torch_path.c_str());
    return 2;
  }

  const cudaDeviceProp prop = kit::gpu::device_properties_or_exit("bench_softmax");
  softmax::Engine engine;
  std::vector<std::pair<std::string, std::unique_ptr<softmax::Engine>>> variant_engines;
  if (variants)
    for (const softmax::EngineVariant &variant : softmax::engine_variants())
      variant_engines.emplace_back(variant.name,
                                   std::make_unique<softmax::Engine>(variant.options));
  Baseline baseline;
  Timer timer;
  const softmax::OnChipShapeInfo &narrow = engine.onchip_narrow();
  const softmax::OnChipShapeInfo &wide = engine.onchip_wide();
  std::printf("# bench_softmax\n\n");
  std::printf("Device %s: %d multiprocessors, L2 %d MB, warp %d; tuning table %s. Resident "
              "capacity %zu elements (kAuto takes it up to %zu). On-chip: %s (grid %u) up to %zu "
              "elements, %s (grid %u, up to %u shared-memory slots per thread, %zu B of shared "
              "memory per block) up to %zu.\n\n",
              prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20,
              kit::gpu::device_warp_size(), kit::gpu::arch_name(kit::gpu::device_arch()),
              engine.resident_capacity(), engine.auto_resident_limit(), shape_name(narrow).c_str(),
              narrow.grid, engine.onchip_narrow_limit(), shape_name(wide).c_str(), wide.grid,
              wide.slots, wide.shared_bytes, engine.onchip_capacity());

  // Reference bandwidth: a 1 GiB device-to-device copy (bytes read + written).
  double copy_gbs = 0;
  {
    const std::size_t bytes = std::size_t{1} << 30;
    kit::gpu::DeviceArray<unsigned char> a(bytes), b(bytes);
    GPU_CHECK(cudaMemset(a.get(), 1, bytes));
    const double ms = timer.median_ms(
        [&] { GPU_CHECK(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, 0)); },
        15);
    copy_gbs = 2.0 * static_cast<double>(bytes) / (ms * 1e6);
    std::printf("Copy bandwidth (1 GiB device-to-device): %.3f ms, %.0f GB/s.\n\n", ms, copy_gbs);
  }

  // Floors on the grids the single-kernel methods launch.
  {
    kit::gpu::DeviceArray<unsigned char> control(sizeof(softmax::detail::Control));
    GPU_CHECK(cudaMemset(control.get(), 0, control.bytes()));
    auto *floor_control = reinterpret_cast<softmax::detail::Control *>(control.get());
    const int barrier_grid_limit = kit::gpu::resident_blocks(barrier_only_kernel, kFloorBlock);
    std::vector<unsigned> grids = {1, engine.grid(Method::kOnChip, engine.onchip_capacity()),
                                   engine.grid(Method::kResident, engine.resident_capacity())};
    std::printf("## Floors (ms)\n\n| kernel (%d threads per block) | grid | plain launch | "
                "cooperative launch |\n|---|---|---|---|\n",
                kFloorBlock);
    for (unsigned grid : grids) {
      if (grid == 0 || grid > static_cast<unsigned>(barrier_grid_limit))
        continue;
      const double plain = timer.median_ms([&] {
        empty_kernel<<<grid, kFloorBlock>>>(0);
        GPU_CHECK_LAUNCH("empty_kernel");
      });
      // A refused cooperative launch (reported once on stderr) leaves its rows out.
      bool launched = true;
      const double cooperative = timer.median_ms([&] {
        launched &= kit::gpu::try_launch_cooperative("empty_kernel", empty_kernel, grid,
                                                     kFloorBlock, 0, nullptr, 0);
      });
      const double barrier = timer.median_ms([&] {
        launched &= kit::gpu::try_launch_cooperative("barrier_only_kernel", barrier_only_kernel,
                                                     grid, kFloorBlock, 0, nullptr, floor_control);
      });
      if (!launched)
        continue;
      std::printf("| empty | %u | %.4f | %.4f |\n| grid barrier only | %u | | %.4f |\n", grid,
                  plain, cooperative, grid, barrier);
    }
    std::printf("\n");
  }

  std::printf("## Device-resident softmax\n\nGB/s at 12 bytes per element (the copy: 8) and its "
              "share of the copy bandwidth; \"vs roofline\": time over the 12-byte roofline "
              "(below 1: faster); \"vs three-kernel\" and \"vs torch\": their time over this one; "
              "check against the CPU reference.\n\n");
  std::printf("| N | method | grid | ms | GB/s | %% of copy | vs roofline | vs three-kernel | vs "
              "torch | check |\n|---|---|---|---|---|---|---|---|---|---|\n");
  kit::Rng rng(7);
  for (std::size_t n : sizes) {
    const std::vector<float> input = contest_input(n, rng);
    std::vector<float> want(n), got(n);
    softmax_reference(input.data(), want.data(), n);
    kit::gpu::DeviceArray<float> d_in(n), d_out(n);
    GPU_CHECK(cudaMemcpy(d_in.get(), input.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    const int runs = n >= 50000000 ? 15 : 31;
    auto checked = [&] {
      GPU_CHECK(cudaMemcpy(got.data(), d_out.get(), n * sizeof(float), cudaMemcpyDeviceToHost));
      const std::size_t bad = count_bad(got, want);
      GPU_CHECK(cudaMemset(d_out.get(), 0xFF, n * sizeof(float))); // NaN for the next method
      return bad ? "FAIL: " + std::to_string(bad) + " values" : std::string("ok");
    };

    std::vector<Row> rows;
    rows.push_back({"copy (device to device)", 0,
                    timer.median_ms(
                        [&] {
                          GPU_CHECK(cudaMemcpyAsync(d_out.get(), d_in.get(), n * sizeof(float),
                                                    cudaMemcpyDeviceToDevice, 0));
                        },
                        runs),
                    8, ""});
    const double roofline_ms = 12.0 * static_cast<double>(n) / (copy_gbs * 1e6);
    rows.push_back({"12 B roofline", 0, roofline_ms, 12, "(copy bandwidth)"});
    const double baseline_ms =
        timer.median_ms([&] { baseline.run(d_in.get(), d_out.get(), n); }, runs);
    rows.push_back({"three-kernel", 0, baseline_ms, 12, checked()});
    auto time_method = [&](softmax::Engine &e, Method method, const std::string &name) {
      const double ms =
          timer.median_ms([&] { e.run(d_in.get(), d_out.get(), n, 0, method); }, runs);
      rows.push_back({name, e.grid(method, n), ms, 12, checked()});
    };
    for (Method method :
         {Method::kTwoPassReverse, Method::kResident, Method::kOnChip, Method::kAuto}) {
      if (method == Method::kResident && n > engine.resident_capacity())
        continue;
      if (method == Method::kOnChip && n > engine.onchip_capacity())
        continue;
      time_method(engine, method, row_name(engine, method, n));
    }
    for (const auto &[name, variant] : variant_engines)
      if (n <= variant->onchip_capacity())
        time_method(*variant, Method::kOnChip,
                    row_name(*variant, Method::kOnChip, n) + " (" + name + ")");
    const auto torch = torch_ms.find(n);
    if (torch != torch_ms.end())
      rows.push_back({"torch.softmax", 0, torch->second, 12, "(torch_softmax.py)"});
    print_rows(n, rows, copy_gbs, roofline_ms, baseline_ms,
               torch != torch_ms.end() ? torch->second : 0);
  }

  if (!solve_sizes.empty())
    std::printf("\n## Host-pointer solve()\n\nPageable arrays, wall clock, median of 5 after a "
                "first call (shown too: it sets up the pipeline at the first size), against bare "
                "pageable copies of the same bytes up and down.\n\n| N | first call ms | solve "
                "ms | copies ms | copies / solve | check |\n|---|---|---|---|---|---|\n");
  for (std::size_t n : solve_sizes) {
    const std::vector<float> input = contest_input(n, rng);
    std::vector<float> want(n), got(n);
    softmax_reference(input.data(), want.data(), n);
    kit::gpu::DeviceArray<float> d(n);
    std::vector<double> solve_times, copy_times;
    double first_ms = 0;
    for (int i = -1; i < 5; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      solve(input.data(), got.data(), static_cast<int>(n));
      const double solve_ms = wall_ms(t0);
      t0 = std::chrono::steady_clock::now();
      GPU_CHECK(cudaMemcpy(d.get(), input.data(), n * sizeof(float), cudaMemcpyHostToDevice));
      GPU_CHECK(cudaMemcpy(got.data(), d.get(), n * sizeof(float), cudaMemcpyDeviceToHost));
      const double copy_ms = wall_ms(t0);
      if (i < 0) {
        first_ms = solve_ms;
        continue;
      }
      solve_times.push_back(solve_ms);
      copy_times.push_back(copy_ms);
    }
    solve(input.data(), got.data(), static_cast<int>(n));
    const std::size_t bad = count_bad(got, want);
    std::sort(solve_times.begin(), solve_times.end());
    std::sort(copy_times.begin(), copy_times.end());
    std::printf("| %zu | %.2f | %.2f | %.2f | %.2fx | %s |\n", n, first_ms, solve_times[2],
                copy_times[2], copy_times[2] / solve_times[2],
                bad ? ("FAIL: " + std::to_string(bad) + " values").c_str() : "ok");
  }
  return 0;
}
