#include "vendor_libraries.h"

#include "gpu/check.h"

#include <cstdio>
#include <cstdlib>

namespace kit::basics {

void check_cublas(cublasStatus_t status, const char *call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cuBLAS error: %s failed with status %d\n", call,
                 static_cast<int>(status));
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
}

void check_cufft(cufftResult status, const char *call) {
  if (status != CUFFT_SUCCESS) {
    std::fprintf(stderr, "cuFFT error: %s failed with status %d\n", call, static_cast<int>(status));
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
}

cublasHandle_t cublas_handle() {
  static cublasHandle_t handle = [] {
    cublasHandle_t created;
    check_cublas(cublasCreate(&created), "cublasCreate");
    check_cublas(cublasSetMathMode(created, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    return created;
  }();
  return handle;
}

} // namespace kit::basics
