// gpt2_block: one GPT-2 (124M) transformer block in FP32 (LeetGPU signature, device pointers;
// tolerance 1e-3 absolute and relative). x and output are seq_len x 768; `weights` packs ln1_w,
// ln1_b, W_qkv (768 x 2304), b_qkv, W_attn (768 x 768), b_attn, ln2_w, ln2_b, W_fc (768 x 3072),
// b_fc, W_proj (3072 x 768), b_proj, every matrix in_features x out_features (x W):
//   qkv = LN1(x) W_qkv + b_qkv; a = softmax(q k^T / 8) v per head (12 heads of 64, NO causal
//   mask); h = x + a W_attn + b_attn; out = h + gelu_tanh(LN2(h) W_fc + b_fc) W_proj + b_proj.
//
// A chain of seven launches on the kit's primitives, the intermediates in scratch kept from one
// call to the next (common/gpu/device_scratch.h):
//   1. LN1: a warp per row, the row in registers (common/primitives/rows.h: 768 columns are 6
//      16-byte vectors per lane of 32, 3 per lane of 64), mean and variance by two passes over the
//      shifted values (rows::shifted_moments), eps 1e-5;
//   2. qkv = LN1(x) W_qkv + b_qkv, the kit's SGEMM (common/primitives/gemm.h) with a bias
//      epilogue (the product rounded, then the bias added, as torch's `@` then `+`);
//   3. attention: the kit's FP32 flash attention (common/primitives/flash_attention.h) straight
//      on the qkv matrix: query head h is columns 64 h.. of each 2304-float row, its key and value
//      768 and 1536 columns further; the output heads side by side in a seq_len x 768 matrix;
//      scale 1/8 (torch's division by 8.0), every key visible;
//   4. h = x + (a W_attn + b_attn): the SGEMM with a bias-and-residual epilogue;
//   5. LN2 as 1;
//   6. f = gelu_tanh(LN2(h) W_fc + b_fc): the SGEMM with a bias-and-GELU epilogue (torch's tanh
//      approximation in float);
//   7. out = h + (f W_proj + b_proj): as 4.
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

namespace gpt2_block {

constexpr int kRowThreads = 256;
constexpr float kLayerNormEps = 1e-5f;

// out = LN(in) * w + b per row of 768, a warp per row.
template <bool kVector>
__global__ void __launch_bounds__(kRowThreads)
    layer_norm_rows(const float *__restrict__ in, const float *__restrict__ weight,
                    const float *__restrict__ bias, float *__restrict__ out, int rows) {
  constexpr int kGroup = KIT_WARP_SIZE;
  static_assert(kModel % (4 * kGroup) == 0, "a row is whole vectors of every lane");
  constexpr int kVec = kModel / (4 * kGroup);
  using Row = kit::rows::Slice<kGroup, kVec, kVector>;
  __shared__ kit::BlockScratch<float, kRowThreads> scratch; // unused by warp rows
  constexpr int kRowsPerBlock = kRowThreads / kGroup;
  const int t = static_cast<int>(threadIdx.x) % kGroup;
  Row w, b;
  w.load(weight, kModel, t);
  b.load(bias, kModel, t);
  for (long long row = static_cast<long long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / kGroup;
       row < rows; row += static_cast<long long>(gridDim.x) * kRowsPerBlock) {
    const float *src = in + static_cast<std::size_t>(row) * kModel;
    Row x;
    x.load(src, kModel, t);
    const kit::rows::Moments m = kit::rows::shifted_moments<kGroup, kRowThreads>(
        x, t, kModel, src[0], kLayerNormEps, scratch);
#pragma unroll
    for (int k = 0; k < kVec; ++k)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        Row::at(x.item[k], e) =
            (Row::at(x.item[k], e) - m.mean) * m.inv_std * Row::at(w.item[k], e) +
            Row::at(b.item[k], e);
    x.store(out + static_cast<std::size_t>(row) * kModel, kModel, t);
  }
}

void layer_norm(const float *in, const float *weight, const float *bias, float *out, int rows,
                int warp) {
  const bool vector = kit::rows::aligned16(in) && kit::rows::aligned16(weight) &&
                      kit::rows::aligned16(bias) && kit::rows::aligned16(out);
  if (vector)
    kit::rows::launch_rows<layer_norm_rows<true>, kRowThreads, true>("layer_norm_rows", rows, warp,
                                                                     in, weight, bias, out, rows);
  else
    kit::rows::launch_rows<layer_norm_rows<false>, kRowThreads, true>("layer_norm_rows", rows, warp,
                                                                      in, weight, bias, out, rows);
}

// The epilogues. Each writes a row-major matrix c (leading dimension ldc); the column (and row) of
// an element follow from its address.
struct BiasStore { // c = product + bias[col]
  float *c;
  std::size_t ldc;
  const float *bias;
  __device__ float *at(int, int row, int col) const {
    return c + static_cast<std::size_t>(row) * ldc + col;
  }
  __device__ float operator()(float product, const float *out) const {
    return __fadd_rn(product, bias[static_cast<std::size_t>(out - c) % ldc]);
  }
  bool vector_ok() const { return kit::gemm::aligned_16(c) && ldc % 4 == 0; }
};

// c = gelu_tanh(product + bias[col]), torch's tanh approximation in float.
struct BiasGeluStore {
  float *c;
  std::size_t ldc;
  const float *bias;
  __device__ float *at(int, int row, int col) const {
    return c + static_cast<std::size_t>(row) * ldc + col;
  }
  __device__ float operator()(float product, const float *out) const {
    const float z = __fadd_rn(product, bias[static_cast<std::size_t>(out - c) % ldc]);
    const float kSqrt2OverPi = 0.7978845608028654f;
    const float inner = kSqrt2OverPi * (z + 0.044715f * z * z * z);
    return 0.5f * z * (1.0f + tanhf(inner));
  }
  bool vector_ok() const { return kit::gemm::aligned_16(c) && ldc % 4 == 0; }
};

// C (rows x cols) = epilogue(A W) with A rows x depth and W depth x cols, both row-major; the
// tile and depth parts of gemm_tuning.h's split planner (parts summed in order, then the epilogue:
// a few roundings against the 1e-3 tolerance, where outputs are of order 1).
template <class Epilogue>
void linear(const float *a, const float *w, int rows, int depth, int cols, const Epilogue &epilogue,
            int multiprocessors) {
  kit::gemm::Operands ops;
  ops.a = a;
  ops.lda = static_cast<std::size_t>(depth);
  ops.b = w;
  ops.ldb = static_cast<std::size_t>(cols);
  ops.rows = rows;
  ops.cols = cols;
  ops.depth = depth;
  kit::gemm::launch_auto_split<kit::gemm::BLayout::DepthByCols>(ops, epilogue, multiprocessors,
                                                                nullptr);
}

} // namespace gpt2_block

