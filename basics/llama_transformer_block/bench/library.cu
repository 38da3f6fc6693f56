// llama_transformer_block's library baseline and the judge's reference on CUDA, torch's expression
// step by step: the projections (x W^T) and the attention's two products per head as cuBLAS SGEMMs
// in FP32 (CUBLAS_DEFAULT_MATH: no TF32; the attention's as strided batches over the 4 query heads
// of each K/V head, straight on the q, k, v matrices), the full score matrix with the causal mask
// as torch forms it, plus plain kernels for the RMS norms (a block per row), RoPE, the scaled,
// masked softmax of each score row, silu(gate) * up and the residual adds. Row-major X W^T is
// column-major W X^T.
#include "bench/vendor_libraries.h"
#include "collectives/block.h"
#include "device/library.h"
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"
#include "harness/signature.h"
#include "llama_transformer_block/weights.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace kit::basics {
namespace {

using namespace ::llama_transformer_block;
constexpr int kThreads = 256;

// out (rows x cols) = x (rows x depth) W^T with W cols x depth, row-major.
void multiply_t(const float *x, const float *w, float *out, int rows, int cols, int depth) {
  const float one = 1.0f, zero = 0.0f;
  check_cublas(cublasSgemm(cublas_handle(), CUBLAS_OP_T, CUBLAS_OP_N, cols, rows, depth, &one, w,
                           depth, x, depth, &zero, out, cols),
               "cublasSgemm");
}

__global__ void rms_norm(const float *in, const float *w, float *out) {
  __shared__ BlockScratch<float, kThreads> scratch;
  const float *x = in + static_cast<std::size_t>(blockIdx.x) * kModel;
  float *y = out + static_cast<std::size_t>(blockIdx.x) * kModel;
  float squares = 0.0f;
  for (int c = threadIdx.x; c < kModel; c += kThreads)
    squares += x[c] * x[c];
  const float inv_rms =
      rsqrtf(block_reduce<kThreads>(squares, Plus(), 0.0f, scratch) / kModel + 1e-5f);
  for (int c = threadIdx.x; c < kModel; c += kThreads)
    y[c] = x[c] * inv_rms * w[c];
}

// RoPE in place on `heads` heads of each row of t (row stride ld), halves convention.
__global__ void rope(float *t, std::size_t ld, int heads, const float *cos, const float *sin,
                     int seq_len) {
  const std::size_t p = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= static_cast<std::size_t>(seq_len) * heads * kHalf)
    return;
  const int i = static_cast<int>(p % kHalf);
  const int head = static_cast<int>(p / kHalf % heads);
  const std::size_t row = p / kHalf / heads;
  float *x = t + row * ld + head * kHeadDim;
  const float c = cos[row * kHalf + i], s = sin[row * kHalf + i];
  const float a = x[i], b = x[i + kHalf];
  x[i] = a * c - b * s;
  x[i + kHalf] = a * s + b * c;
}

// Each row i of `scores` (seq_len wide): divided by 8, the causal mask added (-inf past i), then
// softmax; a block per row (rows of all heads, seq_len rows per head).
__global__ void causal_softmax_rows(float *scores, int seq_len) {
  __shared__ BlockScratch<float, kThreads> scratch;
  float *row = scores + static_cast<std::size_t>(blockIdx.x) * seq_len;
  const int i = static_cast<int>(blockIdx.x % seq_len);
  float top = -INFINITY;
  for (int j = threadIdx.x; j < seq_len; j += kThreads)
    top = fmaxf(top, j <= i ? row[j] / 8.0f : -INFINITY);
  top = block_reduce<kThreads>(top, Max(), -INFINITY, scratch);
  float sum = 0.0f;
  for (int j = threadIdx.x; j < seq_len; j += kThreads) {
    const float e = j <= i ? expf(row[j] / 8.0f - top) : 0.0f;
    row[j] = e;
    sum += e;
  }
  sum = block_reduce<kThreads>(sum, Plus(), 0.0f, scratch);
  for (int j = threadIdx.x; j < seq_len; j += kThreads)
    row[j] /= sum;
}

__global__ void silu_times(float *gate, const float *up, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const float g = gate[i];
    gate[i] = g / (1.0f + expf(-g)) * up[i];
  }
}

