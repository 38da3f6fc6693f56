// max_subarray_sum: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <cstdint>
#include <string>

namespace kit::basics {
namespace {

// The judge's sliding window in int64: the first window's sum, then one step per element, the
// maximum over all N - window_size + 1 windows, stored into the int32 output: the low 32 bits.
void max_subarray_sum_reference(const int *input, int *output, int N, int window_size) {
  std::int64_t current = 0;
  for (int i = 0; i < window_size; ++i)
    current += input[i];
  std::int64_t best = current;
  for (int i = window_size; i < N; ++i) {
    current += static_cast<std::int64_t>(input[i]) - input[i - window_size];
    best = current > best ? current : best;
  }
  output[0] = static_cast<int>(static_cast<std::uint32_t>(best));
}

// Rising (falling) from -10 to 10 (10 to -10): the best window is the last (the first).
void fill_rising(Case &c, Rng &) {
  int *x = c.array<int>(0);
  const std::size_t n = c.count(0);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = -10 + static_cast<int>(20 * i / n);
}
void fill_falling(Case &c, Rng &) {
  int *x = c.array<int>(0);
  const std::size_t n = c.count(0);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = 10 - static_cast<int>(20 * i / n);
}

} // namespace

const Problem &max_subarray_sum_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "max_subarray_sum";
    // The challenge allows N <= 50,000; larger here, so that blocks with several tiles are tested.
    p.params = {input("input", Elem::i32, count_of("N")), output("output", Elem::i32, count_one()),
                scalar("N", 1, 100000000), scalar("window_size", 1, 100000000)};
    p.check = [](const Case &c) -> std::string {
      return c["window_size"] > c["N"] ? "window_size must be at most N" : "";
    };
    // The challenge's tolerance; integer outputs compare exactly whatever it is.
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, max_subarray_sum_reference);
    // The challenge's values: integers in [-10, 10].
    p.fill = fill_with(p, {integers(-10, 10)});
    // (N, window_size). Positions max(N - w, w) around a tile (1024) and a few of them, windows of
    // 1, of N (no slide), of N - 1 (two windows), half of N; more tiles than blocks (1024).
    add_tests(p, {{1, 1},         {2, 1},         {2, 2},
                  {5, 2},         {31, 7},        {32, 32},
                  {33, 1},        {63, 31},       {64, 33},
                  {65, 64},       {1023, 1},      {1024, 1},
                  {1025, 1},      {1025, 1024},   {1026, 1025},
                  {2048, 1024},   {2049, 1024},   {2050, 1025},
                  {3000, 1000},   {4097, 2},      {50000, 1},
                  {50000, 25000}, {50000, 50000}, {50000, 49999},
                  {49999, 24999}, {1048577, 3},   {10000019, 5000000}});
    add_tests(p, {{33, 5}, {100003, 50001}}, fill_with(p, {integers(-2147483648.0, 2147483647.0)}),
              ",wrapping");
    add_tests(p, {{1000, 10}, {50000, 25000}}, fill_rising, ",rising");
    add_tests(p, {{1000, 10}, {50000, 25000}}, fill_falling, ",falling");
    add_tests(p, {{1000, 500}, {4099, 3}}, fill_with(p, {constant(-10)}), ",all -10");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/51_max_subarray_sum";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {5, 2}, {given({1, 2, 4, 2, 3})});
    add_judge_functional(p, {4, 3}, {given({-1, -4, -2, 1})});
    add_judge_functional(p, {2, 1}, {given({9, -8})});
    add_judge_functional(p, {2, 1}, {given({-1, -9})});
    add_judge_functional(p, {5, 2}, {given({9, 5, -4, 3, -7})});
    add_judge_functional(p, {2, 2}, {given({9, -8})});
    add_judge_functional(p, {16, 15}, {constant(2)});
    add_judge_functional(p, {1000, 500}, {constant(-10)});
    add_judge_functional(p, {123, 7}, {integers(-10, 10)});
    add_judge_functional(p, {1000, 476}, {integers(-10, 10)});
    add_judge_functional(p, {10000, 7011}, {integers(-10, 10)});
    j.performance = judge_case(p, "performance", {50000, 25000}, {integers(-10, 10)});
    // Reads the input once (the second load of an element is an L1 or L2 hit).
    p.model = memory_bound([](const Case &c) { return 4.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
