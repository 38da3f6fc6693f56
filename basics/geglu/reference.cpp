// geglu: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

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
void fill_edge_values(Case &c, Rng &rng) {
  static const float kX1[] = {0.0f, -0.0f, 1e-45f, -1e-45f, 1.0f, -1.0f, 100.0f, -100.0f};
  static const float kX2[] = {0.0f,  -0.0f, 1e-45f, -1e-45f, 1e-38f,  -1e-38f, 1.0f,
                              -1.0f, -3.0f, -5.0f,  10.0f,   -10.0f,  100.0f,  -100.0f,
                              1e4f,  -1e4f, 1e6f,   -1e6f,   -3.4e38f};
  float *x = c.array<float>(0);
  const std::size_t half = c.count(0) / 2;
  for (std::size_t i = 0; i < half; ++i) {
    x[i] = kX1[rng.next() % (sizeof kX1 / sizeof kX1[0])];
    x[half + i] = kX2[rng.next() % (sizeof kX2 / sizeof kX2[0])];
  }
}

} // namespace

const Problem &geglu_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "geglu";
    p.params = {input("input", Elem::f32, count_of("N")),
                output("output", Elem::f32,
                       [](const Case &c) { return static_cast<std::size_t>(c["N"] / 2); }),
                scalar("N", 2, 1000000)};
    p.check = [](const Case &c) -> std::string {
      if (c["N"] % 2 != 0)
        return "N " + std::to_string(c["N"]) + " is odd (the input is two halves)";
      return "";
    };
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, geglu_reference);
    p.fill = fill_with(p, {uniform(-100, 100)});
    // Outputs (N / 2) at the awkward sizes: every N / 2 % 4 (whether x2 = input + N / 2 is
    // 16-byte aligned) around the 4096-output block tile; and the largest N with x2 unaligned.
    for (long long half : awkward_sizes({4096}))
      add_tests(p, {{2.0 * static_cast<double>(half)}});
    add_tests(p, {{999998}});
    add_tests(p, {{8198}}, fill_edge_values, ",edge-values");
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
