// color_inversion: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <cstring>

namespace kit::basics {
namespace {

void color_inversion_reference(unsigned char *image, int width, int height) {
  const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  for (std::size_t p = 0; p < pixels; ++p)
    for (int channel = 0; channel < 3; ++channel) // R, G, B; alpha (byte 3) stays
      image[4 * p + channel] = static_cast<unsigned char>(255 - image[4 * p + channel]);
}

void fill_values(Case &c, Rng &rng) { fill_uniform(c.array<unsigned char>(0), c.count(0), rng); }

void fill_black(Case &c, Rng &) { std::memset(c.array<unsigned char>(0), 0, c.count(0)); }
void fill_white(Case &c, Rng &) { std::memset(c.array<unsigned char>(0), 255, c.count(0)); }

} // namespace

const Problem &color_inversion_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "color_inversion";
    p.params = {inout("image", Elem::u8,
                      [](const Case &c) {
                        return 4 * static_cast<std::size_t>(c["width"]) *
                               static_cast<std::size_t>(c["height"]);
                      }),
                // The judge's performance image is 4096 x 5120, past its stated 4096 limit.
                scalar("width", 1, 8192), scalar("height", 1, 8192)};
    // The challenge's tolerance; integer outputs compare exactly whatever it is.
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, color_inversion_reference);
    p.fill = fill_values;
    // Pixel counts around the 4-pixel vector and the block tiles (1024 pixels on NVIDIA, 4096 on
    // gfx908).
    add_tests(p, {{1, 1},
                  {2, 1},
                  {1, 3},
                  {3, 5},
                  {31, 33},
                  {32, 32},
                  {33, 31},
                  {64, 63},
                  {65, 1},
                  {1023, 1},
                  {1024, 1},
                  {1025, 1},
                  {4095, 1},
                  {4096, 1},
                  {4097, 1},
                  {1025, 7},
                  {2048, 2049}});
    add_tests(p, {{33, 7}}, fill_black, ",black");
    add_tests(p, {{33, 7}}, fill_white, ",white");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/7_color_inversion";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {1, 2}, {given({255, 0, 128, 255, 0, 255, 0, 255})});
    add_judge_functional(
        p, {2, 2}, {given({255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 128, 128, 128, 255})});
    add_judge_functional(p, {1, 1}, {given({100, 50, 200, 255})});
    add_judge_functional(p, {4, 3}, {constant(0)});
    add_judge_functional(p, {3, 5}, {constant(255)});
    add_judge_functional(
        p, {2, 2}, {given({10, 20, 30, 50, 40, 50, 60, 100, 70, 80, 90, 150, 100, 110, 120, 200})});
    add_judge_functional(p, {64, 64}, {integers(0, 255)});
    add_judge_functional(p, {64, 32}, {integers(0, 255)});
    j.performance = judge_case(p, "performance", {4096, 5120}, {integers(0, 255)});
    p.model = memory_bound([](const Case &c) {
      return 8.0 * static_cast<double>(c["width"]) * static_cast<double>(c["height"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
