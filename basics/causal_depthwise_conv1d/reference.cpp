// causal_depthwise_conv1d: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

// The bias plus the taps oldest first, in double; x is 0 before the start of each sequence (the
// judge's reference: conv1d in float32 over x left-padded with K - 1 zeros, its kernel flipped so
// that weight[d][0] meets the current position).
void causal_depthwise_conv1d_reference(const float *x, const float *weight, const float *bias,
                                       float *output, int B, int L, int D, int K) {
  const auto at = [&](int b, int l, int d) {
    return (static_cast<std::size_t>(b) * L + l) * D + d;
  };
  for (int b = 0; b < B; ++b)
    for (int l = 0; l < L; ++l)
      for (int d = 0; d < D; ++d) {
        double sum = bias[d];
        for (int k = K - 1; k >= 0; --k)
          if (l - k >= 0)
            sum += static_cast<double>(weight[static_cast<std::size_t>(d) * K + k]) *
                   static_cast<double>(x[at(b, l - k, d)]);
        output[at(b, l, d)] = static_cast<float>(sum);
      }
}

std::size_t tensor_elements(const Case &c) {
  return static_cast<std::size_t>(c["B"]) * static_cast<std::size_t>(c["L"]) *
         static_cast<std::size_t>(c["D"]);
}

} // namespace

const Problem &causal_depthwise_conv1d_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "causal_depthwise_conv1d";
    p.params = {input("x", Elem::f32, tensor_elements),
                input("weight", Elem::f32, count_of("D", "K")),
                input("bias", Elem::f32, count_of("D")),
                output("output", Elem::f32, tensor_elements),
                scalar("B", 1, 16),
                scalar("L", 1, 8192),
                scalar("D", 1, 8192),
                scalar("K", 1, 64)};
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, causal_depthwise_conv1d_reference);
    // The challenge's inputs: x, weight and bias all standard normal.
    p.fill = fill_with(p, {normal(), normal(), normal()});
    // K = 1..4 on the 12-position runs, 5..8 on the 8-position runs, 9 and 33 on the direct
    // path; sequences shorter than K; L around the runs (7..9, 11..13, 16, 17, 23..25); D with
    // D % 4 = 0..3 (the vector and the one-channel path) and around a block's 1024 channels;
    // several sequences, so that a run never reaches into the previous one; the challenge's
    // largest sides.
    add_tests(p, {{1, 1, 1, 1},      {1, 2, 1, 2},      {1, 3, 4, 4},     {2, 1, 8, 4},
                  {3, 5, 3, 4},      {2, 11, 4, 4},     {2, 12, 5, 3},    {2, 13, 6, 2},
                  {3, 23, 7, 4},     {1, 24, 64, 1},    {4, 25, 63, 3},   {2, 7, 12, 8},
                  {2, 8, 13, 5},     {3, 9, 16, 6},     {2, 17, 1020, 7}, {3, 40, 1023, 8},
                  {2, 5, 8, 9},      {2, 70, 33, 9},    {3, 20, 17, 33},  {2, 100, 1024, 4},
                  {1, 129, 1028, 4}, {16, 64, 257, 4},  {1, 8192, 12, 4}, {2, 3, 8192, 4},
                  {16, 300, 512, 8}, {4, 1000, 1000, 3}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/90_causal_depthwise_conv1d";
    j.tolerance = {1e-4, 1e-4};
    const std::vector<ArrayValues> example = {given({1, 2, 3, 4, 5, 6, 7, 8}),
                                              given({1, 0, -1, 1, 1, 1}), given({0, 0})};
    j.example = judge_case(p, "example", {1, 4, 2, 3}, example);
    add_judge_functional(p, {1, 4, 2, 3}, example);
    const std::vector<ArrayValues> random = {normal(), normal(), normal()};
    add_judge_functional(p, {1, 1, 1, 1}, random);
    add_judge_functional(p, {1, 2, 1, 2}, random);
    add_judge_functional(p, {2, 3, 4, 3}, random);
    add_judge_functional(p, {1, 8, 4, 3}, {constant(0), normal(), normal()});
    add_judge_functional(p, {1, 16, 8, 4}, random);
    add_judge_functional(p, {2, 32, 16, 4}, random);
    add_judge_functional(p, {4, 64, 32, 4}, random);
    add_judge_functional(p, {3, 30, 12, 3}, random);
    add_judge_functional(p, {2, 100, 24, 4}, random);
    add_judge_functional(p, {2, 256, 128, 4}, random);
    j.performance = judge_case(p, "performance", {8, 2048, 4096, 4}, random);
    // One read of x and one write of the output (the taps and the bias are negligible).
    p.model =
        memory_bound([](const Case &c) { return 8.0 * static_cast<double>(tensor_elements(c)); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
