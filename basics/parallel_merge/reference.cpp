// parallel_merge: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <algorithm>
#include <cstddef>

namespace kit::basics {
namespace {

// The stable merge of two ascending arrays, A's element first on equal keys (std::merge's rule).
// The judge sorts the concatenation of A and B instead; for sorted inputs both give the same
// values (only the order of -0.0 and +0.0 can differ, and they compare equal).
void parallel_merge_reference(const float *A, const float *B, float *C, int M, int N) {
  std::merge(A, A + M, B, B + N, C);
}

// Values drawn by `values`, then sorted ascending: the challenge sorts every random array it
// hands over (torch.sort of uniform_ or randint draws).
ArrayValues sorted(ArrayValues values) {
  return {"sorted " + values.description,
          [fill = values.fill](Case &c, std::size_t param, Rng &rng) {
            fill(c, param, rng);
            float *x = c.array<float>(param);
            std::sort(x, x + c.count(param));
          }};
}

// Whole numbers lo..hi as floats (the challenge's randint(0, 5) cast to float32): many equal keys
// in both arrays, which exercises the tie rule at every split.
ArrayValues small_integers(int lo, int hi) {
  return {"integers " + std::to_string(lo) + ".." + std::to_string(hi) + " as floats",
          [lo, hi](Case &c, std::size_t param, Rng &rng) {
            float *x = c.array<float>(param);
            for (std::size_t i = 0; i < c.count(param); ++i)
              x[i] = static_cast<float>(rng.uniform_int(lo, hi));
          }};
}

void fill_sorted_uniform(Case &c, Rng &rng) {
  for (std::size_t param : {0, 1}) {
    fill_uniform(c.array<float>(param), c.count(param), -10.0f, 10.0f, rng);
    std::sort(c.array<float>(param), c.array<float>(param) + c.count(param));
  }
}

// Every key equal: each split is decided by the tie rule alone (all of A, then all of B).
void fill_all_equal(Case &c, Rng &) {
  for (std::size_t param : {0, 1})
    std::fill(c.array<float>(param), c.array<float>(param) + c.count(param), 1.5f);
}

// One array entirely below the other: every tile takes from one side, then the other.
void fill_separated(Case &c, Rng &rng, std::size_t low, std::size_t high) {
  fill_uniform(c.array<float>(low), c.count(low), -20.0f, -10.0f, rng);
  fill_uniform(c.array<float>(high), c.count(high), 10.0f, 20.0f, rng);
  for (std::size_t param : {0, 1})
    std::sort(c.array<float>(param), c.array<float>(param) + c.count(param));
}
void fill_a_below_b(Case &c, Rng &rng) { fill_separated(c, rng, 0, 1); }
void fill_b_below_a(Case &c, Rng &rng) { fill_separated(c, rng, 1, 0); }

// A = 0, 2, 4, ... and B = 1, 3, 5, ...: the runs alternate element by element.
void fill_interleaved(Case &c, Rng &) {
  for (std::size_t param : {0, 1}) {
    float *x = c.array<float>(param);
    for (std::size_t i = 0; i < c.count(param); ++i)
      x[i] = static_cast<float>(2 * i + param);
  }
}

// Keys the merge must keep bit for bit: signed zeros (equal keys of different bits), subnormals,
// the largest finite floats. No infinities or NaN: an infinite or NaN expected value cannot be
// compared.
void fill_edge_values(Case &c, Rng &rng) {
  static const float kSpecial[] = {0.0f,    -0.0f,    1e-45f, -1e-45f, 1e-38f, -1e-38f,
                                   3.4e38f, -3.4e38f, 1e10f,  -1e-10f, 1.0f,   -1.0f};
  for (std::size_t param : {0, 1}) {
    float *x = c.array<float>(param);
    for (std::size_t i = 0; i < c.count(param); ++i)
      x[i] = kSpecial[rng.next() % (sizeof kSpecial / sizeof kSpecial[0])];
    std::sort(x, x + c.count(param));
  }
}

} // namespace

const Problem &parallel_merge_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "parallel_merge";
    p.params = {input("A", Elem::f32, count_of("M")), input("B", Elem::f32, count_of("N")),
                output("C", Elem::f32,
                       [](const Case &c) {
                         return static_cast<std::size_t>(c["M"]) + static_cast<std::size_t>(c["N"]);
                       }),
                scalar("M", 1, 50000000), scalar("N", 1, 50000000)};
    p.tolerance = {0, 0};
    set_reference(p, parallel_merge_reference);
    p.fill = fill_sorted_uniform;
    // A block merges 3840 outputs (256 threads x 15); a thread 15. Sizes around one element,
    // the warp widths, a thread's and a block's share, and lopsided splits.
    add_tests(p, {{1, 1},       {1, 2},       {2, 1},
                  {2, 2},       {31, 33},     {32, 32},
                  {33, 31},     {63, 65},     {64, 64},
                  {65, 63},     {7, 8},       {15, 1},
                  {1919, 1920}, {1920, 1921}, {3839, 1},
                  {1, 3840},    {3840, 3841}, {100003, 1},
                  {1, 100003},  {5, 1000003}, {1000003, 999999},
                  {16777217, 3}});
    add_tests(p, {{1, 1}, {33, 65}, {4000, 3681}, {100000, 123457}}, fill_all_equal, ",all-equal");
    add_tests(p, {{65, 63}, {3841, 7681}, {300001, 300000}}, fill_a_below_b, ",A-below-B");
    add_tests(p, {{65, 63}, {3841, 7681}, {300001, 300000}}, fill_b_below_a, ",B-below-A");
    add_tests(p, {{64, 64}, {3840, 3840}, {500001, 500001}}, fill_interleaved, ",interleaved");
    add_tests(p, {{4099, 4097}}, fill_edge_values, ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/71_parallel_merge";
    j.tolerance = {0, 0};
    j.example = judge_case(p, "example", {4, 4}, {given({1, 3, 5, 7}), given({2, 4, 6, 8})});
    add_judge_functional(p, {1, 1}, {given({0}), given({1})});
    add_judge_functional(p, {1, 3}, {given({2}), given({-1, 1, 3})});
    add_judge_functional(p, {3, 1}, {given({-1, 1, 3}), given({2})});
    add_judge_functional(p, {2, 2}, {constant(0), constant(0)});
    add_judge_functional(p, {16, 16}, {sorted(uniform(-10, 10)), sorted(uniform(-10, 10))});
    add_judge_functional(p, {32, 32}, {sorted(uniform(-100, 0)), sorted(uniform(-100, 0))});
    add_judge_functional(p, {64, 128}, {sorted(uniform(-10, 10)), sorted(uniform(-10, 10))});
    add_judge_functional(p, {512, 512}, {sorted(uniform(-10, 10)), sorted(uniform(-10, 10))});
    add_judge_functional(p, {1024, 1024}, {sorted(uniform(-10, 10)), sorted(uniform(-10, 10))});
    add_judge_functional(p, {30, 33}, {sorted(uniform(-10, 10)), sorted(uniform(-10, 10))});
    add_judge_functional(p, {100, 77}, {sorted(uniform(-10, 10)), sorted(uniform(-10, 10))});
    add_judge_functional(p, {255, 127}, {sorted(uniform(-10, 10)), sorted(uniform(-10, 10))});
    add_judge_functional(p, {256, 256}, {sorted(uniform(-20, -10)), sorted(uniform(10, 20))});
    add_judge_functional(p, {128, 128},
                         {sorted(small_integers(0, 4)), sorted(small_integers(0, 4))});
    add_judge_functional(p, {5000, 7000}, {sorted(uniform(-10, 10)), sorted(uniform(-10, 10))});
    j.performance = judge_case(p, "performance", {25000000, 25000000},
                               {sorted(uniform(-1, 1)), sorted(uniform(-1, 1))});
    // Every input read once, every output written once.
    p.model = memory_bound([](const Case &c) { return 8.0 * (c["M"] + c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
