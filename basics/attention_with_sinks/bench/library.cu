// attention_with_sinks's library baseline and the judge's reference on CUDA: torch's expression
// step by step (basics/bench/cublas_attention.h): Q K^T by cuBLAS, times the float
// reciprocal of sqrt(d), -inf outside the causal sinks and window, torch's softmax, times V by
// cuBLAS.
#include "bench/cublas_attention.h"
#include "device/library.h"
#include "harness/signature.h"

#include <vector>

namespace kit::basics {
namespace {

// Query i sees key j <= i that is a sink (j < sinks) or inside the window (j > i - window).
struct SinksLogit {
  float scale;
  int sinks, window;
  __device__ bool visible(int i, int j) const {
    return j <= i && (j < sinks || j >= i - window + 1);
  }
  __device__ float logit(float dot, int, int) const { return __fmul_rn(dot, scale); }
};

void torch_steps(const float *Q, const float *K, const float *V, float *output, int M, int d,
                 int num_sinks, int window_size) {
  cublas_attention(kit::flash::Shape{M, M, d, 1}, kit::flash::single_head(Q, K, V, output, d),
                   SinksLogit{kit::flash::torch_scale(d), num_sinks, window_size});
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM + masked softmax rows + SGEMM (torch's steps, FP32)", torch_steps)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM + masked softmax rows + SGEMM (torch's steps)", torch_steps);
}

} // namespace kit::basics
