// sorting: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace kit::basics {
namespace {

// torch.sort's order on the values (the judge's inputs hold no NaN); -0.0 and +0.0 are equal
// values, so the comparison accepts them in either order.
void sorting_reference(float *data, int N) { std::sort(data, data + N); }

// A recipe's values from a function of (position, count, rng).
template <class ValueAt> FillFn values(ValueAt value_at) {
  return [value_at](Case &c, Rng &rng) {
    float *x = c.array<float>(0);
    const std::size_t n = c.count(0);
    for (std::size_t i = 0; i < n; ++i)
      x[i] = value_at(i, n, rng);
  };
}

constexpr float kInf = std::numeric_limits<float>::infinity();
// Values at the ends and the middle of the float order: both zeros, both infinities, the largest
// and smallest normal and subnormal magnitudes of each sign, whole numbers.
const float kSpecial[] = {0.0f,
                          -0.0f,
                          kInf,
                          -kInf,
                          std::numeric_limits<float>::max(),
                          -std::numeric_limits<float>::max(),
                          std::numeric_limits<float>::min(),
                          -std::numeric_limits<float>::min(),
                          std::numeric_limits<float>::denorm_min(),
                          -std::numeric_limits<float>::denorm_min(),
                          1.0f,
                          -1.0f};

float uniform_value(Rng &rng, float lo, float hi) {
  float v;
  fill_uniform(&v, 1, lo, hi, rng);
  return v;
}

} // namespace

const Problem &sorting_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "sorting";
    // The challenge states no bound on N; the kit's is 1e8 (the sort's tile counts allow 2^30).
    p.params = {inout("data", Elem::f32, count_of("N")), scalar("N", 1, 100000000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, sorting_reference);
    p.fill = fill_with(p, {uniform(-1000, 1000)});
    // Tiles of 4096 keys: up to one tile the single-block sort, above it the histogram and four
    // onesweep passes (the last tile partly padded).
    add_awkward_size_tests(p, {4096});
    add_tests(p, {{65537}, {1000003}, {16777217}});
    // Edge values: the special values mixed with random ones, only zeros of both signs, every
    // value equal, two values, few distinct values, presorted and reversed input, a narrow range
    // (the passes of the high digits move every key as one run).
    add_tests(p, {{65}, {4097}, {1000003}}, values([](std::size_t, std::size_t, Rng &rng) {
                return rng.next() % 2 ? kSpecial[rng.next() % (sizeof kSpecial / sizeof *kSpecial)]
                                      : uniform_value(rng, -1000.0f, 1000.0f);
              }),
              ",edge-values");
    add_tests(p, {{33}, {4097}, {300007}}, values([](std::size_t, std::size_t, Rng &rng) {
                return rng.next() % 2 ? 0.0f : -0.0f;
              }),
              ",signed-zeros");
    add_tests(p, {{4096}, {1000003}}, values([](std::size_t, std::size_t, Rng &) { return -kInf; }),
              ",all-minus-inf");
    add_tests(p, {{4097}, {1000003}}, values([](std::size_t, std::size_t, Rng &) { return 5.0f; }),
              ",all-5");
    add_tests(p, {{1025}, {1000003}}, values([](std::size_t, std::size_t, Rng &rng) {
                return static_cast<float>(static_cast<int>(rng.next() % 16) - 8);
              }),
              ",16-values");
    add_tests(p, {{4097}, {1000003}}, values([](std::size_t i, std::size_t, Rng &) {
                return static_cast<float>(i) - 500000.0f;
              }),
              ",ascending");
    add_tests(p, {{4097}, {1000003}}, values([](std::size_t i, std::size_t n, Rng &) {
                return static_cast<float>(n - i) * 0.5f;
              }),
              ",descending");
    add_tests(p, {{100003}}, values([](std::size_t, std::size_t, Rng &rng) {
                return uniform_value(rng, 1.0f, 1.001f);
              }),
              ",narrow-range");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/hard/15_sorting";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {6}, {given({5, 2, 8, 1, 9, 4})});
    add_judge_functional(p, {5}, {given({1, 2, 3, 4, 5})});
    add_judge_functional(p, {5}, {given({5, 4, 3, 2, 1})});
    add_judge_functional(p, {10}, {constant(5)});
    add_judge_functional(p, {1}, {given({7})});
    add_judge_functional(p, {1024}, {uniform(-100, 100)});
    add_judge_functional(p, {1000}, {uniform(-100, 100)});
    add_judge_functional(p, {32768}, {uniform(-1000, 1000)});
    j.performance = judge_case(p, "performance", {1000000}, {uniform(-1000, 1000)});
    // Each of the four passes reads and writes every key: the limit is a copy of 32 bytes per
    // key, as for radix_sort. The histogram pass reads the keys once more (4 bytes per key).
    p.model = memory_bound([](const Case &c) { return 32.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
