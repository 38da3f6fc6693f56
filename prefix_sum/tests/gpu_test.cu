// prefix_sum on the GPU against the CPU reference. Every scan configuration the benchmark can run
// (bench/scan_configs.h: the tuned one, both tile orders, other shapes) runs at awkward sizes (both
// sides of the resident-grid limit too, where a cooperative launch gives way to tickets), with
// int32 wrap-around, misaligned and in-place buffers, chained chunks, a non-sum operator, 100
// repeated scans of one large input (look-back races show up as rare wrong tiles) and N = 1e9;
// then the host-pointer paths behind solve().
#include "bench/device_compare.h"
#include "bench/scan_configs.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/launch.h"
#include "gpu/tuning_dispatch.h"
#include "primitives/device_scan.h"
#include "reference.h"
#include "solve.h"
#include "solve_gpu.h"
#include "testing/random.h"
#include "testing/test_support.h"
#include "tuning.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

using kit::test::Checker;
using kit::test::DeviceBuffer;

std::vector<int> random_values(std::size_t n, std::uint64_t seed, int lo, int hi) {
  kit::Rng rng(seed);
  std::vector<int> values(n);
  for (auto &v : values)
    v = static_cast<int>(rng.uniform_int(lo, hi));
  return values;
}

// The contest's value range.
std::vector<int> contest_values(std::size_t n, std::uint64_t seed) {
  return random_values(n, seed, -1000, 1000);
}

std::vector<int> reference_scan(const std::vector<int> &input) {
  std::vector<int> output(input.size());
  prefix_sum_reference(input.data(), output.data(), input.size());
  return output;
}

std::string describe(const std::string &what, std::size_t n) {
  return what + ", n = " + std::to_string(n);
}

