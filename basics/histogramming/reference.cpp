// histogramming: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <climits>

namespace kit::basics {
namespace {

// Every bin written; values outside [0, num_bins) are not counted (the judge's reference masks
// them out before counting).
void histogramming_reference(const int *input, int *histogram, int N, int num_bins) {
  for (int b = 0; b < num_bins; ++b)
    histogram[b] = 0;
  for (int i = 0; i < N; ++i)
    if (input[i] >= 0 && input[i] < num_bins)
      ++histogram[input[i]];
}

// The challenge's distribution: every bin equally likely.
void fill_in_range(Case &c, Rng &rng) {
  fill_uniform(c.array<int>(0), c.count(0), 0, c["num_bins"] - 1, rng);
}

// Values the kernel must not count next to the first and last bins: negatives (INT_MIN among
// them), num_bins itself, INT_MAX.
void fill_edge_values(Case &c, Rng &rng) {
  const int bins = static_cast<int>(c["num_bins"]);
  const int special[] = {0, 1, bins - 1, bins, bins + 1, -1, INT_MIN, INT_MAX, 1 << 30, -bins};
  int *x = c.array<int>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = rng.next() % 2 ? special[rng.next() % (sizeof special / sizeof special[0])]
                          : static_cast<int>(rng.uniform_int(0, bins - 1));
}

// Every value in the last bin: the most contention a histogram can see.
void fill_one_bin(Case &c, Rng &) {
  int *x = c.array<int>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = static_cast<int>(c["num_bins"]) - 1;
}

// Nine values in ten in bin 0, the rest spread over all bins.
void fill_skewed(Case &c, Rng &rng) {
  int *x = c.array<int>(0);
  const long long bins = c["num_bins"];
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = rng.next() % 10 == 0 ? static_cast<int>(rng.uniform_int(0, bins - 1)) : 0;
}

} // namespace

const Problem &histogramming_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "histogramming";
    p.params = {input("input", Elem::i32, count_of("N")),
                output("histogram", Elem::i32, count_of("num_bins")), scalar("N", 1, 100000000),
                scalar("num_bins", 1, 1024)};
    // The challenge's tolerance; integer outputs compare exactly whatever it is.
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, histogramming_reference);
    p.fill = fill_in_range;
    // A block's batch is 1024 (NVIDIA) or 512 (gfx908) threads x 4 vectors x 4 ints = 16384 or
    // 8192 values.
    for (long long n : awkward_sizes({8192, 16384}))
      add_tests(p, {{static_cast<double>(n), 256}});
    // Bin counts around the shared-memory layout's steps (32 copies up to 256 bins, 16 up to 512,
    // 8 up to 1024) and the extremes.
    add_tests(p, {{100003, 1},
                  {100003, 2},
                  {100003, 31},
                  {100003, 255},
                  {100003, 257},
                  {100003, 512},
                  {100003, 513},
                  {1000003, 1023},
                  {1000003, 1024},
                  {10000019, 256},
                  {100000000, 256}});
    add_tests(p, {{1, 1}, {33, 7}, {4099, 256}, {1000001, 1024}}, fill_edge_values, ",edge-values");
    add_tests(p, {{65, 3}, {1000003, 256}, {1000003, 1024}}, fill_one_bin, ",one-bin");
    add_tests(p, {{5000011, 256}}, fill_skewed, ",skewed");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/13_histogramming";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {5, 3}, {given({0, 1, 2, 1, 0})});
    add_judge_functional(p, {5, 3}, {given({0, 1, 2, 1, 0})});
    add_judge_functional(p, {16, 5}, {constant(2)});
    add_judge_functional(p, {32, 4}, {integers(0, 3)});
    add_judge_functional(p, {1000, 10}, {integers(0, 9)});
    add_judge_functional(p, {10000, 128}, {integers(0, 127)});
    j.performance = judge_case(p, "performance", {50000000, 256}, {integers(0, 255)});
    // Reads the values once; the num_bins ints written are negligible.
    p.model = memory_bound([](const Case &c) { return 4.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
