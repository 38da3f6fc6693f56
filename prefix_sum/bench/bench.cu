// bench_prefix_sum: kernel time of the device-wide scan on device-resident int32 data against the
// device copy bandwidth and, on CUDA, CUB's inclusive scan, all measured in this run; then the
// host-pointer path behind solve(), split into copies and compute. With no arguments: the tuned
// configuration at N = 1e6, 1e7, 1e8, 1e9 and solve() at the same sizes.
//
//   bench_prefix_sum [--sizes N,N,...] [--configs] [--skip-solve]
//
// --configs adds every configuration of bench/scan_configs.h (tickets against cooperative blockIdx
// tiles, tile shapes, occupancy hint), by default at 1e6, 2e6, 3e6 (below the resident limit,
// where the tile orders differ), 1e7, 1e8 and 1e9. Every scan's output is compared with CUB's (or,
// without it, the CPU reference); every solve() output with the CPU reference. A mismatch fails the
// run (exit 1).
#include "bench/event_timing.h"
#include "bench/options.h"
#include "device_compare.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/resources.h"
#include "gpu/tuning_dispatch.h"
#include "primitives/device_scan.h"
#include "reference.h"
#include "scan_configs.h"
#include "solve_gpu.h"
#include "testing/random.h"
#include "tuning.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#if KIT_CUDA
#include <cub/cub.cuh>
#endif

namespace {

#if KIT_CUDA
constexpr const char *kVendorName = "CUB";
#else
constexpr const char *kVendorName = "none";
#endif

struct BenchOptions {
  std::vector<std::size_t> sizes;
  bool configs = false;
  bool skip_solve = false;
};

BenchOptions parse_options(int argc, char **argv) {
  BenchOptions options;
  kit::bench::Options parser("bench_prefix_sum",
                             "device-resident scan against copy bandwidth and CUB, then solve()");
  parser
      .sizes("--sizes", &options.sizes,
             "sizes to measure (default 1e6,1e7,1e8,1e9; with --configs 1e6,2e6,3e6,1e7,1e8,1e9)")
      .flag("--configs", &options.configs,
            "also time every scan configuration the tuning was chosen from")
      .flag("--skip-solve", &options.skip_solve, "leave out the host-pointer path");
  parser.parse(argc, argv);
  if (options.sizes.empty())
    options.sizes =
        options.configs
            ? std::vector<std::size_t>{1000000, 2000000, 3000000, 10000000, 100000000, 1000000000}
            : std::vector<std::size_t>{1000000, 10000000, 100000000, 1000000000};
  for (std::size_t n : options.sizes)
    if (n < 1 || n > 2000000000) {
      std::fprintf(stderr, "bench_prefix_sum: size %zu outside [1, 2e9]\n", n);
      std::exit(2);
    }
  return options;
}

__global__ void fill_contest_values(int *data, std::size_t n, std::uint64_t seed) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    data[i] = static_cast<int>(kit::Rng::mix(seed + i) % 2001) - 1000;
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

// Median kernel time in ms of `work` (events around each run, after 3 warm-up runs), queued behind
// a spin kernel (GPU time only) or, with kit::bench::Launch::kIdle, launched on an idle GPU (the
// host's launch latency included; see common/bench/event_timing.h).
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
  explicit DeviceData(std::size_t n) : input(n), output(n), expected(n), mismatches(1) {}
  kit::gpu::DeviceArray<int> input, output;
  kit::gpu::DeviceArray<int> expected; // CUB's result, or the CPU reference's
  kit::gpu::DeviceArray<unsigned long long> mismatches;
};

void print_row(const std::string &name, std::size_t n, double ms, double copy_ms,
               const char *vs_vendor, const char *check) {
  std::printf("| %-26s | %10zu | %9.4f | %7.0f | %5.1f%% | %7s | %5s |\n", name.c_str(), n, ms,
              gbps(n, ms), 100.0 * copy_ms / ms, vs_vendor, check);
}

// The reference scan of d.input in d.expected; returns CUB's time (0 without CUB).
double reference_scan(std::size_t n, int runs, const DeviceData &d, IdleRow *idle) {
#if KIT_CUDA
  std::size_t temp_bytes = 0;
  const int items = static_cast<int>(n); // CUB's fastest path uses 32-bit offsets
  GPU_CHECK(
      cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, d.input.get(), d.expected.get(), items));
  kit::gpu::DeviceArray<char> temp(temp_bytes);
  const auto run_cub = [&] {
    GPU_CHECK(cub::DeviceScan::InclusiveSum(temp.get(), temp_bytes, d.input.get(), d.expected.get(),
                                            items));
  };
  const double cub_ms = median_ms(run_cub, runs);
  if (idle)
    idle->vendor_ms = median_ms(run_cub, runs, kit::bench::Launch::kIdle);
  return cub_ms;
