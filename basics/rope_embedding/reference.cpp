// rope_embedding: the CPU reference and the harness description (arguments, tolerance, cases).
#include "harness/spec.h"

#include <cstddef>

namespace kit::basics {
namespace {

// output = Q * cos + rotate_half(Q) * sin per row, in double, each output rounded once. The
// rotated row is the second part of Q negated followed by the first part, split at D / 2 as the
// challenge's torch code splits it (for an odd D the second part is the longer one), so
// rotate_half(Q)[d] = -Q[D / 2 + d] for d < D - D / 2 and Q[d - (D - D / 2)] after. (The judge's
// reference works in float32: two products and their sum, each rounded.)
void rope_embedding_reference(const float *Q, const float *cos, const float *sin, float *output,
                              int M, int D) {
  const int first = D / 2, second = D - first;
  for (int m = 0; m < M; ++m) {
    const std::size_t row = static_cast<std::size_t>(m) * D;
    for (int d = 0; d < D; ++d) {
      const double rotated = d < second ? -static_cast<double>(Q[row + first + d])
                                        : static_cast<double>(Q[row + d - second]);
      output[row + d] = static_cast<float>(static_cast<double>(Q[row + d]) * cos[row + d] +
                                           rotated * sin[row + d]);
    }
  }
}

// Every row's cos = 1 and sin = 0 (output = Q, exactly), or cos = 0 and sin = 1 (output =
// rotate_half(Q), exactly): a wrong partner column or sign shows as an exact mismatch.
FillFn fill_identity_or_rotation(bool rotate) {
  return [rotate](Case &c, Rng &rng) {
    fill_uniform(c.array<float>(0), c.count(0), -100.0f, 100.0f, rng);
    float *cosine = c.array<float>(1);
    float *sine = c.array<float>(2);
    for (std::size_t i = 0; i < c.count(1); ++i) {
      cosine[i] = rotate ? 0.0f : 1.0f;
      sine[i] = rotate ? 1.0f : 0.0f;
    }
  };
}

} // namespace

const Problem &rope_embedding_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "rope_embedding";
    p.params = {input("Q", Elem::f32, count_of("M", "D")),
                input("cos", Elem::f32, count_of("M", "D")),
                input("sin", Elem::f32, count_of("M", "D")),
                output("output", Elem::f32, count_of("M", "D")),
                scalar("M", 1, 1048576),
                scalar("D", 1, 10000)};
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, rope_embedding_reference);
    p.fill = fill_with(p, {normal(), normal(), normal()});
    // M x D. The vector path takes D % 8 == 0 (each half row whole 16-byte vectors): D = 8, 64,
    // 128, 10000; the rest, odd D included (the torch split then gives the second half one more
    // column), take the scalar path. A block of 256 threads takes 256 pairs of vectors (1024 on
    // gfx908, four per thread): 16 pairs per row at D = 128, so M = 15..17 and 63..65 there.
    add_tests(p, {{1, 1},      {1, 2},     {2, 4},    {3, 6},    {1, 8},       {31, 8},
                  {32, 16},    {33, 24},   {63, 64},  {64, 64},  {65, 64},     {15, 128},
                  {16, 128},   {17, 128},  {63, 128}, {64, 128}, {65, 128},    {7, 31},
                  {9, 33},     {5, 63},    {5, 65},   {11, 100}, {13, 126},    {1025, 12},
                  {1023, 130}, {2, 10000}, {3, 9998}, {1, 9999}, {65536, 128}, {100003, 64},
                  {4097, 1000}});
    add_tests(p, {{33, 128}, {7, 30}, {3, 9}}, fill_identity_or_rotation(false), ",identity");
    add_tests(p, {{33, 128}, {7, 30}, {3, 9}}, fill_identity_or_rotation(true), ",rotation");
    // Large values (products near 1e4, outputs cancelling to far less): the tolerance is
    // relative to the output, so the products must be formed without float overflow or loss.
    add_tests(p, {{257, 128}, {31, 30}},
              fill_with(p, {uniform(-100, 100), uniform(-100, 100), uniform(-100, 100)}),
              ",U(-100,100)");
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times. Its random arrays come from
    // torch.randn (normal() draws the same distribution, not the same values).
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/61_rope_embedding";
    j.tolerance = {1e-4, 1e-4};
    j.example = judge_case(p, "example", {1024, 64}, {normal(), normal(), normal()});
    add_judge_functional(p, {4, 4}, {normal(), normal(), normal()});
    add_judge_functional(p, {128, 64}, {normal(), normal(), normal()});
    add_judge_functional(p, {3, 6}, {constant(0), constant(0), constant(0)});
    add_judge_functional(p, {1, 2}, {normal(), normal(), normal()});
    add_judge_functional(p, {2, 4},
                         {given({-1, 2, -3, 4, 5, -6, 7, -8}),
                          given({0.5, 0.5, 0.5, 0.5, 0.1, 0.2, 0.3, 0.4}),
                          given({0.5, -0.5, 0.5, -0.5, 0.4, -0.3, 0.2, -0.1})});
    add_judge_functional(p, {256, 128}, {uniform(-0.1, 0.1), uniform(-1, 1), uniform(-1, 1)});
    j.performance = judge_case(p, "performance", {1048576, 128}, {normal(), normal(), normal()});
    p.model = memory_bound([](const Case &c) {
      return 16.0 * static_cast<double>(c["M"]) * static_cast<double>(c["D"]);
    });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
