// 2d_max_pooling: output[n][c][oy][ox] = the largest input[n][c][iy][ix] over the kernel_size x
// kernel_size window whose corner is (oy * stride - padding, ox * stride - padding), for the N x C
// planes of an H x W float image, row-major (LeetGPU signature, device pointers). The output
// planes are H_out x W_out with H_out = (H + 2 padding - kernel_size) / stride + 1 (rounded down)
// and W_out likewise. Cells of a window outside the image are padding that never wins (torch's
// max_pool2d: implicit -inf); a NaN in a window makes the result NaN, as in torch.
//
// Memory-bound: every input is read once, every output written once (80 MB at the judge's
// 4 x 64 x 256 x 256, kernel 3, stride 2, padding 1). A block owns a tile of tile_h x tile_w
// outputs of one plane (about kOutputsPerBlock of them) and stages the input rows and columns
// its windows cover in shared memory: 16-byte asynchronous copies (cp.async where it exists)
// from a column rounded down to a multiple of 4, so that every copy is aligned, with -inf written
// for the vectors outside the image. Each thread then takes outputs of the tile, consecutive
// threads on consecutive outputs of a row, reads its window from shared memory and stores the
// maximum (coalesced). Windows that overlap (kernel_size > stride) are read from DRAM once: the
// rows two row tiles share come from L2, since the block below starts right after.
//
// The 16-byte path needs W % 4 == 0 and the input 16-byte aligned (so every row starts on a
// vector); anything else stages the tile one float at a time. The tile is chosen on the host so
// that its shared memory stays within kSharedBudget (no opt-in needed on any target).
#include "gpu/bulk_copy.h"
#include "gpu/check.h"
#include "gpu/vendor.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kOutputsPerBlock = 1024;   // 4 per thread
constexpr int kMaxTileWidth = 128;       // a row tile as wide as the judge's W_out
constexpr int kSharedBudget = 48 * 1024; // bytes: the default per-block limit on NVIDIA
constexpr float kPadding = -INFINITY;    // loses to every value but NaN

struct Geometry {
  int H, W, out_h, out_w;
  int kernel, stride, padding;
  int tile_h, tile_w;   // outputs per tile
  int tiles_x, tiles_y; // tiles per plane
  int rows;             // staged input rows: (tile_h - 1) * stride + kernel
  int width;            // staged floats per row, a multiple of 4
};

// Floor of v / 4 times 4, for negative v too.
__host__ __device__ inline int round_down4(int v) { return v - ((v % 4) + 4) % 4; }

// Walks items item0, item0 + kThreads, ... of a rows x columns array in row-major order, as
// (row, column) pairs kept up to date by additions (no division per item).
struct Walk {
  int row, column, step_rows, step_columns, columns;
  __device__ Walk(int item0, int columns_)
      : row(item0 / columns_), column(item0 % columns_), step_rows(kThreads / columns_),
        step_columns(kThreads % columns_), columns(columns_) {}
  __device__ void next() {
    row += step_rows;
    column += step_columns;
    if (column >= columns) {
      column -= columns;
      ++row;
    }
  }
};

// The largest cell of a window of kernel x kernel staged cells, rows `width` apart, or NaN if
// one of them is NaN. kKernel > 0 fixes kernel at compile time (the loops unroll).
template <int kKernel>
__device__ __forceinline__ float window_max(const float *window, int kernel, int width) {
  float best = kPadding;
  bool nan = false;
  const auto visit = [&](float v) {
    best = fmaxf(best, v); // fmaxf skips a NaN: the flag keeps it
    nan = nan || v != v;
  };
  if constexpr (kKernel > 0) {
#pragma unroll
    for (int dy = 0; dy < kKernel; ++dy)
#pragma unroll
      for (int dx = 0; dx < kKernel; ++dx)
        visit(window[dy * width + dx]);
  } else {
    for (int dy = 0; dy < kernel; ++dy)
      for (int dx = 0; dx < kernel; ++dx)
        visit(window[dy * width + dx]);
  }
  return nan ? NAN : best;
}

