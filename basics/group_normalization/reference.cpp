// group_normalization: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <cmath>
#include <cstddef>
#include <string>

namespace kit::basics {
namespace {

// In double, two passes per (sample, group) (mean, then the biased variance), each output rounded
// once. (The judge's reference, torch's group_norm, works in float32.)
void group_normalization_reference(const float *X, const float *gamma, const float *beta, float *Y,
                                   int N, int C, int H, int W, int G, float eps) {
  const std::size_t spatial = static_cast<std::size_t>(H) * W;
  const int channels = C / G;
  const std::size_t length = spatial * channels;
  for (int n = 0; n < N; ++n)
    for (int g = 0; g < G; ++g) {
      const std::size_t base = (static_cast<std::size_t>(n) * G + g) * length;
      double mean = 0.0;
      for (std::size_t i = 0; i < length; ++i)
        mean += X[base + i];
      mean /= static_cast<double>(length);
      double variance = 0.0;
      for (std::size_t i = 0; i < length; ++i)
        variance += (X[base + i] - mean) * (X[base + i] - mean);
      variance /= static_cast<double>(length);
      const double inv_std = 1.0 / std::sqrt(variance + eps);
      for (std::size_t i = 0; i < length; ++i) {
        const int c = g * channels + static_cast<int>(i / spatial);
        Y[base + i] = static_cast<float>(gamma[c] * ((X[base + i] - mean) * inv_std) + beta[c]);
      }
    }
}

std::size_t elements(const Case &c) {
  return static_cast<std::size_t>(c["N"]) * static_cast<std::size_t>(c["C"]) *
         static_cast<std::size_t>(c["H"]) * static_cast<std::size_t>(c["W"]);
}

} // namespace

const Problem &group_normalization_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "group_normalization";
    p.params = {input("X", Elem::f32, elements), input("gamma", Elem::f32, count_of("C")),
                input("beta", Elem::f32, count_of("C")), output("Y", Elem::f32, elements),
                scalar("N", 1, 32),
                // The challenge allows C <= 1024; up to 4096 here, so that groups of more
                // channels than the kernel stages in shared memory (1024) are tested too.
                scalar("C", 1, 4096), scalar("H", 1, 128), scalar("W", 1, 128),
                scalar("G", 1, 4096), float_scalar("eps", 1e-10f, 1.0f)};
    p.check = [](const Case &c) -> std::string {
      if (c["G"] > c["C"] || c["C"] % c["G"] != 0)
        return "C must be a multiple of G";
      return "";
    };
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, group_normalization_reference);
    // The challenge's ranges: inputs in [-100, 100], gamma in [0.1, 10], beta in [-10, 10].
    p.fill = fill_with(p, {uniform(-100, 100), uniform(0.1, 10), uniform(-10, 10)});
    // (N, C, H, W, G, eps). A block's batch is 4 loads of 1024 threads (16,384 floats with
    // 16-byte loads, 4096 with 4-byte ones, taken when H * W % 4 != 0): groups of one value,
    // smaller than a batch, around one and several batches, one channel per group (instance
    // norm), one group per sample (layer norm), more groups than multiprocessors.
    add_tests(p,
              {{1, 1, 1, 1, 1, 1e-5},     {2, 3, 1, 1, 3, 1e-5},      {1, 2, 1, 3, 1, 1e-5},
               {1, 4, 2, 2, 2, 1e-5},     {3, 12, 7, 7, 4, 1e-5},     {2, 8, 4, 4, 1, 1e-5},
               {2, 6, 5, 5, 3, 1e-5},     {2, 16, 8, 8, 4, 1e-5},     {1, 2, 128, 128, 2, 1e-5},
               {1, 1, 127, 127, 1, 1e-5}, {1, 4, 64, 65, 2, 1e-5},    {1, 1, 64, 63, 1, 1e-5},
               {1, 1, 64, 64, 1, 1e-5},   {1, 1, 63, 65, 1, 1e-5},    {1, 5, 64, 52, 1, 1e-5},
               {1, 3, 37, 37, 1, 1e-5},   {32, 64, 8, 8, 32, 1e-5},   {32, 1024, 4, 4, 1024, 1e-5},
               {5, 30, 3, 11, 5, 1e-5},   {4, 1024, 32, 32, 1, 1e-5}, {1, 2048, 2, 2, 1, 1e-5},
               {2, 4096, 1, 3, 2, 1e-5},  {8, 512, 64, 64, 32, 1e-5}, {3, 64, 16, 16, 8, 0.5}});
    // Groups far from zero with little spread: the deviations are what matters.
    add_tests(p, {{2, 32, 16, 16, 4, 1e-5}, {1, 6, 9, 7, 2, 1e-5}},
              fill_with(p, {uniform(99.99, 100.01), uniform(0.1, 10), uniform(-10, 10)}),
              ",100+-0.01");
    // Constant groups: variance 0, every output is the channel's beta.
    add_tests(p, {{2, 16, 8, 8, 4, 1e-5}, {1, 3, 5, 5, 3, 1e-5}},
              fill_with(p, {constant(42), uniform(0.1, 10), uniform(-10, 10)}), ",constant");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/105_group_normalization";
    j.tolerance = {1e-4, 1e-4};
    const ArrayValues example_x = given({1, 1, 1, 1, 3, 3, 3, 3, 2, 2, 2, 2, 6, 6, 6, 6});
    j.example = judge_case(p, "example", {1, 4, 2, 2, 2, 1e-5},
                           {example_x, given({1, 1, 1, 1}), given({0, 0, 0, 0})});
    add_judge_functional(p, {1, 4, 2, 2, 2, 1e-5},
                         {example_x, given({1, 1, 1, 1}), given({0, 0, 0, 0})});
    add_judge_functional(p, {2, 8, 4, 4, 1, 1e-5},
                         {uniform(-2, 2), uniform(0.5, 1.5), uniform(-1, 1)});
    add_judge_functional(p, {2, 4, 3, 3, 4, 1e-5},
                         {uniform(-3, 3), given({1, 1, 1, 1}), given({0, 0, 0, 0})});
    add_judge_functional(p, {2, 8, 4, 4, 2, 1e-5}, {constant(0), constant(1), constant(0)});
    add_judge_functional(p, {2, 6, 4, 4, 3, 1e-5},
                         {uniform(-5, 0), uniform(0.5, 2), uniform(-2, 2)});
    add_judge_functional(p, {3, 12, 7, 7, 4, 1e-5},
                         {uniform(-10, 10), uniform(0.5, 2), uniform(-1, 1)});
    add_judge_functional(p, {4, 32, 16, 16, 8, 1e-5},
                         {uniform(-1, 1), uniform(0.5, 1.5), uniform(-0.5, 0.5)});
    add_judge_functional(p, {2, 64, 32, 32, 16, 1e-5},
                         {uniform(-5, 5), uniform(0.5, 1.5), uniform(-1, 1)});
    add_judge_functional(p, {2, 16, 8, 32, 4, 1e-5},
                         {uniform(-2, 2), uniform(0.8, 1.2), uniform(-0.5, 0.5)});
    j.performance = judge_case(p, "performance", {8, 512, 64, 64, 32, 1e-5},
                               {uniform(-3, 3), uniform(0.5, 1.5), uniform(-0.5, 0.5)});
    // Two reads of X (the statistics, then the normalising pass) and one write of Y: the floor
    // of a design whose group statistics must be complete before the group's first output and
    // whose group does not fit in registers (the second read may come from L2).
    p.model = memory_bound([](const Case &c) {
      return 12.0 * static_cast<double>(elements(c)) + 8.0 * static_cast<double>(c["C"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
