// 3d_convolution: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace kit::basics {
namespace {

// Accumulates in double, one output slice at a time, tap by tap over the slice's rows (an inner
// loop over columns the compiler vectorises: the judge's 484 million multiply-adds take well
// under a second). The judge's reference is torch's conv3d in float32 (cuDNN on its GPU).
void convolution_3d_reference(const float *input, const float *kernel, float *output,
                              int input_depth, int input_rows, int input_cols, int kernel_depth,
                              int kernel_rows, int kernel_cols) {
  const int out_depth = input_depth - kernel_depth + 1;
  const int out_rows = input_rows - kernel_rows + 1, out_cols = input_cols - kernel_cols + 1;
  const std::size_t plane = static_cast<std::size_t>(input_rows) * input_cols;
  const std::size_t out_plane = static_cast<std::size_t>(out_rows) * out_cols;
  std::vector<double> sum(out_plane);
  for (int z = 0; z < out_depth; ++z) {
    std::fill(sum.begin(), sum.end(), 0.0);
    for (int a = 0; a < kernel_depth; ++a)
      for (int b = 0; b < kernel_rows; ++b)
        for (int c = 0; c < kernel_cols; ++c) {
          const double k = kernel[(a * kernel_rows + b) * kernel_cols + c];
          for (int y = 0; y < out_rows; ++y) {
            const float *in_row =
                input + (z + a) * plane + static_cast<std::size_t>(y + b) * input_cols + c;
            double *sum_row = sum.data() + static_cast<std::size_t>(y) * out_cols;
            for (int x = 0; x < out_cols; ++x)
              sum_row[x] += static_cast<double>(in_row[x]) * k;
          }
        }
    for (std::size_t i = 0; i < out_plane; ++i)
      output[z * out_plane + i] = static_cast<float>(sum[i]);
  }
}

double volume(const Case &c, const char *d, const char *r, const char *k) {
  return static_cast<double>(c[d]) * static_cast<double>(c[r]) * static_cast<double>(c[k]);
}

double outputs(const Case &c) {
  return static_cast<double>(c["input_depth"] - c["kernel_depth"] + 1) *
         static_cast<double>(c["input_rows"] - c["kernel_rows"] + 1) *
         static_cast<double>(c["input_cols"] - c["kernel_cols"] + 1);
}

std::string check_kernel_fits(const Case &c) {
  for (const char *dim : {"depth", "rows", "cols"}) {
    const std::string in = std::string("input_") + dim, k = std::string("kernel_") + dim;
    if (c[k.c_str()] > c[in.c_str()])
      return k + " " + std::to_string(c[k.c_str()]) + " > " + in + " " +
             std::to_string(c[in.c_str()]);
  }
  return "";
}

} // namespace

