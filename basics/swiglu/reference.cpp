// swiglu: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <cmath>
#include <string>

namespace kit::basics {
namespace {

// torch's `x1, x2 = input.chunk(2)` and `(x1 * sigmoid(x1)) * x2` on float tensors: each step
// rounded to float, the sigmoid as 1 / (1 + exp(-x)).
void swiglu_reference(const float *input, float *output, int N) {
  const int half = N / 2;
  for (int i = 0; i < half; ++i) {
    const float x1 = input[i];
    const float sigmoid = 1.0f / (1.0f + std::exp(-x1));
    const float silu = x1 * sigmoid;
    output[i] = silu * input[half + i];
  }
}

// Each x1 and x2 drawn from its own list: signed zeros, subnormals, where the sigmoid rounds to 1
// or exp(-x1) overflows (silu is -0 there), large magnitudes, -3.4e38 (silu -0). Every pair has a
// finite product: an infinite or NaN expected value cannot be compared (so no infinities, and no
// +3.4e38 as x1).
void fill_edge_values(Case &c, Rng &rng) {
  static const float kX1[] = {0.0f,   -0.0f,   1e-45f, -1e-45f, 1e-38f, -1e-38f, 1.0f,
                              -1.0f,  17.0f,   -17.0f, 88.0f,   -88.0f, 89.0f,   -89.0f,
                              100.0f, -100.0f, 1e4f,   -1e4f,   1e6f,   -1e6f,   -3.4e38f};
  static const float kX2[] = {0.0f,   -0.0f,   1e-45f, -1e-45f, 1.0f, -1.0f,
                              100.0f, -100.0f, 1e4f,   -1e4f,   1e6f, -1e6f};
  float *x = c.array<float>(0);
  const std::size_t half = c.count(0) / 2;
  for (std::size_t i = 0; i < half; ++i) {
    x[i] = kX1[rng.next() % (sizeof kX1 / sizeof kX1[0])];
    x[half + i] = kX2[rng.next() % (sizeof kX2 / sizeof kX2[0])];
  }
}

} // namespace

const Problem &swiglu_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "swiglu";
    p.params = {input("input", Elem::f32, count_of("N")),
                output("output", Elem::f32,
                       [](const Case &c) { return static_cast<std::size_t>(c["N"] / 2); }),
                scalar("N", 2, 100000)};
    p.check = [](const Case &c) -> std::string {
      if (c["N"] % 2 != 0)
        return "N " + std::to_string(c["N"]) + " is odd (the input is two halves)";
      return "";
    };
    p.tolerance = {1e-4, 1e-5};
    set_reference(p, swiglu_reference);
    p.fill = fill_with(p, {uniform(-100, 100)});
    // Outputs (N / 2) at the awkward sizes: every N / 2 % 4 (whether x2 = input + N / 2 is
    // 16-byte aligned) around the 4096-output block tile; and the largest N with x2 unaligned.
    for (long long half : awkward_sizes({4096}))
      add_tests(p, {{2.0 * static_cast<double>(half)}});
    add_tests(p, {{99998}});
    add_tests(p, {{8198}}, fill_edge_values, ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/54_swiglu";
    j.tolerance = {1e-4, 1e-5};
    j.example = judge_case(p, "example", {4}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {2}, {given({0.5, 1})});
    add_judge_functional(p, {42}, {constant(0)});
    add_judge_functional(p, {6}, {given({-1, -2, -3, -4, -5, -6})});
    add_judge_functional(p, {4}, {given({-0.5, 0, -1.5, 1})});
    add_judge_functional(p, {1024}, {uniform(-100, 100)});
    add_judge_functional(p, {2048}, {uniform(-50, 50)});
    j.performance = judge_case(p, "performance", {100000}, {uniform(-100, 100)});
    // Reads N floats, writes N / 2.
    p.model = memory_bound([](const Case &c) { return 6.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
