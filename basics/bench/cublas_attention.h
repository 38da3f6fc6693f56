// torch's FP32 attention composed from cuBLAS, for the attention problems' library baselines and
// GPU-test references (basics/<name>/bench/library.cu, CUDA only): per slice (a head) of a
// kit::flash layout, S = Q K^T by cublasSgemm (the call torch's matmul makes; CUBLAS_DEFAULT_MATH,
// no TF32), the row softmax of the score policy's logits (kit::flash::softmax_rows_kernel: the
// scaled score, a bias, -inf where a pair is not visible, then torch's max, exp, sum, divide), and
// O = P V by cublasSgemm. Slices run one after another through one M x N scratch, kept between
// calls.
#pragma once

#include "bench/vendor_libraries.h"
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"
#include "primitives/flash_attention.h"

#include <cstddef>

namespace kit::basics {

// Score: logit(dot, i, j) and visible(i, j) as kit::flash::Scores has them; i and j count from 0
// within a slice.
template <class Layout, class Score>
void cublas_attention(const kit::flash::Shape &shape, const Layout &layout, const Score &score) {
  static kit::gpu::DeviceScratch scratch;
  const int M = shape.queries, N = shape.keys, d = shape.dim;
  float *const scores =
      static_cast<float *>(scratch.reserve(static_cast<std::size_t>(M) * N * sizeof(float)));
  const float one = 1.0f, zero = 0.0f;
  const int row_blocks = M < 65535 ? M : 65535;
  auto *const rows_kernel = kit::flash::softmax_rows_kernel<256, Score>;
  for (int s = 0; s < shape.slices; ++s) {
    // Row-major S (M x N) = Q K^T is column-major S^T = K Q^T.
    check_cublas(cublasSgemm(cublas_handle(), CUBLAS_OP_T, CUBLAS_OP_N, N, M, d, &one,
                             layout.k_slice(s), static_cast<int>(layout.k_row_stride),
                             layout.q_slice(s), static_cast<int>(layout.q_row_stride), &zero,
                             scores, N),
                 "cublasSgemm (Q K^T)");
    rows_kernel<<<row_blocks, 256>>>(scores, M, N, score);
    GPU_CHECK_LAUNCH("softmax_rows_kernel");
    // Row-major O (M x d) = P V is column-major O^T = V^T P^T.
    check_cublas(cublasSgemm(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, d, M, N, &one,
                             layout.v_slice(s), static_cast<int>(layout.v_row_stride), scores, N,
                             &zero, layout.o_slice(s), static_cast<int>(layout.o_row_stride)),
                 "cublasSgemm (P V)");
  }
}

} // namespace kit::basics
