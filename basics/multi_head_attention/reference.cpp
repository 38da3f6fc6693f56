// multi_head_attention: the CPU reference and the harness description (arguments, tolerance,
// cases). Q, K and V are N x d_model; head h is columns h d_k .. (h + 1) d_k - 1 of each, with
// d_k = d_model / h; output's head h = softmax(Q_h K_h^T / sqrt(d_k)) V_h, N x d_model, row-major
// floats. d_model is a multiple of h (as in every case of the judge).
//
// The judge's reference is torch in FP32, one head at a time. Ours
// (harness/attention_reference.h): the dots as the FP32 FMA chain torch's product forms, the
// scaling by torch's float multiplier, then the softmax and the weighted sum of V in double. The
// FP32 dots matter here: at the performance case's U(-10, 10) values a 64-term dot's rounding
// moves a logit by ~2e-5 and a peaked softmax's output by more than the 1e-5 tolerance.
#include "harness/attention_reference.h"
#include "harness/spec.h"

#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

void multi_head_attention_reference(const float *Q, const float *K, const float *V, float *output,
                                    int N, int d_model, int h) {
  const int d_k = d_model / h;
  const std::size_t row = static_cast<std::size_t>(d_model);
  for (int head = 0; head < h; ++head) {
    const std::size_t column = static_cast<std::size_t>(head) * d_k;
    attention_reference_head(Q + column, row, K + column, row, V + column, row, output + column,
                             row, N, N, d_k, [](int, int) { return true; });
  }
}

} // namespace

const Problem &multi_head_attention_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "multi_head_attention";
    p.params = {input("Q", Elem::f32, count_of("N", "d_model")),
                input("K", Elem::f32, count_of("N", "d_model")),
                input("V", Elem::f32, count_of("N", "d_model")),
                output("output", Elem::f32, count_of("N", "d_model")),
                scalar("N", 1, 100000),
                scalar("d_model", 1, 8192),
                scalar("h", 1, 1024)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, multi_head_attention_reference);
    p.fill = fill_with(p, {uniform(-10, 10), uniform(-10, 10), uniform(-10, 10)});
    // N, d_model, h: one row; 31..33, 63..65 rows around the 16/32/64-row tiles and the 64-key
    // step; head dimensions d_k = 1, 5, 32, 64, 65, 128, 129, 256 (each tier's edges, odd ones on
    // scalar loads) and 257 (the unfused path); many heads.
    add_tests(p, {{1, 1, 1},
                  {2, 4, 2},
                  {7, 12, 12},
                  {100, 60, 12},
                  {33, 96, 3},
                  {65, 128, 2},
                  {31, 130, 2},
                  {63, 256, 2},
                  {17, 258, 2},
                  {64, 512, 2},
                  {20, 514, 2},
                  {129, 1024, 16},
                  {300, 256, 4}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times (output zero-filled there).
    JudgeCases &j = p.judge;
    j.challenge = "challenges/hard/12_multi_head_attention";
    j.tolerance = {1e-5, 1e-5};
    const std::vector<double> example_q = {1, 0, 2, 3, 4, 5, 6, 7};
    const std::vector<double> example_k = {1, 2, 3, 4, 5, 6, 7, 8};
    const std::vector<double> example_v = {0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4};
    j.example =
        judge_case(p, "example", {2, 4, 2}, {given(example_q), given(example_k), given(example_v)});
    add_judge_functional(p, {2, 4, 2}, {given(example_q), given(example_k), given(example_v)});
    add_judge_functional(p, {2, 2, 1},
                         {given({1, 1, 2, 2}), given({1, 1, 1, 1}), given({2, 3, 4, 5})});
    add_judge_functional(p, {4, 4, 4}, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    add_judge_functional(p, {32, 32, 8}, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    j.performance = judge_case(p, "performance", {1024, 1024, 16},
                               {uniform(-10, 10), uniform(-10, 10), uniform(-10, 10)});
    // Two products of N N d_model FMAs each (over all heads).
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) { return 4.0 * 4.0 * c["N"] * c["d_model"]; };
    p.model.ops = [](const Case &c) { return 2.0 * c["N"] * c["N"] * c["d_model"]; };
    return p;
  }();
  return problem;
}

} // namespace kit::basics
