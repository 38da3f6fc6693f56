// GPU softmax against the CPU reference (softmax_reference): every Engine method and the
// host-pointer solve, on awkward sizes, the case families of the issue (all-equal, values around
// +-1000, one huge outlier, sorted input, N = 1e8), misaligned and in-place arrays, repeated
// runs. Outputs are poisoned with NaN before every run.
//
// Tolerance: a tenth of the grader's, |got - ref| <= 1e-7 + 1e-6 |ref| against the reference
// (double sums, one float rounding), so that printing both to 6 digits agrees to the last digit
// or one unit; small inputs are also checked with the grader's own rule on printed values.
#include "kernel.h"
#include "kernel_passes.h"
#include "reference.h"
#include "solve.h"
#include "testing/test_support.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

using softmax_gpu::Method;

constexpr Method kMethods[] = {Method::kTwoPass,  Method::kTwoPassReverse, Method::kPersistent,
                               Method::kResident, Method::kOnChip,         Method::kAuto};
// The host pipeline's chunk (kernel.cu): sizes around it cross the pipelined path's boundaries.
constexpr std::size_t kSolveChunk = std::size_t{1} << 20;
constexpr std::size_t kPrintedCheckLimit = 70000;

enum class Family {
  kContest,    // U(-50, 50) with 3 decimals, like the public cases
  kEqual,      // every value the same
  kNearPlus,   // 1000 + U(-5, 5)
  kNearMinus,  // -1000 + U(-5, 5)
  kPlusMinus,  // +-1000 + U(-1, 1): half of the outputs underflow
  kOutlier,    // U(-50, 50) and one value 500: one output ~1, the rest underflow
  kAscending,  // sorted U(-50, 50): the running maximum grows all the time
  kDescending, // sorted the other way
  kTinySpread, // U(-1e-3, 1e-3): every output close to 1/N
};

const char *family_name(Family f) {
  switch (f) {
  case Family::kContest:
    return "contest";
  case Family::kEqual:
    return "all-equal";
  case Family::kNearPlus:
    return "near+1000";
  case Family::kNearMinus:
    return "near-1000";
  case Family::kPlusMinus:
    return "+-1000";
  case Family::kOutlier:
    return "outlier";
  case Family::kAscending:
    return "ascending";
  case Family::kDescending:
    return "descending";
  case Family::kTinySpread:
    return "tiny-spread";
  }
  return "?";
}

std::vector<float> make_input(Family family, std::size_t n, std::mt19937_64 &rng) {
  std::vector<float> x(n);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (auto &v : x) {
    const double u = unit(rng);
    switch (family) {
    case Family::kContest:
    case Family::kOutlier:
    case Family::kAscending:
    case Family::kDescending:
      v = static_cast<float>(std::round(u * 50000.0) / 1000.0);
      break;
    case Family::kEqual:
      v = 3.25f;
      break;
    case Family::kNearPlus:
      v = static_cast<float>(1000.0 + 5.0 * u);
      break;
    case Family::kNearMinus:
      v = static_cast<float>(-1000.0 + 5.0 * u);
      break;
    case Family::kPlusMinus:
      v = static_cast<float>((u < 0 ? -1000.0 : 1000.0) + 2.0 * u);
      break;
    case Family::kTinySpread:
      v = static_cast<float>(1e-3 * u);
      break;
    }
  }
  if (family == Family::kOutlier)
    x[std::uniform_int_distribution<std::size_t>(0, n - 1)(rng)] = 500.0f;
  if (family == Family::kAscending)
    std::sort(x.begin(), x.end());
  if (family == Family::kDescending)
    std::sort(x.begin(), x.end(), [](float a, float b) { return a > b; });
  return x;
}

std::string printed(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(v));
  return text;
}

// The grader's rule, applied to both values as the program prints them.
bool grader_accepts(float got, float want) {
  const double g = std::strtod(printed(got).c_str(), nullptr);
  const double e = std::strtod(printed(want).c_str(), nullptr);
  const double diff = std::fabs(g - e);
  return diff <= 1e-6 || diff / std::max(std::fabs(e), 1e-12) <= 1e-5;
}

