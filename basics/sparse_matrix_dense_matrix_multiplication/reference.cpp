// sparse_matrix_dense_matrix_multiplication: the CPU reference and the harness description
// (arguments, tolerance, cases). A is M x N stored densely, most of its entries 0, B is N x K,
// C = A B is M x K (N is the inner size), row-major floats. nnz (A's non-zero count) is
// information only: neither the reference nor the kernel needs it.
#include "harness/sparse_values.h"
#include "harness/spec.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace kit::basics {
namespace {

// Each element summed in double over A's non-zero entries (a zero entry adds nothing); the judge's
// reference is torch.matmul in float32 (cuBLAS's SGEMM).
void sparse_matrix_dense_matrix_multiplication_reference(const float *A, const float *B, float *C,
                                                         int M, int N, int K, int) {
  std::vector<double> row(static_cast<std::size_t>(K));
  for (int i = 0; i < M; ++i) {
    std::fill(row.begin(), row.end(), 0.0);
    for (int j = 0; j < N; ++j) {
      const double a = A[static_cast<std::size_t>(i) * N + j];
      if (a == 0)
        continue;
      const float *b = B + static_cast<std::size_t>(j) * K;
      for (int k = 0; k < K; ++k)
        row[k] += a * b[k];
    }
    for (int k = 0; k < K; ++k)
      C[static_cast<std::size_t>(i) * K + k] = static_cast<float>(row[k]);
  }
}

// M, N, K and the nnz of A at the given fraction of non-zero entries.
std::vector<double> shape(double M, double N, double K, double fraction) {
  return {M, N, K, nnz_at(M, N, fraction)};
}

} // namespace

const Problem &sparse_matrix_dense_matrix_multiplication_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "sparse_matrix_dense_matrix_multiplication";
    p.params = {input("A", Elem::f32, count_of("M", "N")),
                input("B", Elem::f32, count_of("N", "K")),
                output("C", Elem::f32, count_of("M", "K")),
                scalar("M", 1, 8192),
                scalar("N", 1, 8192),
                scalar("K", 1, 8192),
                scalar("nnz", 0, 67108864)};
    p.tolerance = {1e-3, 1e-3};
    set_reference(p, sparse_matrix_dense_matrix_multiplication_reference);
    p.check = [](const Case &c) -> std::string {
      return c["nnz"] <= c["M"] * c["N"] ? "" : "nnz must be at most M * N";
    };
    // The performance case's values: A's non-zeros U(-1, 1), B U(-1, 1).
    p.fill = fill_with(p, {sparse_uniform(-1, 1), uniform(-1, 1)});
    // Degenerate shapes; both sides of the 64- (32- on 64-lane warps) row, 256-column and 16-deep
    // tiles; K % 4 != 0 and N % 4 != 0 (single-float path); the judge's shapes.
    add_tests(p,
              {shape(1, 1, 1, 1.0), shape(1, 1, 7, 1.0), shape(7, 1, 1, 1.0), shape(1, 7, 1, 0.35),
               shape(2, 3, 2, 0.35), shape(31, 33, 32, 0.35), shape(32, 16, 255, 0.35),
               shape(33, 15, 256, 0.35), shape(63, 17, 257, 0.35), shape(64, 64, 512, 0.35),
               shape(65, 100, 513, 0.35), shape(129, 31, 33, 0.35), shape(255, 100, 33, 0.3),
               shape(1000, 500, 64, 0.35), shape(1000, 1537, 999, 0.35), shape(8192, 40, 3, 0.35),
               shape(3, 8192, 1024, 0.35), shape(4096, 2048, 512, 0.35)});
    // An empty A, a full one, a 1% one.
    add_tests(p, {{65, 33, 257, 0}, shape(65, 33, 257, 1.0), shape(1000, 2048, 512, 0.01)});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times. Its random cases keep each
    // entry of A with probability 0.35 or 0.3 (torch.rand > 0.65 or > 0.70) and pass the kept
    // count as nnz; the kit places exactly nnz_at(M, N, fraction) entries.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/75_sparse_matrix_dense_matrix_multiplication";
    j.tolerance = {1e-3, 1e-3};
    j.example =
        judge_case(p, "example", {3, 4, 2, 4},
                   {given({2, 0, 0, 1, 0, 3, 0, 0, 0, 0, 4, 0}), given({1, 2, 3, 4, 5, 6, 7, 8})});
    add_judge_functional(p, {1, 1, 1, 1}, {given({3}), given({2})});
    add_judge_functional(p, {2, 2, 1, 2}, {given({1, 0, 0, 2}), given({3, 4})});
    add_judge_functional(p, {3, 3, 2, 0}, {constant(0), given({1, 2, 3, 4, 5, 6})});
    add_judge_functional(p, {4, 4, 3, 4},
                         {given({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}),
                          given({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})});
    add_judge_functional(p, shape(16, 16, 8, 0.35), {sparse_uniform(-2, 2), uniform(-1, 1)});
    add_judge_functional(p, shape(64, 32, 16, 0.3), {sparse_uniform(-3, 3), uniform(-1, 1)});
    add_judge_functional(p, shape(30, 50, 20, 0.35), {sparse_uniform(-5, 5), uniform(-3, 3)});
    add_judge_functional(p, shape(255, 100, 33, 0.3), {sparse_uniform(-2, 2), uniform(-1, 1)});
    add_judge_functional(p, shape(1000, 500, 64, 0.35), {sparse_uniform(-1, 1), uniform(-1, 1)});
    j.performance = judge_case(p, "performance", shape(4096, 2048, 512, 0.35),
                               {sparse_uniform(-1, 1), uniform(-1, 1)});
    // The FMAs of the dense product, M * N * K (what the kernel issues), against the FP32 rate.
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) {
      return 4.0 * static_cast<double>(c["M"] * c["N"] + c["N"] * c["K"] + c["M"] * c["K"]);
    };
    p.model.ops = [](const Case &c) {
      return static_cast<double>(c["M"]) * static_cast<double>(c["N"]) *
             static_cast<double>(c["K"]);
    };
    return p;
  }();
  return problem;
}

} // namespace kit::basics
