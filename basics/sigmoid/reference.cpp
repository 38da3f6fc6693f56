// sigmoid: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <cmath>
#include <limits>

namespace kit::basics {
namespace {

// torch.sigmoid on a float tensor: 1 / (1 + exp(-x)) in float.
void sigmoid_reference(const float *X, float *Y, int N) {
  for (int i = 0; i < N; ++i)
    Y[i] = 1.0f / (1.0f + std::exp(-X[i]));
}

// Signed zeros, subnormals, where the result rounds to 1 (x > 16.6), where exp(-x) overflows
// (x < -88.7: the result is 0), the largest finite floats and both infinities (0 and 1 exactly).
void fill_edge_values(Case &c, Rng &rng) {
  const float inf = std::numeric_limits<float>::infinity();
  const float special[] = {0.0f,    -0.0f,    1e-45f,  -1e-45f,  1.0f,  -1.0f,  16.0f,  -16.0f,
                           17.0f,   -17.0f,   88.0f,   -88.0f,   89.0f, -89.0f, 104.0f, -104.0f,
                           1000.0f, -1000.0f, 3.4e38f, -3.4e38f, inf,   -inf};
  float *x = c.array<float>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = special[rng.next() % (sizeof special / sizeof special[0])];
}

} // namespace

const Problem &sigmoid_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "sigmoid";
    p.params = {input("X", Elem::f32, count_of("N")), output("Y", Elem::f32, count_of("N")),
                scalar("N", 1, 100000000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, sigmoid_reference);
    p.fill = fill_with(p, {uniform(-10, 10)});
    add_awkward_size_tests(p, {1024, 4096});
    add_tests(p, {{1000003}});
    add_tests(p, {{4099}}, fill_edge_values, ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/68_sigmoid";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {4}, {given({0, 1, -1, 2})});
    add_judge_functional(p, {1}, {given({0})});
    add_judge_functional(p, {1}, {given({1})});
    add_judge_functional(p, {1}, {given({-1})});
    add_judge_functional(p, {4}, {given({0, 1, -1, 2})});
    add_judge_functional(p, {16}, {constant(0)});
    add_judge_functional(p, {4}, {given({10, 20, 100, 1000})});
    add_judge_functional(p, {4}, {given({-10, -20, -100, -1000})});
    add_judge_functional(p, {8}, {given({0.5, -0.5, 1.5, -1.5, 3, -3, 0, 7})});
    add_judge_functional(p, {32}, {uniform(-5, 5)});
    add_judge_functional(p, {100}, {uniform(-3, 3)});
    add_judge_functional(p, {255}, {uniform(-10, 10)});
    add_judge_functional(p, {1024}, {uniform(-1, 1)});
    add_judge_functional(p, {10000}, {uniform(-5, 5)});
    j.performance = judge_case(p, "performance", {50000000}, {uniform(-10, 10)});
    p.model = memory_bound([](const Case &c) { return 8.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
