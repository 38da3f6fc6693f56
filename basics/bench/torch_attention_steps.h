// torch's FP32 attention expression step by step on cuBLAS: the library baseline and, on CUDA,
// the judge's reference for the GPU test of the problems whose judge writes attention as torch
// operations (attn_w_linear_bias, grouped_query_attention, sliding_window_attn,
// attention_with_sinks: each one's basics/<name>/bench/library.cu). S = Q K^T by cublasSgemm (FP32,
// CUBLAS_DEFAULT_MATH: no TF32), each row's logits from the problem's policy (the scaled score,
// a bias, -inf where masked), torch's softmax of a row (the maximum, then exp(x - max) summed,
// then exp(x - max) / sum), and O = P V by cublasSgemm. The scores live in device scratch,
// M x N floats, kept between calls.
#pragma once

#include "bench/vendor_libraries.h"
#include "collectives/block.h"
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"

#include <cmath>
#include <cstddef>

namespace kit::basics::torch_attention {

// A row's probabilities from its raw dots, in place. Logit: float operator()(float dot, int i,
// int j), -INFINITY for a masked pair; i counts from row_offset (a query head's rows within a
// group of heads start again at 0: Logit sees i % rows_per_head when rows_per_head > 0).
template <int kBlock, class Logit>
__global__ void __launch_bounds__(kBlock)
    softmax_rows(float *scores, int rows, int cols, int rows_per_head, Logit logit) {
  __shared__ kit::BlockScratch<float, kBlock> scratch;
  for (int r = static_cast<int>(blockIdx.x); r < rows; r += static_cast<int>(gridDim.x)) {
    float *const row = scores + static_cast<std::size_t>(r) * cols;
    const int i = rows_per_head > 0 ? r % rows_per_head : r;
    float largest = -INFINITY;
    for (int j = static_cast<int>(threadIdx.x); j < cols; j += kBlock) {
      row[j] = logit(row[j], i, j);
      largest = fmaxf(largest, row[j]);
    }
    largest = kit::block_reduce<kBlock>(largest, kit::Max(), -INFINITY, scratch);
    float sum = 0.f;
    for (int j = static_cast<int>(threadIdx.x); j < cols; j += kBlock)
      sum += expf(row[j] - largest);
    sum = kit::block_reduce<kBlock>(sum, kit::Plus(), 0.f, scratch);
    // Each thread rewrites only the entries it wrote, so no barrier is needed between the passes.
    for (int j = static_cast<int>(threadIdx.x); j < cols; j += kBlock)
      row[j] = expf(row[j] - largest) / sum;
  }
}

inline gpu::DeviceScratch &scores_scratch() {
  static gpu::DeviceScratch scratch;
  return scratch;
}

// O (M x d) = softmax(logit(Q K^T)) V with Q M x d, K and V N x d, all row-major. Row-major
// X Y^T is column-major (Y X^T): cuBLAS sees K^T's columns as K's rows.
template <class Logit>
void attention(const float *q, const float *k, const float *v, float *o, int M, int N, int d,
               Logit logit, int rows_per_head = 0) {
  float *const scores = static_cast<float *>(
      scores_scratch().reserve(static_cast<std::size_t>(M) * N * sizeof(float)));
  const float one = 1.0f, zero = 0.0f;
  check_cublas(cublasSgemm(cublas_handle(), CUBLAS_OP_T, CUBLAS_OP_N, N, M, d, &one, k, d, q, d,
                           &zero, scores, N),
               "cublasSgemm");
  constexpr int kBlock = 256;
  const int blocks = M < 65535 ? M : 65535;
  softmax_rows<kBlock><<<blocks, kBlock>>>(scores, M, N, rows_per_head, logit);
  GPU_CHECK_LAUNCH("softmax_rows");
  check_cublas(cublasSgemm(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, d, M, N, &one, v, d, scores,
                           N, &zero, o, d),
               "cublasSgemm");
}

// torch's `x / d**0.5` on the GPU: the product with the float reciprocal of the float root.
inline float divide_by_root_scale(int d) {
  return 1.0f / static_cast<float>(std::sqrt(static_cast<double>(d)));
}

} // namespace kit::basics::torch_attention
