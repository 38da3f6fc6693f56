// swiglu_mlp_block: the CPU reference and the harness description (arguments, tolerance, cases).
// output = (silu(x W_gate) * (x W_up)) W_down: x is M x d_model, W_gate and W_up d_model x d_ffn,
// W_down d_ffn x d_model, output M x d_model, row-major floats; silu(g) = g / (1 + exp(-g)).
//
// The reference works in double and rounds once. The judge's is torch's FP32 (three cuBLAS
// products and the element-wise silu and product); at its sizes (x ~ 0.1 N(0, 1), weights ~
// 0.02 N(0, 1)) the outputs are of order 0.02 and the FP32 rounding of the 14336-term sums is of
// order 1e-8, far inside the 1e-4 tolerance, so the double result judges the kernel. The judge's
// performance case (90 billion multiply-adds) is checked on eight whole sampled rows.
#include "harness/spec.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <vector>

namespace kit::basics {
namespace {

// One output row in double.
void mlp_row(const float *x_row, const float *W_gate, const float *W_up, const float *W_down,
             int d_model, int d_ffn, std::vector<double> &out) {
  std::vector<double> gate(static_cast<std::size_t>(d_ffn), 0.0), up(gate);
  for (int k = 0; k < d_model; ++k) {
    const double xk = x_row[k];
    const float *g = W_gate + static_cast<std::size_t>(k) * d_ffn;
    const float *u = W_up + static_cast<std::size_t>(k) * d_ffn;
    for (int f = 0; f < d_ffn; ++f) {
      gate[f] += xk * g[f];
      up[f] += xk * u[f];
    }
  }
  out.assign(static_cast<std::size_t>(d_model), 0.0);
  for (int f = 0; f < d_ffn; ++f) {
    const double hidden = gate[f] / (1.0 + std::exp(-gate[f])) * up[f];
    const float *w = W_down + static_cast<std::size_t>(f) * d_model;
    for (int o = 0; o < d_model; ++o)
      out[o] += hidden * w[o];
  }
}

void swiglu_mlp_block_reference(const float *x, const float *W_gate, const float *W_up,
                                const float *W_down, float *output, int M, int d_model, int d_ffn) {
  std::vector<double> row;
  for (int i = 0; i < M; ++i) {
    mlp_row(x + static_cast<std::size_t>(i) * d_model, W_gate, W_up, W_down, d_model, d_ffn, row);
    for (int o = 0; o < d_model; ++o)
      output[static_cast<std::size_t>(i) * d_model + o] = static_cast<float>(row[o]);
  }
}

// Whole rows of the output: the first, the last and 6 random ones.
std::vector<SampledValue> sample_rows(const Case &c, Rng &rng) {
  const int M = static_cast<int>(c["M"]), d_model = static_cast<int>(c["d_model"]),
            d_ffn = static_cast<int>(c["d_ffn"]);
  std::vector<int> rows = {0, M - 1};
  for (int s = 0; s < 6; ++s)
    rows.push_back(static_cast<int>(rng.uniform_int(0, M - 1)));
  std::vector<SampledValue> expected;
  std::vector<double> row;
  for (int i : rows) {
    mlp_row(c.array<float>(0) + static_cast<std::size_t>(i) * d_model, c.array<float>(1),
            c.array<float>(2), c.array<float>(3), d_model, d_ffn, row);
    for (int o = 0; o < d_model; ++o)
      expected.push_back({4, static_cast<std::size_t>(i) * d_model + o, row[o]});
  }
  return expected;
}

// torch.randn(...) * factor.
ArrayValues scaled_normal(double factor) {
  ArrayValues standard = normal();
  char text[48];
  std::snprintf(text, sizeof text, "%g N(0, 1)", factor);
  return {text, [standard, factor](Case &c, std::size_t param, Rng &rng) {
            standard.fill(c, param, rng);
            float *values = c.array<float>(param);
            for (std::size_t i = 0; i < c.count(param); ++i)
              values[i] = static_cast<float>(values[i] * factor);
          }};
}

// The challenge's generated cases: x ~ 0.1 N(0, 1) (or zeros), every weight ~ 0.02 N(0, 1).
std::vector<ArrayValues> challenge_values(bool zero_x = false) {
  return {zero_x ? constant(0) : scaled_normal(0.1), scaled_normal(0.02), scaled_normal(0.02),
          scaled_normal(0.02)};
}

} // namespace

const Problem &swiglu_mlp_block_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "swiglu_mlp_block";
    p.params = {input("x", Elem::f32, count_of("M", "d_model")),
                input("W_gate", Elem::f32, count_of("d_model", "d_ffn")),
                input("W_up", Elem::f32, count_of("d_model", "d_ffn")),
                input("W_down", Elem::f32, count_of("d_ffn", "d_model")),
                output("output", Elem::f32, count_of("M", "d_model")),
                scalar("M", 1, 8192),
                scalar("d_model", 1, 16384),
                scalar("d_ffn", 1, 65536)};
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, swiglu_mlp_block_reference);
    // Larger values than the challenge's, so that silu's curve (not only its slope at 0) and the
    // products' rounding are exercised: gate and up of order 1, outputs of order 0.1-1.
    p.fill = fill_with(
        p, {scaled_normal(1.0), scaled_normal(0.1), scaled_normal(0.1), scaled_normal(0.1)});
    // M, d_model, d_ffn: 1, 31..33, 63..65 and the 64 x 64 tile +- 1 in each size (the paired
    // GEMM's output tiles are 32 and 64 columns wide for the 64 and 128 tiles); odd sizes (scalar
    // loads); the large tile's 256 rows +- 1.
    add_tests(p, {{1, 1, 1},
                  {1, 4, 8},
                  {2, 3, 5},
                  {31, 33, 32},
                  {33, 32, 31},
                  {32, 64, 63},
                  {63, 65, 64},
                  {65, 63, 65},
                  {64, 64, 129},
                  {100, 60, 120},
                  {255, 64, 128},
                  {257, 100, 300},
                  {600, 128, 1000},
                  {512, 256, 2049}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/84_swiglu_mlp_block";
    j.tolerance = {1e-4, 1e-4};
    j.example = judge_case(p, "example", {2, 2, 4},
                           {given({1, 0, 0, 1}), given({1, 0, 0, 0, 0, 1, 0, 0}),
                            given({1, 0, 0, 0, 0, 1, 0, 0}), given({1, 0, 0, 1, 0, 0, 0, 0})});
    add_judge_functional(p, {1, 4, 8}, challenge_values());
    add_judge_functional(p, {2, 4, 8}, challenge_values());
    add_judge_functional(p, {4, 8, 16}, challenge_values(true));
    add_judge_functional(p, {16, 32, 64}, challenge_values());
    add_judge_functional(p, {64, 64, 128}, challenge_values());
    add_judge_functional(p, {30, 32, 64}, challenge_values());
    add_judge_functional(p, {100, 60, 120}, challenge_values());
    add_judge_functional(p, {255, 64, 128}, challenge_values());
    add_judge_functional(p, {128, 256, 512}, challenge_values());
    add_judge_functional(p, {256, 512, 1024}, challenge_values());
    j.performance = judge_case(p, "performance", {512, 4096, 14336}, challenge_values());
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) {
      return 4.0 * (c["M"] * c["d_model"] * 2.0 + 3.0 * c["d_model"] * c["d_ffn"]);
    };
    p.model.ops = [](const Case &c) { return 3.0 * c["M"] * c["d_model"] * c["d_ffn"]; };
    p.reference_work = p.model.ops;
    p.full_reference_limit = 2e9;
    p.sampled_reference = sample_rows;
    return p;
  }();
  return problem;
}

} // namespace kit::basics
