// jacobi_stencil_2d: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

// Boundary cells copied, interior cells the average of their four neighbours, summed in double
// (the judge's reference sums in float, top + bottom + left + right, then scales by 0.25).
void jacobi_stencil_2d_reference(const float *input, float *output, int rows, int cols) {
  const auto at = [&](int r, int c) {
    return static_cast<double>(input[static_cast<std::size_t>(r) * cols + c]);
  };
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      float &o = output[static_cast<std::size_t>(r) * cols + c];
      if (r == 0 || r == rows - 1 || c == 0 || c == cols - 1)
        o = input[static_cast<std::size_t>(r) * cols + c];
      else
        o = static_cast<float>(0.25 * (at(r - 1, c) + at(r + 1, c) + at(r, c - 1) + at(r, c + 1)));
    }
}

// The challenge's value range.
void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -100.0f, 100.0f, rng);
}

} // namespace

const Problem &jacobi_stencil_2d_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "jacobi_stencil_2d";
    p.params = {input("input", Elem::f32, count_of("rows", "cols")),
                output("output", Elem::f32, count_of("rows", "cols")), scalar("rows", 1, 16384),
                scalar("cols", 1, 16384)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, jacobi_stencil_2d_reference);
    p.fill = fill_values;
    // Grids with no interior (one or two rows or columns), a single interior cell; column counts
    // with cols % 4 = 0..3 (the vector and the scalar path) around a warp of vectors (128 and
    // 256 columns, where the end lanes load their neighbours) and a block's 1024 columns; row
    // counts around the 16-row run; the challenge's largest sides.
    add_tests(p, {{1, 1},      {1, 2},      {2, 1},     {2, 2},      {1, 1025},    {1025, 1},
                  {2, 7},      {7, 2},      {3, 3},     {4, 4},      {5, 5},       {31, 33},
                  {33, 31},    {15, 64},    {16, 64},   {17, 64},    {32, 63},     {33, 65},
                  {63, 66},    {64, 67},    {65, 128},  {47, 129},   {48, 132},    {49, 256},
                  {100, 1020}, {101, 1024}, {99, 1028}, {257, 1023}, {1000, 1001}, {16384, 5},
                  {3, 16384}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/69_jacobi_stencil_2d";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {4, 4},
                           {given({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})});
    add_judge_functional(p, {3, 3}, {given({1, 2, 3, 4, 5, 6, 7, 8, 9})});
    add_judge_functional(p, {1, 1}, {given({42})});
    add_judge_functional(p, {1, 4}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {4, 1}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {16, 16}, {constant(0)});
    add_judge_functional(p, {32, 32}, {constant(3.14)});
    add_judge_functional(p, {64, 64}, {uniform(-5, 5)});
    add_judge_functional(p, {128, 128}, {uniform(-10, 10)});
    add_judge_functional(p, {30, 30}, {uniform(-1, 1)});
    add_judge_functional(p, {100, 100}, {uniform(-3, 3)});
    add_judge_functional(p, {255, 33}, {uniform(-2, 2)});
    add_judge_functional(p, {17, 97}, {uniform(-100, 0)});
    add_judge_functional(p, {512, 256}, {uniform(-1, 1)});
    add_judge_functional(p, {1024, 1024}, {uniform(-5, 5)});
    j.performance = judge_case(p, "performance", {8192, 8192}, {uniform(-1, 1)});
    // One read and one write of every cell.
    p.model = memory_bound([](const Case &c) {
      return 8.0 * static_cast<double>(c["rows"]) * static_cast<double>(c["cols"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
