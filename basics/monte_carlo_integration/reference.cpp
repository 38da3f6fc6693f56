// monte_carlo_integration: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <string>

namespace kit::basics {
namespace {

// The samples summed in double, the width b - a and the division by n applied to that sum, the
// result rounded to float once. (The judge's reference takes torch's float32 mean and multiplies
// it by the width.)
void monte_carlo_integration_reference(const float *y_samples, float *result, float a, float b,
                                       int n_samples) {
  double sum = 0.0;
  for (int i = 0; i < n_samples; ++i)
    sum += y_samples[i];
  const double width = static_cast<double>(b) - static_cast<double>(a);
  result[0] = static_cast<float>(width * (sum / n_samples));
}

std::string check_interval(const Case &c) {
  return c.real("a") < c.real("b") ? "" : "a must be below b";
}

// The statement's extremes of the function values (+-10000) and values that cancel: each value
// is followed somewhere by its negation, so the exact mean is small and float accumulation would
// drift from it.
void fill_extremes(Case &c, Rng &rng) {
  const float special[] = {10000.0f, -10000.0f, 9999.999f, -9999.999f, 0.0f,
                           -0.0f,    1e-45f,    -1e-45f,   0.1f,       -0.1f};
  float *y = c.array<float>(0);
  const std::size_t count = sizeof special / sizeof special[0];
  for (std::size_t i = 0; i < c.count(0); ++i)
    y[i] = special[rng.next() % count];
}

void fill_cancelling(Case &c, Rng &rng) {
  float *y = c.array<float>(0);
  const std::size_t n = c.count(0);
  fill_uniform(y, n, -10000.0f, 10000.0f, rng);
  for (std::size_t i = 0; i + 1 < n; i += 2)
    y[i + 1] = -y[i];
  for (std::size_t i = n - 1; i > 0; --i) { // shuffle, so the pairs are far apart
    const std::size_t j = rng.next() % (i + 1);
    const float t = y[i];
    y[i] = y[j];
    y[j] = t;
  }
}

} // namespace

const Problem &monte_carlo_integration_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "monte_carlo_integration";
    p.params = {input("y_samples", Elem::f32, count_of("n_samples")),
                output("result", Elem::f32, count_one()), float_scalar("a", -1000.0f, 1000.0f),
                float_scalar("b", -1000.0f, 1000.0f), scalar("n_samples", 1, 100000000)};
    p.check = check_interval;
    p.tolerance = {1e-2, 1e-2};
    set_reference(p, monte_carlo_integration_reference);
    p.fill = fill_with(p, {uniform(-1000, 1000)});
    // One block covers 256 threads x 8 vectors x 4 floats = 8192 samples per batch.
    for (double n : awkward_sizes({8192}))
      add_tests(p, {{-10, 10, n}});
    add_tests(p, {{0, 1, 1000003}, {-1000, 1000, 100000000}, {999.5, 1000, 10000001}});
    add_tests(p, {{-3, 5, 5}, {-1000, 1000, 4097}, {0, 0.001, 1000001}}, fill_extremes,
              ",edge-values");
    add_tests(p, {{-1000, 1000, 8193}, {-1000, 1000, 10000000}}, fill_cancelling, ",cancelling");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/35_monte_carlo_integration";
    j.tolerance = {1e-2, 1e-2};
    const std::vector<double> squares = {0.0625, 0.25, 0.5625, 1.0, 1.5625, 2.25, 3.0625, 4.0};
    j.example = judge_case(p, "example", {0, 2, 8}, {given(squares)});
    add_judge_functional(p, {0, 2, 8}, {given(squares)});
    add_judge_functional(p, {0, 4, 4}, {given({1, 1, 1, 1})});
    add_judge_functional(p, {0, 3, 4}, {given({0, 1, 2, 3})});
    add_judge_functional(p, {-2, 1, 3}, {given({-1, -2, -3})});
    add_judge_functional(p, {1, 2, 2}, {given({0.5, 1.5})});
    add_judge_functional(p, {0, 1, 10}, {uniform(-10, 10)});
    add_judge_functional(p, {-1, 1, 100}, {uniform(-10, 10)});
    add_judge_functional(p, {0, 10, 1000}, {uniform(-10, 10)});
    add_judge_functional(p, {-5, 5, 10000}, {uniform(-10, 10)});
    add_judge_functional(p, {0, 1, 1}, {uniform(-1, 1)});
    add_judge_functional(p, {-100, 100, 100}, {uniform(-1, 1)});
    add_judge_functional(p, {0, 0.1, 50}, {uniform(-1, 1)});
    j.performance = judge_case(p, "performance", {-10, 10, 10000000}, {uniform(-1000, 1000)});
    p.model = memory_bound([](const Case &c) { return 4.0 * static_cast<double>(c["n_samples"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
