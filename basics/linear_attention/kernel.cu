// linear_attention (LeetGPU basics): linear self-attention, FP32, row-major, DEVICE pointers.
// With phi(x) = ELU(x) + 1 (x + 1 for x > 0, exp(x) otherwise) on Q and K (M x d):
//   S = phi(K)^T V (d x d), z = sum over rows of phi(K) (d),
//   output row i = (phi(Q_i) S) / (phi(Q_i) . z).
//
// Four launches, no host synchronisation:
//   1. partial_states: the long reduction over the M rows split into one contiguous run of rows
//      per multiprocessor; each block stages 16 rows of phi(K) and V at a time in shared memory
//      and accumulates its run's d x d partial of S (8 x 8 outputs per thread over a 128 x 128
//      square, so d <= 128) and its partial of z, written to scratch;
//   2. combine_states: S and z, each element the sum of the blocks' partials in block order
//      (deterministic: the same bits every call);
//   3. query_features: phi(Q) to scratch and each row's denominator phi(Q_i) . z, a warp per row;
//   4. the kit's SGEMM (common/primitives/gemm.h) phi(Q) S, its epilogue dividing each element by
//      its row's denominator (one rounding, as torch's numerator / denominator).
// The d x d state, the partials (d (d + 1) floats per multiprocessor) and phi(Q) stay in the L2
// at the judge's size; DRAM sees Q, K and V read once and the output written once.
#include "collectives/warp.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"
#include "primitives/gemm.h"
#include "primitives/gemm_tuning.h"

#include <algorithm>
#include <cstddef>

namespace linear_attention {

constexpr int kMaxDim = 128;      // the state kernel's square (the harness caps d there)
constexpr int kThreads = 256;     // 16 x 16 threads, each an 8 x 8 patch of the square
constexpr int kStageRows = 16;    // rows of phi(K) and V staged per step
constexpr int kPatchSide = 8;     // a thread's patch: rows ty + 16 a, columns 4 tx + e + 64 b
constexpr int kThreadsAlong = 16; // threads along each side of the square

__device__ __forceinline__ float feature(float x) { return x > 0.0f ? x + 1.0f : expf(x); }

// Block b sums rows [b * rows_per_block, min(M, (b + 1) * rows_per_block)) into
// partials[b * (d * d + d)]: S's d x d partial (row-major), then z's d partial.
__global__ void __launch_bounds__(kThreads)
    partial_states(const float *__restrict__ K, const float *__restrict__ V,
                   float *__restrict__ partials, int M, int d, int rows_per_block) {
  __shared__ float phi_k[kStageRows][kMaxDim];
  __shared__ float4 values[kStageRows][kMaxDim / 4];
  const int tid = static_cast<int>(threadIdx.x);
  const int tx = tid % kThreadsAlong, ty = tid / kThreadsAlong;
  const int first = static_cast<int>(blockIdx.x) * rows_per_block;
  const int last = min(M, first + rows_per_block);
  float acc[kPatchSide][kPatchSide] = {};
  float normaliser = 0.0f; // thread tid < d: z's partial for state row tid
  for (int row0 = first; row0 < last; row0 += kStageRows) {
    // The stage: rows row0 .. row0 + 15 (zeros past `last` and past column d).
    for (int e = tid; e < kStageRows * kMaxDim; e += kThreads) {
      const int r = e / kMaxDim, c = e % kMaxDim;
      const int row = row0 + r;
      const bool inside = row < last && c < d;
      const std::size_t at = static_cast<std::size_t>(row) * d + c;
      phi_k[r][c] = inside ? feature(K[at]) : 0.0f;
      reinterpret_cast<float *>(values[r])[c] = inside ? V[at] : 0.0f;
    }
    __syncthreads();
#pragma unroll 4
    for (int j = 0; j < kStageRows; ++j) {
      float a[kPatchSide], b[kPatchSide];
#pragma unroll
      for (int p = 0; p < kPatchSide; ++p)
        a[p] = phi_k[j][ty + kThreadsAlong * p];
      const float4 low = values[j][tx], high = values[j][tx + kThreadsAlong];
      b[0] = low.x, b[1] = low.y, b[2] = low.z, b[3] = low.w;
      b[4] = high.x, b[5] = high.y, b[6] = high.z, b[7] = high.w;
#pragma unroll
      for (int p = 0; p < kPatchSide; ++p)
#pragma unroll
        for (int q = 0; q < kPatchSide; ++q)
          acc[p][q] = fmaf(a[p], b[q], acc[p][q]);
      if (tid < kMaxDim)
        normaliser += phi_k[j][tid];
    }
    __syncthreads();
  }
  float *const out = partials + static_cast<std::size_t>(blockIdx.x) * (d * d + d);
#pragma unroll
  for (int p = 0; p < kPatchSide; ++p) {
    const int r = ty + kThreadsAlong * p;
#pragma unroll
    for (int q = 0; q < kPatchSide; ++q) {
      const int c = 4 * tx + (q % 4) + (q / 4) * (kMaxDim / 2);
      if (r < d && c < d)
        out[r * d + c] = acc[p][q];
    }
  }
  if (tid < d)
    out[d * d + tid] = normaliser;
}

// state[e] = sum over blocks b (in order) of partials[b * count + e], count = d * d + d.
__global__ void combine_states(const float *__restrict__ partials, float *__restrict__ state,
                               int count, int blocks) {
  const int e =
      static_cast<int>(blockIdx.x) * static_cast<int>(blockDim.x) + static_cast<int>(threadIdx.x);
  if (e >= count)
    return;
  float sum = 0.0f;
#pragma unroll 8
  for (int b = 0; b < blocks; ++b)
    sum += partials[static_cast<std::size_t>(b) * count + e];
  state[e] = sum;
}

// phi(Q) to features (M x d) and denominators[i] = phi(Q_i) . z, a warp per row.
__global__ void __launch_bounds__(kThreads)
    query_features(const float *__restrict__ Q, const float *__restrict__ z,
                   float *__restrict__ features, float *__restrict__ denominators, int M, int d) {
  constexpr int kWarps = kThreads / KIT_WARP_SIZE;
  const int lane = kit::lane_id();
  const int warp = static_cast<int>(threadIdx.x) / KIT_WARP_SIZE;
  for (int row = static_cast<int>(blockIdx.x) * kWarps + warp; row < M;
       row += static_cast<int>(gridDim.x) * kWarps) {
    const std::size_t base = static_cast<std::size_t>(row) * d;
    float dot = 0.0f;
    for (int c = lane; c < d; c += KIT_WARP_SIZE) {
      const float f = feature(Q[base + c]);
      features[base + c] = f;
      dot = fmaf(f, z[c], dot);
    }
    dot = kit::warp_reduce(dot, kit::Plus());
    if (lane == 0)
      denominators[row] = dot;
  }
}

// The SGEMM's epilogue: output (row, col) = product / denominators[row].
struct DivideByRow {
  float *c;
  std::size_t ldc;
  const float *denominators;
  __device__ float *at(int, int row, int col) const {
    return c + static_cast<std::size_t>(row) * ldc + col;
  }
  __device__ float operator()(float product, const float *out) const {
    const std::size_t row = static_cast<std::size_t>(out - c) / ldc;
    return product / denominators[row];
  }
  bool vector_ok() const { return kit::gemm::aligned_16(c) && ldc % 4 == 0; }
};

} // namespace linear_attention

