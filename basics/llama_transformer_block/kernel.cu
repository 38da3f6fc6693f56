// llama_transformer_block: one Llama-style transformer block in FP32 (LeetGPU signature, device
// pointers; tolerance 1e-3 absolute and relative). x and output are seq_len x 512; `weights` packs
// rms1_w, W_Q (512 x 512), W_K (128 x 512), W_V (128 x 512), W_O (512 x 512), rms2_w, W_gate
// (1408 x 512), W_up (1408 x 512), W_down (512 x 1408), every matrix out_features x in_features
// (x W^T); cos and sin are seq_len x 32:
//   q, k, v = RMS1(x) W_{Q,K,V}^T; q and k rotated per 64-wide head (RoPE, halves: dimension i
//   pairs with i + 32); a = causal softmax(q k^T / 8) v with 8 query heads on 2 K/V heads (query
//   head h reads K/V head h / 4); h = x + a W_O^T; out = h + (silu(RMS2(h) W_gate^T) *
//   (RMS2(h) W_up^T)) W_down^T. RMS(z) = z / sqrt(mean(z^2) + 1e-5) * w.
//
// A chain of eight launches on the kit's primitives, the intermediates in scratch kept from one
// call to the next (common/gpu/device_scratch.h):
//   1. RMS1: a warp per row, the row in registers (common/primitives/rows.h: 512 columns are 4
//      16-byte vectors per lane of 32, 2 per lane of 64);
//   2. qkv = RMS1(x) [W_Q; W_K; W_V]^T as ONE product: the three matrices lie one after the other
//      in the buffer, a 768 x 512 matrix whose rows are the output columns (the kit's SGEMM,
//      common/primitives/gemm.h, with B stored cols x depth);
//   3. RoPE in place on the 10 rotated heads (8 query, 2 key) of each qkv row, a thread per pair,
//      each product rounded before the subtraction or addition as torch's expression rounds it;
//   4. attention: the kit's FP32 flash attention (common/primitives/flash_attention.h) straight on
//      the qkv matrix: query head h is columns 64 h.. of each 768-float row, K/V head g columns
//      512 + 64 g.. and 640 + 64 g..; group 4; causal visibility (key tiles past the diagonal
//      skipped); scale 1/8; the heads side by side in a seq_len x 512 matrix;
//   5. h = x + a W_O^T: the SGEMM with a residual epilogue;
//   6. RMS2 as 1;
//   7. m = silu(RMS2(h) W_gate^T) * (RMS2(h) W_up^T): ONE SGEMM with paired panels (each block
//      reads its rows once for both matrices, each thread holds the gate and up products of the
//      same elements; swiglu_mlp_block's structure), silu in float as torch's;
//   8. out = h + m W_down^T: as 5.
// No host synchronisation.
#include "collectives/block.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/device_scratch.h"
#include "gpu/launch.h"
#include "gpu/vendor.h"
#include "primitives/flash_attention.h"
#include "primitives/gemm.h"
#include "primitives/gemm_tuning.h"
#include "primitives/rows.h"
#include "weights.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace llama_transformer_block {

constexpr int kRotatedHeads = kQueryHeads + kKvHeads;

constexpr int kRowThreads = 256;
constexpr float kRmsEps = 1e-5f;

