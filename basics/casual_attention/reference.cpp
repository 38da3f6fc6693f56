// casual_attention (the challenge's spelling of "causal"): the CPU reference and the harness
// description (arguments, tolerance, cases). Q, K and V are M x d; query i attends to keys 0..i:
// output = softmax(mask(Q K^T / sqrt(d))) V with the entries above the diagonal at -inf, M x d,
// row-major floats.
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

void casual_attention_reference(const float *Q, const float *K, const float *V, float *output,
                                int M, int d) {
  const std::size_t row = static_cast<std::size_t>(d);
  attention_reference_head(Q, row, K, row, V, row, output, row, M, M, d,
                           [](int i, int j) { return j <= i; });
}

} // namespace

const Problem &casual_attention_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "casual_attention";
    p.params = {input("Q", Elem::f32, count_of("M", "d")),
                input("K", Elem::f32, count_of("M", "d")),
                input("V", Elem::f32, count_of("M", "d")),
                output("output", Elem::f32, count_of("M", "d")),
                scalar("M", 1, 100000),
                scalar("d", 1, 4096)};
    p.tolerance = {1e-5, 1e-5};
    set_reference(p, casual_attention_reference);
    p.fill = fill_with(p, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    // M, d: one row; 15..17, 31..33, 63..65 and 127..129 around the 16/32/64-row tiles and the
    // 64-key step (the diagonal tile half visible, later tiles skipped); head dimensions at the
    // tiers' edges and odd ones (scalar loads); d = 257 (unfused path); a long sequence.
    add_tests(p, {{1, 1},
                  {1, 128},
                  {2, 4},
                  {15, 3},
                  {16, 64},
                  {17, 65},
                  {31, 32},
                  {32, 33},
                  {33, 31},
                  {63, 128},
                  {64, 127},
                  {65, 129},
                  {127, 64},
                  {128, 256},
                  {129, 200},
                  {70, 257},
                  {1000, 128},
                  {777, 37}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/hard/53_casual_attention";
    j.tolerance = {1e-5, 1e-5};
    const std::vector<double> example_q = {1, 0, 0, 0, 0, 1, 0, 0};
    const std::vector<double> example_k = {1, 0, 0, 0, 0, 1, 0, 0};
    const std::vector<double> example_v = {1, 2, 3, 4, 5, 6, 7, 8};
    j.example =
        judge_case(p, "example", {2, 4}, {given(example_q), given(example_k), given(example_v)});
    add_judge_functional(p, {2, 4}, {given(example_q), given(example_k), given(example_v)});
    add_judge_functional(p, {3, 5}, {constant(0), constant(0), constant(0)});
    add_judge_functional(p, {4, 3},
                         {given({-1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11, 12}),
                          given({2, -1, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12}),
                          given({1, 0.5, -0.5, -1, 2, 3, 4, -2, 1, 0, 1, -1})});
    add_judge_functional(p, {128, 32},
                         {uniform(-0.1, 0.1), uniform(-0.1, 0.1), uniform(-0.1, 0.1)});
    j.performance =
        judge_case(p, "performance", {5000, 128}, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
    // Two products over the visible half: M (M + 1) / 2 d FMAs each.
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) { return 4.0 * 4.0 * c["M"] * c["d"]; };
    p.model.ops = [](const Case &c) { return c["M"] * (c["M"] + 1.0) * c["d"]; };
    return p;
  }();
  return problem;
}

} // namespace kit::basics
