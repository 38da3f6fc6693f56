// torch's FP32 attention composed from cuBLAS, for the attention problems' library baselines and
// GPU-test references (basics/<name>/bench/library.cu, CUDA only): per head, S = Q K^T by
// cublasSgemm (the call torch's matmul makes, TF32 off), the row softmax of S times torch's float
// scale (kit::flash::softmax_rows_kernel: the product, the mask, max, exp, sum, divide), and
// O = P V by cublasSgemm. Heads run one after another through one M x N scratch.
#pragma once

#include "bench/vendor_libraries.h"
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"
#include "primitives/flash_attention.h"

#include <cstddef>

namespace kit::basics {

// Head h of Q starts at q + h * head_stride (K, V and O likewise); rows are `row_stride` floats
// apart in every tensor. `causal`: query i sees keys 0..i.
inline void cublas_attention(const float *q, const float *k, const float *v, float *o, int M, int N,
                             int d, int heads, std::size_t row_stride, std::size_t head_stride,
                             bool causal) {
  static kit::gpu::DeviceScratch scratch;
  float *const scores =
      static_cast<float *>(scratch.reserve(static_cast<std::size_t>(M) * N * sizeof(float)));
  const kit::flash::Scores<> rule{kit::flash::torch_scale(d), causal
                                                                  ? kit::flash::Visibility::causal()
                                                                  : kit::flash::Visibility::all()};
  const float one = 1.0f, zero = 0.0f;
  const int ld = static_cast<int>(row_stride);
  const int row_blocks = M < 65535 ? M : 65535;
  auto *const rows_kernel = kit::flash::softmax_rows_kernel<256, kit::flash::Scores<>>;
  for (int h = 0; h < heads; ++h) {
    const std::size_t base = static_cast<std::size_t>(h) * head_stride;
    // Row-major S (M x N) = Q K^T is column-major S^T = K Q^T.
    check_cublas(cublasSgemm(cublas_handle(), CUBLAS_OP_T, CUBLAS_OP_N, N, M, d, &one, k + base, ld,
                             q + base, ld, &zero, scores, N),
                 "cublasSgemm (Q K^T)");
    rows_kernel<<<row_blocks, 256>>>(scores, M, N, rule);
    GPU_CHECK_LAUNCH("softmax_rows_kernel");
    // Row-major O (M x d) = P V is column-major O^T = V^T P^T.
    check_cublas(cublasSgemm(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, d, M, N, &one, v + base, ld,
                             scores, N, &zero, o + base, ld),
                 "cublasSgemm (P V)");
  }
}

} // namespace kit::basics
