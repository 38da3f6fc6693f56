// bench_prefix_sum: kernel time of the device-wide scan on device-resident int32 data against the
// device copy bandwidth and the vendor library's inclusive scan (CUB / hipCUB), all measured in
// this run; then the host-pointer path behind solve(), split into copies and compute.
//
//   bench_prefix_sum [--all-variants] [--skip-solve] [N ...]     (default N: 1e6 1e7 1e8 1e9)
//
// Every variant's output is compared with the vendor scan's (or, without one, the CPU
// reference); every solve() output with the CPU reference. A mismatch fails the run.
#include "device_scan.h"
#include "bench/event_timing.h"
#include "kernel_compare.h"
#include "kernel_pipeline.h"
#include "kernel_variants.h"
#include "reference.h"
#include "testing/random.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if KIT_CUDA
#include <cub/cub.cuh>
#define KIT_VENDOR_SCAN 1
namespace vendor = cub;
constexpr const char *kVendorName = "CUB";
#elif __has_include(<hipcub/hipcub.hpp>)
#include <hipcub/hipcub.hpp>
#define KIT_VENDOR_SCAN 1
namespace vendor = hipcub;
constexpr const char *kVendorName = "hipCUB";
#else
#define KIT_VENDOR_SCAN 0
constexpr const char *kVendorName = "none";
#endif

namespace {

struct Options {
  std::vector<std::size_t> sizes;
  bool all_variants = false;
  bool skip_solve = false;
};

[[noreturn]] void usage_error(const char *arg, const char *expected) {
  std::fprintf(stderr, "bench_prefix_sum: argument '%s': expected %s\n", arg, expected);
  std::exit(2);
}

Options parse_options(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (std::strcmp(arg, "--all-variants") == 0) {
      options.all_variants = true;
    } else if (std::strcmp(arg, "--skip-solve") == 0) {
      options.skip_solve = true;
    } else {
      char *end = nullptr;
      const double value = std::strtod(arg, &end);
      if (end == arg || *end != '\0' || !(value >= 1) || value > 2e9 ||
          value != (double)(std::size_t)value)
        usage_error(arg, "--all-variants, --skip-solve or a size N in [1, 2e9] (e.g. 1e8)");
      options.sizes.push_back(static_cast<std::size_t>(value));
    }
  }
  if (options.sizes.empty())
    options.sizes = {1000000, 10000000, 100000000, 1000000000};
  return options;
}

__global__ void fill_contest_values(int *data, std::size_t n, std::uint64_t seed) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    data[i] = static_cast<int>(kit::Rng::mix(seed + i) % 2001) - 1000;
  }
}

// The floor under any single-launch kernel measured this way (launch and events, no work).
__global__ void empty_kernel() {}

// The same bytes as the scan moves, with no look-back: 16-byte vectors, four per thread in flight.
__global__ void __launch_bounds__(256)
    copy_kernel(const uint4 *in, uint4 *out, std::size_t vectors) {
  const std::size_t first = std::size_t(blockIdx.x) * 1024 + threadIdx.x;
  uint4 v[4];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    if (first + k * 256 < vectors)
      v[k] = in[first + k * 256];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    if (first + k * 256 < vectors)
      out[first + k * 256] = v[k];
}

unsigned grid_for(std::size_t n) {
  return static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 4096));
}

// Median kernel time in ms of `launch` (events around each run, after 3 warm-up runs), queued
// behind a spin kernel (GPU time only) or, with kit::bench::Launch::kIdle, launched on an idle GPU
// (the host's launch latency included; see common/event_timing.h).
template <class Work>
double median_ms(Work &&work, int runs, kit::bench::Launch mode = kit::bench::Launch::kQueued) {
  return kit::bench::time_events(3, runs, work, mode).median_ms;
}

// Where the launch latency matters (N <= 1e7) the key rows are also timed on an idle GPU and
// printed in a second table: the ratio to CUB differs between the two ways of timing.
constexpr std::size_t kIdleTableMaxN = 10000000;
struct IdleRow {
  std::size_t n;
  double empty_ms, copy_kernel_ms, vendor_ms, scan_ms;
};

int runs_for(std::size_t n) { return n <= 10000000 ? 200 : n <= 100000000 ? 50 : 15; }

double gbps(std::size_t n, double ms) { return 8.0 * n / (ms * 1e6); } // 8 bytes per element

struct DeviceData {
  int *input = nullptr;
  int *output = nullptr;
  int *expected = nullptr; // vendor scan's result
  unsigned long long *mismatches = nullptr;
};

bool outputs_match(const DeviceData &d, std::size_t n) {
  return prefix_sum_check::count_mismatches(d.output, d.expected, n, d.mismatches) == 0;
}

void print_row(const char *name, std::size_t n, double ms, double copy_ms, double vendor_ms,
               bool correct) {
  char vs_vendor[32] = "n/a";
  if (vendor_ms > 0)
    std::snprintf(vs_vendor, sizeof vs_vendor, "%.2fx", vendor_ms / ms);
  std::printf("| %-26s | %10zu | %9.4f | %7.0f | %5.1f%% | %7s | %s |\n", name, n, ms, gbps(n, ms),
              100.0 * copy_ms / ms, vs_vendor, correct ? "ok" : "WRONG");
}

