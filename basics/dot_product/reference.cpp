// dot_product: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <utility>

namespace kit::basics {
namespace {

// The float64 dot product, rounded once: each product of two floats is exact in double.
void dot_product_reference(const float *A, const float *B, float *result, int N) {
  double sum = 0.0;
  for (int i = 0; i < N; ++i)
    sum += static_cast<double>(A[i]) * static_cast<double>(B[i]);
  result[0] = static_cast<float>(sum);
}

// Integer values in [-1000, 1000] in pairs (a, b), (a, -b), placed at shuffled positions: the exact
// result is 0 (odd N adds one 0.5 * 0.5), and every partial sum is an integer, exact in double,
// while a float accumulator would be off by far more than the 1e-5 absolute tolerance once its
// partial sums pass 2^24.
void fill_cancelling(Case &c, Rng &rng) {
  float *a = c.array<float>(0);
  float *b = c.array<float>(1);
  const std::size_t n = c.count(0);
  for (std::size_t i = 0; i + 1 < n; i += 2) {
    a[i] = a[i + 1] = static_cast<float>(rng.uniform_int(-1000, 1000));
    b[i] = static_cast<float>(rng.uniform_int(-1000, 1000));
    b[i + 1] = -b[i];
  }
  if (n % 2 == 1)
    a[n - 1] = b[n - 1] = 0.5f;
  for (std::size_t i = n; i > 1; --i) { // Fisher-Yates, the same permutation for both arrays
    const std::size_t j = rng.next() % i;
    std::swap(a[i - 1], a[j]);
    std::swap(b[i - 1], b[j]);
  }
}

// Signed zeros, the smallest subnormal and the smallest normal float, and multiples of 1/8 up to
// 65504 in magnitude. Every product of two of the latter is a multiple of 1/64 below 2^32, so up
// to 4099 elements every partial sum is exact in double in any order; the products involving
// the tiny values are far below the tolerance. The results agree whatever the summation order.
void fill_edge_values(Case &c, Rng &rng) {
  const float special[] = {0.0f,    -0.0f,    1e-45f, -1e-45f, 1.17549435e-38f, -1.17549435e-38f,
                           0.125f,  -0.125f,  1.0f,   -1.0f,   7.25f,           -7.25f,
                           65504.f, -65504.f, 3.0f,   -1024.0f};
  for (std::size_t k = 0; k < 2; ++k) {
    float *x = c.array<float>(k);
    for (std::size_t i = 0; i < c.count(k); ++i)
      x[i] = special[rng.next() % (sizeof special / sizeof special[0])];
  }
}

} // namespace

const Problem &dot_product_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "dot_product";
    p.params = {input("A", Elem::f32, count_of("N")), input("B", Elem::f32, count_of("N")),
                output("result", Elem::f32, count_one()), scalar("N", 1, 100000000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, dot_product_reference);
    p.fill = fill_with(p, {uniform(-1, 1), uniform(-1, 1)});
    // One block covers 256 threads x 4 vectors x 4 floats = 4096 elements per batch.
    add_awkward_size_tests(p, {4096});
    add_tests(p, {{1000003}, {100000000}});
    add_tests(p, {{2}, {33}, {4097}, {1000001}, {10000000}}, fill_cancelling, ",cancelling");
    add_tests(p, {{5}, {33}, {4099}}, fill_edge_values, ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/17_dot_product";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {4}, {given({1, 2, 3, 4}), given({5, 6, 7, 8})});
    add_judge_functional(p, {4}, {given({1, 2, 3, 4}), given({5, 6, 7, 8})});
    add_judge_functional(p, {16}, {constant(0), constant(0)});
    add_judge_functional(p, {4}, {given({-1, -2, -3, -4}), given({-5, -6, -7, -8})});
    add_judge_functional(p, {4}, {given({1, -2, 3, -4}), given({-1, 2, -3, 4})});
    add_judge_functional(p, {3}, {given({1, 0, 0}), given({0, 1, 0})});
    add_judge_functional(p, {1000}, {uniform(-1, 1), uniform(-1, 1)});
    add_judge_functional(p, {10000}, {uniform(-0.1, 0.1), uniform(-0.1, 0.1)});
    j.performance = judge_case(p, "performance", {5}, {uniform(-1, 1), uniform(-1, 1)});
    p.model = memory_bound([](const Case &c) { return 8.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
