// sparse_matrix_vector_multiplication: the CPU reference and the harness description (arguments,
// tolerance, cases). A is an M x N row-major float matrix stored densely, most of its entries 0;
// y = A x has M elements. nnz (the number of non-zero entries) is information only: neither the
// reference nor the kernel needs it.
#include "harness/sparse_values.h"
#include "harness/spec.h"

#include <cstddef>
#include <string>
#include <vector>

namespace kit::basics {
namespace {

// Each element summed in double (the judge's reference is torch.matmul in float32, cuBLAS's
// matrix-vector product).
void sparse_matrix_vector_multiplication_reference(const float *A, const float *x, float *y, int M,
                                                   int N, int) {
  for (int i = 0; i < M; ++i) {
    const float *row = A + static_cast<std::size_t>(i) * N;
    double sum = 0;
    for (int j = 0; j < N; ++j)
      sum += static_cast<double>(row[j]) * static_cast<double>(x[j]);
    y[i] = static_cast<float>(sum);
  }
}

// The kit's cases at the judge's density: 35% of the entries non-zero.
std::vector<double> at_judge_density(double M, double N) { return {M, N, nnz_at(M, N, 0.35)}; }

} // namespace

const Problem &sparse_matrix_vector_multiplication_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "sparse_matrix_vector_multiplication";
    p.params = {input("A", Elem::f32, count_of("M", "N")),
                input("x", Elem::f32, count_of("N")),
                output("y", Elem::f32, count_of("M")),
                scalar("M", 1, 10000),
                scalar("N", 1, 10000),
                scalar("nnz", 0, 100000000)};
    p.tolerance = {1e-3, 1e-3};
    set_reference(p, sparse_matrix_vector_multiplication_reference);
    p.check = [](const Case &c) -> std::string {
      return c["nnz"] <= c["M"] * c["N"] ? "" : "nnz must be at most M * N";
    };
    // The performance case's values: A's non-zeros U(-10, 10), x U(-5, 5).
    p.fill = fill_with(p, {sparse_uniform(-10, 10), uniform(-5, 5)});
    // Rows of 1..5 columns (shorter than one 16-byte vector, and N % 4 = 1, 2, 3), around one
    // vector per thread of the 256-thread block (1023..1025) and around its step of 1,024 vectors
    // (4095..4097), the challenge's largest N; one to thousands of rows; an empty and a full
    // matrix.
    for (double M : {1.0, 2.0, 3.0, 31.0, 64.0, 1000.0})
      for (double N : {1.0, 2.0, 3.0, 4.0, 5.0, 31.0, 33.0, 1023.0, 1024.0, 1025.0, 4095.0, 4096.0,
                       4097.0, 10000.0})
        add_tests(p, {at_judge_density(M, N)});
    add_tests(p, {at_judge_density(10000, 10000),
                  at_judge_density(10000, 1),
                  at_judge_density(10000, 4),
                  at_judge_density(4096, 4096),
                  {33, 65, 0},
                  {33, 65, 33 * 65},
                  {1000, 10000, 10000000}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/18_sparse_matrix_vector_multiplication";
    j.tolerance = {1e-3, 1e-3};
    j.example = judge_case(p, "example", {3, 4, 5},
                           {given({5, 0, 0, 1, 0, 2, 3, 0, 0, 0, 0, 4}), given({1, 2, 3, 4})});
    add_judge_functional(p, {2, 2, 4}, {given({1, 2, 3, 4}), given({1, 1})});
    add_judge_functional(p, {3, 3, 3}, {given({1, 0, 0, 0, 1, 0, 0, 0, 1}), given({1, 2, 3})});
    add_judge_functional(p, {2, 3, 0}, {constant(0), given({1, 2, 3})});
    add_judge_functional(p, {3, 4, 3},
                         {given({1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0}), given({1, 2, 3, 4})});
    add_judge_functional(p, {2, 3, 6}, {given({-1, -2, -3, -4, -5, -6}), given({-1, -2, -3})});
    add_judge_functional(
        p, {10, 8, 35},
        {given({1, 0, 2, 0, 0, 3, 0, 4, 0, 5, 0, 6, 0, 0, 7, 0, 8, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0,
                1, 2, 0, 0, 0, 0, 3, 0, 0, 4, 5, 0, 0, 6, 0, 0, 7, 0, 8, 0, 0, 0, 0, 9, 0, 1, 0,
                2, 0, 3, 0, 0, 0, 0, 4, 5, 6, 0, 7, 8, 0, 0, 0, 9, 0, 1, 0, 2, 3, 0, 0, 0, 4}),
         given({1, 2, 3, 4, 5, 6, 7, 8})});
    // 20 x 20, each entry kept with probability 0.35 (nnz is the kept count: 140 expected).
    add_judge_functional(p, {20, 20, 140}, {sparse_uniform(-5, 5), uniform(-2, 2)});
    j.performance = judge_case(p, "performance", {1000, 10000, 3500000},
                               {sparse_uniform(-10, 10), uniform(-5, 5)});
    // One read of A and x, one write of y.
    p.model = memory_bound([](const Case &c) {
      return 4.0 * (static_cast<double>(c["M"]) * static_cast<double>(c["N"]) +
                    static_cast<double>(c["N"]) + static_cast<double>(c["M"]));
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
