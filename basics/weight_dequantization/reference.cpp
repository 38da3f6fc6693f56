// weight_dequantization: the CPU reference and the harness description (arguments, tolerance,
// cases).
#include "harness/spec.h"

#include <cstddef>
#include <string>

namespace kit::basics {
namespace {

// Y[i][j] = X[i][j] * S[i / TILE_SIZE][j / TILE_SIZE], S holding ceil(N / TILE_SIZE) scales per
// row of tiles. One float product per element, as the judge's float32 reference computes it, so
// the outputs match it bit for bit.
void weight_dequantization_reference(const float *X, const float *S, float *Y, int M, int N,
                                     int TILE_SIZE) {
  const int scale_cols = (N + TILE_SIZE - 1) / TILE_SIZE;
  for (int i = 0; i < M; ++i) {
    const float *scales = S + static_cast<std::size_t>(i / TILE_SIZE) * scale_cols;
    const std::size_t row = static_cast<std::size_t>(i) * N;
    for (int j = 0; j < N; ++j)
      Y[row + j] = X[row + j] * scales[j / TILE_SIZE];
  }
}

// S: one scale per TILE_SIZE x TILE_SIZE tile, the partial tiles at the right and bottom edges
// included.
std::size_t scale_count(const Case &c) {
  const long long tile = c["TILE_SIZE"];
  return static_cast<std::size_t>((c["M"] + tile - 1) / tile) *
         static_cast<std::size_t>((c["N"] + tile - 1) / tile);
}

// torch.randn(...).sub_(0.5): normal values shifted by -0.5 in float.
ArrayValues shifted_normal() {
  ArrayValues values = normal();
  return {"N(0, 1) - 0.5", [fill = values.fill](Case &c, std::size_t param, Rng &rng) {
            fill(c, param, rng);
            float *v = c.array<float>(param);
            for (std::size_t i = 0; i < c.count(param); ++i)
              v[i] -= 0.5f;
          }};
}

} // namespace

const Problem &weight_dequantization_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "weight_dequantization";
    p.params = {input("X", Elem::f32, count_of("M", "N")),
                input("S", Elem::f32, scale_count),
                output("Y", Elem::f32, count_of("M", "N")),
                scalar("M", 1, 8192),
                scalar("N", 1, 8192),
                scalar("TILE_SIZE", 1, 8192)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, weight_dequantization_reference);
    p.fill = fill_with(p, {normal(), normal()});
    // M x N x TILE_SIZE. The vector path takes N % 4 == 0 and TILE_SIZE % 4 == 0 (a 16-byte
    // vector inside one tile); its blocks cover 1024 columns of a row (4096 on gfx908). Tiles of
    // 1, 2, 3 and 6 columns, odd N and partial edge tiles take the scalar path or test the
    // tile arithmetic; tiles wider than the matrix leave one scale.
    add_tests(p, {{1, 1, 1},         {1, 1, 16},      {2, 3, 16},        {4, 4, 2},
                  {31, 33, 16},      {33, 31, 2},     {32, 32, 3},       {24, 24, 6},
                  {63, 64, 4},       {64, 64, 4},     {65, 64, 8},       {64, 63, 32},
                  {64, 65, 32},      {130, 200, 128}, {255, 255, 64},    {100, 100, 32},
                  {3, 1020, 16},     {3, 1024, 16},   {3, 1028, 16},     {5, 4092, 64},
                  {5, 4096, 64},     {5, 4100, 64},   {1, 8192, 128},    {8192, 1, 128},
                  {7, 8192, 16},     {8192, 8, 16},   {1000, 1000, 128}, {129, 4096, 8192},
                  {2048, 4096, 128}, {4097, 2047, 64}});
    // Values and scales of both signs up to 1000; X all 1 (every output is its tile's scale);
    // every scale 0.
    add_tests(p, {{257, 520, 16}}, fill_with(p, {uniform(-1000, 1000), uniform(-1e3, 1e3)}),
              ",wide-range");
    add_tests(p, {{96, 96, 32}}, fill_with(p, {constant(1), normal()}), ",X=1");
    add_tests(p, {{64, 64, 16}}, fill_with(p, {normal(), constant(0)}), ",S=0");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times. Its arrays come from
    // torch.randn (normal() draws the same distribution, not the same values).
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/64_weight_dequantization";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {256, 256, 128}, {normal(), normal()});
    for (const auto &shape : {std::vector<double>{1, 1, 16},
                              {2, 3, 16},
                              {4, 4, 16},
                              {64, 64, 32},
                              {128, 128, 64},
                              {256, 256, 128},
                              {512, 512, 128},
                              {30, 50, 16},
                              {100, 100, 32},
                              {130, 200, 128},
                              {255, 255, 64},
                              {1024, 1024, 128},
                              {2048, 4096, 128}})
      add_judge_functional(p, shape, {normal(), normal()});
    add_judge_functional(p, {64, 64, 32}, {constant(0), normal()});
    add_judge_functional(p, {128, 128, 64}, {shifted_normal(), shifted_normal()});
    j.performance = judge_case(p, "performance", {8192, 8192, 128}, {normal(), normal()});
    p.model = memory_bound([](const Case &c) {
      return 8.0 * static_cast<double>(c["M"]) * static_cast<double>(c["N"]) +
             4.0 * static_cast<double>(scale_count(c));
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
