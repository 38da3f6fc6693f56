// leaky_relu: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

namespace kit::basics {
namespace {

// The slope is applied in float, as PyTorch does on a float tensor.
void leaky_relu_reference(const float *input, float *output, int N) {
  for (int i = 0; i < N; ++i)
    output[i] = input[i] > 0.0f ? input[i] : 0.01f * input[i];
}

void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -100.0f, 100.0f, rng);
}

// Values at and around zero (the tolerance is 1e-6 absolute), and the extremes.
void fill_edge_values(Case &c, Rng &rng) {
  static const float kSpecial[] = {0.0f,    -0.0f,    1e-45f, -1e-45f, -1e-38f,
                                   3.4e38f, -3.4e38f, -1e-4f, -1e-6f,  -99.99f};
  float *x = c.array<float>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = kSpecial[rng.next() % (sizeof kSpecial / sizeof kSpecial[0])];
}

} // namespace

const Problem &leaky_relu_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "leaky_relu";
    p.params = {input("input", Elem::f32, count_of("N")),
                output("output", Elem::f32, count_of("N")), scalar("N", 1, 100000000)};
    p.tolerance = {1e-6, 1e-6};
    set_reference(p, leaky_relu_reference);
    p.fill = fill_values;
    add_awkward_size_tests(p, {1024, 4096});
    add_tests(p, {{1000003}});
    add_tests(p, {{4099}}, fill_edge_values, ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/23_leaky_relu";
    j.tolerance = {1e-6, 1e-6};
    j.example = judge_case(p, "example", {4}, {given({1, -2, 3, -4})});
    add_judge_functional(p, {1}, {given({2})});
    add_judge_functional(p, {2}, {given({-1, 1})});
    add_judge_functional(p, {3}, {given({-2, 0, 2})});
    add_judge_functional(p, {4}, {given({1, -2, 3, -4})});
    add_judge_functional(p, {5}, {given({1, 2, 3, 4, 5})});
    add_judge_functional(p, {5}, {given({-1, -2, -3, -4, -5})});
    add_judge_functional(p, {1024}, {constant(0)});
    add_judge_functional(p, {10000}, {uniform(-100, 100)});
    j.performance = judge_case(p, "performance", {50000000}, {uniform(-1000, 1000)});
    p.model = memory_bound([](const Case &c) { return 8.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
