// matrix_power's library baseline and the judge's reference on CUDA: torch.linalg.matrix_power's
// sequence of products (matrix_power/product_sequence.h), each a cuBLAS SGEMM in FP32
// (CUBLAS_DEFAULT_MATH: no TF32), the call torch.matmul makes for two contiguous FP32 matrices.
// Row-major X Y is column-major Y^T X^T.
#include "bench/vendor_libraries.h"
#include "device/library.h"
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"
#include "harness/signature.h"
#include "matrix_power/product_sequence.h"

#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

void multiply(const float *x, const float *y, float *out, int n) {
  const float one = 1.0f, zero = 0.0f;
  check_cublas(cublasSgemm(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, y, n, x, n,
                           &zero, out, n),
               "cublasSgemm");
}

void cublas_matrix_power(const float *input, float *output, int N, int P) {
  static gpu::DeviceScratch scratch;
  matrix_power::power_by_products(
      input, output, N, P, scratch,
      [N](const float *x, const float *y, float *out) { multiply(x, y, out, N); });
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM, torch's sequence (FP32, no TF32)", cublas_matrix_power)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM, torch.linalg.matrix_power's sequence", cublas_matrix_power);
}

} // namespace kit::basics
