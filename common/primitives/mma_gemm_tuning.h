// The tile shapes of the matrix-core GEMM (primitives/mma_gemm.h) and the rule that picks one. A
// shape changes which warp forms an output element and the order of nothing that matters for the
// int32 sums (exact) and only the matrix unit's internal order for the fp32 ones; the choice
// affects speed. BlockShape's parameters: block rows, cols, warps along rows, along cols, k-steps
// per stage, blocks per multiprocessor (the register bound), ring stages (cp.async path).
#pragma once

#include "primitives/mma_gemm.h"

namespace kit::mma {

#if KIT_CUDA && !defined(KIT_PERSONA_GFX908)
// NVIDIA (mma_gemm_bench on an H100): four warps of 64 x 64 read 4 fragments per 8 products where
// eight warps of 64 x 32 read 3 per 2; the fastest 128 x 128 shape at both large judge sizes
// (4096^3 fp16 A B^T: 0.51 ms against 0.71; int8 8192 x 4096 x 2048 A B^T: 0.32 against 0.41);
// four ring stages.
using LargeTile = BlockShape<128, 128, 2, 2, 2, 1, 4>;
#else
// gfx908 (and the persona): 128 x 128, 2 x 4 wavefronts of 64 x 32, stages of 2 k-steps (32 fp16
// or 64 int8 deep), on the register path; not measured on an MI100.
using LargeTile = BlockShape<128, 128, 2, 4, 2, 1>;
#endif
// 128 x 64, 2 x 2 warps of 64 x 32: the fastest at 32 x 256^3 (fp16_batched_matmul).
using MediumTile = BlockShape<128, 64, 2, 2, 2, 2>;
// 64 x 64, 2 x 2 warps of one 32 x 32 warp tile each: for outputs too few for larger blocks (the
// fastest at 1024^3, 256 blocks).
using SmallTile = BlockShape<64, 64, 2, 2, 2, 3>;

enum class TileClass { Large, Medium, Small };

template <class Shape> long long tile_blocks(long long rows, long long cols, long long batches) {
  return ((rows + Shape::kBlockRows - 1) / Shape::kBlockRows) *
         ((cols + Shape::kBlockCols - 1) / Shape::kBlockCols) * batches;
}

// The largest tile whose grid gives every multiprocessor at least one block; the small tile when
// none does. A rule of thumb (as gemm_tuning.h's); on the H100 it picks the fastest of the three
// at 1024^3, 32 x 256^3, 4096^3 and 8192 x 4096 x 2048.
inline TileClass pick_tile(long long rows, long long cols, long long batches, int multiprocessors) {
  if (tile_blocks<LargeTile>(rows, cols, batches) >= multiprocessors)
    return TileClass::Large;
  if (tile_blocks<MediumTile>(rows, cols, batches) >= multiprocessors)
    return TileClass::Medium;
  return TileClass::Small;
}

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
// launch_matrices() with the tile pick_tile() chooses on a device of `multiprocessors`.
template <Kind K, BLayout kBLayout, class Epilogue>
void launch_auto(const Problem &p, const Matrix<K> &a, const Matrix<K> &b, const Epilogue &epilogue,
                 int multiprocessors, cudaStream_t stream) {
  switch (pick_tile(p.rows, p.cols, p.batches, multiprocessors)) {
  case TileClass::Large:
    launch_matrices<LargeTile, K, kBLayout>(p, a, b, epilogue, stream);
    break;
  case TileClass::Medium:
    launch_matrices<MediumTile, K, kBLayout>(p, a, b, epilogue, stream);
    break;
  case TileClass::Small:
    launch_matrices<SmallTile, K, kBLayout>(p, a, b, epilogue, stream);
    break;
  }
}
#endif

} // namespace kit::mma