void compare(kit::test::Checker &check, const std::vector<float> &got,
             const std::vector<float> &want, const std::string &what) {
  std::size_t bad = 0, first_bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double tolerance = 1e-7 + 1e-6 * std::fabs(static_cast<double>(want[i]));
    // Written so that NaN fails.
    const bool close = std::fabs(static_cast<double>(got[i]) - want[i]) <= tolerance;
    const bool printed_ok = want.size() > kPrintedCheckLimit || grader_accepts(got[i], want[i]);
    if (!(close && printed_ok)) {
      if (bad++ == 0)
        first_bad = i;
    }
  }
  std::string message = what;
  if (bad) {
    message += ": " + std::to_string(bad) + " values off, first at index " +
               std::to_string(first_bad) + ": got " + printed(got[first_bad]) + " (" +
               std::to_string(got[first_bad]) + "), expected " + printed(want[first_bad]);
  }
  check.expect(bad == 0, message.c_str());
}

std::string describe(Method method, Family family, std::size_t n, std::size_t offset = 0) {
  std::string s = std::string(softmax_gpu::method_name(method)) + " " + family_name(family) +
                  " n=" + std::to_string(n);
  if (offset)
    s += " offset=" + std::to_string(offset);
  return s;
}

// Device arrays with room for a misalignment offset; the output is poisoned before each run.
class DeviceCase {
public:
  DeviceCase(const std::vector<float> &input, std::size_t offset)
      : n_(input.size()), offset_(offset), in_(n_ + 4), out_(n_ + 4) {
    GPU_CHECK(
        cudaMemcpy(in_.get() + offset, input.data(), n_ * sizeof(float), cudaMemcpyHostToDevice));
  }
  void reset(const std::vector<float> &input) {
    GPU_CHECK(
        cudaMemcpy(in_.get() + offset_, input.data(), n_ * sizeof(float), cudaMemcpyHostToDevice));
  }
  std::vector<float> run(softmax_gpu::Engine &engine, Method method, bool in_place = false) {
    float *out = in_place ? in_.get() + offset_ : out_.get() + offset_;
    GPU_CHECK(cudaMemset(out_.get(), 0xFF, out_.bytes())); // NaN
    engine.run(in_.get() + offset_, out, n_, nullptr, method);
    GPU_CHECK(cudaDeviceSynchronize());
    std::vector<float> result(n_);
    GPU_CHECK(cudaMemcpy(result.data(), out, n_ * sizeof(float), cudaMemcpyDeviceToHost));
    return result;
  }

private:
  std::size_t n_, offset_;
  kit::test::DeviceBuffer<float> in_, out_;
};

std::vector<float> reference(const std::vector<float> &input) {
  std::vector<float> out(input.size());
  softmax_reference(input.data(), out.data(), input.size());
  return out;
}

bool method_accepts(const softmax_gpu::Engine &engine, Method method, std::size_t n) {
  if (method == Method::kResident)
    return n <= engine.resident_capacity();
  if (method == Method::kOnChip)
    return n <= engine.onchip_capacity();
  return true;
}

// Sizes where the on-chip kernel's layout changes in its current configuration: the size where
// the grid stops shrinking, the last size that its registers hold alone on the full grid, its
// shape's capacity (above it the 256x40 shape takes over) and the method's capacity.
std::vector<std::size_t> onchip_edges(const softmax_gpu::Engine &engine) {
  const std::size_t capacity = engine.onchip_capacity();
  const std::size_t shape_capacity = engine.onchip_shape_capacity();
  const std::size_t full_grid = engine.grid(Method::kOnChip, shape_capacity);
  const std::size_t registers_only =
      full_grid * engine.onchip_block_threads() * engine.onchip_register_items() * 4;
  const std::size_t grid_edge = full_grid * engine.onchip_config().min_block_items * 4;
  std::vector<std::size_t> sizes;
  for (std::size_t edge : {grid_edge, registers_only, shape_capacity, capacity})
    for (std::size_t n : {edge - 5, edge - 1, edge, edge + 1, edge + 3})
      if (n <= capacity)
        sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end()); // the two capacities coincide for 256x40
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

