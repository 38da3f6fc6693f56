// apsp, dense path: blocked Floyd-Warshall on an n x n int32 matrix in device memory, n padded
// to the tile size (padding rows and columns INF, diagonal 0, so padded vertices are isolated).
#pragma once

#include "graph.h"

#include "gpu/gpu.h"

#include <cstddef>

namespace apsp {

// How the inner loop spells one relaxation d = min(d, a + b).
enum class MinPlusForm {
  AddMin,     // kit::gpu_add_min per relaxation: one DPX VIADDMNMX on sm_90+
  PairedMin3, // two k steps per kit::gpu_min3(d, a1 + b1, a2 + b2): v_min3_i32 on AMD
  Separate,   // plain min(a + b, d), left to the compiler (kept to measure the other two)
};

// Tile side and inner-loop form of the blocked Floyd-Warshall. A tile is 64 * R wide; each of
// the 256 threads of a block owns (4R) x (4R) distances in registers.
struct DenseVariant {
  int tile;
  MinPlusForm form;
};

const char *form_name(MinPlusForm form);

// The variant apsp_solve uses on this backend (chosen by measurement, README "GPU kernel").
DenseVariant default_dense_variant();

// Whether the device can run the variant (the 128 tile needs 130 KB of shared memory per block).
bool dense_variant_supported(const DenseVariant &variant);

// Matrix side for `vertices`, padded to a multiple of the tile.
int dense_padded_size(int vertices, int tile);

// Device bytes the dense path needs for `vertices` (matrix plus edge upload buffers).
std::size_t dense_device_bytes(int vertices, std::size_t edges, int tile);

// Fills d (n x n, row-major, n a multiple of 64) with the graph: INF, diagonal 0, then the
// minimum weight of each (src, dst) pair. Edges are uploaded in chunks; an edge whose endpoint
// lies outside [0, vertices) or whose weight is negative stops the program with exit code 2.
void dense_build(const Graph &graph, int *d, int n, cudaStream_t stream);

// Blocked Floyd-Warshall in place on d (n x n, n a multiple of variant.tile), asynchronous on
// `stream`.
void dense_floyd_warshall(int *d, int n, const DenseVariant &variant, cudaStream_t stream);

// The whole dense path: checks device memory (clear failure when the matrix does not fit),
// builds, runs, and streams rows to the sink.
void solve_dense(const Graph &graph, const RowBlockSink &sink);

} // namespace apsp
