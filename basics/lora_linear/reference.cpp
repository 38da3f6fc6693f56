// lora_linear: the CPU reference and the harness description (arguments, tolerance, cases).
// output = x W^T + lora_scale * ((x A^T) B^T): x is batch x d_in, W d_out x d_in, A rank x d_in,
// B d_out x rank, output batch x d_out, row-major floats.
//
// The reference sums in double and rounds once. The judge's is torch's FP32 (three cuBLAS products,
// then the scaled add); at its sizes (x ~ N(0, 1), weights ~ 0.02 N(0, 1), d_in <= 4096) the
// outputs are of order 1 and the FP32 rounding of a 4096-term sum is of order 1e-6, far inside
// the 1e-4 tolerance, so any summation order passes and the double result judges the kernel.
// The judge's performance case is checked on whole sampled rows.
#include "harness/spec.h"

#include <cstddef>
#include <cstdio>
#include <vector>

namespace kit::basics {
namespace {

// One output row in double: x_row W^T + scale * (x_row A^T) B^T.
void lora_row(const float *x_row, const float *W, const float *A, const float *B, int d_in,
              int d_out, int rank, double scale, std::vector<double> &out) {
  std::vector<double> hidden(static_cast<std::size_t>(rank));
  for (int r = 0; r < rank; ++r) {
    double s = 0;
    const float *a = A + static_cast<std::size_t>(r) * d_in;
    for (int k = 0; k < d_in; ++k)
      s += static_cast<double>(x_row[k]) * a[k];
    hidden[r] = s;
  }
  out.assign(static_cast<std::size_t>(d_out), 0.0);
  for (int o = 0; o < d_out; ++o) {
    const float *w = W + static_cast<std::size_t>(o) * d_in;
    double base = 0;
    for (int k = 0; k < d_in; ++k)
      base += static_cast<double>(x_row[k]) * w[k];
    const float *b = B + static_cast<std::size_t>(o) * rank;
    double delta = 0;
    for (int r = 0; r < rank; ++r)
      delta += hidden[r] * b[r];
    out[o] = base + scale * delta;
  }
}

void lora_linear_reference(const float *x, const float *W, const float *A, const float *B,
                           float *output, int batch, int d_in, int d_out, int rank,
                           float lora_scale) {
  std::vector<double> row;
  for (int i = 0; i < batch; ++i) {
    lora_row(x + static_cast<std::size_t>(i) * d_in, W, A, B, d_in, d_out, rank, lora_scale, row);
    for (int o = 0; o < d_out; ++o)
      output[static_cast<std::size_t>(i) * d_out + o] = static_cast<float>(row[o]);
  }
}

// Whole rows of the output: the first, the last and 16 random ones.
std::vector<SampledValue> sample_rows(const Case &c, Rng &rng) {
  const int batch = static_cast<int>(c["batch"]), d_in = static_cast<int>(c["d_in"]),
            d_out = static_cast<int>(c["d_out"]), rank = static_cast<int>(c["rank"]);
  const double scale = c.real("lora_scale");
  std::vector<int> rows = {0, batch - 1};
  for (int s = 0; s < 16; ++s)
    rows.push_back(static_cast<int>(rng.uniform_int(0, batch - 1)));
  std::vector<SampledValue> expected;
  std::vector<double> row;
  for (int i : rows) {
    lora_row(c.array<float>(0) + static_cast<std::size_t>(i) * d_in, c.array<float>(1),
             c.array<float>(2), c.array<float>(3), d_in, d_out, rank, scale, row);
    for (int o = 0; o < d_out; ++o)
      expected.push_back({4, static_cast<std::size_t>(i) * d_out + o, row[o]});
  }
  return expected;
}

// torch.randn(...) * factor: the challenge's weights.
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

// The challenge's generated cases: x ~ N(0, 1) (or zeros), W and A ~ 0.02 N(0, 1), B zeros.
std::vector<ArrayValues> challenge_values(bool zero_x = false) {
  return {zero_x ? constant(0) : normal(), scaled_normal(0.02), scaled_normal(0.02), constant(0)};
}

} // namespace

const Problem &lora_linear_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "lora_linear";
    p.params = {input("x", Elem::f32, count_of("batch", "d_in")),
                input("W", Elem::f32, count_of("d_out", "d_in")),
                input("A", Elem::f32, count_of("rank", "d_in")),
                input("B", Elem::f32, count_of("d_out", "rank")),
                output("output", Elem::f32, count_of("batch", "d_out")),
                scalar("batch", 1, 8192),
                scalar("d_in", 1, 16384),
                scalar("d_out", 1, 16384),
                scalar("rank", 1, 1024),
                float_scalar("lora_scale", -16, 16)};
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, lora_linear_reference);
    // Every weight nonzero (the challenge's generated B is zero, which hides the adapter's path).
    p.fill =
        fill_with(p, {normal(), scaled_normal(0.02), scaled_normal(0.02), scaled_normal(0.02)});
    // batch, d_in, d_out, rank, lora_scale: 1, 31..33, 63..65 and the 32 and 64 tiles +- 1 in
    // each size; odd d_in and rank (scalar loads); the rank's product spanning several tiles.
    add_tests(p, {{1, 1, 1, 1, 0.5},
                  {1, 4, 4, 1, 0.5},
                  {2, 3, 5, 7, 1.0},
                  {31, 33, 32, 1, 0.25},
                  {33, 31, 65, 3, 0.125},
                  {32, 64, 63, 8, 2.0},
                  {63, 65, 64, 16, 0.5},
                  {65, 100, 33, 31, -0.5},
                  {64, 64, 64, 64, 0.0625},
                  {7, 255, 128, 8, 0.5},
                  {129, 257, 255, 65, 0.015625},
                  {256, 1024, 1000, 64, 0.03125},
                  {300, 129, 4097, 5, 1.5}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times. The challenge hands the output
    // over zero-filled; the reference writes all of it.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/85_lora_linear";
    j.tolerance = {1e-4, 1e-4};
    j.example =
        judge_case(p, "example", {2, 4, 3, 2, 0.5},
                   {given({1, 0, -1, 2, 0, 1, 1, -1}), given({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}),
                    given({1, 0, 0, 0, 0, 1, 0, 0}), given({1, 0, 0, 1, 0, 0})});
    add_judge_functional(p, {1, 4, 4, 1, 0.5}, challenge_values());
    add_judge_functional(p, {2, 8, 8, 2, 0.5}, challenge_values(true));
    add_judge_functional(p, {4, 16, 16, 1, 0.5}, challenge_values());
    add_judge_functional(p, {16, 64, 64, 8, 0.5}, challenge_values());
    add_judge_functional(p, {32, 128, 64, 16, 0.5}, challenge_values());
    add_judge_functional(p, {30, 100, 100, 4, 0.5}, challenge_values());
    add_judge_functional(p, {7, 255, 128, 8, 0.5}, challenge_values());
    add_judge_functional(p, {64, 512, 512, 16, 0.125}, challenge_values());
    add_judge_functional(
        p, {4, 32, 32, 8, 1.0},
        {constant(-1), scaled_normal(0.02), scaled_normal(0.02), scaled_normal(0.02)});
    add_judge_functional(p, {128, 1024, 1024, 32, 0.0625}, challenge_values());
    j.performance =
        judge_case(p, "performance", {256, 4096, 4096, 64, 0.015625}, challenge_values());
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) {
      return 4.0 * (c["batch"] * c["d_in"] + c["d_out"] * c["d_in"] + c["rank"] * c["d_in"] +
                    c["d_out"] * c["rank"] + c["batch"] * c["d_out"]);
    };
    p.model.ops = [](const Case &c) {
      const double batch = static_cast<double>(c["batch"]);
      return batch * c["d_in"] * (c["d_out"] + c["rank"]) + batch * c["rank"] * c["d_out"];
    };
    p.reference_work = p.model.ops;
    p.full_reference_limit = 2e9;
    p.sampled_reference = sample_rows;
    return p;
  }();
  return problem;
}

} // namespace kit::basics
