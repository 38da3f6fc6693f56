// Blocked Floyd-Warshall with register tiling, in place on an n x n distance matrix in device
// memory: the kernels and their launcher, templated on the distance type (int for apsp, float for
// real-valued distances), on the register blocking R (tile side 64 R) and on the inner loop's
// form, which callers take from the library's tuning table (primitives/min_plus_tuning.h). apsp and
// the LeetGPU all_pairs_shortest_paths both run it.
//
// Contract: d is row-major with row pitch n, n a multiple of TileShape<T, R>::kTile; d[i][i] = 0
// and every other entry is an edge weight >= 0 or INF (MinPlusOps). A graph whose vertex count is
// not a multiple of the tile is padded with isolated vertices (INF rows and columns, 0 on the
// diagonal).
//
// Round kb of the blocked algorithm, with D(I, J) the tile of rows I and columns J:
//  1. closure of the pivot tile D(kb, kb): plain Floyd-Warshall inside one block;
//  2. pivot row and column: D(kb, J) = min(D(kb, J), D(kb, kb) (x) D(kb, J)) and
//     D(I, kb) = min(D(I, kb), D(I, kb) (x) D(kb, kb)), with (x) the min-plus product;
//  3. every other tile: D(I, J) = min(D(I, J), D(I, kb) (x) D(kb, J)).
// Step 2 needs no barrier between k steps: the pivot tile is already closed (its diagonal is 0),
// so the product with the old tile equals the sequential update (a path that starts in the pivot
// block and leaves it for good after its last pivot vertex k is D*(i, k) + D_old(k, j)). Steps 2
// and 3 are therefore the same kernel, a min-plus product of two tiles staged in shared memory
// into a third held in registers: each thread owns (4R) x (4R) distances, so four k steps cost
// 64 R^2 relaxations and 8R vector loads from shared memory.
//
// Rounds are ordered by the stream (three launches per round); no block waits on another.
#pragma once

#include "primitives/min_plus.h"

#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/vendor.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>

