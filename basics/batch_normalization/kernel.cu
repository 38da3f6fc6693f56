// batch_normalization: per column of an N x C row-major matrix, output = gamma * (x - mean) /
// sqrt(var + eps) + beta, with the column's mean and biased variance over the N rows (LeetGPU
// signature, device pointers; tolerance 1e-5 absolute and relative).
//
// Memory-bound. A column's statistics need all N rows before any output, and the matrix is read
// in rows, so two launches, both over the same tiles: 32 columns wide (8 threads of four columns
// each, rows::Slice<8, 1, ...>) by a chunk of rows, 32 rows at a time per block:
//  - column_statistics: each thread sums its columns' values shifted by the column's first value
//    (x - pivot, and its square) over its rows, in double; the block adds its 32 row lanes per
//    column in order and stores the chunk's sums. The last block of a column tile to arrive
//    (kit::block_arrives_last on the tile's own counter) adds the tile's chunk sums in a fixed
//    order and stores per column a centre, a scale and an offset (below). No block waits, and the
//    result does not depend on timing;
//  - normalize: y = fma(x - centre, scale, offset) over the same tiles; the second read of the
//    input comes from L2 where the matrix fits (10 MB at the judge's size).
// The centre is the column mean rounded to float, and offset = beta + (centre - mean) * scale in
// double, so the rounding of the mean is corrected exactly: every output is within a few float
// roundings of |gamma * normalised| + |beta| however far the column sits from zero.
#include "collectives/block.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/device_scratch.h"
#include "gpu/scoped_atomics.h"
#include "gpu/vendor.h"
#include "primitives/grid_reduce.h"
#include "primitives/rows.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace {

namespace rows = kit::rows;

constexpr int kThreads = 256;
constexpr int kColumnLanes = 8;                    // threads across a tile, four columns each
constexpr int kTileColumns = 4 * kColumnLanes;     // 32 columns: 128 bytes of a row
constexpr int kRowLanes = kThreads / kColumnLanes; // rows a block reads at once
constexpr int kBatch = 8;                          // rows per thread loaded before any is used
constexpr int kMaxTiles = 65535;                   // gridDim.y
constexpr int kSums = 2 * kTileColumns;            // per chunk: 32 shifted sums, 32 of squares
// Blocks per multiprocessor the plan launches, all resident at once: asked of nvcc for the
// statistics kernel (at most 85 registers; four would cap it at 64, which spills), which the
// normalising kernel's 64 registers allow anyway. HIP reads the second __launch_bounds__
// argument as waves per execution unit, and gfx908 has the registers, so it asks nothing.
constexpr int kBlocksPerMultiprocessor = 3;
#if KIT_CUDA
constexpr int kMinBlocks = kBlocksPerMultiprocessor;
#else
constexpr int kMinBlocks = 1;
#endif
template <bool kVector> using Piece = rows::Slice<kColumnLanes, 1, kVector>;

// One arrival counter per column tile; each starts at 0 and the tile's last block sets it back.
// A submission file holds one solve, which the judge never calls concurrently.
__device__ unsigned int g_tile_arrivals[kMaxTiles];

struct Plan {
  int chunk_rows; // rows per chunk, a multiple of kRowLanes
  int chunks;     // gridDim.x
  int tiles;      // gridDim.y
};

