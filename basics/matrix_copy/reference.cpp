// matrix_copy: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <cstring>

namespace kit::basics {
namespace {

void matrix_copy_reference(const float *A, float *B, int N) {
  std::memcpy(B, A, sizeof(float) * static_cast<std::size_t>(N) * static_cast<std::size_t>(N));
}

void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -1000.0f, 1000.0f, rng);
}

} // namespace

const Problem &matrix_copy_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "matrix_copy";
    p.params = {input("A", Elem::f32, count_of("N", "N")),
                output("B", Elem::f32, count_of("N", "N")), scalar("N", 1, 4096)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, matrix_copy_reference);
    p.fill = fill_values;
    // N*N crosses the block tiles (1024 elements on NVIDIA, 4096 on gfx908) and leaves every
    // remainder mod 4.
    add_tests(
        p, {{1}, {2}, {3}, {5}, {31}, {32}, {33}, {63}, {64}, {65}, {127}, {1023}, {1025}, {2047}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/31_matrix_copy";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {2}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {2}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {4}, {constant(0)});
    add_judge_functional(p, {3}, {given({1, 0, 0, 0, 1, 0, 0, 0, 1})});
    add_judge_functional(p, {2}, {given({-1, -2, -3, -4})});
    add_judge_functional(p, {16}, {uniform(-10, 10)});
    add_judge_functional(p, {1}, {given({42})});
    j.performance = judge_case(p, "performance", {4096}, {uniform(-1000, 1000)});
    p.model = memory_bound([](const Case &c) {
      const double n = static_cast<double>(c["N"]);
      return 8.0 * n * n;
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
