// batched_matrix_multiplication's library baseline and the judge's reference on CUDA: cuBLAS's
// strided batched SGEMM in FP32 (CUBLAS_DEFAULT_MATH: no TF32), the call torch.bmm makes for
// contiguous FP32 tensors. Row-major C[b] = A[b] B[b] is column-major C[b]^T = B[b]^T A[b]^T:
// cuBLAS sees B[b] (N x K, leading dimension N) times A[b] (K x M, leading dimension K).
#include "bench/vendor_libraries.h"
#include "device/library.h"
#include "gpu/check.h"
#include "gpu/vendor.h"
#include "harness/signature.h"

#include <vector>

namespace kit::basics {
namespace {

void cublas_strided_batched(const float *A, const float *B, float *C, int BATCH, int M, int N,
                            int K) {
  const float one = 1.0f, zero = 0.0f;
  check_cublas(cublasSgemmStridedBatched(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one,
                                         B, N, static_cast<long long>(K) * N, A, K,
                                         static_cast<long long>(M) * K, &zero, C, N,
                                         static_cast<long long>(M) * N, BATCH),
               "cublasSgemmStridedBatched");
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SgemmStridedBatched (FP32, no TF32)", cublas_strided_batched)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SgemmStridedBatched (torch.bmm)", cublas_strided_batched);
}

} // namespace kit::basics
