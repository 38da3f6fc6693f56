// silu: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <cmath>

namespace kit::basics {
namespace {

// input * torch.sigmoid(input), in float as torch computes it on a float tensor: the sigmoid is
// 1 / (1 + exp(-x)) rounded to float, then multiplied by x.
void silu_reference(const float *input, float *output, int N) {
  for (int i = 0; i < N; ++i) {
    const float x = input[i];
    const float sigmoid = 1.0f / (1.0f + std::exp(-x));
    output[i] = x * sigmoid;
  }
}

// Signed zeros, subnormals, the range where exp(-x) overflows (x < -88.7: the result is -0), where
// the sigmoid rounds to 1 (x > 16.6) and the largest finite floats. Not -inf: the reference gives
// NaN there (-inf * 0), which no comparison accepts; nor +inf, whose infinite result cannot be
// compared either.
void fill_edge_values(Case &c, Rng &rng) {
  static const float kSpecial[] = {
      0.0f,   -0.0f, 1e-45f, -1e-45f, 1e-38f, -1e-38f, 1.0f,    -1.0f, 16.0f, -16.0f,  17.0f,
      -17.0f, 88.0f, -88.0f, 89.0f,   -89.0f, 100.0f,  -100.0f, 1e4f,  -1e4f, 3.4e38f, -3.4e38f};
  float *x = c.array<float>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = kSpecial[rng.next() % (sizeof kSpecial / sizeof kSpecial[0])];
}

} // namespace

const Problem &silu_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "silu";
    // The challenge states N <= 10,000 but times N = 50,000; the kernel has no limit of its own,
    // so the harness accepts what relu and sigmoid accept.
    p.params = {input("input", Elem::f32, count_of("N")),
                output("output", Elem::f32, count_of("N")), scalar("N", 1, 100000000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, silu_reference);
    p.fill = fill_with(p, {uniform(-50, 50)});
    add_awkward_size_tests(p, {1024, 4096});
    add_tests(p, {{1000003}});
    add_tests(p, {{4099}}, fill_edge_values, ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/52_silu";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {4}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {3}, {given({0.5, 1, -0.5})});
    add_judge_functional(p, {1}, {given({2})});
    add_judge_functional(p, {42}, {constant(0)});
    add_judge_functional(p, {5}, {given({-1, -2, -3, -4, -5})});
    add_judge_functional(p, {4}, {given({-0.5, 0, 0.5, 1})});
    add_judge_functional(p, {1024}, {uniform(-100, 100)});
    add_judge_functional(p, {10000}, {uniform(-50, 50)});
    j.performance = judge_case(p, "performance", {50000}, {uniform(-50, 50)});
    p.model = memory_bound([](const Case &c) { return 8.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
