// multi_head_attention's library baseline and the judge's reference on CUDA: torch's FP32
// expression composed from cuBLAS (basics/bench/cublas_attention.h): cublasSgemm for the scores,
// the row softmax of the scaled scores, cublasSgemm for the weighted sum of V.
#include "bench/cublas_attention.h"
#include "device/library.h"
#include "harness/signature.h"

#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

void cublas_multi_head_attention(const float *Q, const float *K, const float *V, float *output,
                                 int N, int d_model, int h) {
  const int d_k = d_model / h;
  cublas_attention(
      kit::flash::Shape{N, N, d_k, h}, kit::flash::interleaved_heads(Q, K, V, output, h, h, d_k),
      kit::flash::Scores<>{kit::flash::torch_scale(d_k), kit::flash::Visibility::all()});
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM + softmax + SGEMM per head (FP32, no TF32)",
                 cublas_multi_head_attention)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM + softmax + SGEMM per head (FP32, no TF32) (torch's expression)",
                cublas_multi_head_attention);
}

} // namespace kit::basics
