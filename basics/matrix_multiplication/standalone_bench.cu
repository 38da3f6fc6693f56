// Standalone check and benchmark of basics/matrix_multiplication/kernel.cu against cuBLAS SGEMM
// (CUDA only: it links cuBLAS). Built by device_run.sh with nvcc directly, independent of the
// kit's CMake so that it runs on the device machine whatever state the rest of the tree is in.
//
//   standalone_bench            correctness (CPU float64 and cuBLAS) + solve() vs cuBLAS timing
//   standalone_bench --sweep    the same, then every tile shape below timed at the perf size
//
// Correctness: inputs U(-10,10), outputs poisoned with NaN bytes before every run. Small awkward
// shapes are compared in full with a float64 CPU loop; large ones in full with cuBLAS and on a
// sample with float64. An element passes when |c - ref| <= 1e-4 + 1e-4 |ref| (the judge's rule).
// Where it does not, the element is adjudicated in float64: it still passes when its error is
// within rounding of an FP32 dot product, 4 * sqrt(depth) * 2^-24 * sum_i |a_i b_i|, because a
// near-zero sum of thousands of products cannot meet 1e-4 absolute in FP32 in any summation order
// (cuBLAS itself misses there). Such elements are counted and printed, never hidden.
#include "kernel.cu"

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr double kAtol = 1e-4;
constexpr double kRtol = 1e-4;
constexpr double kRoundingSlack = 4.0;

void cublas_check(cublasStatus_t status, const char *call, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cuBLAS error: %s failed at line %d: status %d\n", call, line,
                 static_cast<int>(status));
    std::exit(3);
  }
}
#define CUBLAS_CHECK(call) cublas_check((call), #call, __LINE__)

struct GemmShape {
  int rows;  // M
  int depth; // N, the inner dimension
  int cols;  // K
  double flops() const { return 2.0 * rows * static_cast<double>(depth) * cols; }
};

// splitmix64: a counter-based generator, so every input is reproducible from (seed, index).
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::vector<float> random_uniform(std::size_t count, std::uint64_t seed) {
  std::vector<float> v(count);
  const std::uint64_t base = mix(seed);
  for (std::size_t i = 0; i < count; ++i) {
    const double unit = static_cast<double>(mix(base + i) >> 40) * 0x1p-24;
    v[i] = static_cast<float>(unit * 20.0 - 10.0);
  }
  return v;
}

// Device copy of a host array, placed `offset_floats` past a cudaMalloc'd (256-byte aligned)
// start so that the kernel's unaligned path can be forced.
class DeviceArray {
public:
  DeviceArray(std::size_t count, std::size_t offset_floats = 0)
      : count_(count), offset_(offset_floats) {
    GPU_CHECK(cudaMalloc(&base_, (count + offset_floats) * sizeof(float)));
  }
  ~DeviceArray() { (void)cudaFree(base_); }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  float *get() const { return base_ + offset_; }
  void upload(const std::vector<float> &host) {
    GPU_CHECK(cudaMemcpy(get(), host.data(), count_ * sizeof(float), cudaMemcpyHostToDevice));
  }
  std::vector<float> download() const {
    std::vector<float> host(count_);
    GPU_CHECK(cudaMemcpy(host.data(), get(), count_ * sizeof(float), cudaMemcpyDeviceToHost));
    return host;
  }
  // 0xFF bytes are NaN: an element nobody wrote can never pass.
  void poison() { GPU_CHECK(cudaMemset(get(), 0xFF, count_ * sizeof(float))); }

private:
  float *base_ = nullptr;
  std::size_t count_;
  std::size_t offset_;
};

cublasHandle_t g_cublas = nullptr;

