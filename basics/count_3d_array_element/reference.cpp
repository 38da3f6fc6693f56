// count_3d_array_element: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <climits>

namespace kit::basics {
namespace {

void count_3d_array_element_reference(const int *input, int *output, int N, int M, int K, int P) {
  int count = 0;
  for (int d = 0; d < N; ++d)
    for (int r = 0; r < M; ++r)
      for (int c = 0; c < K; ++c)
        count += input[(static_cast<std::size_t>(d) * M + r) * K + c] == P;
  output[0] = count;
}

std::size_t elements(const Case &c) {
  return static_cast<std::size_t>(c["N"]) * static_cast<std::size_t>(c["M"]) *
         static_cast<std::size_t>(c["K"]);
}

// Values in [1, 16] so that P = 5 matches about one element in sixteen.
void fill_small_values(Case &c, Rng &rng) { fill_uniform(c.array<int>(0), c.count(0), 1, 16, rng); }

void fill_all_equal_p(Case &c, Rng &) {
  int *x = c.array<int>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = static_cast<int>(c["P"]);
}

// A third of the elements equal P, the rest anywhere in the int range.
void fill_full_range(Case &c, Rng &rng) {
  int *x = c.array<int>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = rng.next() % 3 == 0 ? static_cast<int>(c["P"])
                               : static_cast<int>(rng.uniform_int(INT_MIN, INT_MAX));
}

} // namespace

const Problem &count_3d_array_element_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "count_3d_array_element";
    p.params = {input("input", Elem::i32, elements),
                output("output", Elem::i32, count_one()),
                scalar("N", 1, 1000),
                scalar("M", 1, 1000),
                scalar("K", 1, 1000),
                scalar("P", INT_MIN, INT_MAX)};
    // The challenge's tolerance; integer outputs compare exactly whatever it is (stricter than the
    // judge, whose rtol lets a count above 1e5 be off by one).
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, count_3d_array_element_reference);
    p.fill = fill_small_values;
    // Element counts around 1, the warp sizes and the count's 4096-int block tile (4095, 4096,
    // 4097), each dimension in turn the long one; odd shapes; the performance size.
    add_tests(p, {{1, 1, 1, 5},
                  {1, 1, 2, 5},
                  {1, 2, 1, 5},
                  {2, 1, 1, 5},
                  {1, 1, 31, 5},
                  {1, 33, 1, 5},
                  {32, 1, 1, 5},
                  {3, 3, 7, 5},
                  {1, 5, 819, 5},
                  {17, 241, 1, 5},
                  {1, 1, 1000, 5},
                  {1, 1000, 1, 5},
                  {1000, 1, 1, 5},
                  {16, 16, 16, 5},
                  {17, 16, 16, 5},
                  {31, 33, 35, 5},
                  {127, 129, 131, 9},
                  {1000, 1000, 11, 3},
                  {500, 500, 500, 5}});
    add_tests(p, {{9, 7, 65, -7}, {100, 100, 101, 0}}, fill_all_equal_p, ",all-equal");
    add_tests(p, {{7, 9, 65, INT_MIN}, {7, 9, 65, INT_MAX}}, fill_full_range, ",extreme-P");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/45_count_3d_array_element";
    j.tolerance = {1e-5, 1e-5};
    const ArrayValues example = given({1, 2, 3, 4, 5, 1, 1, 1, 1, 2, 2, 2});
    j.example = judge_case(p, "example", {2, 2, 3, 1}, {example});
    add_judge_functional(p, {2, 2, 3, 1}, {example});
    add_judge_functional(p, {15, 3, 16, 2}, {constant(2)});
    add_judge_functional(p, {50, 50, 50, 5}, {integers(1, 10)});
    add_judge_functional(p, {100, 100, 100, 51}, {integers(1, 100)});
    add_judge_functional(p, {100, 200, 300, 3}, {integers(1, 10)});
    j.performance = judge_case(p, "performance", {500, 500, 500, 2}, {integers(1, 2)});
    p.model = memory_bound([](const Case &c) { return 4.0 * static_cast<double>(elements(c)); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
