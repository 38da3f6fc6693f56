// gpt2_block's library baseline and the judge's reference on CUDA, torch's expression step by
// step: the four products and the attention's two per head as cuBLAS SGEMMs in FP32
// (CUBLAS_DEFAULT_MATH: no TF32; the attention's as strided batches over the 12 heads, straight on
// the qkv matrix), plus plain kernels for what torch runs between them: layer norm (a block per
// row, two passes), bias add (and GELU, torch's tanh formula), the scaled softmax of each score
// row (the scores divided by 8 first, as torch's `/ math.sqrt(64)`), the residual adds. Row-major
// X Y is column-major Y^T X^T.
#include "bench/vendor_libraries.h"
#include "collectives/block.h"
#include "device/library.h"
#include "gpt2_block/weights.h"
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"
#include "harness/signature.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

using namespace ::gpt2_block;
constexpr int kThreads = 256;

// out (rows x cols) = x (rows x depth) y (depth x cols), row-major.
void multiply(const float *x, const float *y, float *out, int rows, int cols, int depth) {
  const float one = 1.0f, zero = 0.0f;
  check_cublas(cublasSgemm(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, cols, rows, depth, &one, y,
                           cols, x, depth, &zero, out, cols),
               "cublasSgemm");
}

__global__ void layer_norm(const float *in, const float *w, const float *b, float *out) {
  __shared__ BlockScratch<float, kThreads> scratch;
  const float *x = in + static_cast<std::size_t>(blockIdx.x) * kModel;
  float *y = out + static_cast<std::size_t>(blockIdx.x) * kModel;
  float sum = 0.0f;
  for (int c = threadIdx.x; c < kModel; c += kThreads)
    sum += x[c];
  const float mean = block_reduce<kThreads>(sum, Plus(), 0.0f, scratch) / kModel;
  float squares = 0.0f;
  for (int c = threadIdx.x; c < kModel; c += kThreads)
    squares += (x[c] - mean) * (x[c] - mean);
  const float rstd =
      1.0f / sqrtf(block_reduce<kThreads>(squares, Plus(), 0.0f, scratch) / kModel + 1e-5f);
  for (int c = threadIdx.x; c < kModel; c += kThreads)
    y[c] = (x[c] - mean) * rstd * w[c] + b[c];
}

// out[i] = out[i] + bias[col] (then GELU), out rows x cols.
__global__ void add_bias(float *out, const float *bias, std::size_t n, int cols, bool gelu) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float z = out[i] + bias[i % cols];
  if (gelu)
    z = 0.5f * z * (1.0f + tanhf(0.7978845608028654f * (z + 0.044715f * z * z * z)));
  out[i] = z;
}

__global__ void add_residual(float *out, const float *residual, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = residual[i] + out[i];
}

// Each row of `scores` (seq_len wide): divided by 8, then softmax; a block per row.
__global__ void softmax_rows(float *scores, int seq_len) {
  __shared__ BlockScratch<float, kThreads> scratch;
  float *row = scores + static_cast<std::size_t>(blockIdx.x) * seq_len;
  float top = -INFINITY;
  for (int j = threadIdx.x; j < seq_len; j += kThreads)
    top = fmaxf(top, row[j] / 8.0f);
  top = block_reduce<kThreads>(top, Max(), -INFINITY, scratch);
  float sum = 0.0f;
  for (int j = threadIdx.x; j < seq_len; j += kThreads) {
    const float e = expf(row[j] / 8.0f - top);
    row[j] = e;
    sum += e;
  }
  sum = block_reduce<kThreads>(sum, Plus(), 0.0f, scratch);
  for (int j = threadIdx.x; j < seq_len; j += kThreads)
    row[j] /= sum;
}

unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

void cublas_block(const float *x, float *output, const float *weights, int seq_len) {
  const std::size_t rows = static_cast<std::size_t>(seq_len);
  static gpu::DeviceScratch scratch;
  float *const normed = static_cast<float *>(
      scratch.reserve((rows * (6 * kModel + kHidden) + kHeads * rows * rows) * sizeof(float)));
  float *const qkv = normed + rows * kModel;
  float *const attended = qkv + rows * 3 * kModel;
  float *const hidden = attended + rows * kModel;
  float *const fc = hidden + rows * kModel;
  float *const scores = fc + rows * kHidden;
  const float *const W = weights;
  const float one = 1.0f, zero = 0.0f;

  layer_norm<<<seq_len, kThreads>>>(x, W + kLn1W, W + kLn1B, normed);
  multiply(normed, W + kWqkv, qkv, seq_len, 3 * kModel, kModel);
  add_bias<<<blocks_for(rows * 3 * kModel), kThreads>>>(qkv, W + kBqkv, rows * 3 * kModel,
                                                        3 * kModel, false);
  // Per head h: S = Q_h K_h^T (column-major S^T = K_h Q_h^T), then O_h = P V_h.
  const long long ld = 3 * kModel;
  check_cublas(cublasSgemmStridedBatched(cublas_handle(), CUBLAS_OP_T, CUBLAS_OP_N, seq_len,
                                         seq_len, kHeadDim, &one, qkv + kModel, ld, kHeadDim, qkv,
                                         ld, kHeadDim, &zero, scores, seq_len,
                                         static_cast<long long>(rows * rows), kHeads),
               "cublasSgemmStridedBatched");
  softmax_rows<<<static_cast<unsigned>(kHeads * rows), kThreads>>>(scores, seq_len);
  check_cublas(cublasSgemmStridedBatched(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, kHeadDim,
                                         seq_len, seq_len, &one, qkv + 2 * kModel, ld, kHeadDim,
                                         scores, seq_len, static_cast<long long>(rows * rows),
                                         &zero, attended, kModel, kHeadDim, kHeads),
               "cublasSgemmStridedBatched");
  multiply(attended, W + kWattn, hidden, seq_len, kModel, kModel);
  add_bias<<<blocks_for(rows * kModel), kThreads>>>(hidden, W + kBattn, rows * kModel, kModel,
                                                    false);
  add_residual<<<blocks_for(rows * kModel), kThreads>>>(hidden, x, rows * kModel);
  layer_norm<<<seq_len, kThreads>>>(hidden, W + kLn2W, W + kLn2B, normed);
  multiply(normed, W + kWfc, fc, seq_len, kHidden, kModel);
  add_bias<<<blocks_for(rows * kHidden), kThreads>>>(fc, W + kBfc, rows * kHidden, kHidden, true);
  multiply(fc, W + kWproj, output, seq_len, kModel, kHidden);
  add_bias<<<blocks_for(rows * kModel), kThreads>>>(output, W + kBproj, rows * kModel, kModel,
                                                    false);
  add_residual<<<blocks_for(rows * kModel), kThreads>>>(output, hidden, rows * kModel);
  GPU_CHECK_LAUNCH("gpt2_block baseline");
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMMs (FP32, no TF32) + torch's element-wise steps", cublas_block)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMMs + element-wise kernels (torch's steps)", cublas_block);
}

} // namespace kit::basics
