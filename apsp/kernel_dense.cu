// Dense path: blocked Floyd-Warshall with register tiling.
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
// 64 R^2 relaxations (one gpu_add_min each, or 1.5 ops with paired min3) and 8R vector loads
// from shared memory.
//
// INF = 2^30 - 1: every stored value is <= INF, so a + b <= 2^31 - 2 never overflows.
#include "kernel_dense.h"

#include "kernel_rows.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace apsp {

namespace {

constexpr int kThreads = 256;
constexpr int kThreadsPerSide = 16;
// A thread's distances come in 4 x 4 groups; 16 threads x 4 span 64 rows or columns, and a
// 128 tile repeats that pattern so that each vector load of a warp stays contiguous.
constexpr int kGroup = 4;
constexpr int kSpan = kThreadsPerSide * kGroup;
// Edges uploaded per chunk while building the matrix (48 MB).
constexpr std::size_t kEdgeChunk = std::size_t{1} << 22;

// The 128 tile stages 130 KB of operands per block: NVIDIA's opt-in shared memory holds that,
// AMD's 64 KB LDS does not, so the HIP build leaves it out (its unrolled kernels would also
// take the gfx908 backend minutes to schedule for nothing).
#if KIT_CUDA
constexpr bool kLargeTileBuilt = true;
#else
constexpr bool kLargeTileBuilt = false;
#endif

template <int R> struct Shape {
  static constexpr int kTile = kSpan * R;
  static constexpr int kOwned = kGroup * R; // rows (and columns) of distances per thread
  static constexpr int kVectorsPerRow = kTile / 4;
  // Row pitch of the pivot tile in the closure kernel: keeps 16-byte alignment, and puts the
  // rows read together by one warp (4 apart) 16 banks apart.
  static constexpr int kPitch = kTile + 4;
  // The product stages both operands unpadded (32 KB for the 64 tile: two blocks fit in the
  // 64 KB LDS of a gfx908 CU); the row operand's vectors are swizzled instead (see
  // a_vector_index).
  static constexpr std::size_t kProductSharedBytes =
      static_cast<std::size_t>(2 * kTile * kTile) * sizeof(int);
  static constexpr std::size_t kClosureSharedBytes =
      static_cast<std::size_t>(kTile * kPitch) * sizeof(int);
};

// Position of vector `column_vector` (4 ints) of row `row` of the row operand in shared memory.
// XOR-ing with row / 4 % 16 spreads the rows a warp reads at once (same k, rows 4 apart, one
// per thread row ty) over distinct banks; for every row a thread owns, row / 4 % 16 == ty.
template <int R> __device__ __forceinline__ int a_vector_index(int row, int column_vector) {
  return row * Shape<R>::kVectorsPerRow + (column_vector ^ ((row / kGroup) % kThreadsPerSide));
}

// Row (or column) within the tile of a thread's i-th owned distance, for thread coordinate t.
__device__ __forceinline__ int owned_line(int i, int t) {
  return (i / kGroup) * kSpan + t * kGroup + i % kGroup;
}

__device__ __forceinline__ int component(const int4 &v, int i) {
  return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

template <MinPlusForm F> __device__ __forceinline__ int relax(int a, int b, int d) {
  if constexpr (F == MinPlusForm::Separate)
    return min(a + b, d);
  else
    return kit::gpu_add_min(a, b, d);
}

// Loads the thread's (4R) x (4R) distances of the tile at `tile` (row pitch n).
template <int R>
__device__ __forceinline__ void load_owned(int (&acc)[4 * R][4 * R], const int *tile, std::size_t n,
                                           int tx, int ty) {
#pragma unroll
  for (int r = 0; r < Shape<R>::kOwned; ++r)
#pragma unroll
    for (int q = 0; q < R; ++q) {
      const int4 v =
          *reinterpret_cast<const int4 *>(tile + owned_line(r, ty) * n + q * kSpan + tx * kGroup);
      acc[r][q * 4 + 0] = v.x;
      acc[r][q * 4 + 1] = v.y;
      acc[r][q * 4 + 2] = v.z;
      acc[r][q * 4 + 3] = v.w;
    }
}

template <int R>
__device__ __forceinline__ void store_owned(const int (&acc)[4 * R][4 * R], int *tile,
                                            std::size_t n, int tx, int ty) {
#pragma unroll
  for (int r = 0; r < Shape<R>::kOwned; ++r)
#pragma unroll
    for (int q = 0; q < R; ++q)
      *reinterpret_cast<int4 *>(tile + owned_line(r, ty) * n + q * kSpan + tx * kGroup) =
          make_int4(acc[r][q * 4 + 0], acc[r][q * 4 + 1], acc[r][q * 4 + 2], acc[r][q * 4 + 3]);
}

// Copies a T x T tile (row pitch n) into shared memory with row pitch `pitch`.
template <int R>
__device__ __forceinline__ void stage_tile(int *shared, int pitch, const int *tile, std::size_t n) {
  constexpr int kVectorsPerRow = Shape<R>::kTile / 4;
  for (int i = threadIdx.x; i < Shape<R>::kTile * kVectorsPerRow; i += kThreads) {
    const int row = i / kVectorsPerRow;
    const int col = (i % kVectorsPerRow) * 4;
    *reinterpret_cast<int4 *>(shared + row * pitch + col) =
        *reinterpret_cast<const int4 *>(tile + row * n + col);
  }
}

// Copies the T x T row operand (row pitch n) into shared memory, swizzled.
template <int R>
__device__ __forceinline__ void stage_row_operand(int4 *shared, const int *tile, std::size_t n) {
  constexpr int kVectorsPerRow = Shape<R>::kVectorsPerRow;
  for (int i = threadIdx.x; i < Shape<R>::kTile * kVectorsPerRow; i += kThreads) {
    const int row = i / kVectorsPerRow;
    const int vector = i % kVectorsPerRow;
    shared[a_vector_index<R>(row, vector)] =
        *reinterpret_cast<const int4 *>(tile + row * n + vector * 4);
  }
}

// acc = min(acc, A (x) B) over the tile's k; A swizzled (a_vector_index), B row-major.
template <int R, MinPlusForm F>
__device__ __forceinline__ void accumulate_product(int (&acc)[4 * R][4 * R], const int4 *a_s,
                                                   const int *b_s, int tx, int ty) {
  using S = Shape<R>;
#pragma unroll 4
  for (int k0 = 0; k0 < S::kTile; k0 += 4) {
    int a[S::kOwned][4]; // a[r][kk] = A(row r, k0 + kk)
#pragma unroll
    for (int r = 0; r < S::kOwned; ++r) {
      const int4 v = a_s[owned_line(r, ty) * S::kVectorsPerRow + ((k0 / 4) ^ ty)];
#pragma unroll
      for (int kk = 0; kk < 4; ++kk)
        a[r][kk] = component(v, kk);
    }
    int b[4][S::kOwned]; // b[kk][c] = B(k0 + kk, column c)
#pragma unroll
    for (int kk = 0; kk < 4; ++kk)
#pragma unroll
      for (int q = 0; q < R; ++q) {
        const int4 v =
            *reinterpret_cast<const int4 *>(b_s + (k0 + kk) * S::kTile + q * kSpan + tx * kGroup);
#pragma unroll
        for (int j = 0; j < 4; ++j)
          b[kk][q * 4 + j] = component(v, j);
      }
    if constexpr (F == MinPlusForm::PairedMin3) {
#pragma unroll
      for (int kk = 0; kk < 4; kk += 2)
#pragma unroll
        for (int r = 0; r < S::kOwned; ++r)
#pragma unroll
          for (int c = 0; c < S::kOwned; ++c)
            acc[r][c] = kit::gpu_min3(acc[r][c], a[r][kk] + b[kk][c], a[r][kk + 1] + b[kk + 1][c]);
    } else {
#pragma unroll
      for (int kk = 0; kk < 4; ++kk)
#pragma unroll
        for (int r = 0; r < S::kOwned; ++r)
#pragma unroll
          for (int c = 0; c < S::kOwned; ++c)
            acc[r][c] = relax<F>(a[r][kk], b[kk][c], acc[r][c]);
    }
  }
}

// Phases 2 and 3 of round kb. pivot_lines: grid (tiles - 1, 2) over the pivot row (y = 0) and
// pivot column (y = 1); otherwise grid (tiles - 1, tiles - 1) over every tile off both.
template <int R, MinPlusForm F>
__global__ void __launch_bounds__(kThreads)
    minplus_product_kernel(int *d, int n, int kb, bool pivot_lines) {
  using S = Shape<R>;
  extern __shared__ int4 shared_vectors[];
  int4 *a_s = shared_vectors;
  int *b_s = reinterpret_cast<int *>(shared_vectors + S::kTile * S::kVectorsPerRow);
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
  int *c_g = d + ti * block_row + static_cast<std::size_t>(tj) * S::kTile;
  const int *a_g = d + ti * block_row + static_cast<std::size_t>(kb) * S::kTile;
  const int *b_g = d + kb * block_row + static_cast<std::size_t>(tj) * S::kTile;
  const int tx = threadIdx.x % kThreadsPerSide;
  const int ty = threadIdx.x / kThreadsPerSide;

  // In the pivot row/column, C is also an operand: every read happens before the barrier and
  // no other block touches this tile, so the in-place update is safe.
  int acc[S::kOwned][S::kOwned];
  load_owned<R>(acc, c_g, pitch, tx, ty);
  stage_row_operand<R>(a_s, a_g, pitch);
  stage_tile<R>(b_s, S::kTile, b_g, pitch);
  __syncthreads();
  accumulate_product<R, F>(acc, a_s, b_s, tx, ty);
  store_owned<R>(acc, c_g, pitch, tx, ty);
}

// Phase 1: Floyd-Warshall inside the pivot tile. Row k and column k do not change during step k
// (d[k][k] = 0 and weights are non-negative), and only they are read in step k, so one barrier
// per step suffices as long as a thread writes back only the distances that decreased.
template <int R, MinPlusForm F>
__global__ void __launch_bounds__(kThreads) pivot_closure_kernel(int *d, int n, int kb) {
  using S = Shape<R>;
  extern __shared__ int4 shared_vectors[];
  int *s = reinterpret_cast<int *>(shared_vectors);
  const std::size_t pitch = static_cast<std::size_t>(n);
  int *tile = d + static_cast<std::size_t>(kb) * S::kTile * (pitch + 1);
  const int tx = threadIdx.x % kThreadsPerSide;
  const int ty = threadIdx.x / kThreadsPerSide;
  int acc[S::kOwned][S::kOwned];
  load_owned<R>(acc, tile, pitch, tx, ty);
  stage_tile<R>(s, S::kPitch, tile, pitch);
  __syncthreads();
  constexpr MinPlusForm kStepForm =
      F == MinPlusForm::Separate ? MinPlusForm::Separate : MinPlusForm::AddMin;
  for (int k = 0; k < S::kTile; ++k) {
    int a[S::kOwned];
    int b[S::kOwned];
#pragma unroll
    for (int r = 0; r < S::kOwned; ++r)
      a[r] = s[owned_line(r, ty) * S::kPitch + k];
#pragma unroll
    for (int q = 0; q < R; ++q) {
      const int4 v = *reinterpret_cast<const int4 *>(s + k * S::kPitch + q * kSpan + tx * kGroup);
#pragma unroll
      for (int j = 0; j < 4; ++j)
        b[q * 4 + j] = component(v, j);
    }
#pragma unroll
    for (int r = 0; r < S::kOwned; ++r)
#pragma unroll
      for (int c = 0; c < S::kOwned; ++c) {
        const int relaxed = relax<kStepForm>(a[r], b[c], acc[r][c]);
        if (relaxed < acc[r][c]) {
          acc[r][c] = relaxed;
          s[owned_line(r, ty) * S::kPitch + owned_line(c, tx)] = relaxed;
        }
      }
    __syncthreads();
  }
  store_owned<R>(acc, tile, pitch, tx, ty);
}

// Every distance INF except the diagonal; one block per row, vector stores.
__global__ void fill_matrix_kernel(int *d, int n) {
  const int row = blockIdx.x;
  int4 *line = reinterpret_cast<int4 *>(d + static_cast<std::size_t>(row) * n);
  for (int v = threadIdx.x; v < n / 4; v += blockDim.x) {
    int4 value = make_int4(kApspInf, kApspInf, kApspInf, kApspInf);
    if (row / 4 == v) {
      const int lane = row % 4;
      value.x = lane == 0 ? 0 : kApspInf;
      value.y = lane == 1 ? 0 : kApspInf;
      value.z = lane == 2 ? 0 : kApspInf;
      value.w = lane == 3 ? 0 : kApspInf;
    }
    line[v] = value;
  }
}

// Keeps the smallest weight per (src, dst); counts edges that break the input contract.
__global__ void scatter_edges_kernel(const Edge *edges, int count, int *d, int n, int vertices,
                                     int *invalid) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const Edge e = edges[i];
    if (static_cast<unsigned>(e.src) >= static_cast<unsigned>(vertices) ||
        static_cast<unsigned>(e.dst) >= static_cast<unsigned>(vertices) ||
        static_cast<unsigned>(e.weight) > static_cast<unsigned>(kApspMaxWeight)) {
      atomicAdd(invalid, 1);
      continue;
    }
    atomicMin(d + static_cast<std::size_t>(e.src) * n + e.dst, e.weight);
  }
}

