// batched_matrix_multiplication: the CPU reference and the harness description (arguments,
// tolerance, cases). A is BATCH x M x K, B is BATCH x K x N, C[b] = A[b] * B[b] is BATCH x M x N
// (K is the inner size), row-major floats.
//
// The judge's tolerance (1e-5 absolute and relative against torch.bmm's FP32 result) is below the
// rounding error of an FP32 sum: at K = 256 with U(-10, 10) values the products' magnitudes add up
// to about 6,400, whose FP32 rounding (~4e-4) dwarfs 1e-5 wherever the result is near zero. No
// reference in another precision or order can judge such a result; what passes is the same FMA
// chain as cuBLAS's FP32 kernel: acc = fma(a[k], b[k], acc) over ascending k from 0. That chain is
// the reference here, in FP32 (the kernel's promise, common/primitives/gemm.h), so every test is a
// bit-for-bit check of the summation order.
#include "harness/spec.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

void batched_matrix_multiplication_reference(const float *A, const float *B, float *C, int BATCH,
                                             int M, int N, int K) {
  for (int b = 0; b < BATCH; ++b) {
    const float *a = A + static_cast<std::size_t>(b) * M * K;
    const float *bb = B + static_cast<std::size_t>(b) * K * N;
    float *c = C + static_cast<std::size_t>(b) * M * N;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
          acc = std::fma(a[static_cast<std::size_t>(i) * K + k],
                         bb[static_cast<std::size_t>(k) * N + j], acc);
        c[static_cast<std::size_t>(i) * N + j] = acc;
      }
  }
}

CountFn count_of_three(const char *x, const char *y, const char *z) {
  return [x, y, z](const Case &c) {
    return static_cast<std::size_t>(c[x]) * static_cast<std::size_t>(c[y]) *
           static_cast<std::size_t>(c[z]);
  };
}

} // namespace

const Problem &batched_matrix_multiplication_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "batched_matrix_multiplication";
    p.params = {input("A", Elem::f32, count_of_three("BATCH", "M", "K")),
                input("B", Elem::f32, count_of_three("BATCH", "K", "N")),
                output("C", Elem::f32, count_of_three("BATCH", "M", "N")),
                scalar("BATCH", 1, 100000),
                scalar("M", 1, 4096),
                scalar("N", 1, 4096),
                scalar("K", 1, 4096)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, batched_matrix_multiplication_reference);
    p.fill = fill_with(p, {uniform(-10, 10), uniform(-10, 10)});
    // BATCH, M, N, K: degenerate shapes; 1, 31..33, 63..65 and the 64 x 64 tile +- 1 in each
    // dimension; N % 4 != 0 and K % 4 != 0 (scalar loads); the 32 x 32 and 256 x 128 tiles' edges;
    // more batches than one grid's 65535.
    add_tests(p, {{1, 1, 1, 1},
                  {3, 1, 7, 1},
                  {2, 7, 1, 3},
                  {5, 1, 1, 33},
                  {2, 31, 32, 33},
                  {3, 33, 31, 32},
                  {2, 63, 64, 65},
                  {2, 65, 63, 64},
                  {4, 64, 65, 63},
                  {3, 64, 64, 64},
                  {2, 32, 32, 32},
                  {7, 33, 33, 17},
                  {2, 257, 129, 100},
                  {1, 255, 256, 257},
                  {32, 256, 256, 256},
                  {70000, 1, 2, 3},
                  {3, 300, 1000, 64}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/30_batched_matrix_multiplication";
    j.tolerance = {1e-5, 1e-5};
    const std::vector<double> example_a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const std::vector<double> example_b = {1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1};
    j.example = judge_case(p, "example", {2, 2, 2, 3}, {given(example_a), given(example_b)});
    add_judge_functional(p, {2, 2, 2, 3}, {given(example_a), given(example_b)});
    add_judge_functional(p, {1, 3, 3, 3},
                         {given({1, 0, 2, 0, 1, 2, 2, 1, 0}), given({2, 1, 0, 1, 2, 0, 0, 1, 2})});
    add_judge_functional(p, {4, 2, 2, 2}, {uniform(-1, 1), uniform(-1, 1)});
    add_judge_functional(p, {8, 4, 3, 2}, {uniform(-10, 10), uniform(-10, 10)});
    add_judge_functional(p, {16, 16, 16, 16}, {uniform(-1, 1), uniform(-1, 1)});
    add_judge_functional(p, {2, 8, 6, 4}, {uniform(-5, 5), uniform(-5, 5)});
    j.performance =
        judge_case(p, "performance", {32, 256, 256, 256}, {uniform(-10, 10), uniform(-10, 10)});
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) {
      return 4.0 * c["BATCH"] * (c["M"] * c["K"] + c["K"] * c["N"] + c["M"] * c["N"]);
    };
    p.model.ops = [](const Case &c) { return c["BATCH"] * c["M"] * c["N"] * c["K"]; };
    return p;
  }();
  return problem;
}

} // namespace kit::basics
