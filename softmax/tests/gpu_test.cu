// GPU softmax against the CPU reference (softmax_reference): every production Engine method,
// every variant kept for measurement (bench/variants.h) and the host-pointer solve, on awkward
// sizes, the case families of the issue (all-equal, values around +-1000, one huge outlier, sorted
// input, N = 1e8), misaligned and in-place arrays, repeated runs, and the on-chip method with an
// MI100's 64 KB of shared memory per block (its gfx908 path: per-thread copies). Outputs are
// poisoned with NaN before every run.
//
// Tolerance: a tenth of the grader's, |got - ref| <= 1e-7 + 1e-6 |ref| against the reference
// (double sums, one float rounding), so that printing both to 6 digits agrees to the last digit
// or one unit; small inputs are also checked with the grader's own rule on printed values.
#include "bench/variants.h"
#include "gpu/check.h"
#include "gpu/launch.h"
#include "gpu/tuning_dispatch.h"
#include "kernel.h"
#include "reference.h"
#include "solve.h"
#include "testing/random.h"
#include "testing/test_support.h"
#include "tuning.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {

using softmax::Method;

constexpr Method kMethods[] = {Method::kTwoPassReverse, Method::kResident, Method::kOnChip,
                               Method::kAuto};
constexpr std::size_t kPrintedCheckLimit = 70000;
// An MI100's shared memory per block.
constexpr std::size_t kMi100SharedBytes = 65536;

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