// Q, K, V and output are M x d, row-major, device pointers; d <= 128.
extern "C" void solve(const float *Q, const float *K, const float *V, float *output, int M, int d) {
  using namespace linear_attention;
  static const int multiprocessors = kit::gpu::device_multiprocessors();
  static kit::gpu::DeviceScratch scratch;
  const int state_count = d * d + d;
  // One run of rows per multiprocessor, whole stages, at least one stage per block.
  const int stages = (M + kStageRows - 1) / kStageRows;
  const int stages_per_block = std::max(1, (stages + multiprocessors - 1) / multiprocessors);
  const int rows_per_block = stages_per_block * kStageRows;
  const int blocks = (M + rows_per_block - 1) / rows_per_block;
  const std::size_t matrix = static_cast<std::size_t>(M) * d;
  // Scratch: the partials, S and z (S's rows then z), phi(Q), the denominators; each part a
  // multiple of 4 floats so phi(Q) stays 16-byte aligned.
  auto round4 = [](std::size_t n) { return (n + 3) / 4 * 4; };
  const std::size_t partial_floats = round4(static_cast<std::size_t>(blocks) * state_count);
  const std::size_t state_floats = round4(state_count);
  float *const partials = static_cast<float *>(scratch.reserve(
      (partial_floats + state_floats + round4(matrix) + round4(M)) * sizeof(float)));
  float *const state = partials + partial_floats;
  float *const features = state + state_floats;
  float *const denominators = features + round4(matrix);

  partial_states<<<blocks, kThreads>>>(K, V, partials, M, d, rows_per_block);
  GPU_CHECK_LAUNCH("partial_states");
  combine_states<<<(state_count + kThreads - 1) / kThreads, kThreads>>>(partials, state,
                                                                        state_count, blocks);
  GPU_CHECK_LAUNCH("combine_states");
  constexpr int kRowsPerBlock = kThreads / KIT_WARP_SIZE;
  const int row_blocks = std::min((M + kRowsPerBlock - 1) / kRowsPerBlock, 8 * multiprocessors);
  query_features<<<row_blocks, kThreads>>>(Q, state + static_cast<std::size_t>(d) * d, features,
                                           denominators, M, d);
  GPU_CHECK_LAUNCH("query_features");
  kit::gemm::Operands ops;
  ops.a = features;
  ops.lda = static_cast<std::size_t>(d);
  ops.b = state;
  ops.ldb = static_cast<std::size_t>(d);
  ops.rows = M;
  ops.cols = d;
  ops.depth = d;
  kit::gemm::launch_auto<kit::gemm::BLayout::DepthByCols>(
      ops, DivideByRow{output, static_cast<std::size_t>(d), denominators}, multiprocessors,
      nullptr);
}