template <class Kernel> void allow_shared_bytes(Kernel kernel, std::size_t bytes) {
  // Above 48 KB NVIDIA needs a per-kernel opt-in; it is harmless below and on AMD.
  GPU_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void *>(kernel),
                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(bytes)));
}

template <int R, MinPlusForm F> void run_floyd_warshall(int *d, int n, cudaStream_t stream) {
  using S = Shape<R>;
  const int tiles = n / S::kTile;
  static bool attributes_set = false;
  if (!attributes_set) {
    allow_shared_bytes(pivot_closure_kernel<R, F>, S::kClosureSharedBytes);
    allow_shared_bytes(minplus_product_kernel<R, F>, S::kProductSharedBytes);
    attributes_set = true;
  }
  for (int kb = 0; kb < tiles; ++kb) {
    pivot_closure_kernel<R, F><<<1, kThreads, S::kClosureSharedBytes, stream>>>(d, n, kb);
    GPU_CHECK_LAUNCH("pivot_closure_kernel");
    if (tiles == 1)
      break;
    minplus_product_kernel<R, F>
        <<<dim3(tiles - 1, 2), kThreads, S::kProductSharedBytes, stream>>>(d, n, kb, true);
    GPU_CHECK_LAUNCH("minplus_product_kernel (pivot row and column)");
    minplus_product_kernel<R, F>
        <<<dim3(tiles - 1, tiles - 1), kThreads, S::kProductSharedBytes, stream>>>(d, n, kb, false);
    GPU_CHECK_LAUNCH("minplus_product_kernel (remaining tiles)");
  }
}

