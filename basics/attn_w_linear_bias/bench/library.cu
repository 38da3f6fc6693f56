// attn_w_linear_bias's library baseline and the judge's reference on CUDA: torch's expression
// step by step (basics/bench/cublas_attention.h): Q K^T by cuBLAS, times the float
// reciprocal of sqrt(d), plus alpha (i - j) rounded to float, torch's softmax, times V by cuBLAS.
#include "bench/cublas_attention.h"
#include "device/library.h"
#include "harness/signature.h"

#include <vector>

namespace kit::basics {
namespace {

// torch's `scores + alpha * (i - j)`: the bias rounded on its own, then added.
struct LinearBias {
  static constexpr bool kActive = true;
  float alpha;
  __device__ float operator()(int i, int j) const {
    return __fmul_rn(static_cast<float>(i - j), alpha);
  }
};

void torch_steps(const float *Q, const float *K, const float *V, float *output, int M, int N, int d,
                 float alpha) {
  cublas_attention(kit::flash::Shape{M, N, d, 1}, kit::flash::single_head(Q, K, V, output, d),
                   kit::flash::Scores<LinearBias>{kit::flash::torch_scale(d),
                                                  kit::flash::Visibility::all(),
                                                  LinearBias{alpha}});
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM + softmax rows + SGEMM (torch's steps, FP32)", torch_steps)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM + softmax rows + SGEMM (torch's steps)", torch_steps);
}

} // namespace kit::basics
