// fp16_dot_product: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/half.h"
#include "harness/spec.h"

#include <cstdint>
#include <utility>

namespace kit::basics {
namespace {

// The float64 dot product of the halves (each product of two halves is exact in double), rounded
// once to half. The judge adds in float32 and rounds that to half: the two differ by far less than
// the 0.05 tolerance (relative to the result) at the challenge's sizes and ranges.
void fp16_dot_product_reference(const std::uint16_t *A, const std::uint16_t *B,
                                std::uint16_t *result, int N) {
  double sum = 0.0;
  for (int i = 0; i < N; ++i)
    sum += static_cast<double>(half_to_float(A[i])) * static_cast<double>(half_to_float(B[i]));
  result[0] = half_from_double(sum);
}

// Integers in [-32, 32] in pairs (a, b), (a, -b), placed at shuffled positions: the exact result
// is 0 (odd N adds one 0.5 * 0.5). Every product and partial sum is an integer far below 2^24, so
// float and double accumulation are both exact: an element lost or counted twice shows.
void fill_cancelling(Case &c, Rng &rng) {
  std::uint16_t *a = c.array<std::uint16_t>(0);
  std::uint16_t *b = c.array<std::uint16_t>(1);
  const std::size_t n = c.count(0);
  for (std::size_t i = 0; i + 1 < n; i += 2) {
    const auto x = static_cast<double>(rng.uniform_int(-32, 32));
    const auto y = static_cast<double>(rng.uniform_int(-32, 32));
    a[i] = a[i + 1] = half_from_double(x);
    b[i] = half_from_double(y);
    b[i + 1] = half_from_double(-y);
  }
  if (n % 2 == 1)
    a[n - 1] = b[n - 1] = half_from_double(0.5);
  for (std::size_t i = n; i > 1; --i) { // Fisher-Yates, the same permutation for both arrays
    const std::size_t j = rng.next() % i;
    std::swap(a[i - 1], a[j]);
    std::swap(b[i - 1], b[j]);
  }
}

// Pairs of edge halves at random positions: signed zeros, the smallest subnormal (2^-24) and the
// smallest normal (2^-14), the largest half (65504) paired with small values, and a few ordinary
// values. Every product is below 53 in magnitude, so the sum stays far inside the half range
// (no rounding to infinity that float and double could disagree on).
void fill_edge_values(Case &c, Rng &rng) {
  const double tiny = 5.9604644775390625e-8, smallest_normal = 6.103515625e-5;
  const std::pair<double, double> pairs[] = {
      {0.0, -0.0},    {-0.0, -0.0},           {tiny, 1.0},       {-tiny, 65504.0},
      {tiny, tiny},   {smallest_normal, 3.0}, {65504.0, tiny},   {-65504.0, smallest_normal},
      {7.25, -7.25},  {0.125, 1.5},           {-1.0, 1.0},       {0.999511719, 0.999511719},
      {-3.0, 0.0625}, {2.0, -0.333251953},    {1024.0, 0.03125}, {smallest_normal, -65504.0}};
  std::uint16_t *a = c.array<std::uint16_t>(0);
  std::uint16_t *b = c.array<std::uint16_t>(1);
  for (std::size_t i = 0; i < c.count(0); ++i) {
    const std::pair<double, double> &pair = pairs[rng.next() % (sizeof pairs / sizeof pairs[0])];
    a[i] = half_from_double(pair.first);
    b[i] = half_from_double(pair.second);
  }
}

} // namespace

const Problem &fp16_dot_product_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "fp16_dot_product";
    p.params = {input("A", Elem::f16, count_of("N")), input("B", Elem::f16, count_of("N")),
                output("result", Elem::f16, count_one()), scalar("N", 1, 100000000)};
    p.tolerance = {0.05, 0.05};
    set_reference(p, fp16_dot_product_reference);
    p.fill = fill_with(p, {uniform(-1, 1), uniform(-1, 1)});
    // One block covers 256 threads x 4 loads x 8 halves = 8192 elements per batch; sizes around
    // the 8-half load too.
    add_awkward_size_tests(p, {8192});
    add_tests(p, {{7}, {8}, {9}, {15}, {16}, {17}, {1000003}, {100000000}});
    add_tests(p, {{2}, {33}, {8193}, {1000001}, {10000000}}, fill_cancelling, ",cancelling");
    add_tests(p, {{5}, {33}, {8199}}, fill_edge_values, ",edge-values");
    // 256 * 256 * N is beyond the largest half: the result is +infinity, in the judge's float32
    // rounding as in the reference's.
    add_tests(p, {{1025}}, fill_with(p, {constant(256), constant(256)}), ",overflow");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/58_fp16_dot_product";
    j.tolerance = {0.05, 0.05};
    j.example = judge_case(p, "example", {4}, {given({1, 2, 3, 4}), given({5, 6, 7, 8})});
    add_judge_functional(p, {4}, {given({1, 2, 3, 4}), given({5, 6, 7, 8})});
    add_judge_functional(p, {16}, {constant(0), constant(0)});
    add_judge_functional(p, {4}, {given({-1, -2, -3, -4}), given({-5, -6, -7, -8})});
    add_judge_functional(p, {4}, {given({1, -2, 3, -4}), given({-1, 2, -3, 4})});
    add_judge_functional(p, {3}, {given({1, 0, 0}), given({0, 1, 0})});
    add_judge_functional(p, {1000}, {uniform(-1, 1), uniform(-1, 1)});
    add_judge_functional(p, {10000}, {uniform(-0.1, 0.1), uniform(-0.1, 0.1)});
    j.performance = judge_case(p, "performance", {100000000}, {uniform(-1, 1), uniform(-1, 1)});
    // Both arrays read once (2 + 2 bytes per element), one half written.
    p.model = memory_bound([](const Case &c) { return 4.0 * static_cast<double>(c["N"]) + 2.0; });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
