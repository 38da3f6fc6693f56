// layer_normalization: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <cmath>

namespace kit::basics {
namespace {

// In double, two passes per row (mean, then the biased variance), each output rounded once.
// (The judge's reference works in float32.)
void layer_normalization_reference(const float *input, const float *weight, const float *bias,
                                   float *output, int N, int C, float eps) {
  for (int r = 0; r < N; ++r) {
    const float *x = input + static_cast<std::size_t>(r) * C;
    float *y = output + static_cast<std::size_t>(r) * C;
    double mean = 0.0;
    for (int c = 0; c < C; ++c)
      mean += x[c];
    mean /= C;
    double variance = 0.0;
    for (int c = 0; c < C; ++c)
      variance += (x[c] - mean) * (x[c] - mean);
    variance /= C;
    const double inv_std = 1.0 / std::sqrt(variance + eps);
    for (int c = 0; c < C; ++c)
      y[c] = static_cast<float>(weight[c] * ((x[c] - mean) * inv_std) + bias[c]);
  }
}

// The challenge's ranges: inputs in [-100, 100], weights in [0.1, 10], biases in [-10, 10].
ArrayValues wide_inputs() { return uniform(-100, 100); }

} // namespace

const Problem &layer_normalization_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "layer_normalization";
    p.params = {input("input", Elem::f32, count_of("N", "C")),
                input("weight", Elem::f32, count_of("C")),
                input("bias", Elem::f32, count_of("C")),
                output("output", Elem::f32, count_of("N", "C")),
                scalar("N", 1, 65536),
                scalar("C", 1, 4096),
                float_scalar("eps", 1e-10f, 1.0f)};
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, layer_normalization_reference);
    p.fill = fill_with(p, {wide_inputs(), uniform(0.1, 10), uniform(-10, 10)});
    // Row widths around every register capacity: a warp holds 128/256/512/1024 columns on
    // NVIDIA (256/512/1024/2048 on AMD), a block 2048/4096; odd widths take the 4-byte path.
    add_tests(p, {{1, 1, 1e-5},       {3, 1, 1e-5},       {5, 2, 1e-5},    {7, 3, 1e-5},
                  {33, 31, 1e-5},     {31, 32, 1e-5},     {9, 33, 1e-5},   {65, 63, 1e-5},
                  {64, 64, 1e-5},     {63, 65, 1e-5},     {17, 127, 1e-5}, {16, 128, 1e-5},
                  {15, 129, 1e-5},    {25, 255, 1e-5},    {24, 256, 1e-5}, {23, 257, 1e-5},
                  {11, 511, 1e-5},    {12, 512, 1e-5},    {13, 513, 1e-5}, {7, 1023, 1e-5},
                  {8, 1024, 1e-5},    {9, 1025, 1e-5},    {5, 2047, 1e-5}, {4, 2048, 1e-5},
                  {3, 2049, 1e-5},    {3, 4095, 1e-5},    {5, 4096, 1e-5}, {65535, 32, 1e-5},
                  {65536, 512, 1e-5}, {20001, 100, 1e-5}, {2, 4096, 0.5}});
    // Rows far from zero with little spread: the deviations are what matters.
    add_tests(p, {{64, 512, 1e-5}, {8, 4096, 1e-5}},
              fill_with(p, {uniform(99.99, 100.01), uniform(0.1, 10), uniform(-10, 10)}),
              ",100+-0.01");
    add_tests(p, {{33, 1000, 1e-5}},
              fill_with(p, {uniform(-100, -99.9), uniform(0.1, 10), uniform(-10, 10)}),
              ",-100+0.1");
    // Constant rows: variance 0, every output is the bias.
    add_tests(p, {{9, 768, 1e-5}, {4, 37, 1e-5}},
              fill_with(p, {constant(42), uniform(0.1, 10), uniform(-10, 10)}), ",constant");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/113_layer_normalization";
    j.tolerance = {1e-4, 1e-4};
    j.example = judge_case(p, "example", {2, 4, 1e-5},
                           {given({1, 2, 3, 4, -1, 0, 0, 1}), constant(1), constant(0)});
    add_judge_functional(p, {1, 1, 1e-5}, {given({3}), given({1}), given({0.5})});
    add_judge_functional(p, {2, 2, 1e-5}, {constant(0), constant(1), constant(0)});
    add_judge_functional(p, {4, 4, 1e-5},
                         {given({-1, -2, -3, -4, 1, 2, 3, 4, 0, 0, 0, 0, -2, 0, 2, 4}),
                          given({1, 2, 1, 0.5}), given({0, 0, 1, -1})});
    add_judge_functional(p, {8, 16, 1e-5}, {uniform(-5, 5), uniform(0.5, 2), uniform(-1, 1)});
    add_judge_functional(p, {4, 4096, 1e-5}, {uniform(-10, 10), uniform(0.5, 2), uniform(-2, 2)});
    add_judge_functional(p, {128, 256, 1e-5}, {uniform(-10, 10), uniform(0.5, 2), uniform(-2, 2)});
    add_judge_functional(p, {7, 30, 1e-5}, {uniform(-5, 5), constant(1), constant(0)});
    add_judge_functional(p, {15, 100, 1e-5}, {uniform(-100, 100), uniform(0.1, 3), uniform(-5, 5)});
    add_judge_functional(p, {25, 255, 1e-5}, {uniform(-10, 10), uniform(0.5, 2), uniform(-1, 1)});
    add_judge_functional(p, {512, 768, 1e-5}, {uniform(-5, 5), uniform(0.5, 2), uniform(-1, 1)});
    j.performance = judge_case(p, "performance", {65536, 512, 1e-5},
                               {uniform(-5, 10), uniform(0.5, 2), uniform(-1, 1)});
    p.model = memory_bound([](const Case &c) {
      return 8.0 * static_cast<double>(c["N"]) * static_cast<double>(c["C"]) +
             8.0 * static_cast<double>(c["C"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
