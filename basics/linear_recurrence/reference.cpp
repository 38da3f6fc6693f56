// linear_recurrence: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"


namespace kit::basics {
namespace {

// Sequential, in double, each h rounded once. (The judge's reference runs the same loop in
// float32; with its coefficients in [0, 1] the two differ far below the tolerance.)
void linear_recurrence_reference(const float *a, const float *x, float *h, int B, int L) {
  for (int b = 0; b < B; ++b) {
    const std::size_t row = static_cast<std::size_t>(b) * static_cast<std::size_t>(L);
    double state = x[row];
    h[row] = static_cast<float>(state);
    for (int t = 1; t < L; ++t) {
      state = static_cast<double>(a[row + t]) * state + x[row + t];
      h[row + t] = static_cast<float>(state);
    }
  }
}

// The judge's distributions: a = torch.rand (U(0, 1)), x = torch.randn.
FillFn judge_fill(const Problem &p, ArrayValues coefficients) {
  return fill_with(p, {std::move(coefficients), normal()});
}

} // namespace

const Problem &linear_recurrence_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "linear_recurrence";
    p.params = {
        input("a", Elem::f32, count_of("B", "L")), input("x", Elem::f32, count_of("B", "L")),
        output("h", Elem::f32, count_of("B", "L")), scalar("B", 1, 256), scalar("L", 1, 65536)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, linear_recurrence_reference);
    p.fill = judge_fill(p, uniform(0, 1));
    // One row: awkward lengths and the 4096-element tiles around them.
    add_tests(p, {{1, 1},
                  {1, 2},
                  {1, 31},
                  {1, 32},
                  {1, 33},
                  {1, 63},
                  {1, 64},
                  {1, 65},
                  {1, 1023},
                  {1, 1024},
                  {1, 1025},
                  {1, 4095},
                  {1, 4096},
                  {1, 4097},
                  {1, 8193},
                  {1, 65536}});
    // Several rows: row starts inside tiles, inside groups of four and at tile boundaries.
    add_tests(p, {{2, 1},
                  {3, 2},
                  {5, 3},
                  {7, 33},
                  {33, 31},
                  {3, 4095},
                  {2, 4096},
                  {3, 4097},
                  {256, 1},
                  {256, 65},
                  {64, 16383},
                  {256, 65536}});
    // a = 1: prefix sums of normal values, no tile ever absorbs: look-backs run back to the row's
    // first tile (16 tiles for L = 65,536), and a float carry would miss 1e-5.
    add_tests(p, {{1, 65536}, {4, 65535}, {3, 20001}}, judge_fill(p, constant(1)), ",a=1");
    // Coefficients near 1: long memory, no underflow to 0 within a tile.
    add_tests(p, {{2, 65536}, {5, 9999}}, judge_fill(p, uniform(0.999, 1)), ",a=U(0.999,1)");
    // Alternating signs.
    add_tests(p, {{8, 4099}}, judge_fill(p, uniform(-1, 1)), ",a=U(-1,1)");
    add_tests(p, {{4, 5000}}, judge_fill(p, constant(0)), ",a=0");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times. Its random cases draw a from
    // torch.rand (U(0, 1)) and x from torch.randn.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/82_linear_recurrence";
    j.tolerance = {1e-5, 1e-5};
    j.example =
        judge_case(p, "example", {2, 4},
                   {given({0.5, 0.5, 0.5, 0.5, 1, 1, 1, 1}), given({1, 0, 0, 0, 1, 1, 1, 1})});
    add_judge_functional(p, {1, 1}, {uniform(0, 1), normal()});
    add_judge_functional(p, {1, 2}, {uniform(0, 1), normal()});
    add_judge_functional(p, {4, 4}, {constant(0), constant(0)});
    add_judge_functional(p, {4, 16}, {constant(0), normal()});
    add_judge_functional(p, {4, 16}, {constant(1), normal()});
    add_judge_functional(p, {8, 32}, {uniform(0, 1), normal()});
    add_judge_functional(p, {8, 256}, {uniform(0, 1), normal()});
    add_judge_functional(p, {4, 30}, {uniform(0, 1), normal()});
    add_judge_functional(p, {8, 100}, {uniform(0, 1), normal()});
    add_judge_functional(p, {16, 1024}, {uniform(0, 1), normal()});
    j.performance = judge_case(p, "performance", {64, 16384}, {uniform(0, 1), normal()});
    p.model = memory_bound([](const Case &c) {
      return 12.0 * static_cast<double>(c["B"]) * static_cast<double>(c["L"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
