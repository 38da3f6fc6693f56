// apsp, dense path: the graph as an n x n int32 matrix in device memory (n padded to the tile:
// padding rows and columns INF, diagonal 0, so padded vertices are isolated), blocked
// Floyd-Warshall in place (floyd_warshall_tiles.h) with the running device's tuning (tuning.h),
// rows streamed to the sink.
#pragma once

#include "graph.h"

#include "gpu/vendor.h"

#include <cstddef>

namespace apsp {

// Tile side of the dense path on the running device.
int dense_tile();

// Whether the running device gives a block the shared memory the dense path's tiles need.
bool dense_fits_device();

// Loads the dense path's kernel code (GPU warm-up).
void preload_dense_code();

// Matrix side for `vertices`, padded to a multiple of the tile.
int dense_padded_size(int vertices, int tile);

// Device bytes the dense path needs for `vertices` (matrix plus edge upload buffer).
std::size_t dense_device_bytes(int vertices, std::size_t edges);

// Fills d (n x n, row-major, n a multiple of 4) with the graph: INF, diagonal 0, then the
// minimum weight of each (src, dst) pair. Edges are uploaded in chunks; an edge whose endpoint
// lies outside [0, vertices) or whose weight lies outside [0, kApspMaxWeight] stops the program
// with exit code 2.
void dense_build(const Graph &graph, int *d, int n, cudaStream_t stream);

// Blocked Floyd-Warshall in place on d (n x n, n a multiple of dense_tile()), asynchronous on
// `stream`.
void dense_floyd_warshall(int *d, int n, cudaStream_t stream);

// The whole dense path: checks device memory (clear failure when the matrix does not fit),
// builds, runs, and streams rows to the sink.
void solve_dense(const Graph &graph, const RowBlockSink &sink);

} // namespace apsp
