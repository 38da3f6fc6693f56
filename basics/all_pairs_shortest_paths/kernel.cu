// all_pairs_shortest_paths: output = the N x N shortest-path distances of the weighted digraph
// whose row-major N x N matrix `dist` holds the arc weights (+inf: no arc, 0 on the diagonal)
// (LeetGPU signature, device pointers; tolerance 1e-2). The judge's reference is Floyd-Warshall
// in float.
//
// The min-plus tile library that the contest apsp runs does the work: blocked Floyd-Warshall with
// 64 x 64 tiles in registers and shared memory (primitives/floyd_warshall_tiles.h), instantiated
// for float (one relaxation is fminf(a + b, d)), its register blocking and inner-loop form taken
// from the library's table for the running GPU (primitives/min_plus_tuning.h, through
// kit::gpu::with_tuning): on
// NVIDIA the 64 tile with add_min, on gfx908 the 64 tile with paired_min3 (v_min3_f32 folds two
// k steps). It runs in place on an n x n matrix, n a multiple of the tile:
//  - N a multiple of 64 and `output` 16-byte aligned (the judge's N = 2048): dist is copied to
//    output and the rounds run on output;
//  - otherwise a scratch matrix of n = N rounded up to 64 receives dist padded with isolated
//    vertices (+inf rows and columns, 0 on their diagonal: no path enters or leaves them, so the
//    N x N block's distances are unchanged), and the N x N block is copied back.
// Launches: the copy (or pad kernel and copy back) and three per 64-vertex round.
//
// The kernel's contract asks for weights >= 0; the challenge allows negative weights (one of its
// cases has them) but no negative cycle, and a zero diagonal. The contract's two uses of
// non-negativity both hold here without it:
//  - INF must absorb additions (INF + w stays INF): true of +inf for every finite w, negative ones
//    included (the int instantiation's finite INF = 2^30 - 1 is why apsp itself needs w >= 0);
//  - the pivot closure and the product rely on row k and column k not changing in step k, i.e. on
//    d[k][k] >= 0 when step k runs. d[k][k] starts at 0 and only ever becomes the length of a
//    cycle through k, never negative without a negative cycle.
// So negative arcs are run unchanged; the tests include graphs with negative arcs and no negative
// cycle (non-negative graphs reweighted by random vertex potentials) at tile-crossing sizes.
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/tuning_dispatch.h"
#include "gpu/vendor.h"
#include "primitives/floyd_warshall_tiles.h"
#include "primitives/min_plus_tuning.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace {

constexpr int kPadThreads = 256;

// d (n x n) = dist (N x N) in its top-left block, isolated vertices elsewhere. Grid: (column
// blocks, n rows).
__global__ void __launch_bounds__(kPadThreads)
    pad_matrix(const float *__restrict__ dist, float *__restrict__ d, int N, int n) {
  const int row = blockIdx.y;
  const int col = blockIdx.x * kPadThreads + threadIdx.x;
  if (col >= n)
    return;
  float value;
  if (row < N && col < N)
    value = dist[static_cast<std::size_t>(row) * N + col];
  else
    value = row == col ? 0.0f : INFINITY;
  d[static_cast<std::size_t>(row) * n + col] = value;
}

int tile_side() {
  return kit::gpu::with_tuning<kit::min_plus::MinPlusTuning>([](auto tuning) {
    return kit::min_plus::TileShape<float, decltype(tuning)::kDenseRegisterBlock>::kTile;
  });
}

void floyd_warshall(float *d, int n) {
  kit::gpu::with_tuning<kit::min_plus::MinPlusTuning>([&](auto tuning) {
    using Tuning = decltype(tuning);
    kit::min_plus::floyd_warshall_tiles<float, Tuning::kDenseRegisterBlock, Tuning::kDenseForm>(
        d, n, 0);
  });
}

} // namespace

extern "C" void solve(const float *dist, float *output, int N) {
  if (N <= 0)
    return;
  static const int tile = tile_side();
  const std::size_t bytes = static_cast<std::size_t>(N) * N * sizeof(float);
  if (N % tile == 0 && reinterpret_cast<std::uintptr_t>(output) % 16 == 0) {
    GPU_CHECK(cudaMemcpyAsync(output, dist, bytes, cudaMemcpyDeviceToDevice, 0));
    floyd_warshall(output, N);
    return;
  }
  const int n = (N + tile - 1) / tile * tile;
  static kit::gpu::DeviceScratch scratch;
  float *d = static_cast<float *>(scratch.reserve(static_cast<std::size_t>(n) * n * sizeof(float)));
  pad_matrix<<<dim3((n + kPadThreads - 1) / kPadThreads, n), kPadThreads>>>(dist, d, N, n);
  GPU_CHECK_LAUNCH("pad_matrix");
  floyd_warshall(d, n);
  GPU_CHECK(cudaMemcpy2DAsync(output, static_cast<std::size_t>(N) * sizeof(float), d,
                              static_cast<std::size_t>(n) * sizeof(float), N * sizeof(float), N,
                              cudaMemcpyDeviceToDevice, 0));
}