std::string describe(const softmax_gpu::OnChipConfig &c) {
  std::string s = std::string("on-chip ") + softmax_gpu::shape_name(c.shape);
  if (c.shared_bytes_limit)
    s += " smem<=" + std::to_string(c.shared_bytes_limit);
  if (!c.shared_first)
    s += " regs-first";
  if (!c.size_shared_to_n)
    s += " all-smem";
  if (c.copy_groups != 1)
    s += " copy-groups=" + std::to_string(c.copy_groups);
  if (c.pass2_shared_first)
    s += " pass2-smem-first";
  if (c.min_block_items != softmax_gpu::OnChipConfig{}.min_block_items)
    s += " min-block-items=" + std::to_string(c.min_block_items);
  if (!c.bulk_copy)
    s += " per-thread-copies";
  return s;
}

// The on-chip method alone in each configuration of `configs` on one input (the configurations
// must accept n); in place too when asked.
void check_onchip(kit::test::Checker &check, softmax_gpu::Engine &engine,
                  const std::vector<softmax_gpu::OnChipConfig> &configs, Family family,
                  std::size_t n, std::mt19937_64 &rng, std::size_t offset = 0,
                  bool in_place = false) {
  const std::vector<float> input = make_input(family, n, rng);
  const std::vector<float> want = reference(input);
  DeviceCase device(input, offset);
  for (const softmax_gpu::OnChipConfig &config : configs) {
    engine.tune_onchip(config);
    const std::string what = describe(config) + " " + describe(Method::kOnChip, family, n, offset);
    compare(check, device.run(engine, Method::kOnChip), want, what);
    if (in_place) {
      compare(check, device.run(engine, Method::kOnChip, true), want, what + " in place");
      device.reset(input); // the next configuration's input
    }
  }
}

// Names the on-chip shape in messages when the engine runs another than the default.
std::string shape_note(const softmax_gpu::Engine &engine) {
  const softmax_gpu::OnChipShape shape = engine.onchip_config().shape;
  return shape == softmax_gpu::OnChipConfig{}.shape
             ? std::string()
             : std::string(" (on-chip shape ") + softmax_gpu::shape_name(shape) + ")";
}

void check_methods(kit::test::Checker &check, softmax_gpu::Engine &engine, Family family,
                   std::size_t n, std::mt19937_64 &rng) {
  const std::vector<float> input = make_input(family, n, rng);
  const std::vector<float> want = reference(input);
  DeviceCase device(input, 0);
  for (Method method : kMethods)
    if (method_accepts(engine, method, n))
      compare(check, device.run(engine, method), want,
              describe(method, family, n) + shape_note(engine));
}

// The statistics themselves: the maximum exactly, the integer reference floor(max log2(e)), and
// the sum of exp(x - ref ln 2) to a tight bound.
void check_stats(kit::test::Checker &check, softmax_gpu::Engine &engine, Family family,
                 std::size_t n, std::mt19937_64 &rng) {
  const std::vector<float> input = make_input(family, n, rng);
  const float max = *std::max_element(input.begin(), input.end());
  const float ref = std::floor(max * 1.44269502f); // float product, as on the device
  const double shift = static_cast<double>(ref) * std::log(2.0);
  double sum = 0.0;
  for (float v : input)
    sum += std::exp(static_cast<double>(v) - shift);
  DeviceCase device(input, 0);
  for (Method method : kMethods) {
    if (!method_accepts(engine, method, n))
      continue;
    device.run(engine, method);
    const softmax_gpu::Stats stats = engine.last_stats();
    const double error = std::fabs(stats.sum - sum) / sum;
    const std::string what = describe(method, family, n) + shape_note(engine) +
                             " statistics: max " + std::to_string(stats.max) + " (want " +
                             std::to_string(max) + "), reference " + std::to_string(stats.ref) +
                             " (want " + std::to_string(ref) + "), sum relative error " +
                             std::to_string(error);
    check.expect(stats.max == max && stats.ref == ref && error <= 3e-7, what.c_str());
  }
}