// out = in / sqrt(mean(in^2) + eps) * w per row of 512, a warp per row; torch's order: the row
// times the reciprocal root, then times the weight.
template <bool kVector>
__global__ void __launch_bounds__(kRowThreads)
    rms_norm_rows(const float *__restrict__ in, const float *__restrict__ weight,
                  float *__restrict__ out, int rows) {
  constexpr int kGroup = KIT_WARP_SIZE;
  static_assert(kModel % (4 * kGroup) == 0, "a row is whole vectors of every lane");
  constexpr int kVec = kModel / (4 * kGroup);
  using Row = kit::rows::Slice<kGroup, kVec, kVector>;
  __shared__ kit::BlockScratch<float, kRowThreads> scratch; // unused by warp rows
  constexpr int kRowsPerBlock = kRowThreads / kGroup;
  const int t = static_cast<int>(threadIdx.x) % kGroup;
  Row w;
  w.load(weight, kModel, t);
  for (long long row = static_cast<long long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / kGroup;
       row < rows; row += static_cast<long long>(gridDim.x) * kRowsPerBlock) {
    Row x;
    x.load(in + static_cast<std::size_t>(row) * kModel, kModel, t);
    float squares = 0.0f;
    x.for_each(t, [&](float v, int) { squares = fmaf(v, v, squares); });
    const float mean_square =
        kit::rows::group_reduce<kGroup, kRowThreads>(squares, kit::Plus(), 0.0f, scratch) /
        static_cast<float>(kModel);
    const float inv_rms = 1.0f / sqrtf(mean_square + kRmsEps);
#pragma unroll
    for (int k = 0; k < kVec; ++k)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        Row::at(x.item[k], e) = Row::at(x.item[k], e) * inv_rms * Row::at(w.item[k], e);
    x.store(out + static_cast<std::size_t>(row) * kModel, kModel, t);
  }
}

void rms_norm(const float *in, const float *weight, float *out, int rows, int warp) {
  const bool vector =
      kit::rows::aligned16(in) && kit::rows::aligned16(weight) && kit::rows::aligned16(out);
  if (vector)
    kit::rows::launch_rows<rms_norm_rows<true>, kRowThreads, true>("rms_norm_rows", rows, warp, in,
                                                                   weight, out, rows);
  else
    kit::rows::launch_rows<rms_norm_rows<false>, kRowThreads, true>("rms_norm_rows", rows, warp, in,
                                                                    weight, out, rows);
}

// RoPE in place on the first kRotatedHeads heads of every qkv row: one thread per (row, head,
// pair i < 32), (a, b) = (x[i], x[i + 32]) -> (a c - b s, a s + b c) with c, s of the row's
// position; each product rounded, then the difference or sum (no fused multiply-add).
__global__ void __launch_bounds__(256)
    rotate_heads(float *__restrict__ qkv, const float *__restrict__ cos,
                 const float *__restrict__ sin, int rows) {
  const long long pairs = static_cast<long long>(rows) * kRotatedHeads * kHalf;
  for (long long p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; p < pairs;
       p += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int i = static_cast<int>(p % kHalf);
    const long long head_row = p / kHalf;
    const int head = static_cast<int>(head_row % kRotatedHeads);
    const long long row = head_row / kRotatedHeads;
    float *const x = qkv + static_cast<std::size_t>(row) * kQkv + head * kHeadDim;
    const float c = cos[static_cast<std::size_t>(row) * kHalf + i];
    const float s = sin[static_cast<std::size_t>(row) * kHalf + i];
    const float a = x[i], b = x[i + kHalf];
    x[i] = __fsub_rn(__fmul_rn(a, c), __fmul_rn(b, s));
    x[i + kHalf] = __fadd_rn(__fmul_rn(a, s), __fmul_rn(b, c));
  }
}

// The paired panels' epilogue (the projections' others are kit::gemm::Store and ResidualStore),
// writing a row-major matrix c (leading dimension ldc): silu(gate) * up, silu as torch's gate / (1
// + exp(-gate)).
struct SwiGluStore {
  float *c;
  std::size_t ldc;
  __device__ float *at(int, int row, int col) const {
    return c + static_cast<std::size_t>(row) * ldc + col;
  }
  __device__ float operator()(float gate, float up, const float *) const {
    const float silu = gate / (1.0f + expf(-gate));
    return silu * up;
  }
  bool vector_ok() const { return kit::gemm::aligned_16(c) && ldc % 4 == 0; }
};