template <int R> void run_floyd_warshall_form(int *d, int n, MinPlusForm form, cudaStream_t s) {
  switch (form) {
  case MinPlusForm::AddMin:
    return run_floyd_warshall<R, MinPlusForm::AddMin>(d, n, s);
  case MinPlusForm::PairedMin3:
    return run_floyd_warshall<R, MinPlusForm::PairedMin3>(d, n, s);
  case MinPlusForm::Separate:
    return run_floyd_warshall<R, MinPlusForm::Separate>(d, n, s);
  }
}

std::size_t product_shared_bytes(int tile) {
  return tile == Shape<2>::kTile ? Shape<2>::kProductSharedBytes : Shape<1>::kProductSharedBytes;
}

} // namespace

const char *form_name(MinPlusForm form) {
  switch (form) {
  case MinPlusForm::AddMin:
    return "add_min";
  case MinPlusForm::PairedMin3:
    return "paired_min3";
  case MinPlusForm::Separate:
    return "separate";
  }
  return "?";
}

DenseVariant default_dense_variant() {
#if KIT_CUDA
  return {Shape<1>::kTile, MinPlusForm::AddMin};
#else
  return {Shape<1>::kTile, MinPlusForm::PairedMin3};
#endif
}

bool dense_variant_supported(const DenseVariant &variant) {
  if (variant.tile != Shape<1>::kTile && !(kLargeTileBuilt && variant.tile == Shape<2>::kTile))
    return false;
  return product_shared_bytes(variant.tile) <=
         static_cast<std::size_t>(kit::gpu::max_shared_bytes_per_block());
}