std::vector<float> make_input(Family family, std::size_t n, kit::Rng &rng) {
  std::vector<float> x(n);
  for (auto &v : x) {
    const double u = 2.0 * rng.unit() - 1.0;
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
    x[static_cast<std::size_t>(rng.uniform_int(0, static_cast<long long>(n) - 1))] = 500.0f;
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
  std::string s = std::string(softmax::method_name(method)) + " " + family_name(family) +
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
    reset(input);
  }
  void reset(const std::vector<float> &input) {
    GPU_CHECK(
        cudaMemcpy(in_.get() + offset_, input.data(), n_ * sizeof(float), cudaMemcpyHostToDevice));
  }
  std::vector<float> run(softmax::Engine &engine, Method method, bool in_place = false) {
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

bool method_accepts(const softmax::Engine &engine, Method method, std::size_t n) {
  if (method == Method::kResident)
    return n <= engine.resident_capacity();
  if (method == Method::kOnChip)
    return n <= engine.onchip_capacity();
  return true;
}

std::string shape_name(const softmax::OnChipShapeInfo &shape) {
  return std::to_string(shape.threads) + "x" + std::to_string(shape.register_items);
}

// An engine under test, with its name in messages ("" for the production path).
struct NamedEngine {
  std::string name;
  std::unique_ptr<softmax::Engine> engine;

  std::string note() const { return name.empty() ? std::string() : " (" + name + ")"; }
};

// Sizes where the on-chip method's layout changes: where each shape's grid stops shrinking, the
// switch from the narrow to the wide shape, the last sizes each shape's registers hold alone,
// each shape's capacity and the method's capacity; -5, -1, 0, +1, +3 around each.
std::vector<std::size_t> onchip_edges(const softmax::Engine &engine) {
  const std::size_t capacity = engine.onchip_capacity();
  const std::size_t block_items = engine.onchip_min_block_items();
  std::vector<std::size_t> sizes;
  for (const softmax::OnChipShapeInfo *shape : {&engine.onchip_narrow(), &engine.onchip_wide()})
    for (std::size_t edge : {std::size_t{shape->grid} * block_items * 4, shape->register_capacity,
                             shape->capacity, engine.onchip_narrow_limit()})
      for (std::size_t n : {edge - 5, edge - 1, edge, edge + 1, edge + 3})
        if (edge > 5 && n <= capacity)
          sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

void print_capacities(const NamedEngine &e) {
  const softmax::Engine &engine = *e.engine;
  const softmax::OnChipShapeInfo &narrow = engine.onchip_narrow();
  const softmax::OnChipShapeInfo &wide = engine.onchip_wide();
  std::printf("engine%s: resident capacity %zu (auto up to %zu); on-chip %s grid %u, %u slots, "
              "capacity %zu (runs up to %zu); %s grid %u, %u slots, capacity %zu; %zu B of "
              "shared memory per block at most\n",
              e.note().c_str(), engine.resident_capacity(), engine.auto_resident_limit(),
              shape_name(narrow).c_str(), narrow.grid, narrow.slots, narrow.capacity,
              engine.onchip_narrow_limit(), shape_name(wide).c_str(), wide.grid, wide.slots,
              wide.capacity, std::max(narrow.shared_bytes, wide.shared_bytes));
}

// Every method `engine` accepts at n on one input; in place too when asked.
void check_methods(kit::test::Checker &check, const NamedEngine &e, Family family, std::size_t n,
                   kit::Rng &rng,
                   const std::vector<Method> &methods = {std::begin(kMethods), std::end(kMethods)},
                   std::size_t offset = 0, bool in_place = false) {
  if (!kit::test::runs_at_this_scale(n))
    return;
  const std::vector<float> input = make_input(family, n, rng);
  const std::vector<float> want = reference(input);
  DeviceCase device(input, offset);
  for (Method method : methods) {
    if (!method_accepts(*e.engine, method, n))
      continue;
    const std::string what = describe(method, family, n, offset) + e.note();
    compare(check, device.run(*e.engine, method), want, what);
    if (in_place) {
      compare(check, device.run(*e.engine, method, true), want, what + " in place");
      device.reset(input);
    }
  }
}

// The statistics themselves: the maximum exactly, the integer reference floor(max log2(e)), and
// the sum of exp(x - ref ln 2) to a tight bound.
void check_stats(kit::test::Checker &check, const NamedEngine &e, Family family, std::size_t n,
                 kit::Rng &rng) {
  if (!kit::test::runs_at_this_scale(n))
    return;
  const std::vector<float> input = make_input(family, n, rng);
  const float max = *std::max_element(input.begin(), input.end());
  const float ref = std::floor(max * 1.44269502f); // float product, as on the device
  const double shift = static_cast<double>(ref) * std::log(2.0);
  double sum = 0.0;
  for (float v : input)
    sum += std::exp(static_cast<double>(v) - shift);
  DeviceCase device(input, 0);
  for (Method method : kMethods) {
    if (!method_accepts(*e.engine, method, n))
      continue;
    device.run(*e.engine, method);
    const softmax::Stats stats = e.engine->last_stats();
    const double error = std::fabs(stats.sum - sum) / sum;
    const std::string what = describe(method, family, n) + e.note() + " statistics: max " +
                             std::to_string(stats.max) + " (want " + std::to_string(max) +
                             "), reference " + std::to_string(stats.ref) + " (want " +
                             std::to_string(ref) + "), sum relative error " + std::to_string(error);
    check.expect(stats.max == max && stats.ref == ref && error <= 3e-7, what.c_str());
  }
}

// The on-chip method of one engine around every place its layout changes, the families with its
// shared memory full, misaligned in place there, its statistics at capacity, and kAuto at its
// capacity + 1 (where it moves on to two-pass-rev).
void check_onchip(kit::test::Checker &check, const NamedEngine &e, kit::Rng &rng) {
  print_capacities(e);
  const std::size_t capacity = e.engine->onchip_capacity();
  if (capacity == 0) {
    check.expect(false, ("on-chip method cannot run" + e.note()).c_str());
    return;
  }
  for (std::size_t n : onchip_edges(*e.engine))
    check_methods(check, e, Family::kContest, n, rng, {Method::kOnChip, Method::kAuto});
  for (Family family : {Family::kEqual, Family::kPlusMinus, Family::kOutlier, Family::kAscending,
                        Family::kDescending})
    check_methods(check, e, family, capacity, rng, {Method::kOnChip});
  for (std::size_t offset : {1, 2, 3})
    check_methods(check, e, Family::kContest, capacity - offset, rng, {Method::kOnChip}, offset,
                  true);
  check_stats(check, e, Family::kDescending, capacity, rng);
  check_methods(check, e, Family::kContest, capacity + 1, rng, {Method::kAuto});
}

} // namespace

int main() {
  kit::test::begin_gpu_test("softmax_gpu_test");
  kit::test::Checker check;
  kit::Rng rng(20261122);
  const NamedEngine production{"", std::make_unique<softmax::Engine>()};
  const softmax::Engine &engine = *production.engine;
  const std::size_t capacity = engine.resident_capacity();

  // Awkward sizes: warp and block edges, one streaming tile (256 threads x 4 float4) +- 1, kAuto's
  // switch from the resident method and the resident capacity.
  std::vector<std::size_t> sizes = {1,    2,    3,     4,     5,     7,      31,   32,
                                    33,   63,   64,    65,    1023,  1024,   1025, 4095,
                                    4096, 4097, 16383, 16385, 65537, 1000003};
  const std::size_t auto_limit = engine.auto_resident_limit();
  for (std::size_t n : {auto_limit, auto_limit + 1, capacity - 1, capacity, capacity + 1})
    if (auto_limit > 1 && n != 0)
      sizes.push_back(n);
  // Where cooperative launches do not work (a runtime that reports one done without running it:
  // KIT_FAIL_COOPERATIVE_LAUNCH=silent), the single-launch methods get no capacity and every size
  // takes the two-pass methods; their checks below then have nothing to run.
  const bool cooperative = kit::gpu::cooperative_launch_works();
  if (cooperative)
    check.expect(auto_limit > 1, "the resident method can run (cooperative launch)");
  else
    check.expect(capacity == 0 && auto_limit == 0 && engine.onchip_capacity() == 0,
                 "without cooperative launches no single-launch method has a capacity");
  for (std::size_t n : sizes)
    check_methods(check, production, Family::kContest, n, rng);
  // Every method where the on-chip layout changes, then the on-chip method of the production
  // engine and of every variant on its own.
  for (std::size_t n : onchip_edges(engine))
    check_methods(check, production, Family::kContest, n, rng);
  if (cooperative) {
    check_onchip(check, production, rng);
    for (const softmax::EngineVariant &variant : softmax::engine_variants())
      check_onchip(check, {variant.name, std::make_unique<softmax::Engine>(variant.options)}, rng);
    // An MI100's shared memory per block (fewer slots, so the edges move), with the production
    // kernels and with the per-thread copies that gfx908 runs.
    softmax::EngineOptions options;
    options.shared_bytes_limit = kMi100SharedBytes;
    check_onchip(check, {"64 KB", std::make_unique<softmax::Engine>(options)}, rng);
    options.onchip_kernels = &softmax::per_thread_copy_kernels();
    check_onchip(check, {"64 KB, per-thread copies", std::make_unique<softmax::Engine>(options)},
                 rng);
  }

  const Family families[] = {Family::kEqual,      Family::kNearPlus,  Family::kNearMinus,
                             Family::kPlusMinus,  Family::kOutlier,   Family::kAscending,
                             Family::kDescending, Family::kTinySpread};
  for (Family family : families)
    for (std::size_t n :
         {std::size_t{1}, std::size_t{2}, std::size_t{33}, std::size_t{4097}, std::size_t{1000003}})
      check_methods(check, production, family, n, rng);
  // The families with the on-chip method's shared memory full, every method.
  if (cooperative)
    for (Family family : {Family::kEqual, Family::kPlusMinus, Family::kOutlier, Family::kAscending,
                          Family::kDescending})
      check_methods(check, production, family, engine.onchip_capacity(), rng);

  // Arrays that do not start on a 16-byte boundary (head elements), and in place.
  for (std::size_t offset : {1, 2, 3})
    for (std::size_t n : {1, 2, 3, 4, 5, 8, 1025, 100003})
      check_methods(check, production, Family::kContest, n, rng,
                    {std::begin(kMethods), std::end(kMethods)}, offset);
  check_methods(check, production, Family::kContest, 100003, rng,
                {std::begin(kMethods), std::end(kMethods)}, 0, true);

  // Repeated runs give identical bits (the ticket and barrier reset themselves).
  {
    const std::vector<float> input = make_input(Family::kContest, 1000003, rng);
    DeviceCase device(input, 0);
    for (Method method : kMethods) {
      if (!method_accepts(*production.engine, method, input.size()))
        continue;
      const std::vector<float> first = device.run(*production.engine, method);
      bool same = true;
      for (int repeat = 0; repeat < 30 && same; ++repeat)
        same = device.run(*production.engine, method) == first;
      check.expect(same, (describe(method, Family::kContest, 1000003) + " repeatable").c_str());
    }
  }

  check_stats(check, production, Family::kContest, 1000003, rng);
  check_stats(check, production, Family::kAscending, 10000000, rng);
  check_stats(check, production, Family::kNearPlus, 10000000, rng);
  if (cooperative)
    check_stats(check, production, Family::kDescending, engine.onchip_capacity(), rng);

  // N = 1e8: every method that accepts it (the two-pass method, through kAuto too).
  if (kit::test::runs_at_this_scale(100000000)) {
    const std::size_t n = 100000000;
    check_methods(check, production, Family::kContest, n, rng);
    check_stats(check, production, Family::kContest, n, rng);
  }

  // The contest entry point with host pointers, through the single-chunk and pipelined paths
  // (the chunk of the device's tuning table).
  const std::size_t chunk = kit::gpu::with_tuning<softmax::SoftmaxTuning>(
      [](auto tuning) { return decltype(tuning)::kSolveChunkItems; });
  for (std::size_t n : {std::size_t{1}, std::size_t{33}, chunk - 1, chunk, chunk + 1, 3 * chunk + 5,
                        std::size_t{100000000}}) {
    for (Family family : {Family::kContest, Family::kOutlier}) {
      if ((n == 100000000 && family != Family::kContest) || !kit::test::runs_at_this_scale(n))
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
