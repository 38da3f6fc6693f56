// softmax_attention_backward's library baseline and the judge's reference on CUDA: torch's
// steps with cuBLAS SGEMM in FP32 (CUBLAS_DEFAULT_MATH: no TF32) for the five products and
// plain row kernels for the rest, each rounding where torch's expression rounds:
//   S = Q K^T, S = S * (1 / sqrt(d)), P = softmax(S) (exp(s - max) / sum), dV = P^T dO,
//   dP = dO V^T, t = dP * P, D = rowsum(t), dS = (t - P * D) * (1 / sqrt(d)), dQ = dS K,
//   dK = dS^T Q.
#include "bench/vendor_libraries.h"
#include "collectives/block.h"
#include "device/library.h"
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"
#include "harness/signature.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

constexpr int kRowThreads = 256;

// Row-major C (m x n) = op(A) op(B), A and B row-major with leading dimensions lda and ldb; the
// column-major call computes C^T = op(B)^T op(A)^T.
void row_major_gemm(bool transpose_a, bool transpose_b, int m, int n, int k, const float *a,
                    int lda, const float *b, int ldb, float *c) {
  const float one = 1.0f, zero = 0.0f;
  check_cublas(cublasSgemm(cublas_handle(), transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N,
                           transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k, &one, b, ldb, a, lda,
                           &zero, c, n),
               "cublasSgemm");
}

// Row i: s * inv_scale, then its softmax, in place.
__global__ void scaled_softmax_rows(float *rows, int M, int N, float inv_scale) {
  __shared__ BlockScratch<float, kRowThreads> scratch;
  float *const row = rows + static_cast<std::size_t>(blockIdx.x) * N;
  const int tid = static_cast<int>(threadIdx.x);
  float max = -INFINITY;
  for (int j = tid; j < N; j += kRowThreads) {
    row[j] = row[j] * inv_scale;
    max = fmaxf(max, row[j]);
  }
  max = block_reduce<kRowThreads>(max, Max(), -INFINITY, scratch);
  float total = 0.0f;
  for (int j = tid; j < N; j += kRowThreads)
    total += expf(row[j] - max);
  total = block_reduce<kRowThreads>(total, Plus(), 0.0f, scratch);
  for (int j = tid; j < N; j += kRowThreads)
    row[j] = expf(row[j] - max) / total;
}

// Row i of grad holds dP: t = dP * P, D = rowsum(t), dS = (t - P * D) * inv_scale, in place.
__global__ void gradient_rows(float *grad, const float *probs, int M, int N, float inv_scale) {
  __shared__ BlockScratch<float, kRowThreads> scratch;
  float *const row = grad + static_cast<std::size_t>(blockIdx.x) * N;
  const float *const p = probs + static_cast<std::size_t>(blockIdx.x) * N;
  const int tid = static_cast<int>(threadIdx.x);
  float sum = 0.0f;
  for (int j = tid; j < N; j += kRowThreads) {
    row[j] = row[j] * p[j];
    sum += row[j];
  }
  sum = block_reduce<kRowThreads>(sum, Plus(), 0.0f, scratch);
  for (int j = tid; j < N; j += kRowThreads)
    row[j] = (row[j] - p[j] * sum) * inv_scale;
}

void torch_steps(const float *Q, const float *K, const float *V, const float *dO, float *dQ,
                 float *dK, float *dV, int M, int N, int d) {
  static gpu::DeviceScratch scratch;
  const std::size_t square = static_cast<std::size_t>(M) * N;
  float *const probs = static_cast<float *>(scratch.reserve(2 * square * sizeof(float)));
  float *const grad = probs + square;
  const float inv_scale = 1.0f / static_cast<float>(std::sqrt(static_cast<double>(d)));
  row_major_gemm(false, true, M, N, d, Q, d, K, d, probs);
  scaled_softmax_rows<<<M, kRowThreads>>>(probs, M, N, inv_scale);
  GPU_CHECK_LAUNCH("scaled_softmax_rows");
  row_major_gemm(true, false, N, d, M, probs, N, dO, d, dV);
  row_major_gemm(false, true, M, N, d, dO, d, V, d, grad);
  gradient_rows<<<M, kRowThreads>>>(grad, probs, M, N, inv_scale);
  GPU_CHECK_LAUNCH("gradient_rows");
  row_major_gemm(false, false, M, d, N, grad, N, K, d, dQ);
  row_major_gemm(true, false, N, d, M, grad, N, Q, d, dK);
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM x5 + row kernels (torch's steps, FP32, no TF32)", torch_steps)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM x5 + row kernels (torch's steps)", torch_steps);
}

} // namespace kit::basics