namespace kit::min_plus {

namespace floyd_warshall_detail {

// The block layout the tile kernels are written for: 16 x 16 threads, each owning 4 x 4 groups of
// distances read as 16-byte vectors, so that 16 threads x 4 span 64 rows or columns.
constexpr int kThreads = 256;
constexpr int kThreadsPerSide = 16;
constexpr int kGroup = 4;
constexpr int kSpan = kThreadsPerSide * kGroup;

} // namespace floyd_warshall_detail

template <class T, int R> struct TileShape {
  static_assert(sizeof(T) == 4, "the vector layout assumes 4-byte distances");
  static constexpr int kTile = floyd_warshall_detail::kSpan * R;
  static constexpr int kOwned = floyd_warshall_detail::kGroup * R; // rows (columns) per thread
  static constexpr int kVectorsPerRow = kTile / 4;
  // Row pitch of the pivot tile in the closure kernel: keeps 16-byte alignment, and puts the
  // rows read together by one warp (4 apart) 16 banks apart.
  static constexpr int kPitch = kTile + 4;
  // The product stages both operands unpadded (32 KB for the 64 tile: two blocks fit in the
  // 64 KB LDS of a gfx908 CU); the row operand's vectors are swizzled instead (a_vector_index).
  static constexpr std::size_t kProductSharedBytes =
      static_cast<std::size_t>(2 * kTile * kTile) * sizeof(T);
  static constexpr std::size_t kClosureSharedBytes =
      static_cast<std::size_t>(kTile * kPitch) * sizeof(T);
};

namespace floyd_warshall_detail {

// Position of vector `column_vector` of row `row` of the row operand in shared memory. XOR-ing
// with row / 4 % 16 spreads the rows a warp reads at once (same k, rows 4 apart, one per thread
// row ty) over distinct banks; for every row a thread owns, row / 4 % 16 == ty.
template <class T, int R>
__device__ __forceinline__ int a_vector_index(int row, int column_vector) {
  return row * TileShape<T, R>::kVectorsPerRow +
         (column_vector ^ ((row / kGroup) % kThreadsPerSide));
}

// Row (or column) within the tile of a thread's i-th owned distance, for thread coordinate t.
__device__ __forceinline__ int owned_line(int i, int t) {
  return (i / kGroup) * kSpan + t * kGroup + i % kGroup;
}

template <class T, class V> __device__ __forceinline__ T component(const V &v, int i) {
  const T x = v.x, y = v.y, z = v.z, w = v.w;
  return i == 0 ? x : i == 1 ? y : i == 2 ? z : w;
}

// Loads the thread's (4R) x (4R) distances of the tile at `tile` (row pitch n).
template <class T, int R>
__device__ __forceinline__ void load_owned(T (&acc)[4 * R][4 * R], const T *tile, std::size_t n,
                                           int tx, int ty) {
  using Vector = typename MinPlusOps<T>::Vector;
#pragma unroll
  for (int r = 0; r < TileShape<T, R>::kOwned; ++r)
#pragma unroll
    for (int q = 0; q < R; ++q) {
      const Vector v =
          *reinterpret_cast<const Vector *>(tile + owned_line(r, ty) * n + q * kSpan + tx * kGroup);
      acc[r][q * 4 + 0] = v.x;
      acc[r][q * 4 + 1] = v.y;
      acc[r][q * 4 + 2] = v.z;
      acc[r][q * 4 + 3] = v.w;
    }
}

template <class T, int R>
__device__ __forceinline__ void store_owned(const T (&acc)[4 * R][4 * R], T *tile, std::size_t n,
                                            int tx, int ty) {
  using Ops = MinPlusOps<T>;
#pragma unroll
  for (int r = 0; r < TileShape<T, R>::kOwned; ++r)
#pragma unroll
    for (int q = 0; q < R; ++q)
      *reinterpret_cast<typename Ops::Vector *>(tile + owned_line(r, ty) * n + q * kSpan +
                                                tx * kGroup) =
          Ops::vector(acc[r][q * 4 + 0], acc[r][q * 4 + 1], acc[r][q * 4 + 2], acc[r][q * 4 + 3]);
}

// Copies a tile (row pitch n) into shared memory with row pitch `pitch`.
template <class T, int R>
__device__ __forceinline__ void stage_tile(T *shared, int pitch, const T *tile, std::size_t n) {
  using Vector = typename MinPlusOps<T>::Vector;
  constexpr int kVectorsPerRow = TileShape<T, R>::kVectorsPerRow;
  for (int i = threadIdx.x; i < TileShape<T, R>::kTile * kVectorsPerRow; i += kThreads) {
    const int row = i / kVectorsPerRow;
    const int col = (i % kVectorsPerRow) * 4;
    *reinterpret_cast<Vector *>(shared + row * pitch + col) =
        *reinterpret_cast<const Vector *>(tile + row * n + col);
  }
}

// Copies the row operand (row pitch n) into shared memory, swizzled.
template <class T, int R>
__device__ __forceinline__ void stage_row_operand(typename MinPlusOps<T>::Vector *shared,
                                                  const T *tile, std::size_t n) {
  using Vector = typename MinPlusOps<T>::Vector;
  constexpr int kVectorsPerRow = TileShape<T, R>::kVectorsPerRow;
  for (int i = threadIdx.x; i < TileShape<T, R>::kTile * kVectorsPerRow; i += kThreads) {
    const int row = i / kVectorsPerRow;
    const int vector = i % kVectorsPerRow;
    shared[a_vector_index<T, R>(row, vector)] =
        *reinterpret_cast<const Vector *>(tile + row * n + vector * 4);
  }
}

// acc = min(acc, A (x) B) over the tile's k; A swizzled (a_vector_index), B row-major.
template <class T, int R, MinPlusForm F>
__device__ __forceinline__ void accumulate_product(T (&acc)[4 * R][4 * R],
                                                   const typename MinPlusOps<T>::Vector *a_s,
                                                   const T *b_s, int tx, int ty) {
  using S = TileShape<T, R>;
  using Ops = MinPlusOps<T>;
  using Vector = typename Ops::Vector;
#pragma unroll 4
  for (int k0 = 0; k0 < S::kTile; k0 += 4) {
    T a[S::kOwned][4]; // a[r][kk] = A(row r, k0 + kk)
#pragma unroll
    for (int r = 0; r < S::kOwned; ++r) {
      const Vector v = a_s[owned_line(r, ty) * S::kVectorsPerRow + ((k0 / 4) ^ ty)];
#pragma unroll
      for (int kk = 0; kk < 4; ++kk)
        a[r][kk] = component<T>(v, kk);
    }
    T b[4][S::kOwned]; // b[kk][c] = B(k0 + kk, column c)
#pragma unroll
    for (int kk = 0; kk < 4; ++kk)
#pragma unroll
      for (int q = 0; q < R; ++q) {
        const Vector v =
            *reinterpret_cast<const Vector *>(b_s + (k0 + kk) * S::kTile + q * kSpan + tx * kGroup);
#pragma unroll
        for (int j = 0; j < 4; ++j)
          b[kk][q * 4 + j] = component<T>(v, j);
      }
    if constexpr (F == MinPlusForm::PairedMin3) {
#pragma unroll
      for (int kk = 0; kk < 4; kk += 2)
#pragma unroll
        for (int r = 0; r < S::kOwned; ++r)
#pragma unroll
          for (int c = 0; c < S::kOwned; ++c)
            acc[r][c] = Ops::min3(acc[r][c], a[r][kk] + b[kk][c], a[r][kk + 1] + b[kk + 1][c]);
    } else {
#pragma unroll
      for (int kk = 0; kk < 4; ++kk)
#pragma unroll
        for (int r = 0; r < S::kOwned; ++r)
#pragma unroll
          for (int c = 0; c < S::kOwned; ++c)
            acc[r][c] = Ops::add_min(a[r][kk], b[kk][c], acc[r][c]);
    }
  }
}

// Phases 2 and 3 of round kb. pivot_lines: grid (tiles - 1, 2) over the pivot row (y = 0) and
// pivot column (y = 1); otherwise grid (tiles - 1, tiles - 1) over every tile off both.
template <class T, int R, MinPlusForm F>
__global__ void __launch_bounds__(kThreads)
    minplus_product_kernel(T *d, int n, int kb, bool pivot_lines) {
  using S = TileShape<T, R>;
  using Vector = typename MinPlusOps<T>::Vector;
  extern __shared__ int4 tile_shared[]; // 16-byte aligned; int4 for every T (one declaration)
  Vector *a_s = reinterpret_cast<Vector *>(tile_shared);
  T *b_s = reinterpret_cast<T *>(a_s + S::kTile * S::kVectorsPerRow);
  int ti, tj;
  if (pivot_lines) {
    const int other = blockIdx.x + (static_cast<int>(blockIdx.x) >= kb);
    ti = blockIdx.y == 0 ? kb : other;
    tj = blockIdx.y == 0 ? other : kb;
  } else {
    ti = blockIdx.y + (static_cast<int>(blockIdx.y) >= kb);
    tj = blockIdx.x + (static_cast<int>(blockIdx.x) >= kb);
  }
  const std::size_t pitch = static_cast<std::size_t>(n);
  const std::size_t block_row = pitch * S::kTile;
  T *c_g = d + ti * block_row + static_cast<std::size_t>(tj) * S::kTile;
  const T *a_g = d + ti * block_row + static_cast<std::size_t>(kb) * S::kTile;
  const T *b_g = d + kb * block_row + static_cast<std::size_t>(tj) * S::kTile;
  const int tx = threadIdx.x % kThreadsPerSide;
  const int ty = threadIdx.x / kThreadsPerSide;

  // In the pivot row/column, C is also an operand: every read happens before the barrier and
  // no other block touches this tile, so the in-place update is safe.
  T acc[S::kOwned][S::kOwned];
  load_owned<T, R>(acc, c_g, pitch, tx, ty);
  stage_row_operand<T, R>(a_s, a_g, pitch);
  stage_tile<T, R>(b_s, S::kTile, b_g, pitch);
  __syncthreads();
  accumulate_product<T, R, F>(acc, a_s, b_s, tx, ty);
  store_owned<T, R>(acc, c_g, pitch, tx, ty);
}

// Phase 1: Floyd-Warshall inside the pivot tile. Row k and column k do not change during step k
// (d[k][k] = 0 and weights are non-negative), and only they are read in step k, so one barrier
// per step suffices as long as a thread writes back only the distances that decreased.
template <class T, int R>
__global__ void __launch_bounds__(kThreads) pivot_closure_kernel(T *d, int n, int kb) {
  using S = TileShape<T, R>;
  using Ops = MinPlusOps<T>;
  using Vector = typename Ops::Vector;
  extern __shared__ int4 tile_shared[];
  T *s = reinterpret_cast<T *>(tile_shared);
  const std::size_t pitch = static_cast<std::size_t>(n);
  T *tile = d + static_cast<std::size_t>(kb) * S::kTile * (pitch + 1);
  const int tx = threadIdx.x % kThreadsPerSide;
  const int ty = threadIdx.x / kThreadsPerSide;
  T acc[S::kOwned][S::kOwned];
  load_owned<T, R>(acc, tile, pitch, tx, ty);
  stage_tile<T, R>(s, S::kPitch, tile, pitch);
  __syncthreads();
  for (int k = 0; k < S::kTile; ++k) {
    T a[S::kOwned];
    T b[S::kOwned];
#pragma unroll
    for (int r = 0; r < S::kOwned; ++r)
      a[r] = s[owned_line(r, ty) * S::kPitch + k];
#pragma unroll
    for (int q = 0; q < R; ++q) {
      const Vector v =
          *reinterpret_cast<const Vector *>(s + k * S::kPitch + q * kSpan + tx * kGroup);
#pragma unroll
      for (int j = 0; j < 4; ++j)
        b[q * 4 + j] = component<T>(v, j);
    }
#pragma unroll
    for (int r = 0; r < S::kOwned; ++r)
#pragma unroll
      for (int c = 0; c < S::kOwned; ++c) {
        const T relaxed = Ops::add_min(a[r], b[c], acc[r][c]);
        if (relaxed < acc[r][c]) {
          acc[r][c] = relaxed;
          s[owned_line(r, ty) * S::kPitch + owned_line(c, tx)] = relaxed;
        }
      }
    __syncthreads();
  }
  store_owned<T, R>(acc, tile, pitch, tx, ty);
}

// Above 48 KB NVIDIA needs a per-kernel opt-in; it is harmless below and on AMD.
template <class Kernel> void allow_shared_bytes(Kernel kernel, std::size_t bytes) {
  GPU_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void *>(kernel),
                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(bytes)));
}

} // namespace floyd_warshall_detail