__global__ void add_residual(float *out, const float *residual, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = residual[i] + out[i];
}

unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

void cublas_block(const float *x, float *output, const float *weights, const float *cos,
                  const float *sin, int seq_len) {
  const std::size_t rows = static_cast<std::size_t>(seq_len);
  static gpu::DeviceScratch scratch;
  float *const normed = static_cast<float *>(
      scratch.reserve((rows * (4 * kModel + 2 * kKvDim + 2 * kHidden) + kQueryHeads * rows * rows) *
                      sizeof(float)));
  float *const q = normed + rows * kModel;
  float *const k = q + rows * kModel;
  float *const v = k + rows * kKvDim;
  float *const attended = v + rows * kKvDim;
  float *const hidden = attended + rows * kModel;
  float *const gate = hidden + rows * kModel;
  float *const up = gate + rows * kHidden;
  float *const scores = up + rows * kHidden;
  const float *const W = weights;
  const float one = 1.0f, zero = 0.0f;

  rms_norm<<<seq_len, kThreads>>>(x, W + kRms1, normed);
  multiply_t(normed, W + kWq, q, seq_len, kModel, kModel);
  multiply_t(normed, W + kWk, k, seq_len, kKvDim, kModel);
  multiply_t(normed, W + kWv, v, seq_len, kKvDim, kModel);
  rope<<<blocks_for(rows * kQueryHeads * kHalf), kThreads>>>(q, kModel, kQueryHeads, cos, sin,
                                                             seq_len);
  rope<<<blocks_for(rows * kKvHeads * kHalf), kThreads>>>(k, kKvDim, kKvHeads, cos, sin, seq_len);
  // Per K/V head g, its 4 query heads h = 4g..4g+3: S_h = Q_h K_g^T (column-major S^T = K_g Q_h^T,
  // K_g shared by the batch: stride 0), then O_h = P_h V_g.
  const int group = kQueryHeads / kKvHeads;
  const long long square = static_cast<long long>(rows * rows);
  for (int g = 0; g < kKvHeads; ++g) {
    float *const s = scores + static_cast<std::size_t>(g) * group * rows * rows;
    check_cublas(cublasSgemmStridedBatched(cublas_handle(), CUBLAS_OP_T, CUBLAS_OP_N, seq_len,
                                           seq_len, kHeadDim, &one, k + g * kHeadDim, kKvDim, 0,
                                           q + g * group * kHeadDim, kModel, kHeadDim, &zero, s,
                                           seq_len, square, group),
                 "cublasSgemmStridedBatched");
  }
  causal_softmax_rows<<<static_cast<unsigned>(kQueryHeads * rows), kThreads>>>(scores, seq_len);
  for (int g = 0; g < kKvHeads; ++g) {
    const float *const p = scores + static_cast<std::size_t>(g) * group * rows * rows;
    check_cublas(cublasSgemmStridedBatched(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, kHeadDim,
                                           seq_len, seq_len, &one, v + g * kHeadDim, kKvDim, 0, p,
                                           seq_len, square, &zero, attended + g * group * kHeadDim,
                                           kModel, kHeadDim, group),
                 "cublasSgemmStridedBatched");
  }
  multiply_t(attended, W + kWo, hidden, seq_len, kModel, kModel);
  add_residual<<<blocks_for(rows * kModel), kThreads>>>(hidden, x, rows * kModel);
  rms_norm<<<seq_len, kThreads>>>(hidden, W + kRms2, normed);
  multiply_t(normed, W + kWgate, gate, seq_len, kHidden, kModel);
  multiply_t(normed, W + kWup, up, seq_len, kHidden, kModel);
  silu_times<<<blocks_for(rows * kHidden), kThreads>>>(gate, up, rows * kHidden);
  multiply_t(gate, W + kWdown, output, seq_len, kModel, kHidden);
  add_residual<<<blocks_for(rows * kModel), kThreads>>>(output, hidden, rows * kModel);
  GPU_CHECK_LAUNCH("llama_transformer_block baseline");
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("cuBLAS SGEMMs (FP32, no TF32) + torch's element-wise steps", cublas_block)};
}

Solver library_judge_reference() {
  return solver("cuBLAS SGEMMs + element-wise kernels (torch's steps)", cublas_block);
}

} // namespace kit::basics
