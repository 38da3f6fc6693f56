// prefix_sum on the GPU against the CPU reference: the device-wide scan (every benchmarked
// configuration) at awkward sizes, int32 wrap-around, misaligned and in-place buffers, chained
// chunks, a non-sum operator, 100 repeated scans of one large input (look-back races show up as
// rare wrong tiles), N = 1e9 once, and the host-pointer paths behind solve().
#include "device_scan.h"
#include "kernel_pipeline.h"
#include "kernel_variants.h"
#include "reference.h"
#include "solve.h"
#include "test_support.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using kit::test::Checker;
using kit::test::DeviceBuffer;

// splitmix64: fast enough to fill 1e9 values, and every seed gives a different input.
class Random {
public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi] (the bias of the modulo is irrelevant here).
  int uniform(int lo, int hi) {
    const std::uint64_t span = static_cast<std::uint64_t>(std::int64_t{hi} - lo) + 1;
    return static_cast<int>(lo + static_cast<std::int64_t>(next() % span));
  }

private:
  std::uint64_t state_;
};

std::vector<int> random_values(std::size_t n, std::uint64_t seed, int lo, int hi) {
  Random rng(seed);
  std::vector<int> values(n);
  for (auto &v : values)
    v = rng.uniform(lo, hi);
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
  return {1,
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
}

template <class Config> void check_sizes(Checker &check, kit::ScanWorkspace &workspace) {
  const std::string name = ScanVariant<Config>::name();
  std::uint64_t seed = 1;
  for (std::size_t n : awkward_sizes<Config>()) {
    const std::vector<int> input = contest_values(n, seed++);
    check.expect_equal(device_scan<Config>(input, workspace), reference_scan(input),
                       describe(name + " contest values", n).c_str());
  }
}

void check_wrap_around(Checker &check, kit::ScanWorkspace &workspace) {
  // Full-range values overflow int32 on almost every step.
  const std::vector<int> full_range = random_values(5000011, 7, INT_MIN, INT_MAX);
  check.expect_equal(device_scan<kit::DefaultScanConfig>(full_range, workspace),
                     reference_scan(full_range), "wrap-around, full-range values, n = 5000011");
  const std::vector<int> all_max(70 * kit::DefaultScanConfig::kTileItems + 5, INT_MAX);
  check.expect_equal(device_scan<kit::DefaultScanConfig>(all_max, workspace),
                     reference_scan(all_max),
                     describe("wrap-around, INT_MAX", all_max.size()).c_str());
}

void check_misaligned(Checker &check, kit::ScanWorkspace &workspace) {
  for (std::size_t n : {std::size_t{33}, 10 * kit::DefaultScanConfig::kTileItems + 7}) {
    const std::vector<int> input = contest_values(n, 100 + n);
    const std::vector<int> expected = reference_scan(input);
    check.expect_equal(device_scan<kit::DefaultScanConfig>(input, workspace, 1, 3), expected,
                       describe("input +1, output +3 items (scalar path)", n).c_str());
    check.expect_equal(device_scan<kit::DefaultScanConfig>(input, workspace, 0, 2), expected,
                       describe("aligned input, output +2 items", n).c_str());
  }
}

void check_in_place(Checker &check, kit::ScanWorkspace &workspace) {
  const std::size_t n = 1234567;
  const std::vector<int> input = contest_values(n, 11);
  DeviceBuffer<int> data(n);
  data.upload(input);
  kit::device_inclusive_scan(data.get(), data.get(), n, kit::Plus{}, 0, workspace);
  check.expect_equal(data.download(), reference_scan(input), "in place, n = 1234567");
}

// Three scans chained through device-side carries, as the staged solve() does.
void check_chained_chunks(Checker &check, kit::ScanWorkspace &workspace) {
  const std::size_t tile = kit::DefaultScanConfig::kTileItems;
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
    kit::device_inclusive_scan(d_in.get() + first, d_out.get() + first, pieces[i], kit::Plus{}, 0,
                               workspace, 0, carry_in, carry.get() + (i + 1) % 2);
    first += pieces[i];
  }
  check.expect_equal(d_out.download(), expected, "three chained chunks with carries");
  const std::vector<int> carries = carry.download();
  check.expect(carries[3 % 2] == expected.back(), "total_out of the last chunk = last prefix");
}

