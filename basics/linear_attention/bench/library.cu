// linear_attention's library baseline and the judge's reference on CUDA: torch's steps with
// cuBLAS in FP32 (CUBLAS_DEFAULT_MATH: no TF32) for the products and plain element-wise kernels
// for the rest:
//   phi(Q), phi(K) (x + 1 for x > 0, exp(x) otherwise), S = phi(K)^T V (SGEMM),
//   z = phi(K)^T 1 (SGEMV), numerator = phi(Q) S (SGEMM), denominator = phi(Q) z (SGEMV),
//   output = numerator / denominator (per row).
#include "bench/vendor_libraries.h"
#include "device/library.h"
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"
#include "harness/signature.h"

#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

constexpr int kThreads = 256;

__global__ void features(const float *x, float *phi, std::size_t count) {
  const std::size_t e = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e < count)
    phi[e] = x[e] > 0.0f ? x[e] + 1.0f : expf(x[e]);
}

__global__ void fill_ones(float *ones, int count) {
  const int e = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (e < count)
    ones[e] = 1.0f;
}

__global__ void divide_rows(const float *numerator, const float *denominator, float *output,
                            std::size_t count, int d) {
  const std::size_t e = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e < count)
    output[e] = numerator[e] / denominator[e / d];
}

unsigned blocks_for(std::size_t count) {
  return static_cast<unsigned>((count + kThreads - 1) / kThreads);
}

void torch_steps(const float *Q, const float *K, const float *V, float *output, int M, int d) {
  static gpu::DeviceScratch scratch;
  const std::size_t matrix = static_cast<std::size_t>(M) * d;
  const std::size_t dim = static_cast<std::size_t>(d);
  float *const phi_q = static_cast<float *>(scratch.reserve(
      (3 * matrix + dim * dim + dim + static_cast<std::size_t>(M) * 2) * sizeof(float)));
  float *const phi_k = phi_q + matrix;
  float *const numerator = phi_k + matrix;
  float *const state = numerator + matrix;
  float *const z = state + dim * dim;
  float *const denominator = z + dim;
  float *const ones = denominator + M;
  features<<<blocks_for(matrix), kThreads>>>(Q, phi_q, matrix);
  features<<<blocks_for(matrix), kThreads>>>(K, phi_k, matrix);
  fill_ones<<<blocks_for(M), kThreads>>>(ones, M);
  GPU_CHECK_LAUNCH("features");
  const float one = 1.0f, zero = 0.0f;
  cublasHandle_t handle = cublas_handle();
  // Row-major S (d x d) = phi_K^T V: column-major S^T = V^T phi_K, V^T as stored (d x M), phi_K
  // read transposed.
  check_cublas(
      cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, d, d, M, &one, V, d, phi_k, d, &zero, state, d),
      "cublasSgemm");
  // z = phi_K^T 1: phi_K row-major M x d is column-major d x M.
  check_cublas(cublasSgemv(handle, CUBLAS_OP_N, d, M, &one, phi_k, d, ones, 1, &zero, z, 1),
               "cublasSgemv");
  // Row-major numerator (M x d) = phi_Q S: column-major numerator^T = S^T phi_Q^T.
  check_cublas(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, d, M, d, &one, state, d, phi_q, d,
                           &zero, numerator, d),
               "cublasSgemm");
  // denominator = phi_Q z: phi_Q is column-major d x M, read transposed.
  check_cublas(cublasSgemv(handle, CUBLAS_OP_T, d, M, &one, phi_q, d, z, 1, &zero, denominator, 1),
               "cublasSgemv");
  divide_rows<<<blocks_for(matrix), kThreads>>>(numerator, denominator, output, matrix, d);
  GPU_CHECK_LAUNCH("divide_rows");
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM x2 + SGEMV x2 + element-wise kernels (torch's steps, FP32)",
                 torch_steps)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM x2 + SGEMV x2 + element-wise kernels (torch's steps)", torch_steps);
}

} // namespace kit::basics
