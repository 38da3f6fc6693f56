// subarray_sum: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <climits>
#include <cstdint>
#include <string>

namespace kit::basics {
namespace {

// The judge's reference sums input[S..E] in int64 and stores it into an int32: the low 32 bits.
void subarray_sum_reference(const int *input, int *output, int N, int S, int E) {
  (void)N;
  std::int64_t sum = 0;
  for (int i = S; i <= E; ++i)
    sum += input[i];
  output[0] = static_cast<int>(static_cast<std::uint32_t>(sum));
}

// The challenge's values: integers 1..10.
void fill_judge_values(Case &c, Rng &rng) { fill_uniform(c.array<int>(0), c.count(0), 1, 10, rng); }

// Every int, INT_MIN and INT_MAX among them: the sum wraps modulo 2^32 many times.
void fill_full_range(Case &c, Rng &rng) {
  int *x = c.array<int>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = rng.next() % 8 == 0 ? (rng.next() % 2 ? INT_MAX : INT_MIN)
                               : static_cast<int>(rng.uniform_int(INT_MIN, INT_MAX));
}

// Element i holds i + 1 (mod 2^31), so a sum that misses or repeats an element, or takes the
// wrong ends, is off by a recognisable amount.
void fill_positions(Case &c, Rng &) {
  int *x = c.array<int>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = static_cast<int>((i + 1) & 0x7fffffff);
}

} // namespace

const Problem &subarray_sum_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "subarray_sum";
    p.params = {input("input", Elem::i32, count_of("N")), output("output", Elem::i32, count_one()),
                scalar("N", 1, 100000000), scalar("S", 0, 99999999), scalar("E", 0, 99999999)};
    p.check = [](const Case &c) -> std::string {
      if (c["S"] > c["E"])
        return "S " + std::to_string(c["S"]) + " > E " + std::to_string(c["E"]);
      if (c["E"] >= c["N"])
        return "E " + std::to_string(c["E"]) + " >= N " + std::to_string(c["N"]);
      return "";
    };
    // The challenge's tolerance; integer outputs compare exactly whatever it is.
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, subarray_sum_reference);
    p.fill = fill_judge_values;
    // Whole arrays of the awkward sizes (a work item is 256 threads x 8 vectors = 8192 ints).
    for (long long n : awkward_sizes({8192}))
      add_tests(p, {{static_cast<double>(n), 0, static_cast<double>(n - 1)}});
    // Every start and end phase within a 16-byte vector, ranges inside one vector and across one
    // boundary, single elements at both ends of the array, long ranges.
    add_tests(p, {{4099, 1, 4098},
                  {4099, 2, 4097},
                  {4099, 3, 4096},
                  {4099, 4, 4095},
                  {4099, 5, 4094},
                  {4099, 0, 0},
                  {4099, 4098, 4098},
                  {4099, 1, 2},
                  {4099, 5, 6},
                  {4099, 3, 4},
                  {4099, 1, 7},
                  {4099, 4, 7},
                  {4099, 6, 13},
                  {1000003, 17651, 987654},
                  {10000019, 3, 10000017},
                  {100000000, 1, 99999998}});
    add_tests(p, {{4099, 5, 4094}, {1000003, 2, 999999}}, fill_positions, ",positions");
    add_tests(p, {{33, 1, 31}, {1000003, 3, 1000002}}, fill_full_range, ",wrapping");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/47_subarray_sum";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {5, 1, 3}, {given({1, 2, 1, 3, 4})});
    add_judge_functional(p, {4, 0, 3}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {16, 0, 15}, {constant(2)});
    add_judge_functional(p, {32, 0, 31}, {integers(1, 4)});
    add_judge_functional(p, {1000, 0, 500}, {integers(1, 9)});
    add_judge_functional(p, {100000, 123, 98765}, {integers(1, 10)});
    j.performance = judge_case(p, "performance", {100000000, 17651, 98765431}, {integers(1, 10)});
    // Reads input[S..E] once.
    p.model =
        memory_bound([](const Case &c) { return 4.0 * static_cast<double>(c["E"] - c["S"] + 1); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
