// softmax_attention: the CPU reference and the harness description (arguments, tolerance, cases).
// Q is M x d, K and V are N x d, output = softmax(Q K^T / sqrt(d)) V is M x d, row-major floats.
//
// The judge's reference is torch in FP32 (two matmuls and a softmax). Ours
// (harness/attention_reference.h): the dots as the FP32 FMA chain torch's product forms, the
// scaling by torch's float multiplier, then the softmax and the weighted sum of V in double.
#include "harness/attention_reference.h"
#include "harness/spec.h"

#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

void softmax_attention_reference(const float *Q, const float *K, const float *V, float *output,
                                 int M, int N, int d) {
  const std::size_t row = static_cast<std::size_t>(d);
  attention_reference_head(Q, row, K, row, V, row, output, row, M, N, d,
                           [](int, int) { return true; });
}

} // namespace

const Problem &softmax_attention_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "softmax_attention";
    p.params = {input("Q", Elem::f32, count_of("M", "d")),
                input("K", Elem::f32, count_of("N", "d")),
                input("V", Elem::f32, count_of("N", "d")),
                output("output", Elem::f32, count_of("M", "d")),
                scalar("M", 1, 100000),
                scalar("N", 1, 100000),
                scalar("d", 1, 4096)};
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, softmax_attention_reference);
    p.fill = fill_with(p, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    // M, N, d: single rows and keys; 31..33, 63..65 around the 16/32/64-row tiles and the 64-key
    // step; head dimensions at every tier's edges (64, 128, 256) and odd ones (scalar loads);
    // d = 257 and 300 take the unfused path; the judge's performance size.
    add_tests(p, {{1, 1, 1},
                  {1, 7, 3},
                  {7, 1, 5},
                  {2, 3, 4},
                  {31, 33, 32},
                  {33, 31, 63},
                  {63, 65, 64},
                  {64, 64, 65},
                  {65, 63, 127},
                  {16, 129, 128},
                  {17, 64, 129},
                  {129, 17, 255},
                  {100, 200, 256},
                  {40, 50, 257},
                  {33, 70, 300},
                  {1000, 300, 37},
                  {512, 256, 128}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/6_softmax_attention";
    j.tolerance = {1e-4, 1e-4};
    const std::vector<double> example_q = {1, 0, 0, 0, 0, 1, 0, 0};
    const std::vector<double> example_k = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    const std::vector<double> example_v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    j.example =
        judge_case(p, "example", {2, 3, 4}, {given(example_q), given(example_k), given(example_v)});
    add_judge_functional(p, {2, 3, 4}, {given(example_q), given(example_k), given(example_v)});
    add_judge_functional(p, {3, 3, 5}, {constant(0), constant(0), constant(0)});
    add_judge_functional(p, {4, 4, 3},
                         {given({-1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11, 12}),
                          given({2, -1, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12}),
                          given({1, 0.5, -0.5, -1, 2, 3, 4, -2, 1, 0, 1, -1})});
    add_judge_functional(p, {64, 128, 32},
                         {uniform(-0.1, 0.1), uniform(-0.1, 0.1), uniform(-0.1, 0.1)});
    j.performance = judge_case(p, "performance", {512, 256, 128},
                               {uniform(-0.1, 0.1), uniform(-0.1, 0.1), uniform(-0.1, 0.1)});
    // Two products of M N d FMAs each (Q K^T and P V).
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) {
      return 4.0 * (2.0 * c["M"] * c["d"] + 2.0 * c["N"] * c["d"]);
    };
    p.model.ops = [](const Case &c) { return 2.0 * c["M"] * c["N"] * c["d"]; };
    return p;
  }();
  return problem;
}

} // namespace kit::basics
