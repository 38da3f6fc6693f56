// lora_linear (LeetGPU basics): a linear layer with a low-rank adapter, FP32, row-major, DEVICE
// pointers: output = x W^T + lora_scale * ((x A^T) B^T), with x batch x d_in, W d_out x d_in,
// A rank x d_in, B d_out x rank and output batch x d_out.
//
// Two products of the kit's SIMT SGEMM (common/primitives/gemm.h), the weights read as they lie
// (B operand cols x depth, the x W^T of a linear layer), in the roundings of the judge's torch
// expression:
//   1. [output | hidden] = x [W; A]^T: one grid over d_out + rank columns, W and A as stacked
//      panels (columns below d_out from W, the rest from A), the first d_out columns stored to the
//      output and the last rank (hidden = x A^T, batch x rank) to scratch kept from one call to
//      the next; the adapter's small product thus shares the base product's grid instead of
//      running alone on a few blocks;
//   2. output = output + lora_scale * (hidden B^T), the scale-and-add epilogue (scaled, rounded,
//      then added, as torch's `base + lora_scale * delta`).
// Each takes the tile and depth parts of gemm_tuning.h's split planner (launch_auto_split): when
// the output has too few tiles to fill the GPU, the depth is dealt to parts whose partial products
// are summed in part order before the epilogue (at the judge's 256 x 4096 x 4096, rank 64: the
// 256 x 128 tile with 4 parts, 132 blocks, for the first; the 64 x 64 tile, one part, for the
// second, whose depth of 64 is too shallow to split). That order is not one chain per element;
// the judge's 1e-4 tolerance leaves room for any order (README). No host synchronisation.
#include "gpu/device.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"
#include "primitives/gemm.h"
#include "primitives/gemm_tuning.h"

#include <cstddef>

namespace lora_linear {

// x (rows x depth) times the transpose of w (cols x depth), both row-major.
kit::gemm::Operands times_transpose(const float *x, const float *w, int rows, int cols, int depth) {
  kit::gemm::Operands ops;
  ops.a = x;
  ops.lda = static_cast<std::size_t>(depth);
  ops.b = w;
  ops.ldb = static_cast<std::size_t>(depth);
  ops.rows = rows;
  ops.cols = cols;
  ops.depth = depth;
  return ops;
}

} // namespace lora_linear

// x is batch x d_in, W d_out x d_in, A rank x d_in, B d_out x rank, output batch x d_out; all
// device pointers, row-major.
extern "C" void solve(const float *x, const float *W, const float *A, const float *B, float *output,
                      int batch, int d_in, int d_out, int rank, float lora_scale) {
  constexpr kit::gemm::BLayout kTransposed = kit::gemm::BLayout::ColsByDepth;
  static const int multiprocessors = kit::gpu::device_multiprocessors();
  static kit::gpu::DeviceScratch scratch;
  using lora_linear::times_transpose;
  float *const hidden =
      static_cast<float *>(scratch.reserve(static_cast<std::size_t>(batch) * rank * sizeof(float)));
  kit::gemm::Operands base_and_hidden = times_transpose(x, W, batch, d_out + rank, d_in);
  base_and_hidden.b_second = A;
  base_and_hidden.stack_split = d_out;
  const kit::gemm::StackedStore split{
      output, static_cast<std::size_t>(d_out), 0, hidden, static_cast<std::size_t>(rank), 0, d_out};
  kit::gemm::launch_auto_split<kTransposed, kit::gemm::Panels::Stacked>(base_and_hidden, split,
                                                                        multiprocessors, nullptr);
  kit::gemm::launch_auto_split<kTransposed>(
      times_transpose(hidden, B, batch, d_out, rank),
      kit::gemm::ScaleAdd{output, static_cast<std::size_t>(d_out), 0, lora_scale}, multiprocessors,
      nullptr);
}