// Block b: tile (b % tiles_x, (b / tiles_x) % tiles_y) of plane b / (tiles_x * tiles_y).
template <bool kVector, int kKernel>
__global__ void __launch_bounds__(kThreads)
    max_pool_tiles(const float *__restrict__ in, float *__restrict__ out, Geometry g) {
  extern __shared__ float4 staged4[];
  float *staged = reinterpret_cast<float *>(staged4);
  unsigned b = blockIdx.x;
  const int tile_x = static_cast<int>(b % static_cast<unsigned>(g.tiles_x));
  b /= static_cast<unsigned>(g.tiles_x);
  const int tile_y = static_cast<int>(b % static_cast<unsigned>(g.tiles_y));
  const std::size_t plane = b / static_cast<unsigned>(g.tiles_y);
  const int oy0 = tile_y * g.tile_h, ox0 = tile_x * g.tile_w;
  const int iy0 = oy0 * g.stride - g.padding; // image row of staged row 0
  const int ix0 = ox0 * g.stride - g.padding; // image column of the first window
  const int col0 = round_down4(ix0);          // image column of staged column 0
  const float *image = in + plane * g.H * g.W;

  // Stage rows iy0 .. iy0 + rows - 1, columns col0 .. col0 + width - 1; -inf outside the image.
  if constexpr (kVector) {
    // col0 and W are multiples of 4: a vector lies wholly inside the image or wholly outside.
    const int vectors = g.width / 4;
    Walk at(threadIdx.x, vectors);
    for (int item = threadIdx.x; item < g.rows * vectors; item += kThreads, at.next()) {
      const int iy = iy0 + at.row, ix = col0 + 4 * at.column;
      float *dst = staged + at.row * g.width + 4 * at.column;
      if (iy >= 0 && iy < g.H && ix >= 0 && ix < g.W)
        kit::gpu_async_copy_16(dst, image + static_cast<std::size_t>(iy) * g.W + ix);
      else
        *reinterpret_cast<float4 *>(dst) = make_float4(kPadding, kPadding, kPadding, kPadding);
    }
    kit::gpu_async_copy_wait_all();
  } else {
    Walk at(threadIdx.x, g.width);
    for (int item = threadIdx.x; item < g.rows * g.width; item += kThreads, at.next()) {
      const int iy = iy0 + at.row, ix = col0 + at.column;
      staged[item] = iy >= 0 && iy < g.H && ix >= 0 && ix < g.W
                         ? image[static_cast<std::size_t>(iy) * g.W + ix]
                         : kPadding;
    }
  }
  __syncthreads();

  // A thread keeps one output column ox of the tile (consecutive threads, consecutive columns)
  // and takes every rows_per_pass-th output row; output (oy0 + oy, ox0 + ox) reads staged rows
  // from oy * stride and columns from ox * stride + ix0 - col0.
  const int rows_per_pass = kThreads / g.tile_w; // at least 2: tile_w <= 128
  const int ox = static_cast<int>(threadIdx.x) % g.tile_w;
  const int first_oy = static_cast<int>(threadIdx.x) / g.tile_w;
  if (first_oy >= rows_per_pass || ox0 + ox >= g.out_w)
    return;
  const float *column = staged + ox * g.stride + (ix0 - col0);
  float *column_out = out + plane * g.out_h * g.out_w + ox0 + ox;
  for (int oy = first_oy; oy < g.tile_h && oy0 + oy < g.out_h; oy += rows_per_pass)
    column_out[static_cast<std::size_t>(oy0 + oy) * g.out_w] =
        window_max<kKernel>(column + oy * g.stride * g.width, g.kernel, g.width);
}

bool aligned16(const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

std::size_t staged_bytes(const Geometry &g) {
  return static_cast<std::size_t>(g.rows) * static_cast<std::size_t>(g.width) * sizeof(float);
}

// The tile's staged extent: rows, and columns from a multiple of 4 at most 3 before the first
// window to the end of the last one, rounded up to a multiple of 4.
void size_tile(Geometry &g) {
  g.rows = (g.tile_h - 1) * g.stride + g.kernel;
  const int span = (g.tile_w - 1) * g.stride + g.kernel;
  g.width = (span + 3 + 3) / 4 * 4;
}

} // namespace

extern "C" void solve(const float *input, float *output, int N, int C, int H, int W,
                      int kernel_size, int stride, int padding) {
  Geometry g{};
  g.H = H;
  g.W = W;
  g.kernel = kernel_size;
  g.stride = stride;
  g.padding = padding;
  if (N <= 0 || C <= 0 || kernel_size <= 0 || stride <= 0 || padding < 0)
    return;
  g.out_h = (H + 2 * padding - kernel_size) / stride + 1;
  g.out_w = (W + 2 * padding - kernel_size) / stride + 1;
  if (H + 2 * padding < kernel_size || W + 2 * padding < kernel_size)
    return; // no output
  // A row tile as wide as the output up to 128, about kOutputsPerBlock outputs, halved (rows
  // first) until its staged input fits the budget; one output's window (16 x 20 floats at the
  // challenge's largest kernel) always does.
  g.tile_w = g.out_w < kMaxTileWidth ? g.out_w : kMaxTileWidth;
  g.tile_h = kOutputsPerBlock / g.tile_w;
  if (g.tile_h > g.out_h)
    g.tile_h = g.out_h;
  size_tile(g);
  while (staged_bytes(g) > static_cast<std::size_t>(kSharedBudget) && g.tile_h * g.tile_w > 1) {
    if (g.tile_h > 1)
      g.tile_h = (g.tile_h + 1) / 2;
    else
      g.tile_w = (g.tile_w + 1) / 2;
    size_tile(g);
  }
  g.tiles_x = (g.out_w + g.tile_w - 1) / g.tile_w;
  g.tiles_y = (g.out_h + g.tile_h - 1) / g.tile_h;
  const std::size_t blocks = static_cast<std::size_t>(N) * C * g.tiles_x * g.tiles_y;
  const bool vector = W % 4 == 0 && aligned16(input);
  const unsigned grid = static_cast<unsigned>(blocks);
  const std::size_t shared = staged_bytes(g);
  if (kernel_size == 3 && vector)
    max_pool_tiles<true, 3><<<grid, kThreads, shared>>>(input, output, g);
  else if (kernel_size == 3)
    max_pool_tiles<false, 3><<<grid, kThreads, shared>>>(input, output, g);
  else if (vector)
    max_pool_tiles<true, 0><<<grid, kThreads, shared>>>(input, output, g);
  else
    max_pool_tiles<false, 0><<<grid, kThreads, shared>>>(input, output, g);
  GPU_CHECK_LAUNCH("max_pool_tiles");
}