// Every block shape, around each place its layout changes, in its alternatives (copy groups,
// orders, all shared memory, another grid rule, per-thread instead of bulk copies), with the
// shared memory of an MI100 (64 KB per block), on the case families and misaligned in place at
// its capacity.
void check_onchip_shapes(kit::test::Checker &check, softmax_gpu::Engine &engine,
                         std::mt19937_64 &rng) {
  for (softmax_gpu::OnChipShape shape : softmax_gpu::kOnChipShapes) {
    softmax_gpu::OnChipConfig base;
    base.shape = shape;
    base.wide_beyond_registers = false; // the shape itself up to its capacity
    std::vector<softmax_gpu::OnChipConfig> configs(5, base);
    configs[1].copy_groups = 3;
    configs[1].pass2_shared_first = !base.pass2_shared_first;
    configs[2].shared_first = !base.shared_first;
    configs[2].size_shared_to_n = false;
    configs[2].copy_groups = 4;
    configs[3].min_block_items = 1024;
    configs[3].copy_groups = 2;
    configs[4].shared_first = !base.shared_first;
    configs[4].pass2_shared_first = !base.pass2_shared_first;
    // The per-thread copies (the only kind before sm_90 and on AMD), alone and in 3 groups.
    configs.push_back(base);
    configs[5].bulk_copy = false;
    configs.push_back(configs[1]);
    configs[6].bulk_copy = false;
    engine.tune_onchip(base);
    const std::size_t capacity = engine.onchip_shape_capacity();
    std::printf("on-chip %s: capacity %zu elements (%zu B of shared memory per block, grid %u)\n",
                softmax_gpu::shape_name(shape), capacity, engine.onchip_shared_bytes(),
                engine.grid(Method::kOnChip, capacity));
    for (std::size_t n : onchip_edges(engine))
      check_onchip(check, engine, configs, Family::kContest, n, rng);
    for (Family family : {Family::kEqual, Family::kPlusMinus, Family::kOutlier, Family::kAscending,
                          Family::kDescending})
      check_onchip(check, engine, {base}, family, capacity, rng);
    for (std::size_t offset : {1, 2, 3})
      check_onchip(check, engine, {base, configs[1], configs[5]}, Family::kContest,
                   capacity - offset, rng, offset, true);
    // The statistics with the slots full; the method's capacity + 1 (kAuto moves on to
    // two-pass-rev).
    engine.tune_onchip(base);
    check_stats(check, engine, Family::kDescending, capacity, rng);
    check_methods(check, engine, Family::kContest, engine.onchip_capacity() + 1, rng);
    // MI100's 64 KB per block: fewer slots, so the edges move.
    for (softmax_gpu::OnChipConfig &config : configs)
      config.shared_bytes_limit = 65536;
    engine.tune_onchip(configs[0]);
    std::printf("on-chip %s with 64 KB of shared memory: capacity %zu elements (%zu with 256x40 "
                "above)\n",
                softmax_gpu::shape_name(shape), engine.onchip_shape_capacity(),
                engine.onchip_capacity());
    for (std::size_t n : onchip_edges(engine))
      check_onchip(check, engine, configs, Family::kContest, n, rng);
  }
  engine.tune_onchip(softmax_gpu::OnChipConfig{});
}

} // namespace

