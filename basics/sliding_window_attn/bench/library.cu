// sliding_window_attn's library baseline and the judge's reference on CUDA: torch's expression
// step by step (basics/bench/cublas_attention.h): Q K^T by cuBLAS, times the float
// reciprocal of sqrt(d), -inf where |i - j| > window_size, torch's softmax, times V by cuBLAS.
// The GPU test's comparison with it checks that the kernel's scores round as cuBLAS's do, which
// the judge's U(-100, 100) case needs (basics/sliding_window_attn/README.md).
#include "bench/cublas_attention.h"
#include "device/library.h"
#include "harness/signature.h"

#include <vector>

namespace kit::basics {
namespace {

void torch_steps(const float *Q, const float *K, const float *V, float *output, int M, int d,
                 int window_size) {
  cublas_attention(kit::flash::Shape{M, M, d, 1}, kit::flash::single_head(Q, K, V, output, d),
                   kit::flash::Scores<>{kit::flash::torch_scale(d),
                                        kit::flash::Visibility::window(window_size, window_size)});
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM + masked softmax rows + SGEMM (torch's steps, FP32)", torch_steps)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM + masked softmax rows + SGEMM (torch's steps)", torch_steps);
}

} // namespace kit::basics
