// fp16_batched_matmul's library baseline: cuBLAS cublasGemmStridedBatchedEx with fp16 operands and
// output, fp32 computation (CUBLAS_COMPUTE_32F): the tensor-core GEMM the kit's kernel competes
// with. It is not the judge's reference (torch multiplies float32 copies of the halves with the
// strided batched SGEMM, then rounds to fp16), so the GPU test compares with the CPU reference
// only. Row-major C[b] = A[b] B[b] is column-major C[b]^T = B[b]^T A[b]^T: cuBLAS sees B[b]
// (N x K, leading dimension N) times A[b] (K x M, leading dimension K).
#include "bench/vendor_libraries.h"
#include "device/library.h"

#include <cstdint>
#include <vector>

namespace kit::basics {
namespace {

void cublas_strided_batched_ex(const std::uint16_t *A, const std::uint16_t *B, std::uint16_t *C,
                               int BATCH, int M, int N, int K) {
  const float one = 1.0f, zero = 0.0f;
  check_cublas(cublasGemmStridedBatchedEx(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one,
                                          B, CUDA_R_16F, N, static_cast<long long>(K) * N, A,
                                          CUDA_R_16F, K, static_cast<long long>(M) * K, &zero, C,
                                          CUDA_R_16F, N, static_cast<long long>(M) * N, BATCH,
                                          CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               "cublasGemmStridedBatchedEx");
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS GemmStridedBatchedEx (fp16 in and out, fp32 compute)",
                 cublas_strided_batched_ex)};
}

Solver library_judge_reference() { return Solver{}; }

} // namespace kit::basics