// C (rows x cols) = epilogue(A W^T) with A rows x depth and W cols x depth, both row-major; with
// paired panels W and W_second are read side by side. Single panels take the tile and depth parts
// of gemm_tuning.h's split planner (parts summed in order, then the epilogue: a few roundings
// against the 1e-3 tolerance); paired ones, whose epilogue needs both sums, launch_auto's tile.
template <kit::gemm::Panels kPanels = kit::gemm::Panels::One, class Epilogue>
void linear_t(const float *a, const float *w, const float *w_second, int rows, int depth, int cols,
              const Epilogue &epilogue, int multiprocessors) {
  kit::gemm::Operands ops;
  ops.a = a;
  ops.lda = static_cast<std::size_t>(depth);
  ops.b = w;
  ops.b_second = w_second;
  ops.ldb = static_cast<std::size_t>(depth);
  ops.rows = rows;
  ops.cols = cols;
  ops.depth = depth;
  if constexpr (kPanels == kit::gemm::Panels::Paired)
    kit::gemm::launch_auto<kit::gemm::BLayout::ColsByDepth, kPanels>(ops, epilogue, multiprocessors,
                                                                     nullptr);
  else
    kit::gemm::launch_auto_split<kit::gemm::BLayout::ColsByDepth>(ops, epilogue, multiprocessors,
                                                                  nullptr);
}

} // namespace llama_transformer_block

extern "C" void solve(const float *x, float *output, const float *weights, const float *cos,
                      const float *sin, int seq_len) {
  namespace l = llama_transformer_block;
  if (seq_len <= 0)
    return;
  static const int multiprocessors = kit::gpu::device_multiprocessors();
  static const int warp = kit::gpu::device_warp_size();
  const std::size_t rows = static_cast<std::size_t>(seq_len);
  // Scratch: the normalised rows (RMS1, then RMS2), qkv, the attention output, h and the MLP's
  // hidden activations; every piece a multiple of 4 floats, so each starts 16-byte aligned.
  static kit::gpu::DeviceScratch scratch;
  float *const normed = static_cast<float *>(
      scratch.reserve(rows * (3 * l::kModel + l::kQkv + l::kHidden) * sizeof(float)));
  float *const qkv = normed + rows * l::kModel;
  float *const attended = qkv + rows * l::kQkv;
  float *const hidden = attended + rows * l::kModel;
  float *const activations = hidden + rows * l::kModel;
  const float *const W = weights;

  l::rms_norm(x, W + l::kRms1, normed, seq_len, warp);
  l::linear_t(normed, W + l::kWq, nullptr, seq_len, l::kModel, l::kQkv,
              kit::gemm::Store{qkv, l::kQkv, 0}, multiprocessors);
  {
    const long long pairs = static_cast<long long>(seq_len) * l::kRotatedHeads * l::kHalf;
    const int blocks = static_cast<int>((pairs + 255) / 256);
    l::rotate_heads<<<blocks, 256>>>(qkv, cos, sin, seq_len);
    GPU_CHECK_LAUNCH("rotate_heads");
  }

  kit::flash::StridedLayout layout;
  layout.q = qkv;
  layout.k = qkv + l::kModel;
  layout.v = qkv + l::kModel + l::kKvDim;
  layout.o = attended;
  layout.q_row_stride = layout.k_row_stride = layout.v_row_stride = l::kQkv;
  layout.o_row_stride = l::kModel;
  layout.q_head_stride = layout.k_head_stride = layout.v_head_stride = layout.o_head_stride =
      l::kHeadDim;
  layout.heads = l::kQueryHeads;
  layout.group = l::kQueryHeads / l::kKvHeads;
  kit::flash::Scores<> scores;
  scores.scale = kit::flash::torch_scale(l::kHeadDim);
  scores.visibility = kit::flash::Visibility::causal();
  kit::flash::Shape shape;
  shape.queries = shape.keys = seq_len;
  shape.dim = l::kHeadDim;
  shape.slices = l::kQueryHeads;
  kit::flash::attention(shape, layout, scores, nullptr);

  l::linear_t(attended, W + l::kWo, nullptr, seq_len, l::kModel, l::kModel,
              kit::gemm::ResidualStore{hidden, l::kModel, 0, x, nullptr}, multiprocessors);
  l::rms_norm(hidden, W + l::kRms2, normed, seq_len, warp);
  l::linear_t<kit::gemm::Panels::Paired>(normed, W + l::kWgate, W + l::kWup, seq_len, l::kModel,
                                         l::kHidden, l::SwiGluStore{activations, l::kHidden},
                                         multiprocessors);
  l::linear_t(activations, W + l::kWdown, nullptr, seq_len, l::kHidden, l::kModel,
              kit::gemm::ResidualStore{output, l::kModel, 0, hidden, nullptr}, multiprocessors);
}
