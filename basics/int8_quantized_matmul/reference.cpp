// int8_quantized_matmul: the CPU reference and the harness description (arguments, tolerance,
// cases). A is M x K, B is K x N, C is M x N, all row-major int8.
//
// C = clamp(round(acc * scale_A * scale_B / scale_C) + zero_point_C, -128, 127) with
// acc = sum_k (A[m][k] - zero_point_A) (B[k][n] - zero_point_B). The judge forms acc as an FP32
// matrix product of the shifted values, rounded to an integer: that is the exact integer whenever
// every partial sum stays below 2^24 in magnitude, true of every case the challenge draws (the
// performance case's sums have a standard deviation near 2.5e5). The reference sums exactly in
// 64-bit integers, and requantises with the kernel's own function (requantize.h: torch's FP32
// steps).
#include "harness/spec.h"
#include "int8_quantized_matmul/requantize.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kit::basics {
namespace {

using kit::int8_quantized_matmul::reciprocal_of;
using kit::int8_quantized_matmul::Requantize;

Requantize requantize_of(float scale_A, float scale_B, float scale_C, int zero_point_C) {
  return {scale_A, scale_B, reciprocal_of(scale_C), zero_point_C};
}

// The exact sum, held to int32 as the kernel's accumulator holds it (|acc| <= 255^2 K < 2^31).
std::int32_t dot(const std::int8_t *A, const std::int8_t *B, int N, int K, int m, int n, int za,
                 int zb) {
  long long acc = 0;
  for (int k = 0; k < K; ++k)
    acc += static_cast<long long>(A[static_cast<std::size_t>(m) * K + k] - za) *
           (B[static_cast<std::size_t>(k) * N + n] - zb);
  return static_cast<std::int32_t>(acc);
}

void int8_quantized_matmul_reference(const std::int8_t *A, const std::int8_t *B, std::int8_t *C,
                                     int M, int N, int K, float scale_A, float scale_B,
                                     float scale_C, int zero_point_A, int zero_point_B,
                                     int zero_point_C) {
  const Requantize requantize = requantize_of(scale_A, scale_B, scale_C, zero_point_C);
  std::vector<long long> row(static_cast<std::size_t>(N));
  for (int m = 0; m < M; ++m) {
    std::fill(row.begin(), row.end(), 0LL);
    for (int k = 0; k < K; ++k) {
      const long long a = A[static_cast<std::size_t>(m) * K + k] - zero_point_A;
      const std::int8_t *b = B + static_cast<std::size_t>(k) * N;
      for (int n = 0; n < N; ++n)
        row[n] += a * (b[n] - zero_point_B);
    }
    for (int n = 0; n < N; ++n)
      C[static_cast<std::size_t>(m) * N + n] = requantize(static_cast<std::int32_t>(row[n]));
  }
}

// Whole rows and whole columns of C: the first, the last and 8 random ones of each.
std::vector<SampledValue> sample_products(const Case &c, Rng &rng) {
  const int M = static_cast<int>(c["M"]), N = static_cast<int>(c["N"]),
            K = static_cast<int>(c["K"]);
  const int za = static_cast<int>(c["zero_point_A"]), zb = static_cast<int>(c["zero_point_B"]);
  const Requantize requantize = requantize_of(
      c.real("scale_A"), c.real("scale_B"), c.real("scale_C"), static_cast<int>(c["zero_point_C"]));
  const auto *A = c.array<std::int8_t>(0);
  const auto *B = c.array<std::int8_t>(1);
  std::vector<int> rows = {0, M - 1}, cols = {0, N - 1};
  for (int s = 0; s < 8; ++s) {
    rows.push_back(static_cast<int>(rng.uniform_int(0, M - 1)));
    cols.push_back(static_cast<int>(rng.uniform_int(0, N - 1)));
  }
  std::vector<SampledValue> expected;
  for (int m : rows)
    for (int n = 0; n < N; ++n)
      expected.push_back({2, static_cast<std::size_t>(m) * N + n,
                          static_cast<double>(requantize(dot(A, B, N, K, m, n, za, zb)))});
  for (int n : cols)
    for (int m = 0; m < M; ++m)
      expected.push_back({2, static_cast<std::size_t>(m) * N + n,
                          static_cast<double>(requantize(dot(A, B, N, K, m, n, za, zb)))});
  return expected;
}

// Every byte at an extreme (-128 or 127): the largest products, and with the scales below
// results far outside int8 on both sides, so the clamp is exercised at -128 and 127.
void fill_extremes(Case &c, Rng &rng) {
  for (std::size_t a = 0; a < 2; ++a) {
    auto *x = c.array<std::int8_t>(a);
    for (std::size_t i = 0; i < c.count(a); ++i)
      x[i] = static_cast<std::int8_t>(rng.uniform_int(0, 1) != 0 ? 127 : -128);
  }
}

} // namespace