// Whether the running device gives one block the shared memory the tile kernels of side 64 R
// need (the product's two staged operands).
template <class T, int R> bool floyd_warshall_tiles_fit_device() {
  return TileShape<T, R>::kProductSharedBytes <=
         static_cast<std::size_t>(kit::gpu::max_shared_bytes_per_block());
}

// Prepares the tile kernels for launches (their shared-memory opt-in), which also loads their code:
// floyd_warshall_tiles calls it, and a program's GPU warm-up may call it earlier.
template <class T, int R, MinPlusForm F> void prepare_floyd_warshall_tiles() {
  namespace detail = floyd_warshall_detail;
  using S = TileShape<T, R>;
  static const bool prepared = [] {
    detail::allow_shared_bytes(detail::pivot_closure_kernel<T, R>, S::kClosureSharedBytes);
    detail::allow_shared_bytes(detail::minplus_product_kernel<T, R, F>, S::kProductSharedBytes);
    return true;
  }();
  (void)prepared;
}

// Floyd-Warshall in place on d (contract above), asynchronous on `stream`. A side that is not a
// multiple of the tile, or a device without the shared memory, ends the program with a message
// (exit 3): callers check floyd_warshall_tiles_fit_device first and pad the matrix.
template <class T, int R, MinPlusForm F>
void floyd_warshall_tiles(T *d, int n, cudaStream_t stream) {
  namespace detail = floyd_warshall_detail;
  using S = TileShape<T, R>;
  if (n % S::kTile != 0 || !floyd_warshall_tiles_fit_device<T, R>()) {
    std::fprintf(stderr,
                 "floyd_warshall_tiles: n = %d is not a multiple of the tile %d, or the device "
                 "lacks the %zu bytes of shared memory per block\n",
                 n, S::kTile, S::kProductSharedBytes);
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
  const int tiles = n / S::kTile;
  prepare_floyd_warshall_tiles<T, R, F>();
  for (int kb = 0; kb < tiles; ++kb) {
    detail::pivot_closure_kernel<T, R>
        <<<1, detail::kThreads, S::kClosureSharedBytes, stream>>>(d, n, kb);
    GPU_CHECK_LAUNCH("pivot_closure_kernel");
    if (tiles == 1)
      break;
    detail::minplus_product_kernel<T, R, F>
        <<<dim3(tiles - 1, 2), detail::kThreads, S::kProductSharedBytes, stream>>>(d, n, kb, true);
    GPU_CHECK_LAUNCH("minplus_product_kernel (pivot row and column)");
    detail::minplus_product_kernel<T, R, F>
        <<<dim3(tiles - 1, tiles - 1), detail::kThreads, S::kProductSharedBytes, stream>>>(d, n, kb,
                                                                                           false);
    GPU_CHECK_LAUNCH("minplus_product_kernel (remaining tiles)");
  }
}

} // namespace kit::min_plus