bool bench_device(const Options &options, std::size_t n, const DeviceData &d,
                  std::vector<IdleRow> &idle_rows) {
  fill_contest_values<<<grid_for(n), 256>>>(d.input, n, 12345);
  GPU_CHECK_LAUNCH("fill_contest_values");
  const int runs = runs_for(n);
  bool all_correct = true;

  const double copy_ms = median_ms(
      [&] {
        GPU_CHECK(cudaMemcpyAsync(d.output, d.input, n * sizeof(int), cudaMemcpyDeviceToDevice, 0));
      },
      runs);
  std::printf("| %-26s | %10zu | %9.4f | %7.0f | %5.1f%% | %7s | %s |\n", "device copy", n, copy_ms,
              gbps(n, copy_ms), 100.0, "", "");
  // n % 4 trailing items are left out of the copy kernel: a reference, not a result.
  const auto run_copy_kernel = [&] {
    copy_kernel<<<static_cast<unsigned>((n / 4 + 1023) / 1024 + 1), 256>>>(
        reinterpret_cast<const uint4 *>(d.input), reinterpret_cast<uint4 *>(d.output), n / 4);
  };
  const auto run_empty_kernel = [] { empty_kernel<<<1, 32>>>(); };
  const bool idle_table = n <= kIdleTableMaxN;
  IdleRow idle{n, 0, 0, 0, 0};
  if (idle_table) {
    idle.empty_ms = median_ms(run_empty_kernel, runs, kit::bench::Launch::kIdle);
    idle.copy_kernel_ms = median_ms(run_copy_kernel, runs, kit::bench::Launch::kIdle);
  }
  const double copy_kernel_ms = median_ms(run_copy_kernel, runs);
  std::printf("| %-26s | %10zu | %9.4f | %7.0f | %5.1f%% | %7s | %s |\n", "copy kernel", n,
              copy_kernel_ms, gbps(n, copy_kernel_ms), 100.0 * copy_ms / copy_kernel_ms, "", "");
  const double floor_ms = median_ms(run_empty_kernel, runs);
  std::printf("| %-26s | %10zu | %9.4f | %7s | %6s | %7s | %s |\n", "empty kernel (floor)", n,
              floor_ms, "", "", "", "");

  double vendor_ms = 0;
#if KIT_VENDOR_SCAN
  std::size_t temp_bytes = 0;
  const int items = static_cast<int>(n); // CUB's fastest path uses 32-bit offsets
  GPU_CHECK(vendor::DeviceScan::InclusiveSum(nullptr, temp_bytes, d.input, d.expected, items));
  void *temp = nullptr;
  GPU_CHECK(cudaMalloc(&temp, temp_bytes));
  const auto run_vendor = [&] {
    GPU_CHECK(vendor::DeviceScan::InclusiveSum(temp, temp_bytes, d.input, d.expected, items));
  };
  vendor_ms = median_ms(run_vendor, runs);
  if (idle_table)
    idle.vendor_ms = median_ms(run_vendor, runs, kit::bench::Launch::kIdle);
  GPU_CHECK(cudaFree(temp));
  std::printf("| %-26s | %10zu | %9.4f | %7.0f | %5.1f%% | %7s | %s |\n",
              (std::string(kVendorName) + " InclusiveSum").c_str(), n, vendor_ms,
              gbps(n, vendor_ms), 100.0 * copy_ms / vendor_ms, "1.00x", "");
#else
  {
    std::vector<int> host_in(n), host_ref(n);
    GPU_CHECK(cudaMemcpy(host_in.data(), d.input, n * sizeof(int), cudaMemcpyDeviceToHost));
    prefix_sum_reference(host_in.data(), host_ref.data(), n);
    GPU_CHECK(cudaMemcpy(d.expected, host_ref.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  }
#endif

  kit::ScanWorkspace workspace;
  bool first = true;
  for_each_scan_variant([&](auto variant) {
    using Config = typename decltype(variant)::config;
    if (!first && !options.all_variants)
      return;
    const auto run_scan = [&] {
      kit::device_inclusive_scan<Config>(d.input, d.output, n, kit::Plus{}, 0, workspace);
    };
    const double ms = median_ms(run_scan, runs);
    if (first && idle_table)
      idle.scan_ms = median_ms(run_scan, runs, kit::bench::Launch::kIdle);
    first = false;
    GPU_CHECK(cudaMemset(d.output, 0xA5, n * sizeof(int)));
    kit::device_inclusive_scan<Config>(d.input, d.output, n, kit::Plus{}, 0, workspace);
    const bool correct = outputs_match(d, n);
    all_correct = all_correct && correct;
    print_row(variant.name().c_str(), n, ms, copy_ms, vendor_ms, correct);
  });
  if (idle_table)
    idle_rows.push_back(idle);
  return all_correct;
}

bool bench_solve(std::size_t n) {
  std::vector<int> input(n), output(n), expected(n);
  for (std::size_t i = 0; i < n; ++i) // cheap host fill with the contest's range
    input[i] = static_cast<int>((i * 2654435761u + 12345u) % 2001u) - 1000;
  prefix_sum_reference(input.data(), expected.data(), n);
  bool all_correct = true;
  for (PrefixSumPath path : {PrefixSumPath::kDirect, PrefixSumPath::kStaged}) {
    const char *name = path == PrefixSumPath::kDirect ? "direct" : "staged";
    const int kRuns = n >= 100000000 ? 3 : 5;
    std::vector<PrefixSumTiming> timings(kRuns);
    for (int r = 0; r < kRuns; ++r) {
      std::fill(output.begin(), output.end(), 0x5a5a5a5a);
      prefix_sum_gpu(input.data(), output.data(), n, path, &timings[r]);
      if (output != expected) {
        std::printf("solve %s path, N = %zu: WRONG result\n", name, n);
        all_correct = false;
      }
    }
    std::sort(timings.begin(), timings.end(),
              [](const auto &a, const auto &b) { return a.total_ms < b.total_ms; });
    const PrefixSumTiming &t = timings[kRuns / 2];
    std::printf("| %-6s | %10zu | %6zu | %9.2f | %8.2f | %8.2f | %8.2f | %8.2f | %8.2f | %8.2f |\n",
                name, n, t.chunks, t.total_ms, t.setup_ms, t.stage_in_ms, t.h2d_ms, t.scan_ms,
                t.d2h_ms, t.stage_out_ms);
  }
  return all_correct;
}

} // namespace

int main(int argc, char **argv) {
  const Options options = parse_options(argc, argv);
  const cudaDeviceProp prop = kit::gpu::device_properties_or_exit("bench_prefix_sum");
  std::printf("device: %s, %d SMs, warp %d; vendor scan: %s\n", prop.name, prop.multiProcessorCount,
              kit::gpu::device_warp_size(), kVendorName);
  using Default = kit::DefaultScanConfig;
  const std::size_t resident_tiles = kit::scan_block_index_tiles<Default, int, kit::Plus>();
  std::printf("default scan: tiles by blockIdx up to %zu tiles (N <= %zu), by ticket above\n",
              resident_tiles, resident_tiles * Default::kTileItems);

  const std::size_t max_n = *std::max_element(options.sizes.begin(), options.sizes.end());
  DeviceData d;
  GPU_CHECK(cudaMalloc(&d.input, max_n * sizeof(int)));
  GPU_CHECK(cudaMalloc(&d.output, max_n * sizeof(int)));
  GPU_CHECK(cudaMalloc(&d.expected, max_n * sizeof(int)));
  GPU_CHECK(cudaMalloc(&d.mismatches, sizeof(unsigned long long)));

  bool correct = true;
  std::printf(
      "\nDevice-resident int32 inclusive scan (median of events, launches queued behind a spin "
      "kernel; GB/s at 8 bytes/element)\n");
  std::printf("| %-26s | %10s | %9s | %7s | %6s | %7s | %s |\n", "kernel", "N", "ms", "GB/s",
              "%copy", "vs vend", "check");
  std::vector<IdleRow> idle_rows;
  for (std::size_t n : options.sizes)
    correct = bench_device(options, n, d, idle_rows) && correct;

  if (!idle_rows.empty()) {
    std::printf("\nThe same launched on an idle GPU (host launch latency included; ms)\n");
    std::printf("| %10s | %12s | %11s | %9s | %12s | %7s |\n", "N", "empty kernel", "copy kernel",
                "vendor", "default scan", "vs vend");
    for (const IdleRow &r : idle_rows) {
      char vs_vendor[32] = "n/a";
      if (r.vendor_ms > 0)
        std::snprintf(vs_vendor, sizeof vs_vendor, "%.2fx", r.vendor_ms / r.scan_ms);
      std::printf("| %10zu | %12.4f | %11.4f | %9.4f | %12.4f | %7s |\n", r.n, r.empty_ms,
                  r.copy_kernel_ms, r.vendor_ms, r.scan_ms, vs_vendor);
    }
  }

  GPU_CHECK(cudaFree(d.input));
  GPU_CHECK(cudaFree(d.output));
  GPU_CHECK(cudaFree(d.expected));
  GPU_CHECK(cudaFree(d.mismatches));

  if (!options.skip_solve) {
    std::printf("\nHost-pointer path behind solve() (median call, ms; staged parts overlap)\n");
    std::printf("| %-6s | %10s | %6s | %9s | %8s | %8s | %8s | %8s | %8s | %8s |\n", "path", "N",
                "chunks", "total", "setup", "stage-in", "H2D", "scan", "D2H", "stage-out");
    for (std::size_t n : options.sizes)
      correct = bench_solve(n) && correct;
  }
  if (!correct) {
    std::printf("FAILED: some results differ from the reference\n");
    return 1;
  }
  return 0;
}
