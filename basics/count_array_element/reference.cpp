// count_array_element: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <climits>

namespace kit::basics {
namespace {

void count_array_element_reference(const int *input, int *output, int N, int K) {
  int count = 0;
  for (int i = 0; i < N; ++i)
    count += input[i] == K;
  output[0] = count;
}

// Values in [1, 16] so that K = 5 matches about one element in sixteen.
void fill_small_values(Case &c, Rng &rng) { fill_uniform(c.array<int>(0), c.count(0), 1, 16, rng); }

// The judge's distribution: values in [1, 100000], so its K = 501010 never matches.
void fill_judge_values(Case &c, Rng &rng) {
  fill_uniform(c.array<int>(0), c.count(0), 1, 100000, rng);
}

void fill_all_equal_k(Case &c, Rng &) {
  int *x = c.array<int>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = static_cast<int>(c["K"]);
}

void fill_full_range(Case &c, Rng &rng) {
  int *x = c.array<int>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = rng.next() % 3 == 0 ? static_cast<int>(c["K"])
                               : static_cast<int>(rng.uniform_int(INT_MIN, INT_MAX));
}

} // namespace

const Problem &count_array_element_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "count_array_element";
    p.params = {input("input", Elem::i32, count_of("N")), output("output", Elem::i32, count_one()),
                scalar("N", 1, 100000000), scalar("K", INT_MIN, INT_MAX)};
    // The challenge's tolerance; integer outputs compare exactly whatever it is (stricter than the
    // judge, whose rtol lets a count above 1e5 be off by one).
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, count_array_element_reference);
    p.fill = fill_small_values;
    // A grid-stride pass reads 16 ints per thread per step; the block tile is 4096 ints.
    for (double n : awkward_sizes({4096}))
      add_tests(p, {{n, 5}});
    add_tests(p, {{10000019, 7}});
    add_tests(p, {{100000, 501010}}, fill_judge_values, ",absent");
    add_tests(p, {{65, 42}, {1000001, -3}}, fill_all_equal_k, ",all-equal");
    add_tests(p, {{4099, INT_MIN}, {4099, INT_MAX}}, fill_full_range, ",extreme-K");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/43_count_array_element";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {5, 1}, {given({1, 2, 3, 4, 1})});
    add_judge_functional(p, {5, 1}, {given({1, 2, 3, 4, 1})});
    add_judge_functional(p, {16, 2}, {constant(2)});
    add_judge_functional(p, {32, 4}, {integers(1, 4)});
    add_judge_functional(p, {1000, 5}, {integers(1, 9)});
    add_judge_functional(p, {100000, 501}, {integers(1, 999)});
    j.performance = judge_case(p, "performance", {100000000, 501010}, {integers(1, 100000)});
    p.model = memory_bound([](const Case &c) { return 4.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