// Scans `input` on the device with the input and output placed `in_offset` / `out_offset` items
// past a 256-byte aligned allocation (non-zero offsets force the scalar load/store path).
template <class Config>
std::vector<int> device_scan(const std::vector<int> &input, kit::ScanWorkspace &workspace,
                             std::size_t in_offset = 0, std::size_t out_offset = 0) {
  const std::size_t n = input.size();
  DeviceBuffer<int> d_in(n + in_offset), d_out(n + out_offset);
  GPU_CHECK(
      cudaMemcpy(d_in.get() + in_offset, input.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  kit::device_inclusive_scan<Config>(d_in.get() + in_offset, d_out.get() + out_offset, n,
                                     kit::Plus{}, 0, workspace);
  std::vector<int> output(n);
  GPU_CHECK(
      cudaMemcpy(output.data(), d_out.get() + out_offset, n * sizeof(int), cudaMemcpyDeviceToHost));
  return output;
}

template <class Config> std::vector<std::size_t> awkward_sizes() {
  const std::size_t tile = Config::kTileItems;
  // 100 tiles make the look-back walk past more than one window of 32 or 64 predecessors.
  std::vector<std::size_t> sizes{1,
                                 2,
                                 31,
                                 32,
                                 33,
                                 63,
                                 64,
                                 65,
                                 1023,
                                 1024,
                                 1025,
                                 tile - 1,
                                 tile,
                                 tile + 1,
                                 2 * tile - 1,
                                 2 * tile + 1,
                                 100 * tile + 17,
                                 3000017};
  // The largest grid the device holds at once (the last cooperative launch of a cooperative
  // configuration) and one item more (the first that draws tickets).
  const std::size_t resident_tiles =
      kit::gpu::resident_blocks(kit::decoupled_lookback_scan_kernel<Config, int, kit::Plus>,
                                kit::scan_block_threads<Config>());
  sizes.push_back(resident_tiles * tile);
  sizes.push_back(resident_tiles * tile + 1);
  return sizes;
}

// A cooperative configuration launches cooperatively exactly up to the resident limit, wherever the
// device supports it; a ticket configuration never does.
template <class Config> void check_cooperative_limit(Checker &check, const std::string &name) {
  const bool cooperative = Config::kTileOrder == kit::TileOrder::kCooperativeWhenResident &&
                           kit::gpu::cooperative_launch_works();
  const std::size_t expected =
      cooperative
          ? kit::gpu::resident_blocks(kit::decoupled_lookback_scan_kernel<Config, int, kit::Plus>,
                                      kit::scan_block_threads<Config>())
          : 0;
  check.expect(kit::scan_cooperative_tiles<Config, int, kit::Plus>() == expected,
               (name + ": cooperative tiles = resident blocks, or 0 for tickets").c_str());
}

template <class Config>
void check_sizes(Checker &check, kit::ScanWorkspace &workspace, const std::string &name) {
  std::uint64_t seed = 1;
  for (std::size_t n : awkward_sizes<Config>()) {
    if (!kit::test::runs_at_this_scale(n))
      continue;
    const std::vector<int> input = contest_values(n, seed++);
    check.expect_equal(device_scan<Config>(input, workspace), reference_scan(input),
                       describe(name + ": contest values", n).c_str());
  }
}

template <class Config>
void check_wrap_around(Checker &check, kit::ScanWorkspace &workspace, const std::string &name) {
  // Full-range values overflow int32 on almost every step.
  const std::vector<int> full_range = random_values(5000011, 7, INT_MIN, INT_MAX);
  check.expect_equal(
      device_scan<Config>(full_range, workspace), reference_scan(full_range),
      describe(name + ": wrap-around, full-range values", full_range.size()).c_str());
  const std::vector<int> all_max(70 * Config::kTileItems + 5, INT_MAX);
  check.expect_equal(device_scan<Config>(all_max, workspace), reference_scan(all_max),
                     describe(name + ": wrap-around, INT_MAX", all_max.size()).c_str());
}

template <class Config>
void check_misaligned(Checker &check, kit::ScanWorkspace &workspace, const std::string &name) {
  for (std::size_t n : {std::size_t{33}, 10 * Config::kTileItems + 7}) {
    const std::vector<int> input = contest_values(n, 100 + n);
    const std::vector<int> expected = reference_scan(input);
    check.expect_equal(device_scan<Config>(input, workspace, 1, 3), expected,
                       describe(name + ": input +1, output +3 items (scalar path)", n).c_str());
    check.expect_equal(device_scan<Config>(input, workspace, 0, 2), expected,
                       describe(name + ": aligned input, output +2 items", n).c_str());
  }
}

template <class Config>
void check_in_place(Checker &check, kit::ScanWorkspace &workspace, const std::string &name) {
  const std::size_t n = 1234567;
  const std::vector<int> input = contest_values(n, 11);
  DeviceBuffer<int> data(n);
  data.upload(input);
  kit::device_inclusive_scan<Config>(data.get(), data.get(), n, kit::Plus{}, 0, workspace);
  check.expect_equal(data.download(), reference_scan(input),
                     describe(name + ": in place", n).c_str());
}

// Three scans chained through device-side carries, as the staged solve() does.
template <class Config>
void check_chained_chunks(Checker &check, kit::ScanWorkspace &workspace, const std::string &name) {
  const std::size_t tile = Config::kTileItems;
  const std::size_t pieces[] = {3 * tile + 5, 1, 40 * tile - 3};
  std::size_t n = 0;
  for (std::size_t p : pieces)
    n += p;
  const std::vector<int> input = random_values(n, 21, INT_MIN, INT_MAX);
  const std::vector<int> expected = reference_scan(input);
  DeviceBuffer<int> d_in(n), d_out(n), carry(2);
  d_in.upload(input);
  std::size_t first = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const int *carry_in = i > 0 ? carry.get() + i % 2 : nullptr;
    kit::device_inclusive_scan<Config>(d_in.get() + first, d_out.get() + first, pieces[i],
                                       kit::Plus{}, 0, workspace, 0, carry_in,
                                       carry.get() + (i + 1) % 2);
    first += pieces[i];
  }
  check.expect_equal(d_out.download(), expected, (name + ": three chained chunks").c_str());
  const std::vector<int> carries = carry.download();
  check.expect(carries[3 % 2] == expected.back(),
               (name + ": total_out of the last chunk = last prefix").c_str());
}

// Max is not a sum: catches an operator applied in the wrong place or with the wrong identity.
template <class Config>
void check_max_operator(Checker &check, kit::ScanWorkspace &workspace, const std::string &name) {
  for (std::size_t n : {std::size_t{1}, std::size_t{65}, std::size_t{777777}}) {
    const std::vector<int> input = random_values(n, 31 + n, INT_MIN + 1, INT_MAX);
    std::vector<int> expected(n);
    int running = INT_MIN;
    for (std::size_t i = 0; i < n; ++i)
      expected[i] = running = std::max(running, input[i]);
    DeviceBuffer<int> d_in(n), d_out(n);
    d_in.upload(input);
    kit::device_inclusive_scan<Config>(d_in.get(), d_out.get(), n, kit::Max{}, INT_MIN, workspace);
    check.expect_equal(d_out.download(), expected, describe(name + ": max scan", n).c_str());
  }
}

// One input and its expected scan, resident on the device, scanned by every variant; results are
// compared on the device (a copy back per run would dominate the test's time).
struct DeviceCase {
  DeviceCase(std::size_t n, std::uint64_t seed) : input(n), expected(n), output(n), counter(1) {
    const std::vector<int> values = contest_values(n, seed);
    input.upload(values);
    expected.upload(reference_scan(values));
  }
  DeviceBuffer<int> input, expected, output;
  DeviceBuffer<unsigned long long> counter;
};

template <class Config>
void check_repeated(Checker &check, kit::ScanWorkspace &workspace, DeviceCase &repeat,
                    const std::string &name) {
  const int kRepeats = kit::test::small_scale() ? 3 : 100;
  const std::size_t n = repeat.input.size();
  int wrong_runs = 0;
  unsigned long long worst = 0;
  for (int r = 0; r < kRepeats; ++r) {
    repeat.output.poison();
    kit::device_inclusive_scan<Config>(repeat.input.get(), repeat.output.get(), n, kit::Plus{}, 0,
                                       workspace);
    const unsigned long long wrong = prefix_sum::count_mismatches(
        repeat.output.get(), repeat.expected.get(), n, repeat.counter.get());
    wrong_runs += wrong != 0;
    worst = std::max(worst, wrong);
  }
  std::printf("%s: repeated scan, %d of %d runs of n = %zu wrong (worst: %llu items)\n",
              name.c_str(), wrong_runs, kRepeats, n, worst);
  check.expect(wrong_runs == 0, (name + ": repeated scans of one input").c_str());
}

template <class Config>
void check_billion(Checker &check, kit::ScanWorkspace &workspace, DeviceCase *billion,
                   const std::string &name) {
  if (!billion)
    return;
  const std::size_t n = billion->input.size();
  billion->output.poison();
  kit::device_inclusive_scan<Config>(billion->input.get(), billion->output.get(), n, kit::Plus{}, 0,
                                     workspace);
  const unsigned long long wrong = prefix_sum::count_mismatches(
      billion->output.get(), billion->expected.get(), n, billion->counter.get());
  if (wrong != 0)
    std::printf("%s: n = %zu, %llu items wrong\n", name.c_str(), n, wrong);
  check.expect(wrong == 0, describe(name + ": device-resident", n).c_str());
}

// The device comparison must be able to fail: one changed item is one mismatch.
void check_comparison(Checker &check) {
  const std::vector<int> values = contest_values(100003, 81);
  std::vector<int> changed = values;
  changed[77777] += 1;
  DeviceBuffer<int> a(values.size()), b(values.size());
  DeviceBuffer<unsigned long long> counter(1);
  a.upload(values);
  b.upload(changed);
  check.expect(prefix_sum::count_mismatches(a.get(), b.get(), values.size(), counter.get()) == 1,
               "device comparison counts exactly one changed item");
  b.upload(values);
  check.expect(prefix_sum::count_mismatches(a.get(), b.get(), values.size(), counter.get()) == 0,
               "device comparison of equal arrays");
}

// N = 1e9 needs 12 GB of device memory (input, expected, output); skipped with a note if absent.
std::unique_ptr<DeviceCase> make_billion_case() {
  const std::size_t n = 1000000000;
  if (!kit::test::runs_at_this_scale(n)) {
    std::printf("SKIP n = 1e9 cases (KIT_TEST_SCALE=small)\n");
    return nullptr;
  }
  std::size_t free_bytes = 0, total_bytes = 0;
  GPU_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < 3 * n * sizeof(int) + (std::size_t{512} << 20)) {
    std::printf("SKIP n = 1e9 cases: %.1f GB of device memory free, 12.5 GB needed\n",
                free_bytes / 1e9);
    return nullptr;
  }
  return std::make_unique<DeviceCase>(n, 51);
}