#else
  (void)runs;
  (void)idle;
  std::vector<int> host_in(n), host_ref(n);
  GPU_CHECK(cudaMemcpy(host_in.data(), d.input.get(), n * sizeof(int), cudaMemcpyDeviceToHost));
  prefix_sum_reference(host_in.data(), host_ref.data(), n);
  GPU_CHECK(cudaMemcpy(d.expected.get(), host_ref.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  return 0;
#endif
}

template <class Tuning>
bool bench_device(const BenchOptions &options, std::size_t n, const DeviceData &d,
                  std::vector<IdleRow> &idle_rows) {
  fill_contest_values<<<grid_for(n), 256>>>(d.input.get(), n, 12345);
  GPU_CHECK_LAUNCH("fill_contest_values");
  const int runs = runs_for(n);
  const bool idle_table = n <= kIdleTableMaxN;
  IdleRow idle{n, 0, 0, 0, 0};

  const double copy_ms = median_ms(
      [&] {
        GPU_CHECK(cudaMemcpyAsync(d.output.get(), d.input.get(), n * sizeof(int),
                                  cudaMemcpyDeviceToDevice, 0));
      },
      runs);
  print_row("device copy", n, copy_ms, copy_ms, "", "");
  // n % 4 trailing items are left out of the copy kernel: a reference, not a result.
  const auto run_copy_kernel = [&] {
    copy_kernel<<<static_cast<unsigned>((n / 4 + 1023) / 1024 + 1), 256>>>(
        reinterpret_cast<const uint4 *>(d.input.get()), reinterpret_cast<uint4 *>(d.output.get()),
        n / 4);
  };
  const auto run_empty_kernel = [] { empty_kernel<<<1, 32>>>(); };
  if (idle_table) {
    idle.empty_ms = median_ms(run_empty_kernel, runs, kit::bench::Launch::kIdle);
    idle.copy_kernel_ms = median_ms(run_copy_kernel, runs, kit::bench::Launch::kIdle);
  }
  const double copy_kernel_ms = median_ms(run_copy_kernel, runs);
  print_row("copy kernel", n, copy_kernel_ms, copy_ms, "", "");
  const double floor_ms = median_ms(run_empty_kernel, runs);
  std::printf("| %-26s | %10zu | %9.4f | %7s | %6s | %7s | %5s |\n", "empty kernel (floor)", n,
              floor_ms, "", "", "", "");
  const double vendor_ms = reference_scan(n, runs, d, idle_table ? &idle : nullptr);
  if (vendor_ms > 0)
    print_row(std::string(kVendorName) + " InclusiveSum", n, vendor_ms, copy_ms, "1.00x", "");

  kit::ScanWorkspace workspace;
  bool all_correct = true;
  bool tuned = true;
  for_each_scan_config<Tuning>([&](auto config_case) {
    using Config = typename decltype(config_case)::config;
    if (!tuned && !options.configs)
      return;
    const auto run_scan = [&] {
      kit::device_inclusive_scan<Config>(d.input.get(), d.output.get(), n, kit::Plus{}, 0,
                                         workspace);
    };
    const double ms = median_ms(run_scan, runs);
    if (tuned && idle_table)
      idle.scan_ms = median_ms(run_scan, runs, kit::bench::Launch::kIdle);
    tuned = false;
    GPU_CHECK(cudaMemset(d.output.get(), 0xA5, n * sizeof(int)));
    run_scan();
    const bool correct =
        prefix_sum::count_mismatches(d.output.get(), d.expected.get(), n, d.mismatches.get()) == 0;
    all_correct = all_correct && correct;
    char vs_vendor[32] = "";
    if (vendor_ms > 0)
      std::snprintf(vs_vendor, sizeof vs_vendor, "%.2fx", vendor_ms / ms);
    print_row(config_case.name(), n, ms, copy_ms, vs_vendor, correct ? "ok" : "WRONG");
  });
  if (idle_table)
    idle_rows.push_back(idle);
  return all_correct;
}

void print_idle_table(const std::vector<IdleRow> &rows) {
  if (rows.empty())
    return;
  std::printf("\nThe same launched on an idle GPU (host launch latency included; ms)\n");
  std::printf("| %10s | %12s | %11s | %9s | %10s | %7s |\n", "N", "empty kernel", "copy kernel",
              kVendorName, "tuned scan", "vs vend");
  std::printf("|---|---|---|---|---|---|\n");
  for (const IdleRow &r : rows) {
    char vs_vendor[32] = "";
    if (r.vendor_ms > 0)
      std::snprintf(vs_vendor, sizeof vs_vendor, "%.2fx", r.vendor_ms / r.scan_ms);
    std::printf("| %10zu | %12.4f | %11.4f | %9.4f | %10.4f | %7s |\n", r.n, r.empty_ms,
                r.copy_kernel_ms, r.vendor_ms, r.scan_ms, vs_vendor);
  }
}

bool bench_solve(std::size_t n) {
  std::vector<int> input(n), output(n), expected(n);
  for (std::size_t i = 0; i < n; ++i) // cheap host fill with the contest's range
    input[i] = static_cast<int>((i * 2654435761u + 12345u) % 2001u) - 1000;
  prefix_sum_reference(input.data(), expected.data(), n);
  bool all_correct = true;
  for (PrefixSumPath path : {PrefixSumPath::kDirect, PrefixSumPath::kStaged}) {
    const char *name = path == PrefixSumPath::kDirect ? "direct" : "staged";
    const int runs = n >= 100000000 ? 3 : 5;
    std::vector<PrefixSumTiming> timings(runs);
    for (int r = 0; r < runs; ++r) {
      std::fill(output.begin(), output.end(), 0x5a5a5a5a);
      prefix_sum_gpu(input.data(), output.data(), n, path, &timings[r]);
      if (output != expected) {
        std::printf("solve %s path, N = %zu: WRONG result\n", name, n);
        all_correct = false;
      }
    }
    std::sort(timings.begin(), timings.end(),
              [](const auto &a, const auto &b) { return a.total_ms < b.total_ms; });
    const PrefixSumTiming &t = timings[runs / 2];
    std::printf("| %-6s | %10zu | %6zu | %9.2f | %8.2f | %8.2f | %8.2f | %8.2f | %8.2f | %8.2f |\n",
                name, n, t.chunks, t.total_ms, t.setup_ms, t.parts.stage_in_ms, t.parts.h2d_ms,
                t.parts.work_ms, t.parts.d2h_ms, t.parts.stage_out_ms);
  }
  return all_correct;
}

template <class Tuning> int run(const BenchOptions &options, const cudaDeviceProp &prop) {
  std::printf("device: %s, %d SMs, warp %d; tuning: %s; vendor scan: %s\n", prop.name,
              prop.multiProcessorCount, kit::gpu::device_warp_size(),
              kit::gpu::arch_name(kit::gpu::device_arch()), kVendorName);
  std::printf("\nScan configurations (tiles in blockIdx order under a cooperative launch up to the "
              "limit, tickets above)\n");
  std::printf("| %-26s | %10s | %17s |\n", "configuration", "tile items", "cooperative tiles");
  std::printf("|---|---|---|\n");
  bool tuned = true;
  for_each_scan_config<Tuning>([&](auto config_case) {
    using Config = typename decltype(config_case)::config;
    if (tuned || options.configs)
      std::printf("| %-26s | %10zu | %17zu |\n", config_case.name().c_str(), Config::kTileItems,
                  kit::scan_cooperative_tiles<Config, int, kit::Plus>());
    tuned = false;
  });

  const std::size_t max_n = *std::max_element(options.sizes.begin(), options.sizes.end());
  bool correct = true;
  {
    const DeviceData d(max_n);
    std::printf(
        "\nDevice-resident int32 inclusive scan (median of events, launches queued behind a "
        "spin kernel; GB/s at 8 bytes/element)\n");
    std::printf("| %-26s | %10s | %9s | %7s | %6s | %7s | %5s |\n", "kernel", "N", "ms", "GB/s",
                "%copy", "vs vend", "check");
    std::printf("|---|---|---|---|---|---|---|\n");
    std::vector<IdleRow> idle_rows;
    for (std::size_t n : options.sizes)
      correct = bench_device<Tuning>(options, n, d, idle_rows) && correct;
    print_idle_table(idle_rows);
  }

  if (!options.skip_solve) {
    std::printf("\nHost-pointer path behind solve() (median call, ms; staged parts overlap)\n");
    std::printf("| %-6s | %10s | %6s | %9s | %8s | %8s | %8s | %8s | %8s | %8s |\n", "path", "N",
                "chunks", "total", "setup", "stage-in", "H2D", "scan", "D2H", "stage-out");
    std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (std::size_t n : options.sizes)
      correct = bench_solve(n) && correct;
  }
  if (!correct) {
    std::printf("FAILED: some results differ from the reference\n");
    return 1;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  const BenchOptions options = parse_options(argc, argv);
  const cudaDeviceProp prop = kit::gpu::device_properties_or_exit("bench_prefix_sum");
  return kit::gpu::with_tuning<ScanTuning>(
      [&](auto tuning) { return run<decltype(tuning)>(options, prop); });
}
