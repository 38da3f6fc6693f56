#include "cublas_sgemm.h"

#include "gpu/check.h"
#include "gpu/vendor.h"

#include <cublas_v2.h>

#include <cstdio>
#include <cstdlib>

namespace kit::basics {

namespace {

void check(cublasStatus_t status, const char *call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cuBLAS error: %s failed with status %d\n", call,
                 static_cast<int>(status));
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
}

cublasHandle_t handle() {
  static cublasHandle_t h = [] {
    cublasHandle_t created;
    check(cublasCreate(&created), "cublasCreate");
    check(cublasSetMathMode(created, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    return created;
  }();
  return h;
}

} // namespace

// Row-major C = A B is column-major C^T = B^T A^T: cuBLAS sees B (K x N, leading dimension K)
// times A (N x M, leading dimension N) giving C^T (K x M, leading dimension K).
void cublas_sgemm(const float *A, const float *B, float *C, int M, int N, int K) {
  const float one = 1.0f, zero = 0.0f;
  check(cublasSgemm(handle(), CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &one, B, K, A, N, &zero, C, K),
        "cublasSgemm");
}

} // namespace kit::basics
