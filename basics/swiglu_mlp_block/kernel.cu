// swiglu_mlp_block (LeetGPU basics): a SwiGLU feed-forward block in FP32, row-major, DEVICE
// pointers: output = (silu(x W_gate) * (x W_up)) W_down, with x M x d_model, W_gate and W_up
// d_model x d_ffn, W_down d_ffn x d_model and output M x d_model.
//
// Two products of the kit's SIMT SGEMM (common/primitives/gemm.h):
//   1. the gate and up projections in one GEMM with paired panels: each block reads x once for
//      both weight panels, each thread holds the gate and up products of the same elements, and
//      the epilogue stores hidden = silu(gate) * up (M x d_ffn) into scratch kept from one call to
//      the next; neither projection is ever stored;
//   2. output = hidden W_down, by gemm_tuning.h's split planner (launch_auto_split): when the
//      output has too few tiles to fill the GPU the depth (d_ffn) is dealt to parts whose partial
//      products are summed in part order, not one chain per element; the judge's 1e-4 tolerance
//      leaves room for any order (outputs of order 0.02, rounding of order 1e-8: README).
// The first is one FMA chain per element over ascending k (cuBLAS's order).
// silu is torch's for a float tensor, gate / (1 + exp(-gate)) with the accurate expf, then the
// product with up rounded once. Tiles as gemm_tuning.h picks them (at the judge's 512 x 4096 x
// 14336: the 256 x 128 tile for the first, 448 blocks, and the 256 x 128 tile with 2 depth parts
// for the second, 128 blocks). No host synchronisation.
#include "gpu/device.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"
#include "primitives/gemm.h"
#include "primitives/gemm_tuning.h"

#include <cstddef>

namespace swiglu_mlp_block {

// hidden = silu(gate) * up, the paired panels' epilogue.
struct SwiGluStore {
  float *hidden;
  std::size_t ld;
  __device__ float *at(int, int row, int col) const {
    return hidden + static_cast<std::size_t>(row) * ld + col;
  }
  __device__ float operator()(float gate, float up, const float *) const {
    const float silu = gate / (1.0f + expf(-gate));
    return silu * up;
  }
  bool vector_ok() const { return kit::gemm::aligned_16(hidden) && ld % 4 == 0; }
};

} // namespace swiglu_mlp_block

// x is M x d_model, W_gate and W_up d_model x d_ffn, W_down d_ffn x d_model, output M x d_model;
// all device pointers, row-major.
extern "C" void solve(const float *x, const float *W_gate, const float *W_up, const float *W_down,
                      float *output, int M, int d_model, int d_ffn) {
  constexpr kit::gemm::BLayout kRowMajor = kit::gemm::BLayout::DepthByCols;
  static const int multiprocessors = kit::gpu::device_multiprocessors();
  static kit::gpu::DeviceScratch scratch;
  float *const hidden =
      static_cast<float *>(scratch.reserve(static_cast<std::size_t>(M) * d_ffn * sizeof(float)));

  kit::gemm::Operands projections;
  projections.a = x;
  projections.lda = static_cast<std::size_t>(d_model);
  projections.b = W_gate;
  projections.b_second = W_up;
  projections.ldb = static_cast<std::size_t>(d_ffn);
  projections.rows = M;
  projections.cols = d_ffn;
  projections.depth = d_model;
  kit::gemm::launch_auto<kRowMajor, kit::gemm::Panels::Paired>(
      projections, swiglu_mlp_block::SwiGluStore{hidden, static_cast<std::size_t>(d_ffn)},
      multiprocessors, nullptr);

  kit::gemm::Operands down;
  down.a = hidden;
  down.lda = static_cast<std::size_t>(d_ffn);
  down.b = W_down;
  down.ldb = static_cast<std::size_t>(d_model);
  down.rows = M;
  down.cols = d_model;
  down.depth = d_ffn;
  kit::gemm::launch_auto_split<kRowMajor>(
      down, kit::gemm::Store{output, static_cast<std::size_t>(d_model), 0}, multiprocessors,
      nullptr);
}