// Max is not a sum: catches an operator applied in the wrong place or with the wrong identity.
void check_max_operator(Checker &check, kit::ScanWorkspace &workspace) {
  for (std::size_t n : {std::size_t{1}, std::size_t{65}, std::size_t{777777}}) {
    const std::vector<int> input = random_values(n, 31 + n, INT_MIN + 1, INT_MAX);
    std::vector<int> expected(n);
    int running = INT_MIN;
    for (std::size_t i = 0; i < n; ++i)
      expected[i] = running = std::max(running, input[i]);
    DeviceBuffer<int> d_in(n), d_out(n);
    d_in.upload(input);
    kit::device_inclusive_scan(d_in.get(), d_out.get(), n, kit::Max{}, INT_MIN, workspace);
    check.expect_equal(d_out.download(), expected, describe("max scan", n).c_str());
  }
}

void check_repeated(Checker &check, kit::ScanWorkspace &workspace) {
  const std::size_t n = (std::size_t{1} << 25) + 12345;
  const int kRepeats = 100;
  const std::vector<int> input = contest_values(n, 41);
  const std::vector<int> expected = reference_scan(input);
  DeviceBuffer<int> d_in(n), d_out(n);
  d_in.upload(input);
  int wrong_runs = 0;
  for (int r = 0; r < kRepeats; ++r) {
    d_out.poison();
    kit::device_inclusive_scan(d_in.get(), d_out.get(), n, kit::Plus{}, 0, workspace);
    if (d_out.download() != expected) {
      if (wrong_runs == 0)
        check.expect_equal(d_out.download(), expected, "repeated scan (first wrong run)");
      ++wrong_runs;
    }
  }
  std::printf("repeated scan: %d of %d runs of n = %zu differ from the reference\n", wrong_runs,
              kRepeats, n);
  check.expect(wrong_runs == 0, "100 repeated scans of one input are all correct");
}

void check_billion(Checker &check, kit::ScanWorkspace &workspace) {
  const std::size_t n = 1000000000;
  std::size_t free_bytes = 0, total_bytes = 0;
  GPU_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < 2 * n * sizeof(int) + (std::size_t{256} << 20)) {
    std::printf("SKIP n = 1e9 case: %.1f GB of device memory free, 8.3 GB needed\n",
                free_bytes / 1e9);
    return;
  }
  const std::vector<int> input = contest_values(n, 51);
  const std::vector<int> expected = reference_scan(input);
  check.expect_equal(device_scan<kit::DefaultScanConfig>(input, workspace), expected,
                     "n = 1e9, device-resident");
}

void check_host_paths(Checker &check) {
  const std::size_t chunk = std::size_t{1} << 21; // kernel.cu's chunk size
  const std::size_t sizes[] = {1,         1000,          chunk - 1,         chunk,
                               chunk + 1, 5 * chunk + 3, 31 * chunk + 12345};
  for (std::size_t n : sizes) {
    const std::vector<int> input = random_values(n, 61 + n, INT_MIN, INT_MAX);
    const std::vector<int> expected = reference_scan(input);
    for (PrefixSumPath path : {PrefixSumPath::kDirect, PrefixSumPath::kStaged}) {
      std::vector<int> output(n, 0x5a5a5a5a);
      PrefixSumTiming timing;
      prefix_sum_gpu(input.data(), output.data(), n, path, &timing);
      const char *path_name = path == PrefixSumPath::kDirect ? "direct" : "staged";
      check.expect_equal(output, expected,
                         describe(std::string("host path ") + path_name, n).c_str());
      check.expect(timing.total_ms > 0 && timing.scan_ms > 0,
                   describe(std::string("timing filled, ") + path_name, n).c_str());
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
  kit::test::skip_without_gpu("prefix_sum_gpu_test");
  Checker check;
  kit::ScanWorkspace workspace; // shared on purpose: scans of every size reuse stale states
  for_each_scan_variant(
      [&](auto variant) { check_sizes<typename decltype(variant)::config>(check, workspace); });
  check_wrap_around(check, workspace);
  check_misaligned(check, workspace);
  check_in_place(check, workspace);
  check_chained_chunks(check, workspace);
  check_max_operator(check, workspace);
  check_repeated(check, workspace);
  check_host_paths(check);
  check_billion(check, workspace);
  return check.finish("prefix_sum_gpu_test");
}