template <bool kVector>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    column_statistics(const float *__restrict__ in, const float *__restrict__ gamma,
                      const float *__restrict__ beta, int N, int C, int chunk_rows, float eps,
                      double *__restrict__ chunk_sums, float *__restrict__ centre,
                      float *__restrict__ scale, float *__restrict__ offset) {
  using P = Piece<kVector>;
  __shared__ double lane_sums[kRowLanes][kSums];
  const int lane = static_cast<int>(threadIdx.x) % kColumnLanes;
  const int row_lane = static_cast<int>(threadIdx.x) / kColumnLanes;
  const int first_column = static_cast<int>(blockIdx.y) * kTileColumns;
  const int width = C - first_column; // columns of the tile at or past `width` read as 0
  const int row_begin = static_cast<int>(blockIdx.x) * chunk_rows;
  const int row_end = chunk_rows < N - row_begin ? row_begin + chunk_rows : N;
  const std::size_t lane_step = static_cast<std::size_t>(kRowLanes) * C; // between a lane's rows

  P pivot;
  pivot.load(in + first_column, width, lane);
  double sum[4] = {0.0, 0.0, 0.0, 0.0}, squares[4] = {0.0, 0.0, 0.0, 0.0};
  for (int r0 = row_begin + row_lane; r0 < row_end; r0 += kBatch * kRowLanes) {
    const float *row = in + static_cast<std::size_t>(r0) * C + first_column;
    P x[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) { // rows past the chunk equal the pivot: they add 0
      x[b] = pivot;
      if (b < (row_end - r0 + kRowLanes - 1) / kRowLanes)
        x[b].load(row + b * lane_step, width, lane);
    }
    // Each deviation in float (exact where x and the pivot are within a factor of two), its sum
    // and square in double: float partial sums, even of 8 rows, lose the variance of a column
    // whose first value lies far from the rest (the cancellation in E[d^2] - E[d]^2 magnifies
    // their correlated roundings; tested).
#pragma unroll
    for (int b = 0; b < kBatch; ++b)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const double d = P::at(x[b].item[0], e) - P::at(pivot.item[0], e);
        sum[e] += d;
        squares[e] = fma(d, d, squares[e]);
      }
  }

  // The chunk's sums per column: the 32 row lanes added in order.
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    const int column = P::column(lane, 0, e);
    lane_sums[row_lane][column] = sum[e];
    lane_sums[row_lane][kTileColumns + column] = squares[e];
  }
  __syncthreads();
  const std::size_t tile_sums = static_cast<std::size_t>(blockIdx.y) * gridDim.x * kSums;
  if (threadIdx.x < kSums) {
    double total = 0.0;
    for (int r = 0; r < kRowLanes; ++r)
      total += lane_sums[r][threadIdx.x];
    kit::gpu_store_relaxed(
        chunk_sums + tile_sums + static_cast<std::size_t>(blockIdx.x) * kSums + threadIdx.x, total);
  }
  if (!kit::block_arrives_last(&g_tile_arrivals[blockIdx.y]))
    return;

  // The tile's last block: kParts lanes per sum take every kParts-th chunk, then one thread per
  // column adds the lanes in order. Device-scope loads: the chunk sums come from other blocks.
  constexpr int kParts = kThreads / kSums;
  static_assert(kParts <= kRowLanes, "the lanes reuse lane_sums");
  {
    const int part = static_cast<int>(threadIdx.x) / kSums;
    const int slot = static_cast<int>(threadIdx.x) % kSums;
    double total = 0.0;
    for (unsigned int chunk = part; chunk < gridDim.x; chunk += kParts)
      total += kit::gpu_load_relaxed(chunk_sums + tile_sums + chunk * kSums + slot);
    lane_sums[part][slot] = total;
  }
  __syncthreads();
  const int column = first_column + static_cast<int>(threadIdx.x);
  if (threadIdx.x < kTileColumns && column < C) {
    double shifted_sum = 0.0, shifted_squares = 0.0;
    for (int part = 0; part < kParts; ++part) {
      shifted_sum += lane_sums[part][threadIdx.x];
      shifted_squares += lane_sums[part][kTileColumns + threadIdx.x];
    }
    const double shift = shifted_sum / N; // mean - pivot
    const double variance = fmax(shifted_squares / N - shift * shift, 0.0);
    const double mean = static_cast<double>(in[column]) + shift;
    const double column_scale = static_cast<double>(gamma[column]) / sqrt(variance + eps);
    const float column_centre = static_cast<float>(mean);
    centre[column] = column_centre;
    scale[column] = static_cast<float>(column_scale);
    offset[column] = static_cast<float>(beta[column] +
                                        (static_cast<double>(column_centre) - mean) * column_scale);
  }
}