void check_host_paths(Checker &check) {
  const std::size_t chunk = prefix_sum_chunk_items();
  const std::size_t sizes[] = {1,         1000,          chunk - 1,         chunk,
                               chunk + 1, 5 * chunk + 3, 31 * chunk + 12345};
  for (std::size_t n : sizes) {
    if (!kit::test::runs_at_this_scale(n))
      continue;
    const std::vector<int> input = random_values(n, 61 + n, INT_MIN, INT_MAX);
    const std::vector<int> expected = reference_scan(input);
    for (PrefixSumPath path : {PrefixSumPath::kDirect, PrefixSumPath::kStaged}) {
      std::vector<int> output(n, 0x5a5a5a5a);
      PrefixSumTiming timing;
      prefix_sum_gpu(input.data(), output.data(), n, path, &timing);
      const char *path_name = path == PrefixSumPath::kDirect ? "direct" : "staged";
      check.expect_equal(output, expected,
                         describe(std::string("host path ") + path_name, n).c_str());
      check.expect(timing.total_ms > 0 && timing.parts.work_ms > 0,
                   describe(std::string("timing filled, ") + path_name, n).c_str());
      std::vector<int> in_place = input; // the programs call solve() with input == output
      prefix_sum_gpu(in_place.data(), in_place.data(), n, path, nullptr);
      check.expect_equal(in_place, expected,
                         describe(std::string("host path in place ") + path_name, n).c_str());
    }
  }
  const int n = 1000003;
  const std::vector<int> input = contest_values(n, 71);
  std::vector<int> output(n, 0x5a5a5a5a);
  solve(input.data(), output.data(), n);
  check.expect_equal(output, reference_scan(input), "solve(), n = 1000003");
}

} // namespace

