// int4_matmul: the CPU reference and the harness description (arguments, tolerance, cases).
// y = x W^T with x M x K (fp16), W N x K dequantised from 4-bit weights, y M x N (fp16):
// W[n][k] = (nibble(n, k) - 8) * scales[n][k / group_size], where byte w_q[n][k / 2] holds
// nibble(n, k) for even k in its high four bits and for odd k in its low four bits.
//
// The judge dequantises in FP32 (exact: a 4-bit integer times a half needs 14 bits), multiplies in
// FP32 and rounds the result to half. The reference sums in double and rounds once to half; the
// two differ by far less than the 0.01 absolute and relative tolerance at the challenge's sizes.
#include "harness/half.h"
#include "harness/spec.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kit::basics {
namespace {

// The signed 4-bit weight W[n][k] / scale, from the packed row of n.
int weight_at(const unsigned char *packed_row, int k) {
  const unsigned byte = packed_row[k / 2];
  return static_cast<int>(k % 2 == 0 ? byte >> 4 : byte & 0xFu) - 8;
}

// One row of W, dequantised exactly (in double).
void dequantise_row(const unsigned char *w_q, const std::uint16_t *scales, int K, int group_size,
                    int n, std::vector<double> &row) {
  const unsigned char *packed = w_q + static_cast<std::size_t>(n) * (K / 2);
  const std::uint16_t *scale_row = scales + static_cast<std::size_t>(n) * (K / group_size);
  row.resize(static_cast<std::size_t>(K));
  for (int k = 0; k < K; ++k)
    row[k] = weight_at(packed, k) * static_cast<double>(half_to_float(scale_row[k / group_size]));
}

void int4_matmul_reference(const std::uint16_t *x, const unsigned char *w_q,
                           const std::uint16_t *scales, std::uint16_t *y, int M, int N, int K,
                           int group_size) {
  std::vector<double> xd(static_cast<std::size_t>(M) * K);
  for (std::size_t i = 0; i < xd.size(); ++i)
    xd[i] = half_to_float(x[i]);
  std::vector<double> w;
  for (int n = 0; n < N; ++n) {
    dequantise_row(w_q, scales, K, group_size, n, w);
    for (int m = 0; m < M; ++m) {
      const double *xr = xd.data() + static_cast<std::size_t>(m) * K;
      double sum = 0;
      for (int k = 0; k < K; ++k)
        sum += xr[k] * w[k];
      y[static_cast<std::size_t>(m) * N + n] = half_from_double(sum);
    }
  }
}

// Whole rows and whole columns of y: the first, the last and 8 random ones of each.
std::vector<SampledValue> sample_products(const Case &c, Rng &rng) {
  const int M = static_cast<int>(c["M"]), N = static_cast<int>(c["N"]),
            K = static_cast<int>(c["K"]), group_size = static_cast<int>(c["group_size"]);
  const auto *x = c.array<std::uint16_t>(0);
  const auto *w_q = c.array<unsigned char>(1);
  const auto *scales = c.array<std::uint16_t>(2);
  std::vector<int> rows = {0, M - 1}, cols = {0, N - 1};
  for (int s = 0; s < 8; ++s) {
    rows.push_back(static_cast<int>(rng.uniform_int(0, M - 1)));
    cols.push_back(static_cast<int>(rng.uniform_int(0, N - 1)));
  }
  auto dot = [&](const std::vector<double> &w, int m) {
    double sum = 0;
    for (int k = 0; k < K; ++k)
      sum += static_cast<double>(half_to_float(x[static_cast<std::size_t>(m) * K + k])) * w[k];
    return static_cast<double>(half_to_float(half_from_double(sum)));
  };
  std::vector<SampledValue> expected;
  std::vector<double> w;
  for (int n = 0; n < N; ++n) {
    dequantise_row(w_q, scales, K, group_size, n, w);
    for (int m : rows)
      expected.push_back({3, static_cast<std::size_t>(m) * N + n, dot(w, m)});
  }
  for (int n : cols) {
    dequantise_row(w_q, scales, K, group_size, n, w);
    for (int m = 0; m < M; ++m)
      expected.push_back({3, static_cast<std::size_t>(m) * N + n, dot(w, m)});
  }
  return expected;
}

std::size_t packed_count(const Case &c) {
  return static_cast<std::size_t>(c["N"]) * static_cast<std::size_t>(c["K"] / 2);
}

std::size_t scale_count(const Case &c) {
  return static_cast<std::size_t>(c["N"]) * static_cast<std::size_t>(c["K"] / c["group_size"]);
}

} // namespace

