// mean_squared_error: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

namespace kit::basics {
namespace {

// Each term as the judge's reference forms it (float difference, float square), the sum in
// double, the mean rounded once.
void mean_squared_error_reference(const float *predictions, const float *targets, float *mse,
                                  int N) {
  double sum = 0.0;
  for (int i = 0; i < N; ++i) {
    const float d = predictions[i] - targets[i];
    sum += static_cast<double>(d * d);
  }
  mse[0] = static_cast<float>(sum / N);
}

// The challenge's extremes (+-1000, so differences up to 2000), signed zeros, subnormals, values
// one float apart, and pairs equal to each other.
void fill_edge_values(Case &c, Rng &rng) {
  const float special[] = {0.0f,      -0.0f,      1e-45f, -1e-45f,    1000.0f, -1000.0f,
                           999.9999f, -999.9999f, 1.0f,   1.0000001f, 0.1f,    -0.1f};
  float *p = c.array<float>(0);
  float *t = c.array<float>(1);
  const std::size_t count = sizeof special / sizeof special[0];
  for (std::size_t i = 0; i < c.count(0); ++i) {
    p[i] = special[rng.next() % count];
    t[i] = rng.next() % 4 == 0 ? p[i] : special[rng.next() % count];
  }
}

// predictions == targets: the mean is exactly 0, so only the absolute tolerance applies.
void fill_equal(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -1000.0f, 1000.0f, rng);
  for (std::size_t i = 0; i < c.count(0); ++i)
    c.array<float>(1)[i] = c.array<float>(0)[i];
}

} // namespace

const Problem &mean_squared_error_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "mean_squared_error";
    p.params = {input("predictions", Elem::f32, count_of("N")),
                input("targets", Elem::f32, count_of("N")), output("mse", Elem::f32, count_one()),
                scalar("N", 1, 100000000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, mean_squared_error_reference);
    p.fill = fill_with(p, {uniform(-1000, 1000), uniform(-1000, 1000)});
    // One block covers 256 threads x 4 vectors x 4 floats = 4096 elements per batch.
    add_awkward_size_tests(p, {4096});
    add_tests(p, {{1000003}, {100000000}});
    add_tests(p, {{5}, {33}, {4099}, {1000001}}, fill_edge_values, ",edge-values");
    add_tests(p, {{4097}, {10000001}}, fill_equal, ",equal");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/27_mean_squared_error";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {4}, {given({1, 2, 3, 4}), given({1.5, 2.5, 3.5, 4.5})});
    add_judge_functional(p, {4}, {given({1, 2, 3, 4}), given({1.5, 2.5, 3.5, 4.5})});
    add_judge_functional(p, {3}, {given({10, 20, 30}), given({12, 18, 33})});
    add_judge_functional(p, {5},
                         {given({1.5, 2.5, 3.5, 4.5, 5.5}), given({1.5, 2.5, 3.5, 4.5, 5.5})});
    add_judge_functional(p, {4}, {given({-2.5, -1, 0, 1.5}), given({-1.5, -2, 0.5, 2})});
    add_judge_functional(p, {3}, {given({100, 200, 300}), given({150, 250, 350})});
    add_judge_functional(p, {1024}, {uniform(-10, 10), uniform(-10, 10)});
    add_judge_functional(p, {10000}, {uniform(-100, 100), uniform(-100, 100)});
    j.performance =
        judge_case(p, "performance", {50000000}, {uniform(-1000, 1000), uniform(-1000, 1000)});
    p.model = memory_bound([](const Case &c) { return 8.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
