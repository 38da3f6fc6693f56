// The FP32 GEMM's tile shapes (primitives/gemm.h) and the rule that picks one for a call. A shape
// changes which thread forms an output element, never the element's FMA chain, so the choice
// affects speed only.
#pragma once

#include "primitives/gemm.h"

namespace kit::gemm {

// 256 x 128 outputs per block, slices 16 deep, 16 x 8 outputs per thread, one block of 256
// threads per multiprocessor (about 240 registers each): the fastest of matrix_multiplication's
// sweep at 8192 x 6144 x 4096 (basics/README.md, design notes). A taller thread patch reads 24
// floats from shared memory per 128 FMAs instead of 16 per 64, and the deeper slice halves the
// barriers.
using LargeTile = TileShape<256, 128, 16, 4, 2, 1>;
// 128 x 128, 8 x 8 per thread, 256 threads. Not measured. Asking nvcc for two blocks per
// multiprocessor caps it at 128 registers, which spills (76 bytes on sm_90); one is asked.
using MediumTile = TileShape<128, 128, 16, 2, 2, 1>;
// 64 x 64, 8 x 8 per thread, 64 threads (two 32-lane warps or one 64-lane wave). Not measured.
using SmallTile = TileShape<64, 64, 16, 2, 2, 4>;
// 32 x 32, 4 x 4 per thread, 64 threads: twice the shared-memory reads per FMA of the 8 x 8
// patches, for outputs too few to give every multiprocessor a larger tile. Not measured.
using TinyTile = TileShape<32, 32, 16, 1, 1, 8>;

// 64 x 64, slices 8 deep, 8 x 8 per thread, 64 threads: the small tile at the slice depth of
// cuBLAS's sliced-depth SIMT kernels, for products that must match their order (depth parts, see
// gemm.h). Not on pick_tile()'s list.
using SlicedTile = TileShape<64, 64, 8, 2, 2, 4>;

enum class TileClass { Large, Medium, Small, Tiny };

// Blocks of a grid of `Shape` over rows x cols outputs (cols B-tile columns: twice the output
// columns with paired panels) and `batches` batches.
template <class Shape> long long tile_blocks(long long rows, long long cols, long long batches) {
  return ((rows + Shape::kBlockRows - 1) / Shape::kBlockRows) *
         ((cols + Shape::kBlockCols - 1) / Shape::kBlockCols) * batches;
}

// The largest tile whose grid gives every multiprocessor at least one block (a smaller tile only
// adds shared-memory traffic per FMA once every multiprocessor is busy); the tiny tile when none
// does. A rule of thumb, not a measurement.
inline TileClass pick_tile(long long rows, long long cols, long long batches, int multiprocessors) {
  if (tile_blocks<LargeTile>(rows, cols, batches) >= multiprocessors)
    return TileClass::Large;
  if (tile_blocks<MediumTile>(rows, cols, batches) >= multiprocessors)
    return TileClass::Medium;
  if (tile_blocks<SmallTile>(rows, cols, batches) >= multiprocessors)
    return TileClass::Small;
  return TileClass::Tiny;
}

// launch() with the tile pick_tile() chooses for these operands on a device of
// `multiprocessors`.
template <BLayout kLayout, Panels kPanels = Panels::One, class Epilogue>
void launch_auto(const Operands &ops, const Epilogue &epilogue, int multiprocessors,
                 cudaStream_t stream) {
  constexpr bool kPaired = kPanels == Panels::Paired;
  const long long b_cols = kPaired ? 2LL * ops.cols : ops.cols;
  switch (pick_tile(ops.rows, b_cols, ops.batches, multiprocessors)) {
  case TileClass::Large:
    launch<LargeTile, kLayout, kPanels>(ops, epilogue, stream);
    break;
  case TileClass::Medium:
    launch<MediumTile, kLayout, kPanels>(ops, epilogue, stream);
    break;
  case TileClass::Small:
    launch<SmallTile, kLayout, kPanels>(ops, epilogue, stream);
    break;
  case TileClass::Tiny:
    // Paired panels need an even count of pieces per thread row: the small tile instead.
    if constexpr (kPaired)
      launch<SmallTile, kLayout, kPanels>(ops, epilogue, stream);
    else
      launch<TinyTile, kLayout, kPanels>(ops, epilogue, stream);
    break;
  }
}

// The split planner (gemm.h's launch_split: the depth dealt to parts summed afterwards). Blocks
// wanted per multiprocessor for a split grid of each tile class; the large and medium tiles hold
// one 256-thread block per multiprocessor (kMinBlocksPerSm 1). A rule of thumb to be measured:
// these are the constants to change.
constexpr int kSplitTargetBlocksPerMultiprocessorLarge = 1;
constexpr int kSplitTargetBlocksPerMultiprocessorMedium = 2;
// Each part keeps at least this many slices of the depth.
constexpr int kSplitLeastSlicesPerPart = 4;

struct SplitPlan {
  TileClass tile;
  int parts;
};

// The fewest parts that bring a grid of `Shape` to `target_blocks`, or 0 when more than the
// depth allows (each part at least kSplitLeastSlicesPerPart slices).
template <class Shape>
int split_parts(long long rows, long long cols, long long batches, long long depth,
                long long target_blocks) {
  const long long blocks = tile_blocks<Shape>(rows, cols, batches);
  const long long most = depth / (kSplitLeastSlicesPerPart * Shape::kTileDepth);
  const long long parts = (target_blocks + blocks - 1) / blocks;
  return blocks > 0 && parts <= most ? static_cast<int>(parts) : 0;
}

// pick_tile()'s large or medium tile as it is, with one part; otherwise the largest of them that
// reaches its target of blocks with the fewest parts the depth allows; otherwise pick_tile()'s
// tile with one part. `cols` counts B-tile columns as pick_tile()'s does.
inline SplitPlan pick_split(long long rows, long long cols, long long batches, long long depth,
                            int multiprocessors) {
  const TileClass whole = pick_tile(rows, cols, batches, multiprocessors);
  if (whole == TileClass::Large || whole == TileClass::Medium)
    return {whole, 1};
  const int large = split_parts<LargeTile>(
      rows, cols, batches, depth,
      static_cast<long long>(kSplitTargetBlocksPerMultiprocessorLarge) * multiprocessors);
  if (large > 0)
    return {TileClass::Large, large};
  const int medium = split_parts<MediumTile>(
      rows, cols, batches, depth,
      static_cast<long long>(kSplitTargetBlocksPerMultiprocessorMedium) * multiprocessors);
  if (medium > 0)
    return {TileClass::Medium, medium};
  return {whole, 1};
}

// launch_split() (gemm.h) with the tile and parts pick_split() chooses, the planes in
// split_scratch(). For callers whose tolerance allows the parts' order (see gemm.h); launch_auto()
// keeps one chain per element. Paired panels are not supported.
template <BLayout kLayout, Panels kPanels = Panels::One, class Epilogue>
void launch_auto_split(const Operands &ops, const Epilogue &epilogue, int multiprocessors,
                       cudaStream_t stream) {
  static_assert(kPanels != Panels::Paired, "paired panels: use launch_auto()");
  const SplitPlan plan = pick_split(ops.rows, ops.cols, ops.batches, ops.depth, multiprocessors);
  kit::gpu::DeviceScratch &scratch = split_scratch();
  switch (plan.tile) {
  case TileClass::Large:
    launch_split<LargeTile, kLayout, kPanels>(ops, epilogue, plan.parts, scratch, multiprocessors,
                                              stream);
    break;
  case TileClass::Medium:
    launch_split<MediumTile, kLayout, kPanels>(ops, epilogue, plan.parts, scratch, multiprocessors,
                                               stream);
    break;
  // pick_split() gives the small and tiny tiles one part only: a plain launch.
  case TileClass::Small:
    launch<SmallTile, kLayout, kPanels>(ops, epilogue, stream);
    break;
  case TileClass::Tiny:
    launch<TinyTile, kLayout, kPanels>(ops, epilogue, stream);
    break;
  }
}

} // namespace kit::gemm
