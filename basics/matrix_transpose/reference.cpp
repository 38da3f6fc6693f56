// matrix_transpose: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

namespace kit::basics {
namespace {

void matrix_transpose_reference(const float *input, float *output, int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      output[static_cast<std::size_t>(c) * rows + r] =
          input[static_cast<std::size_t>(r) * cols + c];
}

void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -1000.0f, 1000.0f, rng);
}

} // namespace

const Problem &matrix_transpose_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "matrix_transpose";
    p.params = {input("input", Elem::f32, count_of("rows", "cols")),
                output("output", Elem::f32, count_of("rows", "cols")), scalar("rows", 1, 8192),
                scalar("cols", 1, 8192)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, matrix_transpose_reference);
    p.fill = fill_values;
    // Single rows and columns, and both sides of the 32 x 32 tile in each dimension.
    add_tests(p, {{1, 1},
                  {1, 2},
                  {2, 1},
                  {1, 1025},
                  {1025, 1},
                  {31, 33},
                  {32, 32},
                  {33, 31},
                  {63, 65},
                  {64, 64},
                  {65, 63},
                  {97, 3},
                  {3, 97},
                  {1023, 1025},
                  {1025, 1023},
                  {2048, 31},
                  {31, 2048},
                  {8192, 33}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/3_matrix_transpose";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {2, 3}, {given({1, 2, 3, 4, 5, 6})});
    add_judge_functional(p, {2, 3}, {given({1, 2, 3, 4, 5, 6})});
    add_judge_functional(p, {3, 1}, {given({1, 2, 3})});
    add_judge_functional(p, {2, 2}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {1, 4}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {4, 1}, {given({1, 2, 3, 4})});
    for (std::vector<double> shape :
         {std::vector<double>{4, 6}, {8, 8}, {16, 12}, {32, 8}, {8, 32}})
      add_judge_functional(p, shape, {uniform(-10, 10)});
    add_judge_functional(p, {1, 1}, {uniform(-1, 1)});
    add_judge_functional(p, {8192, 8192}, {uniform(-1, 1)});
    j.performance = judge_case(p, "performance", {7000, 6000}, {uniform(-10, 10)});
    p.model = memory_bound([](const Case &c) {
      return 8.0 * static_cast<double>(c["rows"]) * static_cast<double>(c["cols"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
