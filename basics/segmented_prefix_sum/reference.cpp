// segmented_prefix_sum: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <algorithm>
#include <string>

namespace kit::basics {
namespace {

// Exclusive sum within each segment, in double, each output rounded once (the judge's reference
// subtracts float64 global prefix sums, which is the same sum up to double rounding). Element 0
// starts the first segment whether or not it is flagged (the judge always flags it).
void segmented_prefix_sum_reference(const float *values, const int *flags, float *output, int N) {
  double sum = 0.0;
  for (int i = 0; i < N; ++i) {
    if (flags[i] != 0)
      sum = 0.0;
    output[i] = static_cast<float>(sum);
    sum += values[i];
  }
}

// flags[0] = 1, then segments whose lengths are uniform in [1, 2 * average] (the first one has
// `first` elements: the judge's random cases start the second segment at `average`).
void fill_segments(int *flags, std::size_t n, long long average, long long first, Rng &rng) {
  std::fill(flags, flags + n, 0);
  flags[0] = 1;
  for (std::size_t i = static_cast<std::size_t>(first); i < n;
       i += static_cast<std::size_t>(rng.uniform_int(1, 2 * average)))
    flags[i] = 1;
}

// The judge's random segments: the second starts at `average`, the rest 1..2*average apart.
ArrayValues judge_segments(long long average) {
  return {"segments 1.." + std::to_string(2 * average),
          [average](Case &c, std::size_t param, Rng &rng) {
            fill_segments(c.array<int>(param), c.count(param), average, average, rng);
          }};
}

// A segment start every `length` elements from 0 (the judge's performance case: 256).
ArrayValues every(long long length) {
  return {"a segment every " + std::to_string(length), [length](Case &c, std::size_t param, Rng &) {
            int *flags = c.array<int>(param);
            for (std::size_t i = 0; i < c.count(param); ++i)
              flags[i] = i % static_cast<std::size_t>(length) == 0;
          }};
}

void fill_values(Case &c, Rng &rng) { fill_uniform(c.array<float>(0), c.count(0), -100, 100, rng); }

// Default: values over the whole allowed range, segments of 1..6000 (many cross the 4096-element
// tiles, many end inside one).
void fill_default(Case &c, Rng &rng) {
  fill_values(c, rng);
  fill_segments(c.array<int>(1), c.count(1), 3000, 1 + rng.uniform_int(0, 5999), rng);
}

void fill_short_segments(Case &c, Rng &rng) {
  fill_values(c, rng);
  fill_segments(c.array<int>(1), c.count(1), 3, 1, rng);
}

void fill_long_segments(Case &c, Rng &rng) {
  fill_values(c, rng);
  fill_segments(c.array<int>(1), c.count(1), 1000000, 1000000, rng);
}

// One segment over the whole array: the look-back chains through every tile.
void fill_one_segment(Case &c, Rng &rng) {
  fill_values(c, rng);
  std::fill(c.array<int>(1), c.array<int>(1) + c.count(1), 0);
  c.array<int>(1)[0] = 1;
}

// Every element starts a segment: every output is 0.
void fill_every_element(Case &c, Rng &rng) {
  fill_values(c, rng);
  std::fill(c.array<int>(1), c.array<int>(1) + c.count(1), 1);
}

// Segment starts just before, at and just after every 2048-element boundary (the tile boundaries
// of every target: tiles are 2048 elements on NVIDIA, 4096 on AMD).
void fill_tile_boundaries(Case &c, Rng &rng) {
  fill_values(c, rng);
  int *flags = c.array<int>(1);
  for (std::size_t i = 0; i < c.count(1); ++i) {
    const std::size_t r = i % 2048;
    flags[i] = i == 0 || r == 0 || r == 1 || r == 2047;
  }
}

// One segment rising through U(0, 100) values and falling back through their negations in
// reverse order: the sums climb to ~2.5e7 and return to exactly 0, where only the absolute
// tolerance 1e-3 applies. A float carry loses that; a double carry does not.
void fill_mountain(Case &c, Rng &rng) {
  float *v = c.array<float>(0);
  const std::size_t n = c.count(0), half = n / 2;
  for (std::size_t i = 0; i < half; ++i)
    v[i] = rng.uniform(0, 100);
  for (std::size_t k = 0; half + k < n; ++k)
    v[half + k] = k < half ? -v[half - 1 - k] : 0.0f; // odd n: a final 0
  std::fill(c.array<int>(1), c.array<int>(1) + c.count(1), 0);
  c.array<int>(1)[0] = 1;
}

} // namespace

const Problem &segmented_prefix_sum_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "segmented_prefix_sum";
    p.params = {input("values", Elem::f32, count_of("N")), input("flags", Elem::i32, count_of("N")),
                output("output", Elem::f32, count_of("N")), scalar("N", 1, 100000000)};
    p.tolerance = {1e-3, 1e-3};
    set_reference(p, segmented_prefix_sum_reference);
    p.fill = fill_default;
    // Tiles of 2048 elements on NVIDIA, 4096 on AMD; more than 32 (64 on AMD) tiles in one
    // segment need more than one look-back step.
    add_awkward_size_tests(p, {2048, 4096});
    add_tests(p, {{131073}, {262145}, {1000003}, {16777217}});
    add_tests(p, {{4097}, {1000003}}, fill_short_segments, ",short-segments");
    add_tests(p, {{10000019}}, fill_long_segments, ",long-segments");
    add_tests(p, {{1}, {33}, {270337}, {100000000}}, fill_one_segment, ",one-segment");
    add_tests(p, {{65537}}, fill_every_element, ",every-element");
    add_tests(p, {{20483}}, fill_tile_boundaries, ",tile-boundaries");
    add_tests(p, {{1000001}, {1000000}}, fill_mountain, ",mountain");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/70_segmented_prefix_sum";
    j.tolerance = {1e-3, 1e-3};
    j.example =
        judge_case(p, "example", {6}, {given({1, 2, 3, 4, 5, 6}), given({1, 0, 0, 1, 0, 1})});
    add_judge_functional(p, {1}, {given({5}), given({1})});
    add_judge_functional(p, {2}, {given({3, 7}), given({1, 0})});
    add_judge_functional(p, {2}, {given({3, 7}), given({1, 1})});
    add_judge_functional(p, {4}, {given({1, 2, 3, 4}), given({1, 0, 0, 0})});
    add_judge_functional(p, {4}, {given({1, -2, 3, -4}), given({1, 1, 1, 1})});
    add_judge_functional(p, {6}, {given({-1, -2, -3, 5, 6, -7}), given({1, 0, 0, 1, 0, 0})});
    add_judge_functional(p, {16},
                         {given({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}), every(8)});
    add_judge_functional(p, {32}, {constant(1), every(4)});
    add_judge_functional(p, {64}, {uniform(-10, 10), judge_segments(8)});
    add_judge_functional(p, {128}, {uniform(-10, 10), judge_segments(16)});
    add_judge_functional(p, {30}, {uniform(-10, 10), judge_segments(5)});
    add_judge_functional(p, {100}, {uniform(-10, 10), judge_segments(3)});
    add_judge_functional(p, {255}, {uniform(-10, 10), judge_segments(32)});
    add_judge_functional(p, {1024}, {uniform(-10, 10), judge_segments(64)});
    add_judge_functional(p, {10000}, {uniform(-10, 10), judge_segments(256)});
    j.performance = judge_case(p, "performance", {50000000}, {uniform(-1, 1), every(256)});
    p.model = memory_bound([](const Case &c) { return 12.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
