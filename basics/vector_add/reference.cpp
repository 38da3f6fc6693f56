// vector_add: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

namespace kit::basics {
namespace {

void vector_add_reference(const float *A, const float *B, float *C, int N) {
  for (int i = 0; i < N; ++i)
    C[i] = A[i] + B[i];
}

void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -1000.0f, 1000.0f, rng);
  fill_uniform(c.array<float>(1), c.count(1), -1000.0f, 1000.0f, rng);
}

// Signed zeros, subnormals, the largest finite floats cancelling exactly, and sums that round.
FillFn fill_edge_values() {
  return fill_pairs_from({{0.0f, -0.0f},
                          {-0.0f, -0.0f},
                          {1e-45f, 1e-45f},
                          {-1e-40f, 2e-40f},
                          {3.4e38f, -3.4e38f},
                          {1.0f, 1e-8f},
                          {16777216.0f, 1.0f},
                          {-2.5f, 2.5f}});
}

} // namespace

const Problem &vector_add_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "vector_add";
    p.params = {input("A", Elem::f32, count_of("N")), input("B", Elem::f32, count_of("N")),
                output("C", Elem::f32, count_of("N")), scalar("N", 1, 100000000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, vector_add_reference);
    p.fill = fill_values;
    add_awkward_size_tests(p, {1024, 4096});
    add_tests(p, {{1000003}});
    add_tests(p, {{4099}}, fill_edge_values(), ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/1_vector_add";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {4}, {given({1, 2, 3, 4}), given({5, 6, 7, 8})});
    add_judge_functional(p, {1}, {given({1}), given({2})});
    add_judge_functional(p, {2}, {given({1, 2}), given({3, 4})});
    add_judge_functional(p, {3}, {given({1, 2, 3}), given({4, 5, 6})});
    add_judge_functional(p, {4}, {given({1, 2, 3, 4}), given({5, 6, 7, 8})});
    add_judge_functional(p, {16}, {constant(0), constant(0)});
    add_judge_functional(p, {30}, {constant(1), constant(2)});
    add_judge_functional(p, {4}, {given({-1, -2, -3, -4}), given({-5, -6, -7, -8})});
    add_judge_functional(p, {4}, {given({1, -2, 3, -4}), given({-1, 2, -3, 4})});
    add_judge_functional(p, {4},
                         {given({1e-6, 1e-7, 1e-8, 1e-9}), given({1e-6, 1e-7, 1e-8, 1e-9})});
    add_judge_functional(p, {4}, {given({1e6, 1e7, -1e6, -1e7}), given({1e6, -1e7, -1e6, 1e7})});
    add_judge_functional(p, {32}, {uniform(0, 32), uniform(0, 64)});
    add_judge_functional(p, {1000}, {uniform(0, 7), uniform(0, 5)});
    add_judge_functional(p, {10000}, {uniform(0, 1), uniform(0, 1)});
    j.performance =
        judge_case(p, "performance", {25000000}, {uniform(-1000, 1000), uniform(-1000, 1000)});
    p.model = memory_bound([](const Case &c) { return 12.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
