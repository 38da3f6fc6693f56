// stream_compaction: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kit::basics {
namespace {

// The elements with A[i] > 0, in order, at the front of `out`; the rest of `out` keeps the
// zeros it arrived with (the judge zero-fills it, and so does the harness for this parameter).
void stream_compaction_reference(const float *A, int N, float *out) {
  int k = 0;
  for (int i = 0; i < N; ++i)
    if (A[i] > 0.0f)
      out[k++] = A[i];
}

void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -1000.0f, 1000.0f, rng);
}

void fill_all_positive(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), 1e-3f, 1000.0f, rng);
}

// Nothing kept: zeros of both signs and negatives.
void fill_none_positive(Case &c, Rng &rng) {
  float *x = c.array<float>(0);
  for (std::size_t i = 0; i < c.count(0); ++i) {
    const unsigned pick = static_cast<unsigned>(rng.next() % 3);
    x[i] = pick == 0 ? 0.0f : pick == 1 ? -0.0f : rng.uniform(-1000.0f, 0.0f);
  }
}

// One element in 1000 kept: most tiles keep a handful, some none.
void fill_sparse(Case &c, Rng &rng) {
  float *x = c.array<float>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = rng.next() % 1000 == 0 ? rng.uniform(0.5f, 1000.0f) : rng.uniform(-1000.0f, 0.0f);
}

// The predicate's edges: signed zeros (dropped), NaN (dropped), -inf (dropped), +inf (kept),
// subnormals of both signs (the positive ones kept, bit for bit), the largest floats.
void fill_edge_values(Case &c, Rng &rng) {
  static const float kSpecial[] = {0.0f,
                                   -0.0f,
                                   std::numeric_limits<float>::quiet_NaN(),
                                   -std::numeric_limits<float>::infinity(),
                                   std::numeric_limits<float>::infinity(),
                                   1e-45f,
                                   -1e-45f,
                                   1e-38f,
                                   -1e-38f,
                                   3.4e38f,
                                   -3.4e38f,
                                   1.0f,
                                   -1.0f};
  float *x = c.array<float>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = kSpecial[rng.next() % (sizeof kSpecial / sizeof kSpecial[0])];
}

// Runs of kept and dropped elements whose lengths straddle the tile and warp boundaries.
void fill_runs(Case &c, Rng &rng) {
  float *x = c.array<float>(0);
  bool keep = true;
  for (std::size_t i = 0; i < c.count(0);) {
    const std::size_t run = static_cast<std::size_t>(rng.uniform_int(1, 5000));
    for (std::size_t k = 0; k < run && i < c.count(0); ++k, ++i)
      x[i] = keep ? rng.uniform(0.5f, 10.0f) : rng.uniform(-10.0f, 0.0f);
    keep = !keep;
  }
}

} // namespace

const Problem &stream_compaction_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "stream_compaction";
    p.params = {input("A", Elem::f32, count_of("N")), scalar("N", 1, 100000000),
                output_from_zeros("out", Elem::f32, count_of("N"))};
    p.tolerance = {0, 0};
    set_reference(p, stream_compaction_reference);
    p.fill = fill_values;
    // Tiles of 8192 elements; more than 32 (64 on AMD) tiles need more than one look-back step.
    add_awkward_size_tests(p, {8192});
    add_tests(p, {{131073}, {262145}, {1000003}, {16777217}, {100000000}});
    add_tests(p, {{1}, {8193}, {1000003}}, fill_all_positive, ",all-positive");
    add_tests(p, {{1}, {8193}, {300001}}, fill_none_positive, ",none-positive");
    add_tests(p, {{100003}, {5000000}}, fill_sparse, ",sparse");
    add_tests(p, {{65}, {65537}}, fill_edge_values, ",edge-values");
    add_tests(p, {{500009}}, fill_runs, ",runs");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/72_stream_compaction";
    j.tolerance = {0, 0};
    j.example = judge_case(p, "example", {6}, {given({1, -2, 3, 0, -1, 4})});
    add_judge_functional(p, {1}, {given({0})});
    add_judge_functional(p, {1}, {given({5})});
    add_judge_functional(p, {4}, {given({-1, 2, 0, 4})});
    add_judge_functional(p, {16}, {uniform(0.1, 1.1)});
    add_judge_functional(p, {32}, {uniform(-1.1, -0.1)});
    add_judge_functional(p, {256}, {uniform(-5, 5)});
    add_judge_functional(p, {1024}, {uniform(-10, 10)});
    add_judge_functional(p, {100}, {uniform(-3, 3)});
    add_judge_functional(p, {255}, {uniform(-1, 1)});
    add_judge_functional(p, {10000}, {uniform(-100, 100)});
    j.performance = judge_case(p, "performance", {50000000}, {uniform(-1, 1)});
    // Every element read, every kept one written (the rest of `out` is not touched).
    p.model = memory_bound([](const Case &c) {
      const float *a = c.array<float>(0);
      const double kept =
          static_cast<double>(std::count_if(a, a + c.count(0), [](float v) { return v > 0.0f; }));
      return 4.0 * static_cast<double>(c["N"]) + 4.0 * kept;
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
