// attention_with_sinks: the CPU reference and the harness description (arguments, tolerance,
// cases). Q, K, V and output are M x d, row-major floats; query i attends to the keys j <= i that
// are sinks (j < num_sinks) or in its causal window (j >= i - window_size + 1: the window_size
// keys ending at i): output_i = sum_j softmax_j(Q_i . K_j / sqrt(d)) V_j over those keys. Key i
// itself is always visible (window_size >= 1), so no row is empty.
//
// The judge's reference is torch's FP32 expression: Q K^T (cuBLAS SGEMM, one FMA chain per score
// over ascending k) times the float 1 / sqrt(d), the keys outside the set at -inf, softmax, and the
// product with V. The reference here forms each score exactly as those FP32 steps round it and
// takes the softmax and the weighted sum of V in double, rounding once.
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

// Output row i in double. Visible keys: [0, min(num_sinks, i + 1)) and [max(0, i - window_size +
// 1), i], the two ranges merged where they overlap.
void attention_row(const float *Q, const float *K, const float *V, int i, int d, int num_sinks,
                   int window_size, std::vector<double> &out) {
  const float inverse_scale = 1.0f / static_cast<float>(std::sqrt(static_cast<double>(d)));
  const float *q_row = Q + static_cast<std::size_t>(i) * d;
  const int window_first = std::max(0, i - window_size + 1);
  std::vector<int> keys;
  for (int j = 0; j <= i; ++j)
    if (j < num_sinks || j >= window_first)
      keys.push_back(j);
  std::vector<double> weight(keys.size());
  double top = -INFINITY;
  for (std::size_t n = 0; n < keys.size(); ++n) {
    const float *k_row = K + static_cast<std::size_t>(keys[n]) * d;
    float dot = 0.0f;
    for (int k = 0; k < d; ++k)
      dot = std::fma(q_row[k], k_row[k], dot);
    weight[n] = dot * inverse_scale;
    top = std::max(top, weight[n]);
  }
  double total = 0.0;
  for (double &w : weight) {
    w = std::exp(w - top);
    total += w;
  }
  out.assign(static_cast<std::size_t>(d), 0.0);
  for (std::size_t n = 0; n < keys.size(); ++n) {
    const double w = weight[n] / total;
    const float *v_row = V + static_cast<std::size_t>(keys[n]) * d;
    for (int k = 0; k < d; ++k)
      out[k] += w * v_row[k];
  }
}

void attention_with_sinks_reference(const float *Q, const float *K, const float *V, float *output,
                                    int M, int d, int num_sinks, int window_size) {
  std::vector<double> row;
  for (int i = 0; i < M; ++i) {
    attention_row(Q, K, V, i, d, num_sinks, window_size, row);
    for (int k = 0; k < d; ++k)
      output[static_cast<std::size_t>(i) * d + k] = static_cast<float>(row[k]);
  }
}

// The multiply-adds of the scores and of the weighted sum: 2 d per visible (query, key) pair.
double visible_pairs(const Case &c) {
  const double sinks = static_cast<double>(std::min(c["num_sinks"], c["M"]));
  const double window = static_cast<double>(std::min(c["window_size"], c["M"]));
  // Rows i < window see i + 1 keys; later rows see the window and the sinks before it.
  double pairs = window * (window + 1) / 2;
  for (long long i = static_cast<long long>(window); i < c["M"]; ++i)
    pairs += window + std::min(sinks, static_cast<double>(i) - window + 1);
  return pairs;
}

} // namespace

