// softmax: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace kit::basics {
namespace {

// Subtracts the maximum first (the stable form) and works in double.
void softmax_reference(const float *input, float *output, int N) {
  const float max = *std::max_element(input, input + N);
  std::vector<double> e(static_cast<std::size_t>(N));
  double sum = 0.0;
  for (int i = 0; i < N; ++i) {
    e[i] = std::exp(static_cast<double>(input[i]) - max);
    sum += e[i];
  }
  for (int i = 0; i < N; ++i)
    output[i] = static_cast<float>(e[i] / sum);
}

void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -10.0f, 10.0f, rng);
}

// Magnitudes where a softmax without the max subtraction overflows (exp(89) > FLT_MAX).
void fill_large(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), 80.0f, 1000.0f, rng);
}
void fill_large_negative(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -1000.0f, -900.0f, rng);
}

// One element far above the rest: the answer is ~1 there and ~0 elsewhere.
void fill_outlier(Case &c, Rng &rng) {
  fill_values(c, rng);
  c.array<float>(0)[rng.next() % c.count(0)] = 60.0f;
}

void fill_equal(Case &c, Rng &) {
  std::fill(c.array<float>(0), c.array<float>(0) + c.count(0), -3.25f);
}

} // namespace

const Problem &softmax_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "softmax";
    p.params = {input("input", Elem::f32, count_of("N")),
                output("output", Elem::f32, count_of("N")), scalar("N", 1, 500000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, softmax_reference);
    p.fill = fill_values;
    // A block takes 1024 elements (four per thread) until the grid is full.
    add_awkward_size_tests(p, {1024});
    add_tests(p, {{4097}, {100003}, {499999}});
    add_tests(p, {{1}, {33}, {5000}}, fill_large, ",large");
    add_tests(p, {{1025}}, fill_large_negative, ",large-negative");
    add_tests(p, {{2}, {70001}}, fill_outlier, ",outlier");
    add_tests(p, {{3}, {300000}}, fill_equal, ",all-equal");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/5_softmax";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {3}, {given({1, 2, 3})});
    add_judge_functional(p, {3}, {given({1, 2, 3})});
    add_judge_functional(p, {4}, {constant(0)});
    add_judge_functional(p, {3}, {given({-1, -2, -3})});
    add_judge_functional(p, {4}, {given({1, -2, 3, -4})});
    add_judge_functional(p, {4}, {given({1e-6, 1e-7, 1e-8, 1e-9})});
    add_judge_functional(p, {3}, {given({10, 15, 20})});
    add_judge_functional(p, {1}, {given({5})});
    add_judge_functional(p, {10}, {constant(2.5)});
    add_judge_functional(p, {2048}, {uniform(0, 10)});
    add_judge_functional(p, {4}, {given({1000, 1, 2, 3})});
    j.performance = judge_case(p, "performance", {500000}, {uniform(-10, 10)});
    p.model = memory_bound([](const Case &c) { return 8.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
