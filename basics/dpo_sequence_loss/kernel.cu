// dpo_sequence_loss: output[0] = (1/B) * sum over the B pairs of -log sigmoid(z), with
// z = beta * ((chosen - rejected) - (chosen_ref - rejected_ref)) (LeetGPU signature, device
// pointers). The output arrives uninitialised; solve writes it, it never accumulates.
//
// Memory-bound: 16 bytes read per pair. Each pair's term is formed in float as the judge's
// reference forms it (torch float32: the two margins, their difference, the product with beta,
// then -log sigmoid(z) = max(-z, 0) + log1p(exp(-|z|)), the form that neither overflows nor loses
// the small values at large |z|); the terms are added in double and the mean is rounded to float
// once. The sum is the four-array case of primitives/term_sum.h (one grid-stride launch, eight
// 16-byte loads in flight per thread, the block sums combined in a fixed order by the last block
// to finish).
#include "primitives/term_sum.h"

#include <cmath>
#include <cstddef>

namespace {

struct NegativeLogSigmoid : kit::term_sum::NoBlockSetup {
  static constexpr int kArrays = 4; // chosen, rejected, chosen_ref, rejected_ref
  float beta;

  __device__ double term(std::size_t, const float (&x)[4]) const {
    const float chosen_margin = x[0] - x[1];
    const float reference_margin = x[2] - x[3];
    const float z = beta * (chosen_margin - reference_margin);
    return static_cast<double>(fmaxf(-z, 0.0f) + log1pf(expf(-fabsf(z))));
  }
  __device__ float finish(double sum, std::size_t n) const {
    return static_cast<float>(sum / static_cast<double>(n));
  }
};

} // namespace

extern "C" void solve(const float *chosen_logps, const float *rejected_logps,
                      const float *chosen_ref_logps, const float *rejected_ref_logps, float *output,
                      float beta, int B) {
  if (B <= 0) // no mean of nothing; the challenge has B >= 1
    return;
  NegativeLogSigmoid op;
  op.beta = beta;
  kit::term_sum::term_sum<NegativeLogSigmoid>(
      {{chosen_logps, rejected_logps, chosen_ref_logps, rejected_ref_logps}},
      static_cast<std::size_t>(B), op, output);
}
