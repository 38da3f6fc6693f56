// apsp's tuning, one table per GPU family (the dense tiles' shape and form come from the min-plus
// tile library's own table, primitives/min_plus_tuning.h); kit::gpu::with_tuning<ApspTuning> hands
// the running device's table to the solver. sm_90's numbers were measured on an H200 (README
// "Tuning"), sm_100 repeats them, gfx908's are reasoned from the MI100's published limits.
//
// What the device reports at run time is never written here: shared memory per block (whether
// the dense tiles and the sparse search's shared state fit), multiprocessors (scatter grid) and
// resident blocks (sparse grid, batch size) are queried, and a configuration that does not fit
// the running device is never launched.
#pragma once

#include "primitives/min_plus_tuning.h"

#include "gpu/tuning_dispatch.h"
#include "gpu/vendor.h"

#include <cstddef>

namespace apsp {

template <kit::gpu::GpuArch> struct ApspTuning;

// The path rule (kernel_path.cu) in numbers: the sparse search costs about V * E / R_s (R_s: arc
// relaxations per second, re-relaxations included), the dense kernel V^3 / R_d, so the sparse
// path wins while the average out-degree E / V stays below V / q with q = R_d / R_s. The rule:
// sparse when E < V * max(min_crossover_degree, V / q), q by where the sparse search keeps its
// state (shared memory with two or more blocks per multiprocessor, with one, or global memory).
struct PathRule {
  double min_crossover_degree;
  double q_shared_several; // two or more shared-state blocks per multiprocessor
  double q_shared_single;  // one shared-state block per multiprocessor
  double q_global;         // the state in global memory
};

template <>
struct ApspTuning<kit::gpu::GpuArch::sm90> : kit::min_plus::MinPlusTuning<kit::gpu::GpuArch::sm90> {
  // Fill and scatter kernels: 8 blocks of 256 threads fill an SM's 2048 threads (not measured:
  // the build is a few ms against the Floyd-Warshall rounds).
  static constexpr int kBuildThreads = 256;
  static constexpr int kScatterBlocksPerMultiprocessor = 8;
  // Edges per upload while building the matrix (48 MB): far from launch-bound, bounded memory.
  static constexpr std::size_t kEdgeChunk = std::size_t{1} << 22;
  // Sparse search: 256 threads per source (the sweep behind the path rule ran with it).
  static constexpr int kSparseThreads = 256;
  // Rows per batch of the sparse path: at least 64 MB (every resident block busy for a while) and
  // at least 2 rows per resident block (load balance); not measured apart from the whole path.
  static constexpr std::size_t kSparseBatchBytes = std::size_t{64} << 20;
  static constexpr int kSparseBatchRowsPerBlock = 2;
  // Copy-back chunks (RowStreamer): far from launch-bound, small enough that the first rows
  // reach the formatter early and pinning two buffers stays cheap (a few ms).
  static constexpr std::size_t kOutputChunkBytes = std::size_t{8} << 20;
  // Measured (README "Tuning"): R_d from 2.8e12 (V = 1024) to 1.27e13 relaxations/s (V >= 8192);
  // R_s about 4e10/s in shared memory with two or more blocks per SM, 2.2e10/s with one
  // (V = 16384), 1.1e10/s in global memory (V = 16384); measured crossover degree 14-24 below
  // V = 8192, hence the floor.
  static constexpr PathRule kPathRule{16, 320, 600, 1150};
};

// Not measured on a B200: the H200's table (its shared memory per block is Hopper's; the dense
// path reads the limit from the device anyway).
template <> struct ApspTuning<kit::gpu::GpuArch::sm100> : ApspTuning<kit::gpu::GpuArch::sm90> {};

// MI100 (CDNA1): 120 CUs of 4 SIMDs, wavefront 64, 64 KB LDS per workgroup, 256 VGPRs per thread
// at one wave per SIMD, 1.502 GHz, about 1.2 TB/s HBM2, no DPX. Not measured on hardware.
template <>
struct ApspTuning<kit::gpu::GpuArch::gfx908>
    : kit::min_plus::MinPlusTuning<kit::gpu::GpuArch::gfx908> {
  // Not measured on hardware. 256 threads = 4 waves, one per SIMD; 8 blocks = 32 waves per CU,
  // below the CU's 40, to hide the latency of the scatter's atomics.
  static constexpr int kBuildThreads = 256;
  static constexpr int kScatterBlocksPerMultiprocessor = 8;
  // Not measured on hardware. 48 MB per upload, as on NVIDIA (the MI100's 32 GB hold it easily).
  static constexpr std::size_t kEdgeChunk = std::size_t{1} << 22;
  // Not measured on hardware. 4 waves, one per SIMD: the shared state (2V ints, up to the 64 KB
  // of LDS) may leave room for one workgroup per CU, which must still keep all 4 SIMDs busy.
  static constexpr int kSparseThreads = 256;
  // Not measured on hardware. Same batch rule as on NVIDIA: device memory is not the limit.
  static constexpr std::size_t kSparseBatchBytes = std::size_t{64} << 20;
  static constexpr int kSparseBatchRowsPerBlock = 2;
  // Not measured on hardware. Same as on NVIDIA: PCIe copies of 8 MB are far from launch-bound.
  static constexpr std::size_t kOutputChunkBytes = std::size_t{8} << 20;
  // Not measured on hardware: the H200's q scaled by how each rate should move. Dense peak:
  // 120 CUs x 64 lanes x 1.502 GHz / 1.5 instructions = 7.7e12 relaxations/s, 2.2x below the
  // H200's 1.67e13. Shared-state search (LDS atomics, one per arc): CUs x clock, 1.45x below, so
  // q = 320 x 1.45 / 2.2 = 210 and 600 x 1.45 / 2.2 = 400. Global-state search (L2 atomics and
  // HBM): bandwidth, 3.9x below (1.23 vs 4.8 TB/s), so q = 1150 x 3.9 / 2.2 = 2000. The floor of
  // 16 is the H200's: small V is launch-bound on both.
  static constexpr PathRule kPathRule{16, 210, 400, 2000};
};

} // namespace apsp