const Problem &convolution_3d_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "3d_convolution";
    p.params = {input("input", Elem::f32,
                      [](const Case &c) {
                        return static_cast<std::size_t>(
                            volume(c, "input_depth", "input_rows", "input_cols"));
                      }),
                input("kernel", Elem::f32,
                      [](const Case &c) {
                        return static_cast<std::size_t>(
                            volume(c, "kernel_depth", "kernel_rows", "kernel_cols"));
                      }),
                output("output", Elem::f32,
                       [](const Case &c) { return static_cast<std::size_t>(outputs(c)); }),
                scalar("input_depth", 1, 1024),
                scalar("input_rows", 1, 1024),
                scalar("input_cols", 1, 1024),
                scalar("kernel_depth", 1, 1024),
                scalar("kernel_rows", 1, 1024),
                scalar("kernel_cols", 1, 1024)};
    p.check = check_kernel_fits;
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, convolution_3d_reference);
    // The performance case's values: input and taps U(-1, 1).
    p.fill = fill_with(p, {uniform(-1, 1), uniform(-1, 1)});
    // Sizes as (input depth, rows, cols, kernel depth, rows, cols). A tiled block computes
    // 32 x 64 outputs of a run of output slices, for 5 x 5 and 3 x 3 kernel rows x columns; other
    // kernels take the direct kernel. Single cells and kernels as large as the input; output
    // tiles of 31..33 rows and 63..65 columns; every dimension at 31..33 and 63..65; kernel
    // depths 1..9 on the tiled path (9 x 5 x 5: an 87 KB ring, past gfx908's 64 KB: direct
    // there); kernels wider than the tiled ones; the performance size and larger volumes.
    add_tests(p, {{1, 1, 1, 1, 1, 1},       {2, 2, 2, 2, 2, 2},       {5, 5, 5, 5, 5, 5},
                  {3, 3, 3, 3, 3, 3},       {7, 6, 5, 7, 6, 5},       {33, 33, 33, 33, 33, 33},
                  {6, 35, 67, 5, 5, 5},     {7, 36, 68, 5, 5, 5},     {8, 37, 69, 5, 5, 5},
                  {5, 33, 65, 3, 3, 3},     {6, 34, 66, 3, 3, 3},     {7, 35, 67, 3, 3, 3},
                  {31, 32, 33, 5, 5, 5},    {33, 31, 32, 3, 3, 3},    {32, 33, 31, 1, 1, 1},
                  {63, 64, 65, 5, 5, 5},    {65, 63, 64, 3, 3, 3},    {64, 65, 63, 2, 4, 3},
                  {20, 40, 70, 1, 5, 5},    {20, 40, 70, 9, 5, 5},    {30, 50, 50, 7, 3, 3},
                  {10, 40, 40, 3, 7, 7},    {9, 9, 70, 2, 1, 31},     {40, 3, 200, 4, 3, 3},
                  {256, 128, 128, 5, 5, 5}, {100, 200, 300, 5, 5, 5}, {64, 256, 260, 3, 3, 3}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/11_3d_convolution";
    j.tolerance = {1e-5, 1e-5};
    std::vector<double> one_to_27, one_to_24;
    for (int v = 1; v <= 27; ++v)
      one_to_27.push_back(v);
    for (int v = 1; v <= 24; ++v)
      one_to_24.push_back(v);
    const std::vector<double> one_to_8(one_to_27.begin(), one_to_27.begin() + 8);
    const ArrayValues example_taps = given({1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 0, 1});
    j.example = judge_case(p, "example", {3, 3, 3, 2, 3, 3}, {given(one_to_27), example_taps});
    add_judge_functional(p, {3, 3, 3, 2, 3, 3}, {given(one_to_27), example_taps});
    add_judge_functional(p, {2, 2, 2, 2, 2, 2}, {given(one_to_8), constant(1)});
    add_judge_functional(p, {2, 2, 2, 1, 1, 1}, {given(one_to_8), given({2})});
    add_judge_functional(p, {2, 2, 2, 2, 2, 2}, {given(one_to_8), constant(0)});
    add_judge_functional(p, {2, 2, 2, 1, 2, 2},
                         {given({-1, -2, 3, -4, 5, -6, 7, -8}), given({-1, 1, -1, 1})});
    add_judge_functional(p, {2, 3, 4, 1, 2, 3}, {given(one_to_24), constant(1)});
    add_judge_functional(p, {4, 4, 4, 3, 3, 3}, {uniform(-1, 1), uniform(-1, 1)});
    add_judge_functional(p, {10, 10, 10, 3, 4, 5}, {uniform(-10, 10), uniform(-1, 1)});
    j.performance =
        judge_case(p, "performance", {256, 128, 128, 5, 5, 5}, {uniform(-1, 1), uniform(-1, 1)});
    // Compute-bound: one multiply-add per output and tap; the traffic is one read of the input
    // and the taps and one write of the output.
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) {
      return 4.0 * (volume(c, "input_depth", "input_rows", "input_cols") +
                    volume(c, "kernel_depth", "kernel_rows", "kernel_cols") + outputs(c));
    };
    p.model.ops = [](const Case &c) {
      return outputs(c) * volume(c, "kernel_depth", "kernel_rows", "kernel_cols");
    };
    return p;
  }();
  return problem;
}

} // namespace kit::basics