template <bool kVector>
__global__ void __launch_bounds__(kThreads)
    normalize(const float *__restrict__ in, const float *__restrict__ centre,
              const float *__restrict__ scale, const float *__restrict__ offset,
              float *__restrict__ out, int N, int C, int chunk_rows) {
  using P = Piece<kVector>;
  const int lane = static_cast<int>(threadIdx.x) % kColumnLanes;
  const int row_lane = static_cast<int>(threadIdx.x) / kColumnLanes;
  const int first_column = static_cast<int>(blockIdx.y) * kTileColumns;
  const int width = C - first_column;
  const int row_begin = static_cast<int>(blockIdx.x) * chunk_rows;
  const int row_end = chunk_rows < N - row_begin ? row_begin + chunk_rows : N;
  const std::size_t lane_step = static_cast<std::size_t>(kRowLanes) * C;

  P c, s, o;
  c.load(centre + first_column, width, lane);
  s.load(scale + first_column, width, lane);
  o.load(offset + first_column, width, lane);
  for (int r0 = row_begin + row_lane; r0 < row_end; r0 += kBatch * kRowLanes) {
    const std::size_t first = static_cast<std::size_t>(r0) * C + first_column;
    const int rows_here = (row_end - r0 + kRowLanes - 1) / kRowLanes; // of this lane's kBatch
    P x[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; ++b)
      if (b < rows_here)
        x[b].load(in + first + b * lane_step, width, lane);
#pragma unroll
    for (int b = 0; b < kBatch; ++b)
      if (b < rows_here) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          float &v = P::at(x[b].item[0], e);
          v = fmaf(v - P::at(c.item[0], e), P::at(s.item[0], e), P::at(o.item[0], e));
        }
        x[b].store(out + first + b * lane_step, width, lane);
      }
  }
}

// Chunks of whole 32-row groups, at most kBlocksPerMultiprocessor blocks per multiprocessor over
// both grid dimensions (more only where the tiles alone exceed that).
Plan plan_for(int N, int C) {
  static const int multiprocessors = kit::gpu::device_multiprocessors();
  const int tiles = (C + kTileColumns - 1) / kTileColumns;
  const long long row_groups = (N + kRowLanes - 1) / kRowLanes;
  const long long wanted =
      static_cast<long long>(kBlocksPerMultiprocessor) * multiprocessors / tiles;
  const long long chunks = std::max(1LL, std::min(row_groups, wanted));
  const int chunk_rows = static_cast<int>((row_groups + chunks - 1) / chunks) * kRowLanes;
  return Plan{chunk_rows, static_cast<int>((N + chunk_rows - 1) / chunk_rows), tiles};
}

template <bool kVector>
void run(const float *input, const float *gamma, const float *beta, float *output, int N, int C,
         float eps, const Plan &plan) {
  static kit::gpu::DeviceScratch scratch;
  // The chunk sums (double), then centre, scale and offset for 32 * tiles columns each.
  const std::size_t padded = static_cast<std::size_t>(plan.tiles) * kTileColumns;
  const std::size_t sums = static_cast<std::size_t>(plan.tiles) * plan.chunks * kSums;
  double *chunk_sums =
      static_cast<double *>(scratch.reserve(sums * sizeof(double) + 3 * padded * sizeof(float)));
  float *centre = reinterpret_cast<float *>(chunk_sums + sums);
  float *scale = centre + padded;
  float *offset = scale + padded;
  const dim3 grid(plan.chunks, plan.tiles);
  column_statistics<kVector><<<grid, kThreads>>>(input, gamma, beta, N, C, plan.chunk_rows, eps,
                                                 chunk_sums, centre, scale, offset);
  GPU_CHECK_LAUNCH("column_statistics");
  normalize<kVector>
      <<<grid, kThreads>>>(input, centre, scale, offset, output, N, C, plan.chunk_rows);
  GPU_CHECK_LAUNCH("normalize");
}

} // namespace

extern "C" void solve(const float *input, const float *gamma, const float *beta, float *output,
                      int N, int C, float eps) {
  if (N <= 0 || C <= 0 || (C + kTileColumns - 1) / kTileColumns > kMaxTiles)
    return;
  const Plan plan = plan_for(N, C);
  if (C % 4 == 0 && rows::aligned16(input) && rows::aligned16(output))
    run<true>(input, gamma, beta, output, N, C, eps, plan);
  else
    run<false>(input, gamma, beta, output, N, C, eps, plan);
}
