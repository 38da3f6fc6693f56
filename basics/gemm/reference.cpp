// gemm: the CPU reference and the harness description (arguments, tolerance, cases). A is M x K,
// B is K x N, C is M x N, all row-major fp16; C = alpha * (A B) + beta * C, rounded to fp16 (C is
// read and overwritten).
//
// The judge's reference converts A, B and C to float32, multiplies in float32 (torch.matmul on
// float32 tensors: cuBLAS SGEMM), forms alpha * product + beta * C in float32 and rounds to fp16.
// This reference sums the exact products of the halves in double and forms alpha * product +
// beta * C in double before the one rounding to fp16; the two differ by the float32 rounding of
// the sums (about 1e-6 relative at the judge's sizes), far below the 0.05 tolerance.
#include "harness/half.h"
#include "harness/spec.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kit::basics {
namespace {

void gemm_reference(const std::uint16_t *A, const std::uint16_t *B, std::uint16_t *C, int M, int N,
                    int K, float alpha, float beta) {
  std::vector<double> b_values(static_cast<std::size_t>(K) * N);
  for (std::size_t i = 0; i < b_values.size(); ++i)
    b_values[i] = half_to_float(B[i]);
  std::vector<double> row(N);
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j)
      row[j] = 0.0;
    for (int k = 0; k < K; ++k) {
      const double a = half_to_float(A[static_cast<std::size_t>(i) * K + k]);
      const double *b = &b_values[static_cast<std::size_t>(k) * N];
      for (int j = 0; j < N; ++j)
        row[j] += a * b[j];
    }
    for (int j = 0; j < N; ++j) {
      std::uint16_t &c = C[static_cast<std::size_t>(i) * N + j];
      c = half_from_double(static_cast<double>(alpha) * row[j] +
                           static_cast<double>(beta) * half_to_float(c));
    }
  }
}

CountFn count_of_product(const char *x, const char *y) {
  return [x, y](const Case &c) {
    return static_cast<std::size_t>(c[x]) * static_cast<std::size_t>(c[y]);
  };
}

} // namespace

const Problem &gemm_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "gemm";
    p.params = {input("A", Elem::f16, count_of_product("M", "K")),
                input("B", Elem::f16, count_of_product("K", "N")),
                inout("C", Elem::f16, count_of_product("M", "N")),
                scalar("M", 1, 8192),
                scalar("N", 1, 8192),
                scalar("K", 1, 8192),
                float_scalar("alpha", -1000.0f, 1000.0f),
                float_scalar("beta", -1000.0f, 1000.0f)};
    p.tolerance = {0.05, 0.05};
    set_reference(p, gemm_reference);
    p.fill = fill_with(p, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    // M, N, K, alpha, beta. Degenerate shapes; 31..33, 63..65, 127..129 around the 64 x 64,
    // 128 x 64 and 128 x 128 block tiles and the 32-deep stages; K or N not a multiple of 8
    // (element-by-element loads); the judge's size; a size that takes the 128 x 128 tile on 132
    // multiprocessors; alpha and beta of every sign, zero included.
    add_tests(p, {{1, 1, 1, 1, 1},
                  {2, 3, 5, 1, 0},
                  {1, 1000, 7, 0.5, 0.5},
                  {1000, 1, 9, 1, 1},
                  {31, 33, 17, 1, 1},
                  {32, 32, 32, 1, 1},
                  {33, 31, 33, -2, 0.25},
                  {63, 65, 64, 1, 1},
                  {64, 64, 63, 0, 1},
                  {65, 64, 65, 1, -1},
                  {127, 129, 31, 0.5, 0.5},
                  {128, 128, 128, 1, 0},
                  {129, 127, 129, 1, 1},
                  {257, 255, 300, 1, 1},
                  {1000, 1003, 999, 1, 1},
                  {1024, 1024, 1024, 1, 1},
                  {2048, 2176, 256, 1, 1}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/22_gemm";
    j.tolerance = {0.05, 0.05};
    const std::vector<double> example_a = {1, 2, 3, 4, 5, 6};
    const std::vector<double> example_b = {1, 2, 3, 4, 5, 6};
    j.example = judge_case(p, "example", {2, 2, 3, 1, 0},
                           {given(example_a), given(example_b), constant(1)});
    add_judge_functional(p, {16, 16, 16, 1, 0}, {uniform(-1, 1), uniform(-1, 1), constant(0)});
    add_judge_functional(p, {16, 16, 16, 1, 1},
                         {uniform(-0.5, 0.5), uniform(-0.5, 0.5), uniform(-0.5, 0.5)});
    add_judge_functional(p, {32, 16, 16, 0.5, 0.5},
                         {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    add_judge_functional(p, {16, 32, 16, 1, 1}, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    add_judge_functional(p, {16, 16, 32, 0, 1}, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    j.performance = judge_case(p, "performance", {1024, 1024, 1024, 1, 1},
                               {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    // M N K multiply-adds on the tensor cores, measured against the FP32 FMA rate (the harness's
    // compute limit; the dense fp16 tensor-core rate is about 15 times higher, README.md). Bytes:
    // A and B read once, C read and written.
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) {
      return 2.0 * (c["M"] * c["K"] + c["K"] * c["N"] + 2.0 * c["M"] * c["N"]);
    };
    p.model.ops = [](const Case &c) { return c["M"] * c["N"] * c["K"]; };
    return p;
  }();
  return problem;
}

} // namespace kit::basics