int dense_padded_size(int vertices, int tile) { return (vertices + tile - 1) / tile * tile; }

std::size_t dense_device_bytes(int vertices, std::size_t edges, int tile) {
  const std::size_t n = static_cast<std::size_t>(dense_padded_size(vertices, tile));
  return n * n * sizeof(int) + std::min(edges, kEdgeChunk) * sizeof(Edge) + sizeof(int);
}

void dense_build(const Graph &graph, int *d, int n, cudaStream_t stream) {
  fill_matrix_kernel<<<n, kThreads, 0, stream>>>(d, n);
  GPU_CHECK_LAUNCH("fill_matrix_kernel");
  const std::size_t edges = graph.edges.size();
  int *invalid = nullptr;
  GPU_CHECK(cudaMalloc(&invalid, sizeof(int)));
  GPU_CHECK(cudaMemsetAsync(invalid, 0, sizeof(int), stream));
  Edge *chunk = nullptr;
  if (edges > 0)
    GPU_CHECK(cudaMalloc(&chunk, std::min(edges, kEdgeChunk) * sizeof(Edge)));
  const int sms = kit::gpu::device_multiprocessors();
  for (std::size_t first = 0; first < edges; first += kEdgeChunk) {
    const int count = static_cast<int>(std::min(kEdgeChunk, edges - first));
    // Same stream: the copy of the next chunk waits for this chunk's scatter.
    GPU_CHECK(cudaMemcpyAsync(chunk, graph.edges.data() + first, count * sizeof(Edge),
                              cudaMemcpyHostToDevice, stream));
    const int blocks = std::min((count + kThreads - 1) / kThreads, sms * 8);
    scatter_edges_kernel<<<blocks, kThreads, 0, stream>>>(chunk, count, d, n, graph.vertices,
                                                          invalid);
    GPU_CHECK_LAUNCH("scatter_edges_kernel");
  }
  int invalid_count = 0;
  GPU_CHECK(cudaMemcpyAsync(&invalid_count, invalid, sizeof(int), cudaMemcpyDeviceToHost, stream));
  GPU_CHECK(cudaStreamSynchronize(stream));
  GPU_CHECK(cudaFree(chunk));
  GPU_CHECK(cudaFree(invalid));
  if (invalid_count > 0) {
    std::fprintf(stderr,
                 "apsp: %d edges have an endpoint outside [0, %d) or a weight outside [0, %d]\n",
                 invalid_count, graph.vertices, kApspMaxWeight);
    std::exit(2);
  }
}

