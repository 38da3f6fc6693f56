// matrix_addition: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

namespace kit::basics {
namespace {

void matrix_addition_reference(const float *A, const float *B, float *C, int N) {
  const std::size_t n = static_cast<std::size_t>(N) * static_cast<std::size_t>(N);
  for (std::size_t i = 0; i < n; ++i)
    C[i] = A[i] + B[i];
}

// Signed zeros, subnormals, the largest finite floats cancelling exactly, sums that round, and
// large magnitudes whose sum stays finite (an infinite expected value cannot be compared).
FillFn fill_edge_values() {
  return fill_pairs_from({{0.0f, -0.0f},
                          {-0.0f, -0.0f},
                          {1e-45f, 1e-45f},
                          {-1e-40f, 2e-40f},
                          {3.4e38f, -3.4e38f},
                          {1.7e38f, 1.7e38f},
                          {16777216.0f, 1.0f},
                          {1.0f, 1e-8f},
                          {-2.5f, 2.5f},
                          {1e7f, -1e7f}});
}

} // namespace

const Problem &matrix_addition_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "matrix_addition";
    p.params = {input("A", Elem::f32, count_of("N", "N")),
                input("B", Elem::f32, count_of("N", "N")),
                output("C", Elem::f32, count_of("N", "N")), scalar("N", 1, 4096)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, matrix_addition_reference);
    p.fill = fill_with(p, {uniform(-1000, 1000), uniform(-1000, 1000)});
    // N*N leaves every remainder mod 4 (the vector tail) and crosses the block tiles (1024 elements
    // on NVIDIA, 32 x 32; 4096 on gfx908, 64 x 64) and their multiples.
    add_tests(p, {{1},
                  {2},
                  {3},
                  {5},
                  {7},
                  {31},
                  {32},
                  {33},
                  {63},
                  {64},
                  {65},
                  {91},
                  {127},
                  {128},
                  {129},
                  {1023},
                  {1025},
                  {2047},
                  {4095}});
    add_tests(p, {{67}}, fill_edge_values(), ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/8_matrix_addition";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {2}, {given({1, 2, 3, 4}), given({5, 6, 7, 8})});
    add_judge_functional(p, {2}, {given({1, 2, 3, 4}), given({5, 6, 7, 8})});
    add_judge_functional(p, {4}, {constant(0), constant(0)});
    add_judge_functional(p, {3},
                         {given({1, 0, 0, 0, 1, 0, 0, 0, 1}), given({1, 0, 0, 0, 1, 0, 0, 0, 1})});
    add_judge_functional(p, {2}, {given({-1, -2, -3, -4}), given({-5, -6, -7, -8})});
    add_judge_functional(p, {2}, {given({1, -2, -3, 4}), given({-1, 2, 3, -4})});
    add_judge_functional(p, {1}, {given({42}), given({8})});
    add_judge_functional(p, {16}, {uniform(-10, 10), uniform(-10, 10)});
    add_judge_functional(p, {2},
                         {given({1e-6, 1e-7, 1e-8, 1e-9}), given({1e-6, 1e-7, 1e-8, 1e-9})});
    add_judge_functional(p, {2}, {given({1e6, 1e7, -1e6, -1e7}), given({1e6, -1e7, -1e6, 1e7})});
    add_judge_functional(p, {7}, {uniform(-5, 5), uniform(-5, 5)});
    add_judge_functional(p, {32}, {uniform(-100, 100), uniform(-100, 100)});
    j.performance =
        judge_case(p, "performance", {4096}, {uniform(-1000, 1000), uniform(-1000, 1000)});
    p.model = memory_bound([](const Case &c) {
      const double n = static_cast<double>(c["N"]);
      return 12.0 * n * n;
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
