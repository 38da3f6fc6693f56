// rgb_to_grayscale: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <string>

namespace kit::basics {
namespace {

// torch's `0.299 * R + 0.587 * G + 0.114 * B` on float tensors: the Python coefficients become
// floats, each product and each sum is rounded to float, left to right.
void rgb_to_grayscale_reference(const float *input, float *output, int width, int height) {
  const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  for (std::size_t p = 0; p < pixels; ++p) {
    const float r = 0.299f * input[3 * p];
    const float g = 0.587f * input[3 * p + 1];
    const float b = 0.114f * input[3 * p + 2];
    const float rg = r + g;
    output[p] = rg + b;
  }
}

// torch.randint(0, 256, ..., dtype=float32): whole numbers 0..255 stored as floats. spec.h's
// integers() fills integer arrays only, so this problem spells it out.
ArrayValues integer_floats(int lo, int hi) {
  return {"integers " + std::to_string(lo) + ".." + std::to_string(hi) + " as floats",
          [lo, hi](Case &c, std::size_t param, Rng &rng) {
            float *x = c.array<float>(param);
            for (std::size_t i = 0; i < c.count(param); ++i)
              x[i] = static_cast<float>(rng.uniform_int(lo, hi));
          }};
}

// Channel values beyond the challenge's [0, 255]: signed zeros, subnormals, fractions, the ends of
// the range, and magnitudes up to 3e38 (the weights sum to 1, so no sum overflows).
void fill_edge_values(Case &c, Rng &rng) {
  static const float kSpecial[] = {0.0f,   -0.0f,  1e-45f, 1e-38f, 0.5f,  127.5f, 254.99998f,
                                   255.0f, 256.0f, 1e6f,   -1e6f,  3e38f, -3e38f};
  float *x = c.array<float>(0);
  for (std::size_t i = 0; i < c.count(0); ++i)
    x[i] = kSpecial[rng.next() % (sizeof kSpecial / sizeof kSpecial[0])];
}

} // namespace

const Problem &rgb_to_grayscale_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "rgb_to_grayscale";
    p.params = {input("input", Elem::f32,
                      [](const Case &c) {
                        return 3 * static_cast<std::size_t>(c["width"]) *
                               static_cast<std::size_t>(c["height"]);
                      }),
                output("output", Elem::f32, count_of("width", "height")), scalar("width", 1, 4096),
                scalar("height", 1, 4096)};
    p.check = [](const Case &c) -> std::string {
      const long long pixels = c["width"] * c["height"];
      if (pixels > 4194304)
        return "width * height " + std::to_string(pixels) + " > 4194304";
      return "";
    };
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, rgb_to_grayscale_reference);
    p.fill = fill_with(p, {uniform(0, 255)});
    // Pixel counts around the 4-pixel group and the 2048-pixel block, in wide, tall and square
    // images, up to the largest image allowed.
    add_tests(p, {{1, 1},    {2, 1},    {3, 1},       {4, 1},      {5, 1},    {1, 7},
                  {3, 5},    {31, 33},  {32, 32},     {33, 31},    {64, 63},  {65, 1},
                  {1023, 2}, {2047, 1}, {2048, 1},    {2049, 1},   {1, 2049}, {1025, 7},
                  {4096, 1}, {4095, 3}, {2047, 2049}, {4096, 1024}});
    add_tests(p, {{67, 61}}, fill_with(p, {integer_floats(0, 255)}), ",integers");
    add_tests(p, {{67, 61}}, fill_edge_values, ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/66_rgb_to_grayscale";
    j.tolerance = {1e-5, 1e-5};
    j.example =
        judge_case(p, "example", {2, 2}, {given({255, 0, 0, 0, 255, 0, 0, 0, 255, 128, 128, 128})});
    add_judge_functional(p, {1, 1}, {given({255, 0, 0})});
    add_judge_functional(p, {1, 1}, {given({0, 255, 0})});
    add_judge_functional(p, {1, 1}, {given({0, 0, 255})});
    add_judge_functional(p, {2, 2},
                         {given({100, 150, 200, 50, 75, 100, 200, 100, 50, 75, 125, 175})});
    add_judge_functional(p, {1, 1}, {constant(0)});
    add_judge_functional(p, {1, 1}, {constant(255)});
    for (double size : {4, 8, 16, 32})
      add_judge_functional(p, {size, size}, {integer_floats(0, 255)});
    add_judge_functional(p, {100, 100}, {uniform(0, 255)});
    add_judge_functional(p, {64, 48}, {uniform(0, 255)});
    add_judge_functional(p, {3, 2}, {integer_floats(0, 255)});
    add_judge_functional(p, {2, 3}, {integer_floats(0, 255)});
    j.performance = judge_case(p, "performance", {2048, 2048}, {integer_floats(0, 255)});
    p.model = memory_bound([](const Case &c) {
      return 16.0 * static_cast<double>(c["width"]) * static_cast<double>(c["height"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
