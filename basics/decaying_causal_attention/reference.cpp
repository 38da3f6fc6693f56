// decaying_causal_attention: the CPU reference and the harness description (arguments, tolerance,
// cases). Causal attention without a softmax, each score decayed by its distance (a retention
// head): with Q, K, V and the output seq_len x d_model, row-major,
//   output row i = sum over j <= i of ((Q_i . K_j) / sqrt(d_model)) * gamma^(i - j) * V_j.
// gamma^0 = 1 (also for gamma = 0: the diagonal always counts).
//
// The reference sums in double and rounds once. The judge's is torch's FP32 (the full
// seq_len x seq_len score matrix by cuBLAS, scaled, multiplied by the FP32 decay mask pow(gamma,
// distance), then the product with V); its tolerance (1e-3) is far above the FP32 rounding of
// sums of at most seq_len terms of order 1, so any summation order passes.
#include "harness/spec.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

void decaying_causal_attention_reference(const float *Q, const float *K, const float *V,
                                         float *output, int seq_len, int d_model, float gamma) {
  const std::size_t dim = static_cast<std::size_t>(d_model);
  const double inv_scale = 1.0 / std::sqrt(static_cast<double>(d_model));
  std::vector<double> row(dim);
  for (int i = 0; i < seq_len; ++i) {
    row.assign(dim, 0.0);
    const float *q = Q + i * dim;
    for (int j = i; j >= 0; --j) {
      const double decay = std::pow(static_cast<double>(gamma), i - j);
      if (decay == 0.0 && j < i)
        break; // every earlier key decays further: exact zeros from here on
      const float *k = K + j * dim;
      double dot = 0;
      for (std::size_t r = 0; r < dim; ++r)
        dot += static_cast<double>(q[r]) * k[r];
      const double weight = dot * inv_scale * decay;
      const float *v = V + j * dim;
      for (std::size_t c = 0; c < dim; ++c)
        row[c] += weight * v[c];
    }
    for (std::size_t c = 0; c < dim; ++c)
      output[i * dim + c] = static_cast<float>(row[c]);
  }
}

} // namespace

const Problem &decaying_causal_attention_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "decaying_causal_attention";
    p.params = {input("Q", Elem::f32, count_of("seq_len", "d_model")),
                input("K", Elem::f32, count_of("seq_len", "d_model")),
                input("V", Elem::f32, count_of("seq_len", "d_model")),
                output("output", Elem::f32, count_of("seq_len", "d_model")),
                scalar("seq_len", 1, 16384),
                scalar("d_model", 1, 128),
                float_scalar("gamma", 0, 1)};
    p.tolerance = {1e-3, 1e-3};
    set_reference(p, decaying_causal_attention_reference);
    p.fill = fill_with(p, {normal(), normal(), normal()});
    // seq_len, d_model, gamma: 1, 31..33, 63..65 around the kernel's 32-row chunk, d_model up to
    // the kernel's 128, odd d_model; gamma 0 (the diagonal alone), 1 (no decay: every earlier
    // chunk's state counts, outputs of order sqrt(seq_len)) and in between; long sequences where
    // gamma^distance underflows to 0 in FP32 (the state sums stop there).
    add_tests(p, {{1, 1, 0.9},
                  {2, 3, 0.5},
                  {31, 33, 0.9},
                  {32, 32, 1.0},
                  {33, 31, 0.99},
                  {63, 64, 0.8},
                  {64, 65, 0.0},
                  {65, 128, 0.9},
                  {100, 64, 1.0},
                  {127, 7, 0.3},
                  {1000, 64, 0.97},
                  {1025, 17, 0.5},
                  {2048, 128, 0.999},
                  {4097, 64, 0.9},
                  {3000, 1, 1.0}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times (randn inputs; the
    // "all-negative" case negates randn draws, the same distribution). The output arrives
    // zero-filled; every element is written.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/92_decaying_causal_attention";
    j.tolerance = {1e-3, 1e-3};
    j.example = judge_case(p, "example", {2, 4, 0.5},
                           {given({1, 1, 0, 0, 1, 1, 0, 0}), given({1, 0, 0, 0, 0, 1, 0, 0}),
                            given({4, 8, 12, 16, 4, 8, 12, 16})});
    add_judge_functional(p, {1, 4, 0.9}, {normal(), normal(), normal()});
    add_judge_functional(p, {2, 4, 0.5}, {normal(), normal(), normal()});
    add_judge_functional(p, {4, 8, 1.0}, {normal(), normal(), normal()});
    add_judge_functional(p, {4, 8, 0.1}, {normal(), normal(), normal()});
    add_judge_functional(p, {8, 16, 0.9}, {constant(0), constant(0), normal()});
    add_judge_functional(p, {16, 16, 0.8}, {normal(), normal(), normal()});
    add_judge_functional(p, {32, 32, 0.9}, {normal(), normal(), normal()});
    add_judge_functional(p, {64, 64, 0.8}, {normal(), normal(), normal()});
    add_judge_functional(p, {30, 32, 0.95}, {normal(), normal(), normal()});
    add_judge_functional(p, {100, 64, 0.9}, {normal(), normal(), normal()});
    j.performance = judge_case(p, "performance", {4096, 64, 0.9}, {normal(), normal(), normal()});
    // Reads Q, K and V once and writes the output; the chunk states stay in the L2.
    p.model = memory_bound([](const Case &c) { return 4.0 * 4.0 * c["seq_len"] * c["d_model"]; });
    return p;
  }();
  return problem;
}

} // namespace kit::basics
