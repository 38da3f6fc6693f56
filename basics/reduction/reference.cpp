// reduction: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

namespace kit::basics {
namespace {

// Sums in float64, like the judge, and rounds once.
void reduction_reference(const float *input, float *output, int N) {
  double sum = 0.0;
  for (int i = 0; i < N; ++i)
    sum += input[i];
  output[0] = static_cast<float>(sum);
}

void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -1000.0f, 1000.0f, rng);
}

// Pairs x, -x (shuffled by position): the exact sum is 0, so only the absolute tolerance 1e-5
// applies while the partial sums reach thousands. Odd N leaves one unpaired 0.25.
void fill_cancelling(Case &c, Rng &rng) {
  float *x = c.array<float>(0);
  const std::size_t n = c.count(0);
  for (std::size_t i = 0; i + 1 < n; i += 2) {
    x[i] = rng.uniform(-1000.0f, 1000.0f);
    x[i + 1] = -x[i];
  }
  if (n % 2 == 1)
    x[n - 1] = 0.25f;
  for (std::size_t i = n; i > 1; --i) { // Fisher-Yates
    const std::size_t j = rng.next() % i;
    std::swap(x[i - 1], x[j]);
  }
}

void fill_extremes(Case &c, Rng &rng) {
  float *x = c.array<float>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = rng.next() % 2 ? 1000.0f : -1000.0f;
}

} // namespace

const Problem &reduction_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "reduction";
    p.params = {input("input", Elem::f32, count_of("N")), output("output", Elem::f32, count_one()),
                scalar("N", 1, 100000000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, reduction_reference);
    p.fill = fill_values;
    add_awkward_size_tests(p, {4096});
    add_tests(p, {{1000003}, {100000000}});
    add_tests(p, {{2}, {33}, {4097}, {1000001}, {10000000}}, fill_cancelling, ",cancelling");
    add_tests(p, {{4096}, {1000000}}, fill_extremes, ",+-1000");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/4_reduction";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {8}, {given({1, 2, 3, 4, 5, 6, 7, 8})});
    add_judge_functional(p, {8}, {given({1, 2, 3, 4, 5, 6, 7, 8})});
    add_judge_functional(p, {4}, {given({-2.5, 1.5, -1, 2})});
    add_judge_functional(p, {1}, {given({42})});
    add_judge_functional(p, {1024}, {constant(0)});
    add_judge_functional(p, {1024}, {constant(1)});
    add_judge_functional(p, {5}, {given({1, 2, 3, 4, 5})});
    add_judge_functional(p, {10000}, {uniform(-1000, 1000)});
    add_judge_functional(p, {15000000}, {uniform(0, 1000)});
    j.performance = judge_case(p, "performance", {4194304}, {uniform(0, 1000)});
    p.model = memory_bound([](const Case &c) { return 4.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
