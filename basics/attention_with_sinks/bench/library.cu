// attention_with_sinks's library baseline and the judge's reference on CUDA: torch's expression
// step by step (basics/bench/torch_attention_steps.h): Q K^T by cuBLAS, times the float
// reciprocal of sqrt(d), -inf outside the causal sinks and window, torch's softmax, times V by
// cuBLAS.
#include "bench/torch_attention_steps.h"
#include "device/library.h"
#include "harness/signature.h"

#include <vector>

namespace kit::basics {
namespace {

struct SinksLogit {
  float scale;
  int sinks, window;
  __device__ float operator()(float dot, int i, int j) const {
    const bool allowed = j <= i && (j < sinks || j >= i - window + 1);
    return allowed ? __fmul_rn(dot, scale) : -INFINITY;
  }
};

void torch_steps(const float *Q, const float *K, const float *V, float *output, int M, int d,
                 int num_sinks, int window_size) {
  torch_attention::attention(
      Q, K, V, output, M, M, d,
      SinksLogit{torch_attention::divide_by_root_scale(d), num_sinks, window_size});
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM + masked softmax rows + SGEMM (torch's steps, FP32)", torch_steps)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM + masked softmax rows + SGEMM (torch's steps)", torch_steps);
}

} // namespace kit::basics
