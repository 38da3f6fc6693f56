// geglu: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/gated_halves.h"

#include <cmath>
#include <string>

namespace kit::basics {
namespace {

// torch's `x1, x2 = input.chunk(2)`, `gelu = 0.5 * x2 * (1.0 + erf(x2 / sqrt(2)))` and
// `x1 * gelu` on float tensors: each step rounded to float, the division by sqrt(2) done as torch
// does it on the GPU, as a multiplication by the float nearest 1/sqrt(2).
void geglu_reference(const float *input, float *output, int N) {
  const int half = N / 2;
  const float inv_sqrt2 = 0.70710678118654752f;
  for (int i = 0; i < half; ++i) {
    const float x2 = input[half + i];
    const float scaled = x2 * inv_sqrt2;
    const float erf_plus_1 = 1.0f + std::erf(scaled);
    const float gelu = (0.5f * x2) * erf_plus_1;
    output[i] = input[i] * gelu;
  }
}

// x1 and x2 each from its own list: signed zeros, subnormals, x2 where erf saturates to +-1 (gelu
// is x2 or -0) and where 1 + erf cancels (-3, -5), large magnitudes, -3.4e38 (gelu -0). |x1| stays
// at most 100 so that the cancelling products stay within the absolute tolerance whichever erff
// rounds last; every pair has a finite product (an infinite or NaN expected value cannot be
// compared, so no infinities).
FillFn fill_edge_values() {
  return fill_halves_from({0.0f, -0.0f, 1e-45f, -1e-45f, 1.0f, -1.0f, 100.0f, -100.0f},
                          {0.0f, -0.0f, 1e-45f, -1e-45f, 1e-38f, -1e-38f, 1.0f, -1.0f, -3.0f, -5.0f,
                           10.0f, -10.0f, 100.0f, -100.0f, 1e4f, -1e4f, 1e6f, -1e6f, -3.4e38f});
}

} // namespace

const Problem &geglu_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "geglu";
    describe_gated_halves(p, 1000000);
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, geglu_reference);
    add_tests(p, {{8198}}, fill_edge_values(), ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/65_geglu";
    j.tolerance = {1e-4, 1e-4};
    j.example = judge_case(p, "example", {2}, {given({1, 1})});
    add_judge_functional(p, {4}, {given({2, -1, 1, 0.5})});
    add_judge_functional(p, {42}, {constant(0)});
    add_judge_functional(p, {6}, {given({-1, -2, -3, -4, -5, -6})});
    add_judge_functional(p, {4}, {given({-0.5, 0, -1.5, 1})});
    add_judge_functional(p, {1024}, {uniform(-100, 100)});
    add_judge_functional(p, {100000}, {uniform(-50, 50)});
    j.performance = judge_case(p, "performance", {1000000}, {uniform(-100, 100)});
    // Reads N floats, writes N / 2.
    p.model = memory_bound([](const Case &c) { return 6.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
