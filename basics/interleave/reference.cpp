// interleave: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <cstdint>

namespace kit::basics {
namespace {

void interleave_reference(const float *A, const float *B, float *output, int N) {
  for (int i = 0; i < N; ++i) {
    output[2 * i] = A[i];
    output[2 * i + 1] = B[i];
  }
}

// The challenge's random cases draw torch.randn (standard normal) values, which spec.h has no
// generator for. Here: the sum of 12 uniforms on [0, 1) minus 6 (Irwin-Hall), the same mean,
// spread and magnitude, from additions only, so it is the same on every platform (no libm). The
// kernel only moves the values, so the shape of their distribution does not matter.
ArrayValues standard_normal() {
  return {"~N(0, 1)", [](Case &c, std::size_t param, Rng &rng) {
            float *x = c.array<float>(param);
            for (std::size_t i = 0; i < c.count(param); ++i) {
              double sum = 0;
              for (int draw = 0; draw < 3; ++draw) // four 16-bit uniforms per 64-bit draw
                for (std::uint64_t bits = rng.next(), k = 0; k < 4; ++k, bits >>= 16)
                  sum += (static_cast<double>(bits & 0xFFFF) + 0.5) / 65536.0;
              x[i] = static_cast<float>(sum - 6.0);
            }
          }};
}

// Bit patterns the copy must keep: signed zeros, subnormals, the largest finite floats, tiny and
// huge normals. No infinities or NaN: an infinite or NaN expected value cannot be compared.
void fill_edge_values(Case &c, Rng &rng) {
  static const float kSpecial[] = {0.0f,    -0.0f,    1e-45f, -1e-45f, 1e-38f, -1e-38f,
                                   3.4e38f, -3.4e38f, 1e10f,  -1e-10f, 1.0f,   -1.0f};
  for (std::size_t param : {0, 1}) {
    float *x = c.array<float>(param);
    for (std::size_t i = 0; i < c.count(param); ++i)
      x[i] = kSpecial[rng.next() % (sizeof kSpecial / sizeof kSpecial[0])];
  }
}

} // namespace

const Problem &interleave_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "interleave";
    p.params = {input("A", Elem::f32, count_of("N")), input("B", Elem::f32, count_of("N")),
                output("output", Elem::f32,
                       [](const Case &c) { return 2 * static_cast<std::size_t>(c["N"]); }),
                scalar("N", 1, 50000000)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, interleave_reference);
    p.fill = fill_with(p, {standard_normal(), standard_normal()});
    // A block takes 1024 elements of A and of B on NVIDIA, 4096 on gfx908 (512 or 2048 output
    // vectors).
    add_awkward_size_tests(p, {1024, 4096});
    add_tests(p, {{1000003}});
    add_tests(p, {{4099}}, fill_edge_values, ",edge-values");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/easy/63_interleave";
    j.tolerance = {1e-5, 1e-5};
    j.example = judge_case(p, "example", {3}, {given({1, 2, 3}), given({4, 5, 6})});
    add_judge_functional(p, {3}, {given({1, 2, 3}), given({4, 5, 6})});
    add_judge_functional(p, {1}, {given({1}), given({2})});
    add_judge_functional(p, {2}, {given({10, 20}), given({30, 40})});
    add_judge_functional(p, {3}, {given({-1, -2, -3}), given({-4, -5, -6})});
    add_judge_functional(p, {4}, {given({1, -2, 3, -4}), given({-1, 2, -3, 4})});
    add_judge_functional(p, {5}, {constant(0), constant(1)});
    add_judge_functional(p, {2}, {given({1e10, 1e-10}), given({1e-10, 1e10})});
    add_judge_functional(p, {1024}, {standard_normal(), standard_normal()});
    add_judge_functional(p, {10000}, {standard_normal(), standard_normal()});
    add_judge_functional(p, {100000}, {standard_normal(), standard_normal()});
    j.performance =
        judge_case(p, "performance", {25000000}, {standard_normal(), standard_normal()});
    // Reads 2N floats, writes 2N.
    p.model = memory_bound([](const Case &c) { return 16.0 * static_cast<double>(c["N"]); });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
