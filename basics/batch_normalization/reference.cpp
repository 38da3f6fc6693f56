// batch_normalization: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <cmath>
#include <vector>

namespace kit::basics {
namespace {

// In double, two passes per column (mean, then the biased variance), each output rounded once.
// (The judge's reference works in float32.)
void batch_normalization_reference(const float *input, const float *gamma, const float *beta,
                                   float *output, int N, int C, float eps) {
  std::vector<double> mean(C, 0.0), variance(C, 0.0);
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < C; ++c)
      mean[c] += input[static_cast<std::size_t>(r) * C + c];
  for (int c = 0; c < C; ++c)
    mean[c] /= N;
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < C; ++c) {
      const double d = input[static_cast<std::size_t>(r) * C + c] - mean[c];
      variance[c] += d * d;
    }
  for (int c = 0; c < C; ++c)
    variance[c] = 1.0 / std::sqrt(variance[c] / N + eps); // now the inverse standard deviation
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < C; ++c) {
      const std::size_t i = static_cast<std::size_t>(r) * C + c;
      output[i] = static_cast<float>(gamma[c] * ((input[i] - mean[c]) * variance[c]) + beta[c]);
    }
}

// The challenge's ranges: inputs in [-100, 100], gamma in [0.1, 10], beta in [-10, 10].
ArrayValues wide_inputs() { return uniform(-100, 100); }

// Row 0 (the kernel's shift for its sums) far from every other row: the shift is no help there.
void fill_first_row_outlier(Case &c, Rng &rng) {
  const std::size_t columns = c.count(1);
  float *x = c.array<float>(0);
  fill_uniform(x, c.count(0), -100.0f, -99.99f, rng);
  for (std::size_t k = 0; k < columns; ++k)
    x[k] = 100.0f;
  fill_uniform(c.array<float>(1), columns, 0.1f, 10.0f, rng);
  fill_uniform(c.array<float>(2), columns, -10.0f, 10.0f, rng);
}

// The challenge's high-variance case: column i holds N evenly spaced values from -100 + 10 i to
// 100 - 10 i (row-major, as the challenge's torch.linspace columns).
ArrayValues spaced_columns(int N, int C) {
  std::vector<double> values(static_cast<std::size_t>(N) * C);
  for (int r = 0; r < N; ++r)
    for (int i = 0; i < C; ++i) {
      const double lo = -100.0 + 10.0 * i, hi = 100.0 - 10.0 * i;
      values[static_cast<std::size_t>(r) * C + i] = lo + (hi - lo) * r / (N - 1);
    }
  return given(values);
}

} // namespace

const Problem &batch_normalization_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "batch_normalization";
    p.params = {input("input", Elem::f32, count_of("N", "C")),
                input("gamma", Elem::f32, count_of("C")),
                input("beta", Elem::f32, count_of("C")),
                output("output", Elem::f32, count_of("N", "C")),
                scalar("N", 1, 10000),
                scalar("C", 1, 1024),
                float_scalar("eps", 1e-10f, 1.0f)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, batch_normalization_reference);
    p.fill = fill_with(p, {wide_inputs(), uniform(0.1, 10), uniform(-10, 10)});
    // A tile is 32 columns (8 threads of four; odd widths take the 4-byte path) by chunks of
    // whole 32-row groups, 8 rows per thread in flight (256 rows per block and pass): widths and
    // heights around those, one column (one tile, hundreds of chunks), the largest case.
    add_tests(p, {{1, 1, 1e-5},        {2, 1, 1e-5},      {1, 4, 1e-5},      {3, 2, 1e-5},
                  {31, 31, 1e-5},      {32, 32, 1e-5},    {33, 33, 1e-5},    {63, 63, 1e-5},
                  {64, 64, 1e-5},      {65, 65, 1e-5},    {255, 31, 1e-5},   {256, 36, 1e-5},
                  {257, 100, 1e-5},    {1023, 127, 1e-5}, {1024, 128, 1e-5}, {1025, 129, 1e-5},
                  {511, 512, 1e-5},    {4097, 513, 1e-5}, {10000, 1, 1e-5},  {9999, 3, 1e-5},
                  {10000, 1024, 1e-5}, {7, 1023, 1e-5},   {5000, 512, 1e-5}, {100, 64, 0.5}});
    // Columns far from zero with little spread: the deviations are what matters.
    add_tests(p, {{1000, 64, 1e-5}, {33, 1000, 1e-5}},
              fill_with(p, {uniform(99.99, 100.01), uniform(0.1, 10), uniform(-10, 10)}),
              ",100+-0.01");
    add_tests(p, {{2049, 40, 1e-5}}, fill_first_row_outlier, ",first-row-outlier");
    // Constant columns: variance 0, every output is the beta.
    add_tests(p, {{300, 96, 1e-5}, {5, 37, 1e-5}},
              fill_with(p, {constant(42), uniform(0.1, 10), uniform(-10, 10)}), ",constant");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/40_batch_normalization";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {3, 2, 1e-5},
                           {given({1, 2, 3, 4, 5, 6}), given({1, 1}), given({0, 0})});
    add_judge_functional(p, {3, 2, 1e-5},
                         {given({1, 2, 3, 4, 5, 6}), given({1, 1}), given({0, 0})});
    add_judge_functional(p, {1, 4, 1e-5}, {given({1, 2, 3, 4}), constant(1), constant(0)});
    add_judge_functional(p, {4, 3, 1e-5}, {constant(0), constant(1), constant(0)});
    add_judge_functional(p, {2, 3, 1e-5},
                         {given({-1, -2, -3, -4, -5, -6}), constant(1), constant(0)});
    add_judge_functional(p, {2, 2, 1e-5}, {given({0, 1, 2, 3}), given({2, 0.5}), given({1, -1})});
    add_judge_functional(p, {5, 3, 1e-5}, {uniform(-50, 50), uniform(0.5, 2), uniform(-5, 5)});
    add_judge_functional(p, {64, 32, 1e-5}, {uniform(-10, 10), uniform(0.5, 2), uniform(-2, 2)});
    add_judge_functional(p, {100, 1, 1e-5}, {uniform(-1, 1), given({1.5}), given({0.5})});
    add_judge_functional(p, {10, 5, 1e-5}, {spaced_columns(10, 5), constant(1), constant(0)});
    j.performance = judge_case(p, "performance", {5000, 512, 1e-5},
                               {uniform(-10, 10), uniform(0.5, 2), uniform(-2, 2)});
    // Two reads of the input (the statistics, then the normalising pass) and one write: the
    // floor of any design whose statistics must be complete before the first output and whose
    // input does not stay in registers. gamma and beta are read once per column.
    p.model = memory_bound([](const Case &c) {
      return 12.0 * static_cast<double>(c["N"]) * static_cast<double>(c["C"]) +
             8.0 * static_cast<double>(c["C"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