int main() {
  kit::test::begin_gpu_test("prefix_sum_gpu_test");
  Checker check;
  check_comparison(check);
  kit::ScanWorkspace workspace; // shared on purpose: scans of every size reuse stale states
  // 100 repeated scans of 2^25 items (2^20 at KIT_TEST_SCALE=small, for the sanitizer).
  const std::size_t repeat_items = kit::test::runs_at_this_scale(std::size_t{1} << 25)
                                       ? (std::size_t{1} << 25) + 12345
                                       : kit::test::kSmallScaleElements - 12345;
  DeviceCase repeat(repeat_items, 41);
  std::unique_ptr<DeviceCase> billion = make_billion_case();
  kit::gpu::with_tuning<ScanTuning>([&](auto tuning) {
    for_each_scan_config<decltype(tuning)>([&](auto config_case) {
      using Config = typename decltype(config_case)::config;
      const std::string name = config_case.name();
      check_cooperative_limit<Config>(check, name);
      check_sizes<Config>(check, workspace, name);
      check_wrap_around<Config>(check, workspace, name);
      check_misaligned<Config>(check, workspace, name);
      check_in_place<Config>(check, workspace, name);
      check_chained_chunks<Config>(check, workspace, name);
      check_max_operator<Config>(check, workspace, name);
      check_repeated<Config>(check, workspace, repeat, name);
      check_billion<Config>(check, workspace, billion.get(), name);
    });
  });
  check_host_paths(check);
  return check.finish("prefix_sum_gpu_test");
}
