// fused_residual_add_rms_norm: the CPU reference and the harness description (arguments,
// tolerance, cases).
#include "harness/spec.h"

#include <cmath>

namespace kit::basics {
namespace {

// z = x + residual rounded to float, as the judge's float32 reference forms it; the mean of
// squares and the outputs in double, each output rounded once.
void fused_residual_add_rms_norm_reference(const float *x, const float *residual,
                                           const float *weight, float *out, int N, int C,
                                           float eps) {
  for (int r = 0; r < N; ++r) {
    const std::size_t base = static_cast<std::size_t>(r) * C;
    double squares = 0.0;
    for (int c = 0; c < C; ++c) {
      const float z = x[base + c] + residual[base + c];
      squares += static_cast<double>(z) * z;
    }
    const double rms = std::sqrt(squares / C + eps);
    for (int c = 0; c < C; ++c) {
      const float z = x[base + c] + residual[base + c];
      out[base + c] = static_cast<float>(z / rms * weight[c]);
    }
  }
}

} // namespace

const Problem &fused_residual_add_rms_norm_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "fused_residual_add_rms_norm";
    p.params = {input("x", Elem::f32, count_of("N", "C")),
                input("residual", Elem::f32, count_of("N", "C")),
                input("weight", Elem::f32, count_of("C")),
                output("out", Elem::f32, count_of("N", "C")),
                scalar("N", 1, 65536),
                scalar("C", 1, 65536),
                float_scalar("eps", 1e-10f, 1.0f)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, fused_residual_add_rms_norm_reference);
    // The challenge's stated ranges: x and residual in [-10, 10], weights in [0.5, 1.5].
    p.fill = fill_with(p, {uniform(-10, 10), uniform(-10, 10), uniform(0.5, 1.5)});
    // Row widths around every register capacity: a warp holds 128/256/512/1024 columns on
    // NVIDIA (256/512/1024/2048 on AMD), a block 2048/4096/8192; past that the two-read kernel.
    // Odd widths take the 4-byte path.
    add_tests(p, {{1, 1, 1e-5},      {3, 2, 1e-5},       {5, 3, 1e-5},       {33, 31, 1e-5},
                  {31, 32, 1e-5},    {9, 33, 1e-5},      {65, 63, 1e-5},     {64, 64, 1e-5},
                  {63, 65, 1e-5},    {17, 127, 1e-5},    {16, 128, 1e-5},    {15, 129, 1e-5},
                  {25, 255, 1e-5},   {24, 256, 1e-5},    {23, 257, 1e-5},    {11, 511, 1e-5},
                  {12, 512, 1e-5},   {13, 513, 1e-5},    {7, 1023, 1e-5},    {8, 1024, 1e-5},
                  {9, 1025, 1e-5},   {5, 2047, 1e-5},    {4, 2048, 1e-5},    {3, 2049, 1e-5},
                  {3, 4095, 1e-5},   {5, 4096, 1e-5},    {6, 4097, 1e-5},    {3, 8191, 1e-5},
                  {2, 8192, 1e-5},   {3, 8193, 1e-5},    {2, 65536, 1e-5},   {3, 65535, 1e-5},
                  {65536, 64, 1e-5}, {4096, 4096, 1e-5}, {20001, 100, 1e-5}, {2, 4096, 0.5}});
    // The judge's distributions (x and residual N(0, 1), weights U(0.5, 1.5)).
    add_tests(p, {{1000, 1000, 1e-5}}, fill_with(p, {normal(), normal(), uniform(0.5, 1.5)}),
              ",normal");
    // x = -residual: z = 0 everywhere, rms = sqrt(eps), every output 0.
    add_tests(p, {{7, 4096, 1e-5}, {5, 31, 1e-5}},
              fill_with(p, {constant(3), constant(-3), uniform(0.5, 1.5)}), ",cancelling");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times. Its random cases draw x and
    // residual from torch.randn and the weights from U(0.5, 1.5).
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/83_fused_residual_add_rms_norm";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {1, 4, 1e-5},
                           {given({1, 0, -1, 2}), given({0.5, 1.5, 0.5, -0.5}), constant(1)});
    add_judge_functional(p, {1, 1, 1e-5}, {normal(), normal(), uniform(0.5, 1.5)});
    add_judge_functional(p, {1, 4, 1e-5}, {normal(), normal(), uniform(0.5, 1.5)});
    add_judge_functional(p, {2, 4, 1e-5}, {constant(0), normal(), uniform(0.5, 1.5)});
    add_judge_functional(p, {4, 4, 1e-5}, {normal(), constant(0), uniform(0.5, 1.5)});
    add_judge_functional(p, {4, 8, 1e-5}, {uniform(-2, -0.1), normal(), uniform(0.5, 1.5)});
    add_judge_functional(p, {16, 64, 1e-5}, {normal(), normal(), uniform(0.5, 1.5)});
    add_judge_functional(p, {32, 256, 1e-5}, {normal(), normal(), uniform(0.5, 1.5)});
    add_judge_functional(p, {30, 100, 1e-5}, {normal(), normal(), uniform(0.5, 1.5)});
    add_judge_functional(p, {100, 255, 1e-5}, {normal(), normal(), uniform(0.5, 1.5)});
    add_judge_functional(p, {128, 512, 1e-5}, {normal(), normal(), uniform(0.5, 1.5)});
    j.performance =
        judge_case(p, "performance", {4096, 4096, 1e-5}, {normal(), normal(), uniform(0.5, 1.5)});
    p.model = memory_bound([](const Case &c) {
      return 12.0 * static_cast<double>(c["N"]) * static_cast<double>(c["C"]) +
             4.0 * static_cast<double>(c["C"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
