// count_2d_array_element: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <climits>

namespace kit::basics {
namespace {

void count_2d_array_element_reference(const int *input, int *output, int N, int M, int K) {
  int count = 0;
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < M; ++c)
      count += input[static_cast<std::size_t>(r) * M + c] == K;
  output[0] = count;
}

void fill_small_values(Case &c, Rng &rng) { fill_uniform(c.array<int>(0), c.count(0), 1, 16, rng); }

void fill_all_equal_k(Case &c, Rng &) {
  int *x = c.array<int>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = static_cast<int>(c["K"]);
}

} // namespace

const Problem &count_2d_array_element_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "count_2d_array_element";
    p.params = {input("input", Elem::i32, count_of("N", "M")),
                output("output", Elem::i32, count_one()), scalar("N", 1, 10000),
                scalar("M", 1, 10000), scalar("K", INT_MIN, INT_MAX)};
    // The challenge's tolerance; integer outputs compare exactly whatever it is (stricter than the
    // judge, whose rtol lets a count above 1e5 be off by one).
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, count_2d_array_element_reference);
    p.fill = fill_small_values;
    add_tests(p, {{1, 1, 5},
                  {1, 2, 5},
                  {2, 1, 5},
                  {31, 33, 5},
                  {32, 32, 5},
                  {33, 31, 5},
                  {1, 4097, 5},
                  {4097, 1, 5},
                  {63, 65, 5},
                  {1023, 1025, 5},
                  {4096, 3, 5},
                  {3001, 2999, 9}});
    add_tests(p, {{65, 65, -7}, {1000, 1001, 0}}, fill_all_equal_k, ",all-equal");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/44_count_2d_array_element";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {2, 3, 1}, {given({1, 2, 3, 4, 5, 1})});
    add_judge_functional(p, {2, 3, 1}, {given({1, 2, 3, 4, 5, 1})});
    add_judge_functional(p, {3, 16, 2}, {constant(2)});
    add_judge_functional(p, {50, 50, 5}, {integers(1, 10)});
    add_judge_functional(p, {100, 100, 51}, {integers(1, 100)});
    add_judge_functional(p, {1000, 1000, 1}, {integers(1, 10)});
    j.performance = judge_case(p, "performance", {10000, 10000, 1}, {integers(1, 2)});
    p.model = memory_bound([](const Case &c) {
      return 4.0 * static_cast<double>(c["N"]) * static_cast<double>(c["M"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
