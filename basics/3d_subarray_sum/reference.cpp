// 3d_subarray_sum: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/subarray_cases.h"

#include <cstdint>
#include <string>

namespace kit::basics {
namespace {

// The judge's reference sums the box in int64 and stores it into an int32: the low 32 bits.
void subarray_sum_3d_reference(const int *input, int *output, int N, int M, int K, int S_DEP,
                               int E_DEP, int S_ROW, int E_ROW, int S_COL, int E_COL) {
  (void)N;
  std::int64_t sum = 0;
  for (int d = S_DEP; d <= E_DEP; ++d)
    for (int r = S_ROW; r <= E_ROW; ++r)
      for (int c = S_COL; c <= E_COL; ++c)
        sum += input[(static_cast<std::size_t>(d) * M + r) * K + c];
  output[0] = static_cast<int>(static_cast<std::uint32_t>(sum));
}

std::size_t elements(const Case &c) {
  return static_cast<std::size_t>(c["N"]) * static_cast<std::size_t>(c["M"]) *
         static_cast<std::size_t>(c["K"]);
}

std::string check_box(const Case &c) {
  std::string why = check_index_range(c, "S_DEP", "E_DEP", "N");
  if (why.empty())
    why = check_index_range(c, "S_ROW", "E_ROW", "M");
  if (why.empty())
    why = check_index_range(c, "S_COL", "E_COL", "K");
  return why;
}

} // namespace

const Problem &subarray_sum_3d_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "3d_subarray_sum";
    p.params = {input("input", Elem::i32, elements),
                output("output", Elem::i32, count_one()),
                scalar("N", 1, 500),
                scalar("M", 1, 500),
                scalar("K", 1, 500),
                scalar("S_DEP", 0, 499),
                scalar("E_DEP", 0, 499),
                scalar("S_ROW", 0, 499),
                scalar("E_ROW", 0, 499),
                scalar("S_COL", 0, 499),
                scalar("E_COL", 0, 499)};
    p.check = check_box;
    // The challenge's tolerance; integer outputs compare exactly whatever it is.
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, subarray_sum_3d_reference);
    p.fill = fill_one_to_ten;
    // Whole arrays with K % 4 = 0..3 (rows start at every phase of a 16-byte vector), boxes of
    // one element, one column, one slab, one row per slab, a line along each dimension, the
    // challenge's largest case and the performance size.
    add_tests(p, {{1, 1, 1, 0, 0, 0, 0, 0, 0},
                  {2, 3, 5, 0, 1, 0, 2, 0, 4},
                  {7, 9, 13, 0, 6, 0, 8, 0, 12},
                  {7, 9, 14, 1, 5, 2, 7, 3, 12},
                  {31, 33, 35, 0, 30, 0, 32, 0, 34},
                  {16, 16, 16, 0, 15, 0, 15, 0, 15},
                  {50, 50, 50, 3, 46, 0, 49, 5, 5},
                  {50, 50, 50, 25, 25, 0, 49, 0, 49},
                  {50, 50, 50, 0, 49, 25, 25, 1, 48},
                  {50, 50, 50, 7, 7, 9, 9, 11, 11},
                  {100, 100, 100, 10, 91, 77, 91, 12, 81},
                  {1, 1, 500, 0, 0, 0, 0, 1, 498},
                  {1, 500, 1, 0, 0, 3, 496, 0, 0},
                  {500, 1, 1, 1, 498, 0, 0, 0, 0},
                  {500, 500, 500, 0, 499, 0, 499, 0, 499},
                  {500, 500, 500, 11, 498, 0, 499, 1, 489}});
    add_tests(p, {{7, 9, 14, 1, 5, 2, 7, 3, 12}, {100, 101, 102, 3, 97, 1, 99, 2, 100}},
              fill_positions, ",positions");
    add_tests(p, {{7, 9, 13, 1, 6, 0, 8, 1, 11}, {100, 101, 102, 0, 99, 0, 100, 1, 101}},
              fill_full_int_range, ",wrapping");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/49_3d_subarray_sum";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {2, 2, 3, 0, 1, 0, 0, 1, 2},
                           {given({1, 2, 3, 4, 5, 1, 1, 1, 1, 2, 2, 2})});
    add_judge_functional(p, {1, 3, 2, 0, 0, 0, 2, 1, 1}, {given({5, 10, 5, 2, 2, 2})});
    add_judge_functional(p, {30, 20, 16, 0, 29, 0, 19, 0, 15}, {constant(2)});
    add_judge_functional(p, {50, 50, 50, 0, 49, 0, 49, 0, 49}, {integers(1, 10)});
    add_judge_functional(p, {77, 87, 57, 0, 76, 0, 37, 1, 50}, {integers(1, 10)});
    add_judge_functional(p, {100, 100, 100, 10, 91, 77, 91, 12, 81}, {integers(1, 10)});
    j.performance =
        judge_case(p, "performance", {500, 500, 500, 11, 498, 0, 499, 1, 489}, {integers(1, 10)});
    // Reads the box once.
    p.model = memory_bound([](const Case &c) {
      return 4.0 * static_cast<double>(c["E_DEP"] - c["S_DEP"] + 1) *
             static_cast<double>(c["E_ROW"] - c["S_ROW"] + 1) *
             static_cast<double>(c["E_COL"] - c["S_COL"] + 1);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
