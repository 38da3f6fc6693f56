// sliding_window_attn's library baseline and the judge's reference on CUDA: torch's expression
// step by step (basics/bench/torch_attention_steps.h): Q K^T by cuBLAS, times the float
// reciprocal of sqrt(d), -inf where |i - j| > window_size, torch's softmax, times V by cuBLAS.
// The GPU test's comparison with it checks that the kernel's scores round as cuBLAS's do, which
// the judge's U(-100, 100) case needs (basics/sliding_window_attn/README.md).
#include "bench/torch_attention_steps.h"
#include "device/library.h"
#include "harness/signature.h"

#include <vector>

namespace kit::basics {
namespace {

struct WindowLogit {
  float scale;
  int window;
  __device__ float operator()(float dot, int i, int j) const {
    const int distance = i > j ? i - j : j - i;
    return distance > window ? -INFINITY : __fmul_rn(dot, scale);
  }
};

void torch_steps(const float *Q, const float *K, const float *V, float *output, int M, int d,
                 int window_size) {
  torch_attention::attention(Q, K, V, output, M, M, d,
                             WindowLogit{torch_attention::divide_by_root_scale(d), window_size});
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM + masked softmax rows + SGEMM (torch's steps, FP32)", torch_steps)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM + masked softmax rows + SGEMM (torch's steps)", torch_steps);
}

} // namespace kit::basics
