// multi_head_cross_attention: the CPU reference and the harness description (arguments,
// tolerance, cases). Q is M x H x D, K and V are N x H x D ([sequence, head, dimension],
// row-major floats); for each head h, output[:, h, :] = softmax(Q_h K_h^T / sqrt(D)) V_h, M x H x
// D. No mask; M and N differ in general.
//
// The judge's reference is torch in FP32. Ours (harness/attention_reference.h): the dots as the
// FP32 FMA chain torch's product forms, the scaling by torch's float multiplier, then the softmax
// and the weighted sum of V in double.
#include "harness/attention_reference.h"
#include "harness/spec.h"

#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

void multi_head_cross_attention_reference(const float *Q, const float *K, const float *V,
                                          float *output, int M, int N, int H, int D) {
  const std::size_t row = static_cast<std::size_t>(H) * D;
  for (int head = 0; head < H; ++head) {
    const std::size_t column = static_cast<std::size_t>(head) * D;
    attention_reference_head(Q + column, row, K + column, row, V + column, row, output + column,
                             row, M, N, D, [](int, int) { return true; });
  }
}

CountFn count_of_three(const char *x, const char *y, const char *z) {
  return [x, y, z](const Case &c) {
    return static_cast<std::size_t>(c[x]) * static_cast<std::size_t>(c[y]) *
           static_cast<std::size_t>(c[z]);
  };
}

} // namespace

const Problem &multi_head_cross_attention_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "multi_head_cross_attention";
    p.params = {input("Q", Elem::f32, count_of_three("M", "H", "D")),
                input("K", Elem::f32, count_of_three("N", "H", "D")),
                input("V", Elem::f32, count_of_three("N", "H", "D")),
                output("output", Elem::f32, count_of_three("M", "H", "D")),
                scalar("M", 1, 100000),
                scalar("N", 1, 100000),
                scalar("H", 1, 1024),
                scalar("D", 1, 4096)};
    p.tolerance = {1e-4, 1e-4};
    set_reference(p, multi_head_cross_attention_reference);
    p.fill = fill_with(p, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    // M, N, H, D: one query or one key; 31..33, 63..65 around the 16/32/64-row tiles and the
    // 64-key step; D at each tier's edges and odd (scalar loads), 257 (unfused path); many heads.
    add_tests(p, {{1, 1, 1, 1},
                  {1, 100, 2, 64},
                  {100, 1, 2, 64},
                  {2, 3, 2, 2},
                  {31, 65, 3, 32},
                  {33, 63, 2, 33},
                  {65, 31, 2, 64},
                  {64, 129, 2, 65},
                  {63, 70, 2, 128},
                  {17, 33, 3, 129},
                  {40, 90, 2, 256},
                  {20, 30, 2, 257},
                  {128, 256, 16, 128},
                  {200, 100, 5, 7}});
    // The judge's facts that could be confirmed: the tolerance, the layout, the scale 1 / sqrt(D)
    // and the performance size (the challenge's challenge.py was not available). The example
    // below is ours, checked by hand; the performance values' distribution is an assumption.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/hard/26_multi_head_cross_attention";
    j.tolerance = {1e-4, 1e-4};
    const std::vector<double> example_q = {1, 0, 0, 2, 0, 1, 2, 0};
    const std::vector<double> example_k = {1, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0};
    const std::vector<double> example_v = {1, 2, 10, 20, 3, 4, 30, 40, 5, 6, 50, 60};
    j.example = judge_case(p, "example", {2, 3, 2, 2},
                           {given(example_q), given(example_k), given(example_v)});
    add_judge_functional(p, {2, 3, 2, 2}, {given(example_q), given(example_k), given(example_v)});
    add_judge_functional(p, {64, 128, 4, 32}, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    j.performance = judge_case(p, "performance", {1024, 2048, 16, 128},
                               {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    // Two products of M N H D FMAs each.
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) { return 4.0 * 2.0 * (c["M"] + c["N"]) * c["H"] * c["D"]; };
    p.model.ops = [](const Case &c) { return 2.0 * c["M"] * c["N"] * c["H"] * c["D"]; };
    return p;
  }();
  return problem;
}

} // namespace kit::basics
