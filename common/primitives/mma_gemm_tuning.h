// The tile shapes of the matrix-core GEMM (primitives/mma_gemm.h) and the rule that picks one. A
// shape changes which warp forms an output element and the order of nothing that matters for the
// int32 sums (exact) and only the matrix unit's internal order for the fp32 ones; the choice
// affects speed. None of these shapes has been swept on hardware yet.
#pragma once

#include "primitives/mma_gemm.h"

namespace kit::mma {

// 128 x 128 per block, 2 x 4 warps of 64 x 32 (2 x 1 warp tiles: per k-step 3 fragment loads feed
// 2 warp-tile products), stages of 2 k-steps (32 fp16 or 64 int8 deep). Four warps of 64 x 64
// would read fewer fragments per product but need about 290 registers a thread on sm_90 with the
// element-by-element loads, and spill.
using LargeTile = BlockShape<128, 128, 2, 4, 2, 1>;
// 128 x 64, 2 x 2 warps of 64 x 32.
using MediumTile = BlockShape<128, 64, 2, 2, 2, 2>;
// 64 x 64, 2 x 2 warps of one 32 x 32 warp tile each: for outputs too few for larger blocks.
using SmallTile = BlockShape<64, 64, 2, 2, 2, 3>;

enum class TileClass { Large, Medium, Small };

template <class Shape> long long tile_blocks(long long rows, long long cols, long long batches) {
  return ((rows + Shape::kBlockRows - 1) / Shape::kBlockRows) *
         ((cols + Shape::kBlockCols - 1) / Shape::kBlockCols) * batches;
}

// The largest tile whose grid gives every multiprocessor at least one block; the small tile when
// none does. A rule of thumb (as gemm_tuning.h's), not a measurement.
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