const Problem &attention_with_sinks_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "attention_with_sinks";
    p.params = {input("Q", Elem::f32, count_of("M", "d")),
                input("K", Elem::f32, count_of("M", "d")),
                input("V", Elem::f32, count_of("M", "d")),
                output("output", Elem::f32, count_of("M", "d")),
                scalar("M", 1, 100000),
                scalar("d", 1, 256),
                scalar("num_sinks", 0, 100000),
                scalar("window_size", 1, 100000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, attention_with_sinks_reference);
    // The challenge's stated range of every element, U(-1, 1).
    p.fill = fill_with(p, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    // (M, d, num_sinks, window_size): one row; no sinks, sinks inside the window, sinks past M;
    // windows of 1 (the diagonal and the sinks), around the query and key tiles (31..33, 63..65,
    // 127..129) and wider than the sequence (plain causal attention); d across the head-dimension
    // tiers (1, 3, 4, 31..33, 48, 63..65, 96, 127, 128, 200); a gap between the sinks and the
    // window that begins and ends inside a key tile and one that spans several tiles.
    add_tests(p,
              {{1, 1, 1, 1},       {1, 4, 0, 1},         {4, 4, 1, 2},       {6, 3, 2, 2},
               {31, 32, 4, 1},     {33, 33, 0, 16},      {32, 31, 40, 3},    {63, 64, 4, 32},
               {64, 65, 2, 31},    {65, 63, 16, 33},     {127, 64, 4, 63},   {128, 48, 8, 64},
               {129, 128, 1, 65},  {200, 127, 3, 127},   {300, 96, 5, 129},  {257, 200, 16, 100},
               {1000, 64, 4, 128}, {100, 16, 2, 100000}, {700, 128, 7, 300}, {1500, 128, 4, 256}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/112_attention_with_sinks";
    j.tolerance = {1e-5, 1e-5};
    const ArrayValues identity = given({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
    const ArrayValues counting = given({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
    j.example = judge_case(p, "example", {4, 4, 1, 2}, {identity, identity, counting});
    add_judge_functional(p, {4, 4, 1, 2}, {identity, identity, counting});
    add_judge_functional(
        p, {1, 4, 1, 1},
        {given({0.5, -0.5, 1, 0.25}), given({0.25, 1, -0.5, 0.5}), given({1, 2, 3, 4})});
    add_judge_functional(p, {3, 3, 1, 3},
                         {given({1, -1, 0.5, 0.5, 0.5, -0.5, -1, 1, 1}),
                          given({-0.5, 1, 0.5, 1, 0, -1, 0.5, -0.5, 1}),
                          given({1, 0, -1, -1, 1, 0, 0, -1, 1})});
    add_judge_functional(p, {6, 8, 2, 2}, {constant(0), constant(0), constant(0)});
    add_judge_functional(p, {6, 4, 2, 2},
                         {given({-1, 2,   -3, 0.5, 4, -5, 6,  -0.5, -7, 8, -9, 1,
                                 10, -11, 12, -1,  1, 1,  -2, 3,    -3, 2, 1,  -1}),
                          given({2,   -1, 3,   0.25, -4, 5,  -6, 0.75, 7,  -8, 9,  -0.25,
                                 -10, 11, -12, 0.5,  1,  -2, 3,  -3,   -1, 2,  -3, 3}),
                          given({1, 0.5, -0.5, 2, -1, 2, 3,  -2, 4,  -2, 1, 0,
                                 0, 1,   -1,   3, 2,  3, -3, 1,  -2, -3, 3, -1})});
    add_judge_functional(p, {64, 32, 4, 16}, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    add_judge_functional(p, {100, 48, 2, 32},
                         {uniform(-0.5, 0.5), uniform(-0.5, 0.5), uniform(-1, 1)});
    add_judge_functional(p, {255, 64, 4, 1},
                         {uniform(-0.3, 0.3), uniform(-0.3, 0.3), uniform(-1, 1)});
    add_judge_functional(p, {512, 64, 4, 128},
                         {uniform(-0.2, 0.2), uniform(-0.2, 0.2), uniform(-1, 1)});
    add_judge_functional(p, {1024, 128, 8, 256},
                         {uniform(-0.1, 0.1), uniform(-0.1, 0.1), uniform(-1, 1)});
    j.performance = judge_case(p, "performance", {5000, 128, 4, 1024},
                               {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    // Two products of d multiply-adds per visible (query, key) pair.
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) { return 4.0 * 4.0 * c["M"] * c["d"]; };
    p.model.ops = [](const Case &c) { return 2.0 * c["d"] * visible_pairs(c); };
    p.reference_work = p.model.ops;
    return p;
  }();
  return problem;
}

} // namespace kit::basics
