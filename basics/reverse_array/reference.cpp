// reverse_array: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <algorithm>

namespace kit::basics {
namespace {

void reverse_array_reference(float *input, int N) { std::reverse(input, input + N); }

void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -1000.0f, 1000.0f, rng);
}

} // namespace

const Problem &reverse_array_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "reverse_array";
    p.params = {inout("input", Elem::f32, count_of("N")), scalar("N", 1, 100000000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, reverse_array_reference);
    p.fill = fill_values;
    // A block swaps 512 vector pairs (4096 elements); N % 8 == 4 leaves a middle vector, other
    // remainders take the scalar kernel.
    add_awkward_size_tests(p, {4096});
    add_tests(p, {{3}, {4}, {5}, {7}, {8}, {12}, {4100}, {4104}, {1000004}, {1000006}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/19_reverse_array";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {4}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {4}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {1}, {given({42})});
    add_judge_functional(p, {16}, {constant(0)});
    std::vector<double> zero_to_29(30);
    for (std::size_t i = 0; i < zero_to_29.size(); ++i)
      zero_to_29[i] = static_cast<double>(i);
    add_judge_functional(p, {30}, {given(zero_to_29)});
    add_judge_functional(p, {4}, {given({-1, -2, -3, -4})});
    add_judge_functional(p, {4}, {given({1, -2, 3, -4})});
    add_judge_functional(p, {4}, {given({1e-6, 1e-7, 1e-8, 1e-9})});
    add_judge_functional(p, {4}, {given({1e6, 1e7, -1e6, -1e7})});
    add_judge_functional(p, {32}, {uniform(0, 32)});
    add_judge_functional(p, {1000}, {uniform(0, 7)});
    add_judge_functional(p, {10000}, {uniform(0, 1)});
    j.performance = judge_case(p, "performance", {25000000}, {uniform(-1000, 1000)});
    p.model = memory_bound([](const Case &c) { return 8.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
