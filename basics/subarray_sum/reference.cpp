// subarray_sum: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/subarray_cases.h"

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

} // namespace

const Problem &subarray_sum_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "subarray_sum";
    p.params = {input("input", Elem::i32, count_of("N")), output("output", Elem::i32, count_one()),
                scalar("N", 1, 100000000), scalar("S", 0, 99999999), scalar("E", 0, 99999999)};
    p.check = [](const Case &c) { return check_index_range(c, "S", "E", "N"); };
    // The challenge's tolerance; integer outputs compare exactly whatever it is.
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, subarray_sum_reference);
    p.fill = fill_one_to_ten;
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
    add_tests(p, {{33, 1, 31}, {1000003, 3, 1000002}}, fill_full_int_range, ",wrapping");
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
