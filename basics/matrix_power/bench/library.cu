// matrix_power's library baseline and the judge's reference on CUDA: torch.linalg.matrix_power's
// sequence of products (P = 2: A A; P = 3: (A A) A; P >= 4: binary decomposition from the lowest
// bit, result = result z), each a cuBLAS SGEMM in FP32 (CUBLAS_DEFAULT_MATH: no TF32), the call
// torch.matmul makes for two contiguous FP32 matrices. Row-major X Y is column-major Y^T X^T.
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

void multiply(const float *x, const float *y, float *out, int n) {
  const float one = 1.0f, zero = 0.0f;
  check_cublas(cublasSgemm(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, y, n, x, n,
                           &zero, out, n),
               "cublasSgemm");
}

void cublas_matrix_power(const float *input, float *output, int N, int P) {
  static gpu::DeviceScratch scratch;
  const std::size_t matrix = static_cast<std::size_t>(N) * N;
  if (P <= 1) {
    GPU_CHECK(
        cudaMemcpyAsync(output, input, matrix * sizeof(float), cudaMemcpyDeviceToDevice, nullptr));
    return;
  }
  if (P == 2) {
    multiply(input, input, output, N);
    return;
  }
  float *const slots = static_cast<float *>(scratch.reserve(3 * matrix * sizeof(float)));
  if (P == 3) {
    multiply(input, input, slots, N);
    multiply(slots, input, output, N);
    return;
  }
  const float *z = nullptr, *result = nullptr;
  auto free_slot = [&] {
    for (int s = 0;; ++s)
      if (slots + s * matrix != z && slots + s * matrix != result)
        return slots + s * matrix;
  };
  for (int n = P; n > 0;) {
    const int bit = n % 2;
    n /= 2;
    if (z == nullptr) {
      z = input;
    } else {
      float *const square = free_slot();
      multiply(z, z, square, N);
      z = square;
    }
    if (bit == 1) {
      if (n == 0) {
        if (result != nullptr)
          multiply(result, z, output, N);
        else
          GPU_CHECK(cudaMemcpyAsync(output, z, matrix * sizeof(float), cudaMemcpyDeviceToDevice,
                                    nullptr));
      } else if (result != nullptr) {
        float *const product = free_slot();
        multiply(result, z, product, N);
        result = product;
      } else {
        result = z;
      }
    }
  }
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM, torch's sequence (FP32, no TF32)", cublas_matrix_power)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM, torch.linalg.matrix_power's sequence", cublas_matrix_power);
}

} // namespace kit::basics
