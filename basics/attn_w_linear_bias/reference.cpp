// attn_w_linear_bias: the CPU reference and the harness description (arguments, tolerance, cases).
// Attention with linear biases (ALiBi): output = softmax(Q K^T / sqrt(d) + alpha (i - j)) V, with
// Q M x d, K and V N x d, output M x d, row-major floats; i is the query's row, j the key's, and
// the softmax runs over each row's N keys (no mask).
//
// The judge's reference is torch's FP32 expression: the product Q K^T (cuBLAS SGEMM, one FMA chain
// per score over ascending k), multiplied by the float reciprocal of sqrt(d) (torch divides a
// tensor by a scalar that way), plus the bias alpha (i - j) rounded to float, plus the softmax and
// the product with V. The reference here forms each score exactly as those FP32 steps round it
// (the kernel's promise, basics/attn_w_linear_bias/README.md) and takes the softmax and the
// weighted sum of V in double, rounding once. The judge's performance case (2 x 4.3 billion
// multiply-adds) is checked on eight whole sampled rows.
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

// Score (i, j) as torch's FP32 steps round it: the product rounded on its own (the volatile result
// keeps a compiler from fusing it with the addition of the bias).
float biased_score(const float *q_row, const float *k_row, int d, float inverse_scale, float alpha,
                   int i, int j) {
  float dot = 0.0f;
  for (int k = 0; k < d; ++k)
    dot = std::fma(q_row[k], k_row[k], dot);
  const volatile float scaled = dot * inverse_scale;
  const volatile float bias = static_cast<float>(i - j) * alpha;
  return scaled + bias;
}

// Output row i in double.
void attention_row(const float *Q, const float *K, const float *V, int i, int N, int d, float alpha,
                   std::vector<double> &out) {
  const float inverse_scale = 1.0f / static_cast<float>(std::sqrt(static_cast<double>(d)));
  const float *q_row = Q + static_cast<std::size_t>(i) * d;
  std::vector<double> weight(static_cast<std::size_t>(N));
  double top = -INFINITY;
  for (int j = 0; j < N; ++j) {
    weight[j] =
        biased_score(q_row, K + static_cast<std::size_t>(j) * d, d, inverse_scale, alpha, i, j);
    top = std::max(top, weight[j]);
  }
  double total = 0.0;
  for (int j = 0; j < N; ++j) {
    weight[j] = std::exp(weight[j] - top);
    total += weight[j];
  }
  out.assign(static_cast<std::size_t>(d), 0.0);
  for (int j = 0; j < N; ++j) {
    const double w = weight[j] / total;
    const float *v_row = V + static_cast<std::size_t>(j) * d;
    for (int k = 0; k < d; ++k)
      out[k] += w * v_row[k];
  }
}

void attn_w_linear_bias_reference(const float *Q, const float *K, const float *V, float *output,
                                  int M, int N, int d, float alpha) {
  std::vector<double> row;
  for (int i = 0; i < M; ++i) {
    attention_row(Q, K, V, i, N, d, alpha, row);
    for (int k = 0; k < d; ++k)
      output[static_cast<std::size_t>(i) * d + k] = static_cast<float>(row[k]);
  }
}

// Whole rows of the output: the first, the last and 6 random ones.
std::vector<SampledValue> sample_rows(const Case &c, Rng &rng) {
  const int M = static_cast<int>(c["M"]), N = static_cast<int>(c["N"]),
            d = static_cast<int>(c["d"]);
  std::vector<int> rows = {0, M - 1};
  for (int s = 0; s < 6; ++s)
    rows.push_back(static_cast<int>(rng.uniform_int(0, M - 1)));
  std::vector<SampledValue> expected;
  std::vector<double> row;
  for (int i : rows) {
    attention_row(c.array<float>(0), c.array<float>(1), c.array<float>(2), i, N, d, c.real("alpha"),
                  row);
    for (int k = 0; k < d; ++k)
      expected.push_back({3, static_cast<std::size_t>(i) * d + k, row[k]});
  }
  return expected;
}

} // namespace

