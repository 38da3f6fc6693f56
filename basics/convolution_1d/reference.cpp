// convolution_1d: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <vector>

namespace kit::basics {
namespace {

// Accumulates in double, tap by tap over all outputs (a loop the compiler vectorises: the
// judge's 3e9 multiply-adds take about a second).
void convolution_1d_reference(const float *input, const float *kernel, float *output,
                              int input_size, int kernel_size) {
  const int outputs = input_size - kernel_size + 1;
  std::vector<double> sum(static_cast<std::size_t>(outputs), 0.0);
  for (int j = 0; j < kernel_size; ++j) {
    const double k = kernel[j];
    const float *shifted = input + j;
    for (int i = 0; i < outputs; ++i)
      sum[i] += static_cast<double>(shifted[i]) * k;
  }
  for (int i = 0; i < outputs; ++i)
    output[i] = static_cast<float>(sum[i]);
}

// U(-1, 1): with 2047 taps the sums stay small enough that FP32 accumulation (as PyTorch's
// conv1d does it) meets the 1e-4 tolerance everywhere.
void fill_values(Case &c, Rng &rng) {
  fill_uniform(c.array<float>(0), c.count(0), -1.0f, 1.0f, rng);
  fill_uniform(c.array<float>(1), c.count(1), -1.0f, 1.0f, rng);
}

} // namespace

const Problem &convolution_1d_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "convolution_1d";
    p.params = {input("input", Elem::f32, count_of("input_size")),
                input("kernel", Elem::f32, count_of("kernel_size")),
                output("output", Elem::f32,
                       [](const Case &c) {
                         return static_cast<std::size_t>(c["input_size"] - c["kernel_size"] + 1);
                       }),
                scalar("input_size", 1, 1500000), scalar("kernel_size", 1, 2047)};
    p.check = [](const Case &c) -> std::string {
      if (c["kernel_size"] > c["input_size"])
        return "kernel_size " + std::to_string(c["kernel_size"]) + " > input_size " +
               std::to_string(c["input_size"]);
      return "";
    };
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, convolution_1d_reference);
    p.fill = fill_values;
    // A block computes 1280 outputs; kernels of 1..2047 taps around the 24-tap padding.
    add_tests(p, {{1, 1},       {2, 1},       {2, 2},       {33, 1},       {33, 32},
                  {64, 31},     {100, 17},    {100, 24},    {100, 25},     {1279, 1},
                  {1280, 1},    {1281, 1},    {1300, 21},   {2560, 1},     {2561, 2},
                  {4097, 2047}, {5000, 2047}, {2047, 2047}, {100001, 255}, {300000, 1000}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/9_1d_convolution";
    j.tolerance = {1e-4, 1e-4};
    j.example = judge_case(p, "example", {5, 3}, {given({1, 2, 3, 4, 5}), given({1, 0, -1})});
    add_judge_functional(p, {5, 3}, {given({1, 2, 3, 4, 5}), given({1, 0, -1})});
    add_judge_functional(p, {4, 2}, {given({2, 4, 6, 8}), given({0.5, 0.2})});
    add_judge_functional(p, {4, 1}, {given({1, 2, 3, 4}), given({1})});
    add_judge_functional(p, {6, 2}, {given({1, 1, 1, 0, 0, 0}), given({1, -1})});
    add_judge_functional(p, {5, 3}, {given({1, 2, 3, 4, 5}), given({0.25, 0.5, 0.25})});
    for (std::vector<double> sizes :
         {std::vector<double>{10, 3}, {100, 7}, {1000, 15}, {50, 20}, {200, 2}})
      add_judge_functional(p, sizes, {uniform(-10, 10), uniform(-1, 1)});
    for (std::vector<double> sizes : {std::vector<double>{1, 1}, {10, 10}, {10000, 3}})
      add_judge_functional(p, sizes, {uniform(-1, 1), uniform(-0.1, 0.1)});
    j.performance = judge_case(p, "performance", {1500000, 2047}, {uniform(-1, 1), uniform(-1, 1)});
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) {
      return 4.0 * static_cast<double>(2 * c["input_size"] + 1);
    };
    p.model.ops = [](const Case &c) {
      return static_cast<double>(c["input_size"] - c["kernel_size"] + 1) *
             static_cast<double>(c["kernel_size"]);
    };
    return p;
  }();
  return problem;
}

} // namespace kit::basics