extern "C" void solve(const float *x, float *output, const float *weights, int seq_len) {
  namespace g = gpt2_block;
  if (seq_len <= 0)
    return;
  static const int multiprocessors = kit::gpu::device_multiprocessors();
  static const int warp = kit::gpu::device_warp_size();
  const std::size_t rows = static_cast<std::size_t>(seq_len);
  // Scratch: the normalised rows (LN1, then LN2), qkv, the attention output, h and the MLP's
  // hidden activations; every piece a multiple of 4 floats, so each starts 16-byte aligned.
  static kit::gpu::DeviceScratch scratch;
  float *const normed =
      static_cast<float *>(scratch.reserve(rows * (6 * g::kModel + g::kHidden) * sizeof(float)));
  float *const qkv = normed + rows * g::kModel;
  float *const attended = qkv + rows * 3 * g::kModel;
  float *const hidden = attended + rows * g::kModel;
  float *const activations = hidden + rows * g::kModel;
  const float *const W = weights;

  g::layer_norm(x, W + g::kLn1W, W + g::kLn1B, normed, seq_len, warp);
  g::linear(normed, W + g::kWqkv, seq_len, g::kModel, 3 * g::kModel,
            g::BiasStore{qkv, 3 * g::kModel, W + g::kBqkv}, multiprocessors);

  kit::flash::StridedLayout layout;
  layout.q = qkv;
  layout.k = qkv + g::kModel;
  layout.v = qkv + 2 * g::kModel;
  layout.o = attended;
  layout.q_row_stride = layout.k_row_stride = layout.v_row_stride = 3 * g::kModel;
  layout.o_row_stride = g::kModel;
  layout.q_head_stride = layout.k_head_stride = layout.v_head_stride = layout.o_head_stride =
      g::kHeadDim;
  layout.heads = g::kHeads;
  layout.group = 1;
  kit::flash::Scores<> scores;
  scores.scale = kit::flash::torch_scale(g::kHeadDim);
  scores.visibility = kit::flash::Visibility::all();
  kit::flash::Shape shape;
  shape.queries = shape.keys = seq_len;
  shape.dim = g::kHeadDim;
  shape.slices = g::kHeads;
  kit::flash::attention(shape, layout, scores, nullptr);

  g::linear(attended, W + g::kWattn, seq_len, g::kModel, g::kModel,
            kit::gemm::ResidualStore{hidden, g::kModel, 0, x, W + g::kBattn}, multiprocessors);
  g::layer_norm(hidden, W + g::kLn2W, W + g::kLn2B, normed, seq_len, warp);
  g::linear(normed, W + g::kWfc, seq_len, g::kModel, g::kHidden,
            g::BiasGeluStore{activations, g::kHidden, W + g::kBfc}, multiprocessors);
  g::linear(activations, W + g::kWproj, seq_len, g::kHidden, g::kModel,
            kit::gemm::ResidualStore{output, g::kModel, 0, hidden, W + g::kBproj}, multiprocessors);
}