const Problem &int4_matmul_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "int4_matmul";
    p.params = {input("x", Elem::f16, count_of("M", "K")),
                input("w_q", Elem::u8, packed_count),
                input("scales", Elem::f16, scale_count),
                output("y", Elem::f16, count_of("M", "N")),
                scalar("M", 1, 8192),
                scalar("N", 1, 8192),
                scalar("K", 2, 8192),
                scalar("group_size", 1, 8192)};
    p.tolerance = {0.01, 0.01};
    set_reference(p, int4_matmul_reference);
    p.check = [](const Case &c) -> std::string {
      if (c["K"] % 2 != 0)
        return "K must be even (two weights per byte)";
      if (c["K"] % c["group_size"] != 0)
        return "K must be a multiple of group_size";
      return "";
    };
    // The judge's distributions: x standard normal, every byte equally likely, scales in
    // [0.01, 0.11).
    p.fill = fill_with(p, {normal(), integers(0, 255), uniform(0.01, 0.11)});
    // Scalars: M, N, K, group_size. One row (a decode step), both sides of the 128 x 128 tile and
    // the 32-deep slice, groups smaller than a slice (the general path) and larger.
    add_tests(p, {{1, 2, 2, 2},
                  {1, 1, 2, 1},
                  {3, 5, 8, 4},
                  {1, 4096, 4096, 128},
                  {7, 33, 64, 32},
                  {31, 63, 96, 32},
                  {65, 129, 160, 32},
                  {127, 128, 256, 64},
                  {128, 127, 256, 128},
                  {129, 255, 384, 128},
                  {200, 300, 512, 256},
                  {33, 65, 48, 16},
                  {33, 65, 48, 6},
                  {64, 64, 256, 256},
                  {257, 129, 1024, 512},
                  {1000, 1000, 2048, 128}});
    // Signed scales: negative and positive weights of both signs.
    add_tests(p, {{65, 67, 256, 64}},
              fill_with(p, {normal(), integers(0, 255), uniform(-0.1, 0.1)}), ",signed-scales");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/81_int4_matmul";
    j.tolerance = {0.01, 0.01};
    j.example = judge_case(p, "example", {2, 4, 4, 2},
                           {given({1, 0, 1, 0, 0, 1, 0, 1}),
                            given({153, 153, 170, 170, 119, 119, 136, 136}), constant(0.5)});
    const ArrayValues weights = integers(0, 255), group_scales = uniform(0.01, 0.11);
    add_judge_functional(p, {1, 2, 4, 2}, {constant(0), weights, group_scales});
    for (std::vector<double> mnkg : {std::vector<double>{2, 4, 4, 2},
                                     {3, 5, 8, 4},
                                     {16, 16, 32, 16},
                                     {32, 64, 64, 32},
                                     {64, 128, 128, 64},
                                     {30, 50, 64, 32},
                                     {100, 200, 128, 64},
                                     {255, 100, 128, 64},
                                     {128, 256, 512, 128}})
      add_judge_functional(p, mnkg, {normal(), weights, group_scales});
    j.performance =
        judge_case(p, "performance", {4096, 4096, 4096, 128}, {normal(), weights, group_scales});
    // Compute-bound: the benchmark reports the multiply-adds against the FP32 FMA rate it
    // measures (as gemm does; the fp16 matrix units run well above it), and the bytes moved.
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) {
      const double M = static_cast<double>(c["M"]), N = static_cast<double>(c["N"]),
                   K = static_cast<double>(c["K"]);
      return 2.0 * M * K + N * K / 2 + 2.0 * N * (K / static_cast<double>(c["group_size"])) +
             2.0 * M * N;
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
