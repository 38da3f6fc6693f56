// attn_w_linear_bias's library baseline and the judge's reference on CUDA: torch's expression
// step by step (basics/bench/torch_attention_steps.h): Q K^T by cuBLAS, times the float
// reciprocal of sqrt(d), plus alpha (i - j) rounded to float, torch's softmax, times V by cuBLAS.
#include "bench/torch_attention_steps.h"
#include "device/library.h"
#include "harness/signature.h"

#include <vector>

namespace kit::basics {
namespace {

struct BiasedLogit {
  float scale, alpha;
  __device__ float operator()(float dot, int i, int j) const {
    return __fadd_rn(__fmul_rn(dot, scale), __fmul_rn(static_cast<float>(i - j), alpha));
  }
};

void torch_steps(const float *Q, const float *K, const float *V, float *output, int M, int N, int d,
                 float alpha) {
  torch_attention::attention(Q, K, V, output, M, N, d,
                             BiasedLogit{torch_attention::divide_by_root_scale(d), alpha});
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM + softmax rows + SGEMM (torch's steps, FP32)", torch_steps)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM + softmax rows + SGEMM (torch's steps)", torch_steps);
}

} // namespace kit::basics
