// gaussian_blur: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

// Zero padding of kernel_rows / 2 rows and kernel_cols / 2 columns on every side; each output
// summed in double (the judge's reference sums the 49 products of a window in float32, through
// torch.sum, output by output).
void gaussian_blur_reference(const float *input, const float *kernel, float *output, int input_rows,
                             int input_cols, int kernel_rows, int kernel_cols) {
  for (int i = 0; i < input_rows; ++i)
    for (int j = 0; j < input_cols; ++j) {
      double sum = 0;
      for (int a = 0; a < kernel_rows; ++a) {
        const int r = i + a - kernel_rows / 2;
        if (r < 0 || r >= input_rows)
          continue;
        for (int b = 0; b < kernel_cols; ++b) {
          const int c = j + b - kernel_cols / 2;
          if (c >= 0 && c < input_cols)
            sum += static_cast<double>(input[static_cast<std::size_t>(r) * input_cols + c]) *
                   static_cast<double>(kernel[a * kernel_cols + b]);
        }
      }
      output[static_cast<std::size_t>(i) * input_cols + j] = static_cast<float>(sum);
    }
}

} // namespace

const Problem &gaussian_blur_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "gaussian_blur";
    p.params = {input("input", Elem::f32, count_of("input_rows", "input_cols")),
                input("kernel", Elem::f32, count_of("kernel_rows", "kernel_cols")),
                output("output", Elem::f32, count_of("input_rows", "input_cols")),
                scalar("input_rows", 1, 4096),
                scalar("input_cols", 1, 4096),
                scalar("kernel_rows", 1, 21),
                scalar("kernel_cols", 1, 21)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, gaussian_blur_reference);
    // The performance case's values: pixels U(0, 255), taps U(0.0001, 0.02).
    p.fill = fill_with(p, {uniform(0, 255), uniform(0.0001, 0.02)});
    // Images around the 16 x 32 output tile (15..17 rows, 31..33 columns) and smaller than the
    // kernel; kernels 1 x 1, 3 x 3, 7 x 7 (the compiled size), the challenge's largest 21 x 21,
    // non-square ones and an even one (the judge's formula pads kernel / 2 on both sides, so
    // an even kernel reaches one cell further up and left); the challenge's largest image.
    add_tests(p, {{1, 1, 1, 1},
                  {1, 1, 3, 3},
                  {2, 3, 21, 21},
                  {3, 2, 7, 7},
                  {15, 31, 7, 7},
                  {16, 32, 7, 7},
                  {17, 33, 7, 7},
                  {31, 17, 5, 5},
                  {33, 64, 3, 3},
                  {64, 65, 21, 21},
                  {100, 37, 3, 21},
                  {37, 100, 21, 3},
                  {50, 50, 5, 7},
                  {47, 53, 4, 6},
                  {512, 512, 7, 7},
                  {512, 512, 21, 21},
                  {1000, 999, 9, 9},
                  {4096, 4096, 3, 3},
                  {4096, 70, 21, 21}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/28_gaussian_blur";
    j.tolerance = {1e-5, 1e-5};
    std::vector<double> one_to_25;
    for (int v = 1; v <= 25; ++v)
      one_to_25.push_back(v);
    const ArrayValues binomial =
        given({0.0625, 0.125, 0.0625, 0.125, 0.25, 0.125, 0.0625, 0.125, 0.0625});
    j.example = judge_case(p, "example", {5, 5, 3, 3}, {given(one_to_25), binomial});
    add_judge_functional(p, {5, 5, 3, 3}, {given(one_to_25), binomial});
    add_judge_functional(p, {3, 3, 3, 3},
                         {given({1, 2, 3, 4, 5, 6, 7, 8, 9}), given({0, 0, 0, 0, 1, 0, 0, 0, 0})});
    add_judge_functional(p, {4, 4, 3, 3}, {constant(1), constant(0.111111)});
    add_judge_functional(p, {1, 1, 1, 1}, {given({42}), given({1})});
    add_judge_functional(p, {32, 32, 5, 5}, {uniform(-10, 10), uniform(0, 1)});
    j.performance =
        judge_case(p, "performance", {512, 512, 7, 7}, {uniform(0, 255), uniform(0.0001, 0.02)});
    // One read of the image and the kernel, one write of the output.
    p.model = memory_bound([](const Case &c) {
      return 4.0 *
             (2.0 * static_cast<double>(c["input_rows"]) * static_cast<double>(c["input_cols"]) +
              static_cast<double>(c["kernel_rows"]) * static_cast<double>(c["kernel_cols"]));
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
