// The FP32 GEMM's tile shapes (primitives/gemm.h) and the rule that picks one for a call. A shape
// changes which thread forms an output element, never the element's FMA chain, so the choice
// affects speed only.
#pragma once

#include "primitives/gemm.h"

#include <type_traits>

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

// Calls f(Shape{}) with the tile shape of `tile`: the one place a class becomes a type.
template <class F> void with_tile(TileClass tile, F &&f) {
  switch (tile) {
  case TileClass::Large:
    f(LargeTile{});
    break;
  case TileClass::Medium:
    f(MediumTile{});
    break;
  case TileClass::Small:
    f(SmallTile{});
    break;
  case TileClass::Tiny:
    f(TinyTile{});
    break;
  }
}

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
  with_tile(pick_tile(ops.rows, b_cols, ops.batches, multiprocessors), [&](auto shape) {
    // Paired panels need an even count of pieces per thread row: the small tile for the tiny one.
    using Shape = decltype(shape);
    if constexpr (kPaired && std::is_same_v<Shape, TinyTile>)
      launch<SmallTile, kLayout, kPanels>(ops, epilogue, stream);
    else
      launch<Shape, kLayout, kPanels>(ops, epilogue, stream);
  });
}

// The split planner (gemm.h's launch_split: the depth dealt to parts summed afterwards) is a cost
// model measured with gemm_tiles_bench on the H200 (132 multiprocessors) over lora_linear's,
// swiglu_mlp_block's, gpt2_block's and batched_matrix_multiplication's shapes, where it ranks the
// variants as measured (within about 10% of each measured time):
//   time = waves x (tile outputs x depth per part) / the tile's FMA rate per multiprocessor
//          + with parts > 1: the planes' bytes (written, read back, the output written) at the
//            DRAM rate, and one more launch,
// with waves = ceil(blocks / multiprocessors): the busiest multiprocessor's share of the grid,
// whatever the blocks resident at once. The rates say that a larger tile does more per
// multiprocessor, and the waves that a grid a little past one wave costs a second one (lora's
// x W^T: 4 parts of the large tile, 128 blocks, 0.214 ms; 5 parts, 160 blocks, 0.331 ms).
inline constexpr double kLargeTileRate = 154e3; // FMAs per microsecond per multiprocessor
inline constexpr double kMediumTileRate = 140e3;
inline constexpr double kSmallTileRate = 96e3;
inline constexpr double kTinyTileRate = 90e3;
inline constexpr double kSplitBytesPerMicrosecond = 4.0e6; // DRAM, the parts' planes
inline constexpr double kSplitLaunchMicroseconds = 2.0;    // the summing pass's launch
// Each part keeps at least this many slices of the depth, and there are at most kMostParts.
inline constexpr int kSplitLeastSlicesPerPart = 4;
inline constexpr int kMostParts = 16;

struct SplitPlan {
  TileClass tile;
  int parts;
};

template <class Shape>
double split_cost(long long rows, long long cols, long long batches, long long depth, int parts,
                  int multiprocessors, double rate) {
  const long long blocks = tile_blocks<Shape>(rows, cols, batches) * parts;
  const long long waves = (blocks + multiprocessors - 1) / multiprocessors;
  const long long slices = (depth + Shape::kTileDepth - 1) / Shape::kTileDepth;
  const long long part_depth = (slices + parts - 1) / parts * Shape::kTileDepth;
  double time = static_cast<double>(waves) * Shape::kBlockRows * Shape::kBlockCols *
                static_cast<double>(part_depth) / rate;
  if (parts > 1)
    time += (2.0 * parts + 1.0) * 4.0 * static_cast<double>(rows) * cols * batches /
                kSplitBytesPerMicrosecond +
            kSplitLaunchMicroseconds;
  return time;
}

// Tile `Shape` (class `tile`, rate `rate`) with every count of parts the depth allows, into `best`
// when its modelled time is less (or equal with fewer parts).
template <class Shape>
void consider_split(TileClass tile, double rate, long long rows, long long cols, long long batches,
                    long long depth, int multiprocessors, SplitPlan &best, double &best_time) {
  const long long deepest =
      depth / (static_cast<long long>(kSplitLeastSlicesPerPart) * Shape::kTileDepth);
  const int most = static_cast<int>(deepest < 1 ? 1 : deepest < kMostParts ? deepest : kMostParts);
  for (int parts = 1; parts <= most; ++parts) {
    const double time = split_cost<Shape>(rows, cols, batches, depth, parts, multiprocessors, rate);
    if (best_time < 0.0 || time < best_time * (1.0 - 1e-9) ||
        (time <= best_time * (1.0 + 1e-9) && parts < best.parts)) {
      best = {tile, parts};
      best_time = time;
    }
  }
}

// The tile and parts of least modelled time; among equal times the fewer parts, then the larger
// tile. `cols` counts B-tile columns as pick_tile()'s does; `multiprocessors` is read at run time.
inline SplitPlan pick_split(long long rows, long long cols, long long batches, long long depth,
                            int multiprocessors) {
  const int sms = multiprocessors > 0 ? multiprocessors : 1;
  SplitPlan best{TileClass::Large, 1};
  double best_time = -1.0;
  consider_split<LargeTile>(TileClass::Large, kLargeTileRate, rows, cols, batches, depth, sms, best,
                            best_time);
  consider_split<MediumTile>(TileClass::Medium, kMediumTileRate, rows, cols, batches, depth, sms,
                             best, best_time);
  consider_split<SmallTile>(TileClass::Small, kSmallTileRate, rows, cols, batches, depth, sms, best,
                            best_time);
  consider_split<TinyTile>(TileClass::Tiny, kTinyTileRate, rows, cols, batches, depth, sms, best,
                           best_time);
  return best;
}

// launch_split() (gemm.h) with the tile and parts pick_split() chooses, the planes in
// split_scratch(). For callers whose tolerance allows the parts' order (see gemm.h); launch_auto()
// keeps one chain per element. Paired panels are not supported.
template <BLayout kLayout, Panels kPanels = Panels::One, class Epilogue>
void launch_auto_split(const Operands &ops, const Epilogue &epilogue, int multiprocessors,
                       cudaStream_t stream) {
  static_assert(kPanels != Panels::Paired, "paired panels: use launch_auto()");
  const SplitPlan plan = pick_split(ops.rows, ops.cols, ops.batches, ops.depth, multiprocessors);
  with_tile(plan.tile, [&](auto shape) {
    launch_split<decltype(shape), kLayout, kPanels>(ops, epilogue, plan.parts, split_scratch(),
                                                    multiprocessors, stream);
  });
}

} // namespace kit::gemm
