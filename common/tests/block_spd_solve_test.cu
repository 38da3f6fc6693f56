// The block's symmetric positive definite solve (primitives/block_spd_solve.h) on its own:
// matrices B^T B + n I of random B (well conditioned) and of nearly dependent columns (badly
// conditioned), sizes 1, 2, warp edges (31..33, 63..65) and larger than a block's threads per row,
// for 64-, 256- and the largest blocks, the system in global memory and (up to 48 KB) in shared
// memory. Each solution is compared with a host solve in double by its residual.
#include "gpu/check.h"
#include "gpu/device.h"
#include "primitives/block_spd_solve.h"
#include "testing/test_support.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int kSharedLimitDoubles = 6144; // 48 KB: the system in shared memory up to n = 77

template <int kBlock> __global__ void solve_global(double *A, double *b, double *x, int n) {
  kit::block_spd::solve<kBlock>(A, b, x, n);
}

template <int kBlock>
__global__ void solve_shared(const double *A, const double *b, double *x, int n) {
  extern __shared__ double system[]; // A, then b
  for (int e = threadIdx.x; e < n * n + n; e += kBlock)
    system[e] = e < n * n ? A[e] : b[e - n * n];
  kit::block_spd::solve<kBlock>(system, system + n * n, x, n);
}

// A = B^T B + scale * n I with B n x n; `dependent` makes B's columns nearly equal.
std::vector<double> make_spd(std::mt19937 &rng, int n, bool dependent) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> B(static_cast<size_t>(n) * n), A(static_cast<size_t>(n) * n);
  for (int r = 0; r < n; ++r) {
    const double shared_part = u(rng);
    for (int c = 0; c < n; ++c)
      B[r * n + c] = dependent ? shared_part + 1e-3 * u(rng) : u(rng);
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int r = 0; r < n; ++r)
        s += B[r * n + i] * B[r * n + j];
      A[i * n + j] = s + (i == j ? (dependent ? 1e-6 : 1.0) * n : 0.0);
    }
  return A;
}

// max_i |(A x - b)_i| / (|A| |x| + |b|), the backward error of x.
double residual(const std::vector<double> &A, const std::vector<double> &b,
                const std::vector<double> &x, int n) {
  double worst = 0, norm_a = 0, norm_x = 0, norm_b = 0;
  for (int i = 0; i < n; ++i) {
    norm_x = std::fmax(norm_x, std::fabs(x[i]));
    norm_b = std::fmax(norm_b, std::fabs(b[i]));
    double row = 0;
    for (int j = 0; j < n; ++j)
      row += std::fabs(A[i * n + j]);
    norm_a = std::fmax(norm_a, row);
  }
  for (int i = 0; i < n; ++i) {
    double s = -b[i];
    for (int j = 0; j < n; ++j)
      s += A[i * n + j] * x[j];
    worst = std::fmax(worst, std::fabs(s));
  }
  return worst / (norm_a * norm_x + norm_b);
}

template <int kBlock>
void check_solve(kit::test::Checker &check, std::mt19937 &rng, int n, bool dependent) {
  const std::vector<double> A = make_spd(rng, n, dependent);
  std::uniform_real_distribution<double> u(-10.0, 10.0);
  std::vector<double> b(n);
  for (double &v : b)
    v = u(rng);
  for (const bool in_shared : {false, true}) {
    if (in_shared && n * n + n > kSharedLimitDoubles)
      continue;
    kit::test::DeviceBuffer<double> dA(A.size()), db(b.size()), dx(b.size());
    dA.upload(A);
    db.upload(b);
    if (in_shared)
      solve_shared<kBlock>
          <<<1, kBlock, (n * n + n) * sizeof(double)>>>(dA.get(), db.get(), dx.get(), n);
    else
      solve_global<kBlock><<<1, kBlock>>>(dA.get(), db.get(), dx.get(), n);
    GPU_CHECK_LAUNCH("block_spd_solve");
    GPU_CHECK(cudaDeviceSynchronize());
    const double error = residual(A, b, dx.download(), n);
    const std::string what = "block " + std::to_string(kBlock) + ", n " + std::to_string(n) +
                             (dependent ? ", nearly dependent" : "") +
                             (in_shared ? ", shared" : ", global") + ": backward error " +
                             std::to_string(error);
    check.expect(error < 1e-13, what.c_str());
  }
}

template <int kBlock> void check_sizes(kit::test::Checker &check, std::mt19937 &rng) {
  for (int n : {1, 2, 3, 8, 31, 32, 33, 63, 64, 65, 77, 100, 300})
    for (bool dependent : {false, true})
      check_solve<kBlock>(check, rng, n, dependent);
}

} // namespace

int main() {
  kit::test::begin_gpu_test("block_spd_solve_test");
  kit::test::Checker check;
  std::mt19937 rng(20261128);
  check_sizes<64>(check, rng);
  check_sizes<256>(check, rng);
  check_sizes<kit::test::kLargestBlock>(check, rng);
  return check.finish("block_spd_solve_test");
}
