// lora_linear's library baselines and the judge's reference on CUDA, cuBLAS SGEMMs in FP32
// (CUBLAS_DEFAULT_MATH: no TF32). Row-major Y = X W^T (W d_out x d_in) is column-major
// Y^T = W X^T with W read transposed, the call torch.mm(x, W.t()) makes.
// - Baseline: hidden = x A^T; output = x W^T; output = lora_scale * hidden B^T + output (beta = 1).
// - Judge's reference, torch's expression step by step: base = x W^T, hidden = x A^T,
//   delta = hidden B^T, output = base + lora_scale * delta (cublasSgeam).
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

// out (rows x cols) = alpha * x (rows x depth) w^T (w cols x depth) + beta * out, row-major.
void times_transpose(const float *x, const float *w, float *out, int rows, int cols, int depth,
                     float alpha, float beta) {
  check_cublas(cublasSgemm(cublas_handle(), CUBLAS_OP_T, CUBLAS_OP_N, cols, rows, depth, &alpha, w,
                           depth, x, depth, &beta, out, cols),
               "cublasSgemm");
}

void cublas_lora(const float *x, const float *W, const float *A, const float *B, float *output,
                 int batch, int d_in, int d_out, int rank, float lora_scale) {
  static gpu::DeviceScratch scratch;
  float *const hidden =
      static_cast<float *>(scratch.reserve(static_cast<std::size_t>(batch) * rank * sizeof(float)));
  times_transpose(x, A, hidden, batch, rank, d_in, 1.0f, 0.0f);
  times_transpose(x, W, output, batch, d_out, d_in, 1.0f, 0.0f);
  times_transpose(hidden, B, output, batch, d_out, rank, lora_scale, 1.0f);
}

void torch_steps(const float *x, const float *W, const float *A, const float *B, float *output,
                 int batch, int d_in, int d_out, int rank, float lora_scale) {
  static gpu::DeviceScratch scratch;
  const std::size_t outputs = static_cast<std::size_t>(batch) * d_out;
  float *const base = static_cast<float *>(
      scratch.reserve((2 * outputs + static_cast<std::size_t>(batch) * rank) * sizeof(float)));
  float *const delta = base + outputs;
  float *const hidden = delta + outputs;
  times_transpose(x, W, base, batch, d_out, d_in, 1.0f, 0.0f);
  times_transpose(x, A, hidden, batch, rank, d_in, 1.0f, 0.0f);
  times_transpose(hidden, B, delta, batch, d_out, rank, 1.0f, 0.0f);
  const float one = 1.0f;
  check_cublas(cublasSgeam(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, d_out, batch, &one, base,
                           d_out, &lora_scale, delta, d_out, output, d_out),
               "cublasSgeam");
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM x3, adapter added by beta = 1 (FP32, no TF32)", cublas_lora)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM x3 + Sgeam (torch's steps)", torch_steps);
}

} // namespace kit::basics
