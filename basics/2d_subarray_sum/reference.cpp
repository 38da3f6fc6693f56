// 2d_subarray_sum: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/subarray_cases.h"

#include <cstdint>
#include <string>

namespace kit::basics {
namespace {

// The judge's reference sums the box in int64 and stores it into an int32: the low 32 bits.
void subarray_sum_2d_reference(const int *input, int *output, int N, int M, int S_ROW, int E_ROW,
                               int S_COL, int E_COL) {
  (void)N;
  std::int64_t sum = 0;
  for (int r = S_ROW; r <= E_ROW; ++r)
    for (int c = S_COL; c <= E_COL; ++c)
      sum += input[static_cast<std::size_t>(r) * M + c];
  output[0] = static_cast<int>(static_cast<std::uint32_t>(sum));
}

std::string check_box(const Case &c) {
  const std::string rows = check_index_range(c, "S_ROW", "E_ROW", "N");
  return rows.empty() ? check_index_range(c, "S_COL", "E_COL", "M") : rows;
}

} // namespace

const Problem &subarray_sum_2d_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "2d_subarray_sum";
    p.params = {input("input", Elem::i32, count_of("N", "M")),
                output("output", Elem::i32, count_one()),
                scalar("N", 1, 10000),
                scalar("M", 1, 10000),
                scalar("S_ROW", 0, 9999),
                scalar("E_ROW", 0, 9999),
                scalar("S_COL", 0, 9999),
                scalar("E_COL", 0, 9999)};
    p.check = check_box;
    // The challenge's tolerance; integer outputs compare exactly whatever it is.
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, subarray_sum_2d_reference);
    p.fill = fill_one_to_ten;
    // Whole matrices with M % 4 = 0..3 (so rows start at every phase of a 16-byte vector), boxes
    // of one element, one row, one column, columns inside one vector, rows long enough to be
    // split into several runs, the performance size.
    add_tests(p, {{1, 1, 0, 0, 0, 0},
                  {31, 33, 0, 30, 0, 32},
                  {33, 31, 0, 32, 0, 30},
                  {64, 64, 0, 63, 0, 63},
                  {65, 66, 1, 63, 2, 64},
                  {1000, 1001, 3, 996, 5, 6},
                  {1000, 1001, 0, 999, 7, 7},
                  {1000, 1001, 500, 500, 0, 1000},
                  {1000, 1001, 10, 951, 12, 810},
                  {1, 10000, 0, 0, 1, 9999},
                  {10000, 1, 1, 9998, 0, 0},
                  {4099, 4099, 1, 4097, 1, 4097},
                  {3000, 8201, 0, 2999, 1, 8198},
                  {10000, 10000, 0, 9998, 1, 9999}});
    add_tests(p, {{1000, 1001, 3, 996, 5, 6}, {1000, 1003, 2, 998, 3, 1001}}, fill_positions,
              ",positions");
    add_tests(p, {{31, 33, 1, 29, 2, 31}, {1000, 1001, 0, 999, 1, 999}}, fill_full_int_range,
              ",wrapping");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/48_2d_subarray_sum";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {2, 3, 0, 1, 1, 2}, {given({1, 2, 3, 4, 5, 1})});
    add_judge_functional(p, {2, 2, 0, 0, 1, 1}, {given({5, 10, 5, 2})});
    add_judge_functional(p, {3, 16, 0, 2, 0, 15}, {constant(2)});
    add_judge_functional(p, {50, 50, 0, 49, 0, 49}, {integers(1, 10)});
    add_judge_functional(p, {100, 100, 0, 79, 1, 87}, {integers(1, 10)});
    add_judge_functional(p, {1000, 1000, 10, 951, 12, 810}, {integers(1, 10)});
    j.performance =
        judge_case(p, "performance", {10000, 10000, 0, 9998, 1, 9999}, {integers(1, 10)});
    // Reads the box once.
    p.model = memory_bound([](const Case &c) {
      return 4.0 * static_cast<double>(c["E_ROW"] - c["S_ROW"] + 1) *
             static_cast<double>(c["E_COL"] - c["S_COL"] + 1);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
