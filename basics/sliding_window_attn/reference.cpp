// sliding_window_attn: the CPU reference and the harness description (arguments, tolerance,
// cases). Q, K, V and output are M x d, row-major floats; query i attends to the keys j with
// |i - j| <= window_size (both sides, the bounds included: up to 2 window_size + 1 keys, fewer
// at the ends): output_i = sum_j softmax_j(Q_i . K_j / sqrt(d)) V_j over those keys.
//
// The judge's reference is torch's FP32 expression: Q K^T (cuBLAS SGEMM, one FMA chain per score
// over ascending k) times the float 1 / sqrt(d), the keys outside the window set to -inf, softmax,
// and the product with V. Its performance case draws Q, K and V from U(-100, 100) with d = 64:
// scores of order 3,000 whose FP32 rounding (about 1e-3) moves a weight by that relative amount
// wherever two scores of a row lie within a few units, far beyond the 1e-5 tolerance on outputs
// of order 100. So the reference forms each score exactly as those FP32 steps round it (the
// kernel's promise, basics/sliding_window_attn/README.md) and takes the softmax and the weighted
// sum of V in double, rounding once.
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

void sliding_window_attn_reference(const float *Q, const float *K, const float *V, float *output,
                                   int M, int d, int window_size) {
  const float inverse_scale = 1.0f / static_cast<float>(std::sqrt(static_cast<double>(d)));
  std::vector<double> weight, out(static_cast<std::size_t>(d));
  for (int i = 0; i < M; ++i) {
    const int first = std::max(0, i - window_size), last = std::min(M - 1, i + window_size);
    const float *q_row = Q + static_cast<std::size_t>(i) * d;
    weight.assign(static_cast<std::size_t>(last - first + 1), 0.0);
    double top = -INFINITY;
    for (int j = first; j <= last; ++j) {
      const float *k_row = K + static_cast<std::size_t>(j) * d;
      float dot = 0.0f;
      for (int k = 0; k < d; ++k)
        dot = std::fma(q_row[k], k_row[k], dot);
      weight[j - first] = dot * inverse_scale;
      top = std::max(top, weight[j - first]);
    }
    double total = 0.0;
    for (double &w : weight) {
      w = std::exp(w - top);
      total += w;
    }
    std::fill(out.begin(), out.end(), 0.0);
    for (int j = first; j <= last; ++j) {
      const double w = weight[j - first] / total;
      const float *v_row = V + static_cast<std::size_t>(j) * d;
      for (int k = 0; k < d; ++k)
        out[k] += w * v_row[k];
    }
    for (int k = 0; k < d; ++k)
      output[static_cast<std::size_t>(i) * d + k] = static_cast<float>(out[k]);
  }
}

} // namespace

const Problem &sliding_window_attn_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "sliding_window_attn";
    p.params = {input("Q", Elem::f32, count_of("M", "d")),
                input("K", Elem::f32, count_of("M", "d")),
                input("V", Elem::f32, count_of("M", "d")),
                output("output", Elem::f32, count_of("M", "d")),
                scalar("M", 1, 100000),
                scalar("d", 1, 256),
                scalar("window_size", 0, 100000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, sliding_window_attn_reference);
    // The challenge's stated range of every element, U(-100, 100): rows whose softmax is nearly
    // one-hot, where only scores rounded as torch rounds them pass.
    p.fill = fill_with(p, {uniform(-100, 100), uniform(-100, 100), uniform(-100, 100)});
    // (M, d, window_size): one row; windows of 0 (the diagonal alone), 1, 2, the judge's 16 and
    // the limit's 32, and windows wider than the sequence (every key); M at 31..33, 63..65,
    // 127..129 around the query and key tiles; d across the head-dimension tiers (1, 3, 4, 31..33,
    // 48, 63..65, 96, 127, 128, 200).
    add_tests(p,
              {{1, 1, 1},
               {1, 4, 0},
               {2, 4, 1},
               {5, 3, 0},
               {31, 32, 2},
               {33, 33, 16},
               {32, 31, 40},
               {63, 64, 16},
               {64, 65, 31},
               {65, 63, 32},
               {127, 64, 16},
               {128, 48, 1},
               {129, 128, 32},
               {200, 127, 16},
               {300, 96, 5},
               {257, 200, 16},
               {1000, 64, 16},
               {100, 16, 100000},
               {1500, 128, 32}},
              fill_with(p, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)}), " U(-1, 1)");
    add_tests(p, {{65, 64, 16}, {130, 32, 8}, {1000, 64, 16}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/hard/59_sliding_window_attn";
    j.tolerance = {1e-5, 1e-5};
    const ArrayValues identity_rows = given({1, 0, 0, 0, 0, 1, 0, 0});
    j.example = judge_case(p, "example", {2, 4, 1},
                           {identity_rows, identity_rows, given({1, 2, 3, 4, 5, 6, 7, 8})});
    add_judge_functional(p, {2, 4, 1},
                         {identity_rows, identity_rows, given({1, 2, 3, 4, 5, 6, 7, 8})});
    add_judge_functional(
        p, {2, 3, 1},
        {given({0, 0, 0, 0, 1, 0}), given({1, 0, 0, 0, 1, 0}), given({1, 2, 3, 5, 6, 7})});
    add_judge_functional(p, {3, 5, 2}, {constant(0), constant(0), constant(0)});
    add_judge_functional(p, {4, 3, 2},
                         {given({-1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11, 12}),
                          given({2, -1, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12}),
                          given({1, 0.5, -0.5, -1, 2, 3, 4, -2, 1, 0, 1, -1})});
    add_judge_functional(p, {128, 32, 8},
                         {uniform(-0.1, 0.1), uniform(-0.1, 0.1), uniform(-0.1, 0.1)});
    j.performance = judge_case(p, "performance", {5000, 64, 16},
                               {uniform(-100, 100), uniform(-100, 100), uniform(-100, 100)});
    // Each row of Q, K and V read once and output written once: at the judge's size 5 MB and
    // 21 million multiply-adds, so the copy of those bytes (and the launch) bounds it.
    p.model = memory_bound([](const Case &c) { return 4.0 * 4.0 * c["M"] * c["d"]; });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