// Row-major C = A B is column-major C^T = B^T A^T: hand cuBLAS B first. FP32 compute, no TF32.
void cublas_sgemm(const float *a, const float *b, float *c, int rows, int depth, int cols,
                  cudaStream_t) {
  const float one = 1.f, zero = 0.f;
  CUBLAS_CHECK(cublasGemmEx(g_cublas, CUBLAS_OP_N, CUBLAS_OP_N, cols, rows, depth, &one, b,
                            CUDA_R_32F, cols, a, CUDA_R_32F, depth, &zero, c, CUDA_R_32F, cols,
                            CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

void solve_launcher(const float *a, const float *b, float *c, int rows, int depth, int cols,
                    cudaStream_t) {
  solve(a, b, c, rows, depth, cols);
}

using Launcher = void (*)(const float *, const float *, float *, int, int, int, cudaStream_t);

// Float64 value of one element and the sum of |products| that bounds its FP32 rounding.
struct ExactElement {
  double value;
  double abs_sum;
};
ExactElement exact_element(const std::vector<float> &a, const std::vector<float> &b,
                           const GemmShape &s, int row, int col) {
  double sum = 0, abs_sum = 0;
  for (int k = 0; k < s.depth; ++k) {
    const double p = static_cast<double>(a[static_cast<std::size_t>(row) * s.depth + k]) *
                     b[static_cast<std::size_t>(k) * s.cols + col];
    sum += p;
    abs_sum += std::fabs(p);
  }
  return {sum, abs_sum};
}

bool within_judge_tolerance(double got, double ref) {
  return std::fabs(got - ref) <= kAtol + kRtol * std::fabs(ref); // false for NaN
}

bool within_rounding(double got, const ExactElement &exact, int depth) {
  const double bound =
      kAtol + kRtol * std::fabs(exact.value) +
      kRoundingSlack * std::sqrt(static_cast<double>(depth)) * 0x1p-24 * exact.abs_sum;
  return std::fabs(got - exact.value) <= bound;
}

struct CheckTally {
  long long checked = 0;
  long long judge_misses = 0; // outside 1e-4 + 1e-4|ref| but within FP32 rounding
  long long failures = 0;     // outside rounding, or not finite
  double max_abs_error = 0;
};

void report(const char *what, const GemmShape &s, const CheckTally &t, int &failed_checks) {
  std::printf("  %-34s %5d x %5d x %5d  checked %9lld  judge-tol misses %5lld  failures %lld  "
              "max|err| %.3g\n",
              what, s.rows, s.depth, s.cols, t.checked, t.judge_misses, t.failures,
              t.max_abs_error);
  if (t.failures)
    ++failed_checks;
}

// Full comparison with a float64 CPU product (rows in parallel).
CheckTally check_against_cpu(const std::vector<float> &got, const std::vector<float> &a,
                             const std::vector<float> &b, const GemmShape &s) {
  long long judge_misses = 0, failures = 0;
  double max_abs_error = 0;
  int printed = 0;
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : judge_misses, failures)             \
    reduction(max : max_abs_error)
  for (int i = 0; i < s.rows; ++i)
    for (int j = 0; j < s.cols; ++j) {
      const ExactElement exact = exact_element(a, b, s, i, j);
      const double g = got[static_cast<std::size_t>(i) * s.cols + j];
      if (std::isfinite(g))
        max_abs_error = std::max(max_abs_error, std::fabs(g - exact.value));
      if (within_judge_tolerance(g, exact.value))
        continue;
      if (std::isfinite(g) && within_rounding(g, exact, s.depth)) {
        ++judge_misses;
        continue;
      }
#pragma omp critical
      if (printed++ < 5)
        std::printf("    FAIL C[%d][%d] = %.9g, float64 %.9g\n", i, j, g, exact.value);
      ++failures;
    }
  CheckTally t;
  t.checked = static_cast<long long>(s.rows) * s.cols;
  t.judge_misses = judge_misses;
  t.failures = failures;
  t.max_abs_error = max_abs_error;
  return t;
}

// Full comparison with cuBLAS; elements outside the judge's tolerance are adjudicated in float64
// (rows in parallel: at the perf size a different summation order can put ~1% of the elements,
// each a 6144-term float64 dot product, through adjudication).
CheckTally check_against_cublas(const std::vector<float> &got, const std::vector<float> &ref,
                                const std::vector<float> &a, const std::vector<float> &b,
                                const GemmShape &s) {
  long long judge_misses = 0, failures = 0;
  double max_abs_error = 0;
  int printed = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : judge_misses, failures)            \
    reduction(max : max_abs_error)
  for (int i = 0; i < s.rows; ++i)
    for (int j = 0; j < s.cols; ++j) {
      const std::size_t at = static_cast<std::size_t>(i) * s.cols + j;
      if (std::isfinite(got[at]))
        max_abs_error = std::max(max_abs_error, std::fabs(static_cast<double>(got[at]) - ref[at]));
      if (within_judge_tolerance(got[at], ref[at]))
        continue;
      const ExactElement exact = exact_element(a, b, s, i, j);
      if (std::isfinite(got[at]) && within_rounding(got[at], exact, s.depth)) {
        ++judge_misses;
        continue;
      }
#pragma omp critical
      if (printed++ < 5)
        std::printf("    FAIL C[%d][%d] = %.9g, cuBLAS %.9g, float64 %.9g\n", i, j, got[at],
                    ref[at], exact.value);
      ++failures;
    }
  CheckTally t;
  t.checked = static_cast<long long>(s.rows) * s.cols;
  t.judge_misses = judge_misses;
  t.failures = failures;
  t.max_abs_error = max_abs_error;
  return t;
}

// A sample of elements against float64, for the output of either implementation.
CheckTally check_sample(const std::vector<float> &got, const std::vector<float> &a,
                        const std::vector<float> &b, const GemmShape &s, int samples,
                        std::uint64_t seed) {
  CheckTally t;
  for (int n = 0; n < samples; ++n) {
    const int i = static_cast<int>(mix(seed + 2 * n) % static_cast<std::uint64_t>(s.rows));
    const int j = static_cast<int>(mix(seed + 2 * n + 1) % static_cast<std::uint64_t>(s.cols));
    const ExactElement exact = exact_element(a, b, s, i, j);
    const double g = got[static_cast<std::size_t>(i) * s.cols + j];
    ++t.checked;
    if (std::isfinite(g))
      t.max_abs_error = std::max(t.max_abs_error, std::fabs(g - exact.value));
    if (within_judge_tolerance(g, exact.value))
      continue;
    if (std::isfinite(g) && within_rounding(g, exact, s.depth))
      ++t.judge_misses;
    else
      ++t.failures;
  }
  return t;
}

struct Problem {
  GemmShape shape;
  std::vector<float> a, b;
  DeviceArray d_a, d_b, d_c;
  Problem(const GemmShape &s, std::uint64_t seed, std::size_t misalign = 0)
      : shape(s), a(random_uniform(static_cast<std::size_t>(s.rows) * s.depth, seed)),
        b(random_uniform(static_cast<std::size_t>(s.depth) * s.cols, seed + 1)),
        d_a(a.size(), misalign), d_b(b.size(), misalign),
        d_c(static_cast<std::size_t>(s.rows) * s.cols, misalign) {
    d_a.upload(a);
    d_b.upload(b);
  }
  std::vector<float> run(Launcher launcher) {
    d_c.poison();
    launcher(d_a.get(), d_b.get(), d_c.get(), shape.rows, shape.depth, shape.cols, nullptr);
    GPU_CHECK(cudaDeviceSynchronize());
    return d_c.download();
  }
};

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Median milliseconds of each launcher, timed alternately (so that clock and thermal drift hit
// both alike) with events around each call, after warm-up.
std::vector<double> time_alternating(Problem &p, const std::vector<Launcher> &launchers, int warmup,
                                     int reps) {
  cudaEvent_t start, stop;
  GPU_CHECK(cudaEventCreate(&start));
  GPU_CHECK(cudaEventCreate(&stop));
  const GemmShape &s = p.shape;
  for (int w = 0; w < warmup; ++w)
    for (Launcher l : launchers)
      l(p.d_a.get(), p.d_b.get(), p.d_c.get(), s.rows, s.depth, s.cols, nullptr);
  GPU_CHECK(cudaDeviceSynchronize());
  std::vector<std::vector<float>> times(launchers.size());
  for (int r = 0; r < reps; ++r)
    for (std::size_t i = 0; i < launchers.size(); ++i) {
      GPU_CHECK(cudaEventRecord(start, nullptr));
      launchers[i](p.d_a.get(), p.d_b.get(), p.d_c.get(), s.rows, s.depth, s.cols, nullptr);
      GPU_CHECK(cudaEventRecord(stop, nullptr));
      GPU_CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      GPU_CHECK(cudaEventElapsedTime(&ms, start, stop));
      times[i].push_back(ms);
    }
  GPU_CHECK(cudaEventDestroy(start));
  GPU_CHECK(cudaEventDestroy(stop));
  std::vector<double> medians;
  for (auto &t : times)
    medians.push_back(median(t));
  return medians;
}

template <class Shape> Launcher shape_launcher() { return &matmul::launch<Shape>; }
template <class Shape> Launcher scalar_launcher() {
  return [](const float *a, const float *b, float *c, int rows, int depth, int cols,
            cudaStream_t stream) {
    matmul::launch_with<Shape, false>(a, b, c, rows, depth, cols, stream);
  };
}

struct SweepEntry {
  const char *name;
  Launcher launcher;
};

// Tile shapes tried at the perf size: <block rows, block cols, slice depth, 4x4 pieces per
// thread down, across, min blocks per SM>.
std::vector<SweepEntry> sweep_entries() {
  using namespace matmul;
  return {
      {"128x128x8  8x8  256t (run-2 default)", shape_launcher<TileShape<128, 128, 8, 2, 2, 2>>()},
      {"128x128x16 8x8  256t", shape_launcher<TileShape<128, 128, 16, 2, 2, 2>>()},
      {"128x256x8  8x16 256t", shape_launcher<TileShape<128, 256, 8, 2, 4, 1>>()},
      {"256x128x8  16x8 256t", shape_launcher<TileShape<256, 128, 8, 4, 2, 1>>()},
      {"128x256x16 8x16 256t", shape_launcher<TileShape<128, 256, 16, 2, 4, 1>>()},
      {"256x128x16 16x8 256t (default)", shape_launcher<TileShape<256, 128, 16, 4, 2, 1>>()},
      {"128x128x8  8x16 128t", shape_launcher<TileShape<128, 128, 8, 2, 4, 2>>()},
      {"128x128x8  8x8  256t 1 block/SM", shape_launcher<TileShape<128, 128, 8, 2, 2, 1>>()},
      {"64x128x8   8x8  128t", shape_launcher<TileShape<64, 128, 8, 2, 2, 3>>()},
      {"128x64x8   8x8  128t", shape_launcher<TileShape<128, 64, 8, 2, 2, 3>>()},
  };
}

} // namespace

int main(int argc, char **argv) {
  bool sweep = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--sweep") == 0) {
      sweep = true;
    } else {
      std::fprintf(stderr, "standalone_bench: argument %d: expected --sweep, got '%s'\n", i,
                   argv[i]);
      return 2;
    }
  }
  const char *tf32_override = std::getenv("NVIDIA_TF32_OVERRIDE");
  if (tf32_override && std::strcmp(tf32_override, "0") != 0) {
    std::fprintf(stderr, "standalone_bench: NVIDIA_TF32_OVERRIDE=%s would let cuBLAS use TF32\n",
                 tf32_override);
    return 2;
  }
  cudaDeviceProp prop;
  GPU_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  CUBLAS_CHECK(cublasCreate(&g_cublas));
  CUBLAS_CHECK(cublasSetMathMode(g_cublas, CUBLAS_DEFAULT_MATH)); // no TF32 tensor-op math

  int failed_checks = 0;
  std::uint64_t seed = 1;

  std::printf("correctness, solve() vs float64 CPU (full):\n");
  const GemmShape small_shapes[] = {
      {1, 1, 1},       {1, 1, 7},        {2, 3, 5},       {3, 1, 2},       {1, 9, 130},
      {31, 32, 33},    {32, 33, 31},     {33, 31, 32},    {63, 64, 65},    {64, 65, 63},
      {65, 63, 64},    {127, 8, 129},    {129, 17, 127},  {128, 128, 128}, {255, 257, 129},
      {257, 9, 255},   {1, 1025, 1023},  {1023, 1, 1025}, {1025, 64, 3},   {4, 4, 4},
      {129, 260, 132}, {300, 1000, 516}, {131, 7, 133},   {96, 1023, 200},
  };
  for (const GemmShape &s : small_shapes) {
    Problem p(s, seed += 2);
    report("solve", s, check_against_cpu(p.run(solve_launcher), p.a, p.b, s), failed_checks);
  }
  {
    // Pointers 4 bytes off 16-byte alignment with vector-friendly sizes: the scalar path.
    const GemmShape s{128, 128, 128};
    Problem p(s, seed += 2, 1);
    report("solve, misaligned pointers", s, check_against_cpu(p.run(solve_launcher), p.a, p.b, s),
           failed_checks);
    CheckTally cublas_tally = check_against_cpu(p.run(cublas_sgemm), p.a, p.b, s);
    report("cuBLAS, same inputs (info)", s, cublas_tally, failed_checks);
  }

  std::printf("correctness vs cuBLAS (full) and float64 (4096 samples):\n");
  const GemmShape large_shapes[] = {
      {1025, 2049, 1031}, {2048, 2048, 2048}, {4097, 3001, 2053}, {8192, 6144, 4096}};
  for (const GemmShape &s : large_shapes) {
    Problem p(s, seed += 2);
    const std::vector<float> ref = p.run(cublas_sgemm);
    const std::vector<float> got = p.run(solve_launcher);
    report("solve vs cuBLAS", s, check_against_cublas(got, ref, p.a, p.b, s), failed_checks);
    report("solve vs float64 sample", s, check_sample(got, p.a, p.b, s, 4096, seed), failed_checks);
    report("cuBLAS vs float64 sample (info)", s, check_sample(ref, p.a, p.b, s, 4096, seed),
           failed_checks);
  }

  const GemmShape perf{8192, 6144, 4096};
  Problem p(perf, seed += 2);
  const int warmup = 5, reps = 20;
  std::printf("timing at %d x %d x %d (M x N x K), median of %d after %d warm-up, alternating:\n",
              perf.rows, perf.depth, perf.cols, reps, warmup);
  const std::vector<double> ms = time_alternating(
      p, {cublas_sgemm, solve_launcher, scalar_launcher<matmul::DefaultShape>()}, warmup, reps);
  const char *names[] = {"cuBLAS SGEMM (FP32, default math)", "solve()", "scalar-load path"};
  for (int i = 0; i < 3; ++i)
    std::printf("  %-36s %8.3f ms %9.1f GFLOP/s  %6.1f%% of cuBLAS\n", names[i], ms[i],
                perf.flops() / ms[i] * 1e-6, 100.0 * ms[0] / ms[i]);

  if (sweep) {
    const std::vector<SweepEntry> entries = sweep_entries();
    std::printf("sweep: correctness at 1000x999x1001, 1032x1000x1028 and the perf size; timing "
                "as above:\n");
    const GemmShape odd{1000, 999, 1001}, vec{1032, 1000, 1028};
    Problem p_odd(odd, seed += 2), p_vec(vec, seed += 2);
    const std::vector<float> ref_odd = p_odd.run(cublas_sgemm);
    const std::vector<float> ref_vec = p_vec.run(cublas_sgemm);
    const std::vector<float> ref_perf = p.run(cublas_sgemm);
    for (const SweepEntry &e : entries) {
      CheckTally t1 = check_against_cublas(p_odd.run(e.launcher), ref_odd, p_odd.a, p_odd.b, odd);
      CheckTally t2 = check_against_cublas(p_vec.run(e.launcher), ref_vec, p_vec.a, p_vec.b, vec);
      CheckTally t3 = check_against_cublas(p.run(e.launcher), ref_perf, p.a, p.b, perf);
      const long long failures = t1.failures + t2.failures + t3.failures;
      if (failures)
        ++failed_checks;
      const std::vector<double> t = time_alternating(p, {cublas_sgemm, e.launcher}, 3, 10);
      char line[256];
      std::snprintf(line, sizeof line, "  %-32s %8.3f ms %9.1f GFLOP/s %6.1f%% of cuBLAS  %s",
                    e.name, t[1], perf.flops() / t[1] * 1e-6, 100.0 * t[0] / t[1],
                    failures ? "CHECK FAILED" : "ok");
      std::printf("%s\n", line);
      std::fflush(stdout);
    }
  }

  CUBLAS_CHECK(cublasDestroy(g_cublas));
  std::printf("%s (%d failed checks)\n", failed_checks ? "FAILED" : "PASSED", failed_checks);
  return failed_checks ? 1 : 0;
}
