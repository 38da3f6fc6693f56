// prefix_sum: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

namespace kit::basics {
namespace {

// Accumulates in double and rounds each output once.
void prefix_sum_reference(const float *input, float *output, int N) {
  double sum = 0.0;
  for (int i = 0; i < N; ++i) {
    sum += input[i];
    output[i] = static_cast<float>(sum);
  }
}

void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -1000.0f, 1000.0f, rng);
}

// All +1000: the running sum grows to 1e11 at N = 1e8, far past float's exact integers.
void fill_max(Case &c, Rng &) {
  float *x = c.array<float>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = 1000.0f;
}

} // namespace

const Problem &prefix_sum_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "prefix_sum";
    p.params = {input("input", Elem::f32, count_of("N")),
                output("output", Elem::f32, count_of("N")), scalar("N", 1, 100000000)};
    p.tolerance = {1e-2, 1e-2};
    set_reference(p, prefix_sum_reference);
    p.fill = fill_values;
    // Tiles of 8192 elements; more than 32 (64 on AMD) tiles need more than one look-back step.
    add_awkward_size_tests(p, {8192});
    add_tests(p, {{262145}, {524289}, {1000003}, {16777217}, {100000000}});
    add_tests(p, {{1000001}}, fill_max, ",all-1000");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/16_prefix_sum";
    j.tolerance = {1e-2, 1e-2};
    j.example = judge_case(p, "example", {4}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {4}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {5}, {given({5, -2, 3, 1, -4})});
    add_judge_functional(p, {1}, {given({42})});
    add_judge_functional(p, {8}, {given({1, 2, 3, 4, 5, 6, 7, 8})});
    add_judge_functional(p, {1024}, {constant(0)});
    add_judge_functional(p, {2025}, {uniform(-10, 10)});
    j.performance = judge_case(p, "performance", {250000}, {uniform(-100, 100)});
    p.model = memory_bound([](const Case &c) { return 8.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