int main() {
  kit::test::skip_without_gpu("softmax_gpu_test");
  kit::test::Checker check;
  std::mt19937_64 rng(20261122);
  softmax_gpu::Engine engine;
  const std::size_t capacity = engine.resident_capacity();
  std::printf("resident capacity %zu elements; on-chip capacity %zu elements (%zu B of shared "
              "memory per block, grid %u; 256x40 above %zu)\n",
              capacity, engine.onchip_capacity(), engine.onchip_shared_bytes(),
              engine.grid(Method::kOnChip, engine.onchip_capacity()), engine.onchip_wide_from());

  // Awkward sizes: warp and block edges, one streaming tile (256 threads x 4 float4) +- 1.
  const std::size_t sizes[] = {
      1,           2,    3,     4,     5,     7,       31,           32,
      33,          63,   64,    65,    1023,  1024,    1025,         4095,
      4096,        4097, 16383, 16385, 65537, 1000003, capacity - 1, capacity,
      capacity + 1};
  for (std::size_t n : sizes)
    check_methods(check, engine, Family::kContest, n, rng);
  // The on-chip method (default configuration) where its layout changes, with every method at
  // those sizes and at its capacity + 1; then every block shape and alternative on its own.
  for (std::size_t n : onchip_edges(engine))
    check_methods(check, engine, Family::kContest, n, rng);
  check_methods(check, engine, Family::kContest, engine.onchip_capacity() + 1, rng);
  check_onchip_shapes(check, engine, rng);

  const Family families[] = {Family::kEqual,      Family::kNearPlus,  Family::kNearMinus,
                             Family::kPlusMinus,  Family::kOutlier,   Family::kAscending,
                             Family::kDescending, Family::kTinySpread};
  for (Family family : families)
    for (std::size_t n :
         {std::size_t{1}, std::size_t{2}, std::size_t{33}, std::size_t{4097}, std::size_t{1000003}})
      check_methods(check, engine, family, n, rng);
  // The families with the on-chip method's shared memory full.
  for (Family family : {Family::kEqual, Family::kPlusMinus, Family::kOutlier, Family::kAscending,
                        Family::kDescending})
    check_methods(check, engine, family, engine.onchip_capacity(), rng);

  // Arrays that do not start on a 16-byte boundary (head elements), and in place.
  for (std::size_t offset : {1, 2, 3})
    for (std::size_t n : {1, 2, 3, 4, 5, 8, 1025, 100003}) {
      const std::vector<float> input = make_input(Family::kContest, n, rng);
      const std::vector<float> want = reference(input);
      DeviceCase device(input, offset);
      for (Method method : kMethods)
        compare(check, device.run(engine, method), want,
                describe(method, Family::kContest, n, offset));
    }
  for (Method method : kMethods) {
    const std::vector<float> input = make_input(Family::kContest, 100003, rng);
    DeviceCase device(input, 0);
    compare(check, device.run(engine, method, true), reference(input),
            describe(method, Family::kContest, 100003) + " in place");
  }

  // Repeated runs give identical bits (the ticket and barrier reset themselves).
  {
    const std::vector<float> input = make_input(Family::kContest, 1000003, rng);
    DeviceCase device(input, 0);
    for (Method method : kMethods) {
      const std::vector<float> first = device.run(engine, method);
      bool same = true;
      for (int repeat = 0; repeat < 30 && same; ++repeat)
        same = device.run(engine, method) == first;
      check.expect(same, (describe(method, Family::kContest, 1000003) + " repeatable").c_str());
    }
  }

  check_stats(check, engine, Family::kContest, 1000003, rng);
  check_stats(check, engine, Family::kAscending, 10000000, rng);
  check_stats(check, engine, Family::kNearPlus, 10000000, rng);
  check_stats(check, engine, Family::kDescending, engine.onchip_capacity(), rng);

  // N = 1e8: every method but the register-resident and on-chip ones (too large for them).
  {
    const std::size_t n = 100000000;
    check_methods(check, engine, Family::kContest, n, rng);
    check_stats(check, engine, Family::kContest, n, rng);
  }

  // The contest entry point with host pointers, through the single-chunk and pipelined paths.
  for (std::size_t n : {std::size_t{1}, std::size_t{33}, kSolveChunk - 1, kSolveChunk,
                        kSolveChunk + 1, 3 * kSolveChunk + 5, std::size_t{100000000}}) {
    for (Family family : {Family::kContest, Family::kOutlier}) {
      if (n == 100000000 && family != Family::kContest)
        continue;
      const std::vector<float> input = make_input(family, n, rng);
      std::vector<float> got(n, std::nanf(""));
      solve(input.data(), got.data(), static_cast<int>(n));
      compare(check, got, reference(input),
              std::string("solve ") + family_name(family) + " n=" + std::to_string(n));
      std::vector<float> in_place = input; // the program calls solve() with input == output
      solve(in_place.data(), in_place.data(), static_cast<int>(n));
      compare(check, in_place, reference(input),
              std::string("solve in place ") + family_name(family) + " n=" + std::to_string(n));
    }
  }
  return check.finish("softmax_gpu_test");
}