const Problem &attn_w_linear_bias_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "attn_w_linear_bias";
    p.params = {input("Q", Elem::f32, count_of("M", "d")),
                input("K", Elem::f32, count_of("N", "d")),
                input("V", Elem::f32, count_of("N", "d")),
                output("output", Elem::f32, count_of("M", "d")),
                scalar("M", 1, 16384),
                scalar("N", 1, 16384),
                scalar("d", 1, 2048),
                float_scalar("alpha", -4.0f, 4.0f)};
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, attn_w_linear_bias_reference);
    // Scores of order 0.3-1 beside the bias, so neither term alone decides the softmax.
    p.fill = fill_with(p, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    // (M, N, d, alpha): one query or key; 31..33, 63..65 and 127..129 rows and keys around the
    // query and key tiles; d across the head-dimension tiers (1, 4, 31..33, 63..65, 96, 127..129,
    // 200, 256) and above them (257, 384, 513, 1024, the judge's largest, and 1500); alpha of
    // both signs, 0 and the constraint's +-1.
    add_tests(p, {{1, 1, 1, 0.5},        {1, 2, 2, 0.8},       {2, 3, 4, 0.5},
                  {3, 1, 5, -1},         {31, 33, 32, 0.5},    {33, 31, 33, -0.76},
                  {32, 64, 31, 1},       {63, 65, 64, -0.3},   {65, 63, 65, 0},
                  {64, 129, 63, 0.25},   {127, 128, 96, 0.5},  {129, 127, 127, -0.5},
                  {100, 300, 128, 0.5},  {257, 65, 129, -0.1}, {70, 200, 200, 0.05},
                  {65, 100, 256, 0.5},   {33, 70, 257, -1},    {64, 64, 384, 0.5},
                  {31, 40, 513, 0.02},   {65, 130, 1024, 0.5}, {17, 33, 1500, -0.2},
                  {1, 700, 1024, -0.01}, {600, 700, 64, 0.01}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/55_attn_w_linear_bias";
    j.tolerance = {1e-4, 1e-4};
    const ArrayValues example_q = given({1, 0, 0, 0, 0, 1, 0, 0});
    const ArrayValues example_k = given({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0});
    const ArrayValues example_v = given({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    j.example = judge_case(p, "example", {2, 3, 4, 0.5}, {example_q, example_k, example_v});
    add_judge_functional(p, {1, 2, 2, 0.8},
                         {given({1, 2}), given({1, 0, 0, 1}), given({3, 4, 5, 6})});
    add_judge_functional(p, {2, 3, 4, 0.5}, {example_q, example_k, example_v});
    add_judge_functional(p, {3, 3, 5, 0.5}, {constant(0), constant(0), constant(0)});
    add_judge_functional(p, {4, 4, 3, 1.0},
                         {given({-1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11, 12}),
                          given({2, -1, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12}),
                          given({1, 0.5, -0.5, -1, 2, 3, 4, -2, 1, 0, 1, -1})});
    add_judge_functional(p, {64, 128, 32, -0.76},
                         {uniform(-0.1, 0.1), uniform(-0.1, 0.1), uniform(-0.1, 0.1)});
    add_judge_functional(p, {64, 128, 32, -0.3}, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    j.performance = judge_case(p, "performance", {2048, 2048, 1024, 0.5},
                               {uniform(-0.1, 0.1), uniform(-0.1, 0.1), uniform(-0.1, 0.1)});
    // Two products of M x N x d multiply-adds (scores, then the weighted sum of V).
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) {
      return 4.0 * (2.0 * c["M"] * c["d"] + 2.0 * c["N"] * c["d"]);
    };
    p.model.ops = [](const Case &c) { return 2.0 * c["M"] * c["N"] * c["d"]; };
    p.reference_work = p.model.ops;
    p.full_reference_limit = 2e9;
    p.sampled_reference = sample_rows;
    return p;
  }();
  return problem;
}

} // namespace kit::basics