const Problem &int8_quantized_matmul_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "int8_quantized_matmul";
    p.params = {input("A", Elem::i8, count_of("M", "K")),
                input("B", Elem::i8, count_of("K", "N")),
                output("C", Elem::i8, count_of("M", "N")),
                scalar("M", 1, 8192),
                scalar("N", 1, 8192),
                scalar("K", 1, 8192),
                float_scalar("scale_A", 1e-6f, 1e6f),
                float_scalar("scale_B", 1e-6f, 1e6f),
                float_scalar("scale_C", 1e-6f, 1e6f),
                scalar("zero_point_A", -128, 127),
                scalar("zero_point_B", -128, 127),
                scalar("zero_point_C", -128, 127)};
    p.tolerance = {0, 0};
    set_reference(p, int8_quantized_matmul_reference);
    p.fill = fill_with(p, {integers(-128, 127), integers(-128, 127)});
    // Scalars: M, N, K, scale_A, scale_B, scale_C, zero_point_A, zero_point_B, zero_point_C.
    // Degenerate shapes and both sides of the 128- and 64-wide tiles and of the 32-deep slice;
    // K not a multiple of 4 or 16 (the loads' widths).
    add_tests(p, {{1, 1, 1, 0.1, 0.2, 0.05, 0, 0, 0},
                  {1, 1, 3, 1, 1, 1, 1, 3, 5},
                  {2, 3, 5, 0.5, 0.25, 0.125, 1, -2, 3},
                  {31, 33, 17, 0.02, 0.03, 0.5, 0, 0, 0},
                  {63, 65, 31, 0.01, 0.01, 0.1, -7, 9, -3},
                  {64, 64, 32, 0.01, 0.02, 0.3, 0, 0, 0},
                  {65, 63, 33, 0.015, 0.01, 0.2, 5, -5, 2},
                  {127, 129, 63, 0.003, 0.01, 0.07, 0, 0, 0},
                  {128, 128, 64, 0.001, 0.002, 0.05, 0, 0, 0},
                  {129, 127, 65, 0.001, 0.002, 0.05, 127, -128, 0},
                  {257, 255, 1000, 0.001, 0.001, 0.017, -1, 2, 10},
                  {1, 4096, 2048, 0.1, 0.1, 0.01, 0, 0, 0},
                  {4096, 1, 2048, 0.1, 0.1, 0.01, 0, 0, 0},
                  {1000, 1001, 999, 1e-4f, 1e-3f, 0.03, 3, -4, -1}});
    // Half-way results: acc * 0.5 lands on .5 for every odd acc, so round-half-to-even shows
    // (round-half-away would differ on half of them); unit scales with zero points saturate.
    add_tests(p, {{33, 35, 7, 0.5, 1, 1, 0, 0, 0}, {65, 66, 64, 0.25, 0.5, 2, 1, -1, 0}},
              fill_with(p, {integers(-4, 4), integers(-4, 4)}), ",ties");
    add_tests(p, {{65, 67, 129, 1, 1, 1, 0, 0, 0}, {128, 64, 2048, 0.1, 0.1, 0.01, -128, 127, 0}},
              fill_extremes, ",extremes");
    // The official challenge, from the facts of its challenge.py: the tolerance it states (exact),
    // its example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/32_int8_quantized_matmul";
    j.tolerance = {0, 0};
    j.example = judge_case(p, "example", {2, 2, 2, 0.1, 0.2, 0.05, 0, 0, 0},
                           {given({1, 2, 3, 4}), given({5, 6, 7, 8})});
    add_judge_functional(p, {4, 4, 4, 0.1, 0.2, 0.05, 0, 0, 0},
                         {integers(-128, 127), integers(-128, 127)});
    add_judge_functional(p, {2, 3, 5, 0.5, 0.25, 0.125, 1, -2, 3},
                         {integers(-128, 127), integers(-128, 127)});
    add_judge_functional(p, {1, 1, 3, 1, 1, 1, 1, 3, 5},
                         {integers(-128, 127), integers(-128, 127)});
    add_judge_functional(p, {3, 5, 2, 0.05, 0.1, 0.01, 0, 0, 0},
                         {integers(-50, 50), integers(-50, 50)});
    add_judge_functional(p, {32, 32, 16, 0.2, 0.3, 0.1, 0, 0, 0},
                         {integers(-128, 127), integers(-128, 127)});
    j.performance = judge_case(p, "performance", {8192, 4096, 2048, 0.1, 0.1, 0.01, 0, 0, 0},
                               {integers(-128, 127), integers(-128, 127)});
    // Compute-bound: the benchmark reports the multiply-adds against the FP32 FMA rate it
    // measures (as gemm does; the int8 matrix units run well above it), and the bytes moved.
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) {
      return static_cast<double>(c["M"] * c["K"] + c["K"] * c["N"] + c["M"] * c["N"]);
    };
    p.model.ops = [](const Case &c) {
      return static_cast<double>(c["M"]) * static_cast<double>(c["N"]) *
             static_cast<double>(c["K"]);
    };
    p.reference_work = [](const Case &c) {
      return static_cast<double>(c["M"]) * static_cast<double>(c["N"]) *
             static_cast<double>(c["K"]);
    };
    p.full_reference_limit = 2e9;
    p.sampled_reference = sample_products;
    return p;
  }();
  return problem;
}

} // namespace kit::basics
