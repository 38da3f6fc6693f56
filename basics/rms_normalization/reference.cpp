// rms_normalization: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <algorithm>
#include <cmath>

namespace kit::basics {
namespace {

// In double, each output rounded once. (The judge's reference works in float32.)
void rms_normalization_reference(const float *input, float gamma, float beta, float *output, int N,
                                 float eps) {
  double squares = 0.0;
  for (int i = 0; i < N; ++i)
    squares += static_cast<double>(input[i]) * input[i];
  const double rms = std::sqrt(squares / N + eps);
  for (int i = 0; i < N; ++i)
    output[i] = static_cast<float>(gamma * (input[i] / rms) + beta);
}

void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -100.0f, 100.0f, rng);
}

// One value far above the rest: it alone sets the rms.
void fill_outlier(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -0.01f, 0.01f, rng);
  c.array<float>(0)[rng.next() % c.count(0)] = 100.0f;
}

// Values so small that eps dominates the mean of squares.
void fill_tiny(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -1e-20f, 1e-20f, rng);
}

void fill_extremes(Case &c, Rng &rng) {
  float *x = c.array<float>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = rng.next() % 2 ? 100.0f : -100.0f;
}

} // namespace

const Problem &rms_normalization_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "rms_normalization";
    p.params = {input("input", Elem::f32, count_of("N")),
                float_scalar("gamma", 0.1f, 10.0f),
                float_scalar("beta", -10.0f, 10.0f),
                output("output", Elem::f32, count_of("N")),
                scalar("N", 1, 100000),
                float_scalar("eps", 1e-10f, 1.0f)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, rms_normalization_reference);
    p.fill = fill_values;
    // A block holds 1024 elements (one 16-byte vector per thread); the n % 4 tail sits in block 0.
    for (double n : awkward_sizes({1024}))
      add_tests(p, {{1.5, 0, n, 1e-5}});
    add_tests(p, {{1.5, 0, 4093, 1e-5},
                  {1.5, 0, 65537, 1e-5},
                  {1.5, 0, 99999, 1e-5},
                  {1.5, 0, 100000, 1e-5},
                  {10, -10, 77777, 1e-5},
                  {0.1, 10, 3, 1e-5},
                  {2, 0.5, 50001, 0.5}});
    add_tests(p, {{1, 0, 1, 1e-5}, {1, 0, 100000, 1e-5}}, fill_outlier, ",outlier");
    add_tests(p, {{3, 1, 1025, 1e-5}}, fill_tiny, ",tiny");
    add_tests(p, {{10, 10, 100000, 1e-5}}, fill_extremes, ",+-100");
    add_tests(p, {{1, 0, 1031, 1e-5}}, fill_with(p, {constant(0)}), ",zeros");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/50_rms_normalization";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {1, 0, 4, 1e-5}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {1, 0, 3, 1e-5}, {given({1, 2, 3})});
    add_judge_functional(p, {2, -1, 1, 1e-5}, {given({5})});
    add_judge_functional(p, {1, 0, 4, 1e-5}, {constant(0)});
    add_judge_functional(p, {1, 0, 5, 1e-5}, {given({-1, -2, -3, -4, -5})});
    add_judge_functional(p, {0.5, -1, 3, 1e-5}, {given({0, 1, 2})});
    add_judge_functional(p, {1.5, 0, 8, 1e-5}, {uniform(-100, 100)});
    add_judge_functional(p, {1.3, 0, 2000, 1e-5}, {uniform(-100, 100)});
    j.performance = judge_case(p, "performance", {1.5, 0, 100000, 1e-5}, {uniform(-10, 10)});
    p.model = memory_bound([](const Case &c) { return 8.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
