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
    p.perf = {"input_size=1500000,kernel_size=2047", {1500000, 2047}, {}};
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
