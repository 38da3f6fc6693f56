// 2d_max_pooling: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace kit::basics {
namespace {

// (H + 2 padding - kernel_size) / stride + 1, 0 where the padded image is smaller than a window.
long long pooled_size(long long size, long long kernel, long long stride, long long padding) {
  const long long padded = size + 2 * padding;
  return padded < kernel || stride <= 0 ? 0 : (padded - kernel) / stride + 1;
}
long long out_h(const Case &c) {
  return pooled_size(c["H"], c["kernel_size"], c["stride"], c["padding"]);
}
long long out_w(const Case &c) {
  return pooled_size(c["W"], c["kernel_size"], c["stride"], c["padding"]);
}

// The window's maximum over the cells inside the image (padding never wins), a NaN winning and
// staying as in torch's max_pool2d.
void max_pooling_2d_reference(const float *input, float *output, int N, int C, int H, int W,
                              int kernel_size, int stride, int padding) {
  const long long oh = pooled_size(H, kernel_size, stride, padding);
  const long long ow = pooled_size(W, kernel_size, stride, padding);
  for (long long plane = 0; plane < static_cast<long long>(N) * C; ++plane) {
    const float *image = input + plane * H * W;
    float *pooled = output + plane * oh * ow;
    for (long long oy = 0; oy < oh; ++oy)
      for (long long ox = 0; ox < ow; ++ox) {
        float best = -std::numeric_limits<float>::infinity();
        for (long long iy = oy * stride - padding; iy < oy * stride - padding + kernel_size; ++iy)
          for (long long ix = ox * stride - padding; ix < ox * stride - padding + kernel_size;
               ++ix) {
            if (iy < 0 || iy >= H || ix < 0 || ix >= W)
              continue;
            const float v = image[iy * W + ix];
            if (v > best || std::isnan(v))
              best = v;
          }
        pooled[oy * ow + ox] = best;
      }
  }
}

// torch's rules: padding at most half the kernel (rounded down), at least one output per side.
std::string check_pooling(const Case &c) {
  if (2 * c["padding"] > c["kernel_size"])
    return "padding " + std::to_string(c["padding"]) + " > kernel_size / 2 (kernel_size " +
           std::to_string(c["kernel_size"]) + ")";
  if (out_h(c) < 1 || out_w(c) < 1)
    return "kernel_size " + std::to_string(c["kernel_size"]) +
           " larger than the padded image: no output";
  return "";
}

std::size_t input_count(const Case &c) {
  return static_cast<std::size_t>(c["N"] * c["C"] * c["H"] * c["W"]);
}
std::size_t output_count(const Case &c) {
  return static_cast<std::size_t>(c["N"] * c["C"] * out_h(c) * out_w(c));
}

// The challenge's functional case 8: channel 0 holds 0..35 row by row, channel 1 the same rows
// in reverse order, channel 2 the same columns in reverse order.
std::vector<double> three_patterns() {
  std::vector<double> v;
  for (int channel = 0; channel < 3; ++channel)
    for (int r = 0; r < 6; ++r)
      for (int col = 0; col < 6; ++col) {
        const int row = channel == 1 ? 5 - r : r;
        const int column = channel == 2 ? 5 - col : col;
        v.push_back(6 * row + column);
      }
  return v;
}

} // namespace

const Problem &max_pooling_2d_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "2d_max_pooling";
    p.params = {input("input", Elem::f32, input_count),
                output("output", Elem::f32, output_count),
                scalar("N", 1, 100),
                scalar("C", 1, 512),
                scalar("H", 1, 1024),
                scalar("W", 1, 1024),
                scalar("kernel_size", 1, 16),
                scalar("stride", 1, 16),
                scalar("padding", 0, 16)};
    p.check = check_pooling;
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, max_pooling_2d_reference);
    // The challenge's inputs: standard normal.
    p.fill = fill_with(p, {normal()});
    // The judge's kernel 3, stride 2, padding 1 with W % 4 = 0..3 (the 16-byte and the scalar
    // staging) and output widths around the 128-output row tile (127..129) and heights around
    // the 8-row tile (7..9); tiles cut from both sides of the image; kernels of 1, 2, 4, 5 and 16
    // (padding up to kernel_size / 2), strides above the kernel (windows with gaps), the largest
    // kernel and stride, whose tile is narrowed to fit shared memory; many tiny planes; the
    // challenge's largest image.
    add_tests(
        p, {{1, 1, 1, 1, 1, 1, 0},        {1, 1, 2, 3, 2, 1, 1},      {1, 1, 31, 32, 3, 2, 1},
            {2, 3, 33, 33, 3, 2, 1},      {1, 2, 17, 34, 3, 2, 1},    {3, 1, 9, 35, 3, 2, 1},
            {1, 2, 14, 254, 3, 2, 1},     {2, 1, 16, 256, 3, 2, 1},   {1, 2, 18, 258, 3, 2, 1},
            {1, 1, 300, 300, 2, 2, 0},    {2, 2, 65, 63, 4, 1, 2},    {1, 3, 37, 41, 5, 3, 2},
            {1, 1, 50, 70, 2, 3, 1},      {1, 1, 100, 100, 16, 1, 0}, {1, 2, 1024, 1024, 16, 16, 8},
            {1, 1, 1000, 1001, 1, 16, 0}, {1, 1, 129, 131, 7, 5, 3},  {100, 512, 1, 1, 1, 1, 0},
            {3, 5, 64, 1000, 3, 2, 1},    {1, 1, 1024, 1024, 3, 1, 1}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/42_2d_max_pooling";
    j.tolerance = {1e-5, 1e-5};
    const ArrayValues one_to_9 = given({1, 2, 3, 4, 5, 6, 7, 8, 9});
    const ArrayValues one_to_16 = given({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
    j.example = judge_case(p, "example", {1, 1, 3, 3, 2, 1, 0}, {one_to_9});
    add_judge_functional(p, {1, 1, 4, 4, 2, 2, 0}, {one_to_16});
    add_judge_functional(p, {1, 2, 5, 5, 3, 1, 1}, {normal()});
    add_judge_functional(p, {2, 3, 8, 8, 1, 1, 0}, {normal()});
    add_judge_functional(p, {1, 1, 10, 10, 5, 2, 2}, {normal()});
    add_judge_functional(p, {1, 1, 2, 2, 2, 1, 0}, {given({1, 2, 3, 4})});
    add_judge_functional(p, {1, 1, 3, 3, 3, 1, 0}, {one_to_9});
    add_judge_functional(p, {1, 1, 4, 4, 2, 1, 1}, {one_to_16});
    add_judge_functional(p, {1, 3, 6, 6, 2, 2, 1}, {given(three_patterns())});
    const double inf = std::numeric_limits<double>::infinity();
    add_judge_functional(p, {1, 1, 5, 5, 2, 1, 0},
                         {given({1e6, -1e6, 0, 1e-6, -1e-6, inf, -inf, 1,  2,  3,  4,  5, 6,
                                 7,   8,    9, 10,   11,    12,  13,   14, 15, 16, 17, 18})});
    add_judge_functional(p, {1, 1, 7, 11, 3, 2, 1}, {normal()});
    j.performance = judge_case(p, "performance", {4, 64, 256, 256, 3, 2, 1}, {normal()});
    // One read of the input, one write of the output.
    p.model = memory_bound(
        [](const Case &c) { return 4.0 * static_cast<double>(input_count(c) + output_count(c)); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
