// matrix_transpose: output (cols x rows) = transpose of input (rows x cols), floats, row-major
// (LeetGPU signature, device pointers).
//
// Memory-bound: 8 bytes per element. A block moves one 32 x 32 tile through shared memory so that
// both the reads (along input rows) and the writes (along output rows) are coalesced; the extra
// column of padding puts the 32 elements of a tile column in 32 different banks. Each thread
// moves kTile / kRowsPerPass elements, which keeps several loads in flight per thread.
#include "gpu/check.h"
#include "gpu/vendor.h"

#include <cstddef>

namespace {

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8; // blockDim = (kTile, kRowsPerPass): 256 threads

__global__ void __launch_bounds__(kTile *kRowsPerPass)
    transpose_tiles(const float *__restrict__ in, float *__restrict__ out, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
  const int tile_col = blockIdx.x * kTile; // first input column of the tile
  const int tile_row = blockIdx.y * kTile; // first input row of the tile
  const int x = threadIdx.x;

  const int col = tile_col + x;
#pragma unroll
  for (int pass = 0; pass < kTile / kRowsPerPass; ++pass) {
    const int dy = threadIdx.y + pass * kRowsPerPass;
    const int row = tile_row + dy;
    if (row < rows && col < cols)
      tile[dy][x] = in[static_cast<std::size_t>(row) * cols + col];
  }
  __syncthreads();
  // Output row = input column, output column = input row.
  const int out_col = tile_row + x;
#pragma unroll
  for (int pass = 0; pass < kTile / kRowsPerPass; ++pass) {
    const int dy = threadIdx.y + pass * kRowsPerPass;
    const int out_row = tile_col + dy;
    if (out_row < cols && out_col < rows)
      out[static_cast<std::size_t>(out_row) * rows + out_col] = tile[x][dy];
  }
}

} // namespace

extern "C" void solve(const float *input, float *output, int rows, int cols) {
  if (rows <= 0 || cols <= 0)
    return;
  const dim3 block(kTile, kRowsPerPass);
  const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
  transpose_tiles<<<grid, block>>>(input, output, rows, cols);
  GPU_CHECK_LAUNCH("transpose_tiles");
}
