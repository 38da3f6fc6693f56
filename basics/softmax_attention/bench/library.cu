// softmax_attention's library baseline and the judge's reference on CUDA: torch's FP32 expression
// composed from cuBLAS (basics/bench/cublas_attention.h): cublasSgemm for the scores, the row
// softmax of the scaled scores, cublasSgemm for the weighted sum of V.
#include "bench/cublas_attention.h"
#include "device/library.h"
#include "harness/signature.h"

#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

void cublas_softmax_attention(const float *Q, const float *K, const float *V, float *output, int M,
                              int N, int d) {
  cublas_attention(kit::flash::Shape{M, N, d, 1}, kit::flash::single_head(Q, K, V, output, d),
                   kit::flash::Scores<>{kit::flash::torch_scale(d), kit::flash::Visibility::all()});
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM + softmax + SGEMM (FP32, no TF32)", cublas_softmax_attention)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM + softmax + SGEMM (FP32, no TF32) (torch's expression)",
                cublas_softmax_attention);
}

} // namespace kit::basics
