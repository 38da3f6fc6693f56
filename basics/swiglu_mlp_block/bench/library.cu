// swiglu_mlp_block's library baseline and the judge's reference on CUDA, torch's expression step
// by step: gate = x W_gate and up = x W_up (cuBLAS SGEMMs in FP32, CUBLAS_DEFAULT_MATH: no TF32),
// hidden = silu(gate) * up (an element-wise kernel, torch's float silu: g / (1 + exp(-g))), then
// output = hidden W_down. Row-major X Y is column-major Y^T X^T.
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

// out (rows x cols) = x (rows x depth) y (depth x cols), row-major.
void multiply(const float *x, const float *y, float *out, int rows, int cols, int depth) {
  const float one = 1.0f, zero = 0.0f;
  check_cublas(cublasSgemm(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, cols, rows, depth, &one, y,
                           cols, x, depth, &zero, out, cols),
               "cublasSgemm");
}

// gate[i] = silu(gate[i]) * up[i].
__global__ void silu_times(float *gate, const float *up, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const float g = gate[i];
    gate[i] = g / (1.0f + expf(-g)) * up[i];
  }
}

void cublas_mlp(const float *x, const float *W_gate, const float *W_up, const float *W_down,
                float *output, int M, int d_model, int d_ffn) {
  static gpu::DeviceScratch scratch;
  const std::size_t hidden = static_cast<std::size_t>(M) * d_ffn;
  float *const gate = static_cast<float *>(scratch.reserve(2 * hidden * sizeof(float)));
  float *const up = gate + hidden;
  multiply(x, W_gate, gate, M, d_ffn, d_model);
  multiply(x, W_up, up, M, d_ffn, d_model);
  constexpr int kThreads = 256;
  silu_times<<<static_cast<unsigned>((hidden + kThreads - 1) / kThreads), kThreads>>>(gate, up,
                                                                                      hidden);
  GPU_CHECK_LAUNCH("silu_times");
  multiply(gate, W_down, output, M, d_model, d_ffn);
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMM x3 + silu kernel (FP32, no TF32)", cublas_mlp)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMM x3 + silu kernel (torch's steps)", cublas_mlp);
}

} // namespace kit::basics
