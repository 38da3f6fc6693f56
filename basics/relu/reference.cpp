// relu: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

namespace kit::basics {
namespace {

void relu_reference(const float *input, float *output, int N) {
  for (int i = 0; i < N; ++i)
    output[i] = input[i] > 0.0f ? input[i] : 0.0f;
}

void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -100.0f, 100.0f, rng);
}

// Values at and around zero: signed zeros, subnormals of both signs, the extremes.
void fill_edge_values(Case &c, Rng &rng) {
  static const float kSpecial[] = {0.0f,    -0.0f,   1e-45f,   -1e-45f, 1e-38f,
                                   -1e-38f, 3.4e38f, -3.4e38f, 1e-7f,   -1e-7f};
  float *x = c.array<float>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = kSpecial[rng.next() % (sizeof kSpecial / sizeof kSpecial[0])];
}

} // namespace

const Problem &relu_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "relu";
    p.params = {input("input", Elem::f32, count_of("N")),
                output("output", Elem::f32, count_of("N")), scalar("N", 1, 100000000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, relu_reference);
    p.fill = fill_values;
    add_awkward_size_tests(p, {1024, 4096});
    add_tests(p, {{1000003}});
    add_tests(p, {{4099}}, fill_edge_values, ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/21_relu";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {5}, {given({-2, -1, 0, 1, 2})});
    add_judge_functional(p, {1}, {given({2})});
    add_judge_functional(p, {2}, {given({-1, 1})});
    add_judge_functional(p, {3}, {given({-2, 0, 2})});
    add_judge_functional(p, {5}, {given({-2, -1, 0, 1, 2})});
    add_judge_functional(p, {5}, {given({1, 2, 3, 4, 5})});
    add_judge_functional(p, {5}, {given({-1, -2, -3, -4, -5})});
    add_judge_functional(p, {5}, {constant(0)});
    add_judge_functional(p, {5}, {given({-1000, -100, 0, 100, 1000})});
    add_judge_functional(p, {5}, {given({-0.001, -0.0001, 0, 0.0001, 0.001})});
    add_judge_functional(p, {1024}, {uniform(-10, 10)});
    add_judge_functional(p, {10000}, {uniform(-50, 50)});
    j.performance = judge_case(p, "performance", {25000000}, {uniform(-100, 100)});
    p.model = memory_bound([](const Case &c) { return 8.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