void dense_floyd_warshall(int *d, int n, const DenseVariant &variant, cudaStream_t stream) {
  if (!dense_variant_supported(variant)) {
    std::fprintf(stderr, "apsp: dense tile %d is not available on this device\n", variant.tile);
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
#if KIT_CUDA
  if (variant.tile == Shape<2>::kTile)
    return run_floyd_warshall_form<2>(d, n, variant.form, stream);
#endif
  run_floyd_warshall_form<1>(d, n, variant.form, stream);
}

void solve_dense(const Graph &graph, const RowBlockSink &sink) {
  const int vertices = graph.vertices;
  if (vertices <= 0)
    return;
  const DenseVariant variant = default_dense_variant();
  const int n = dense_padded_size(vertices, variant.tile);
  std::size_t free_bytes = 0, total_bytes = 0;
  GPU_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t needed = dense_device_bytes(vertices, graph.edges.size(), variant.tile);
  if (needed > free_bytes) {
    std::fprintf(stderr,
                 "apsp: V=%d needs %zu bytes of GPU memory for the %d x %d distance matrix, but "
                 "only %zu of %zu bytes are free\n",
                 vertices, needed, n, n, free_bytes, total_bytes);
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
  cudaStream_t stream = nullptr;
  GPU_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t done = nullptr;
  GPU_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  int *d = nullptr;
  GPU_CHECK(cudaMalloc(&d, static_cast<std::size_t>(n) * n * sizeof(int)));
  dense_build(graph, d, n, stream);
  dense_floyd_warshall(d, n, variant, stream);
  GPU_CHECK(cudaEventRecord(done, stream));
  {
    // Pinning the copy-back buffers overlaps the Floyd-Warshall rounds already queued.
    RowStreamer streamer(vertices, vertices);
    streamer.deliver(d, n, 0, vertices, done, sink);
  }
  GPU_CHECK(cudaFree(d));
  GPU_CHECK(cudaEventDestroy(done));
  GPU_CHECK(cudaStreamDestroy(stream));
}

} // namespace apsp
