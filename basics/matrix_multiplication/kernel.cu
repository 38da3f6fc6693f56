// matrix_multiplication (LeetGPU basics): C = A * B in FP32, row-major, DEVICE pointers.
// A is M x N, B is N x K, C is M x K; N is the inner (summed) dimension.
//
// The judge compares with torch's FP32 product (cuBLAS's) at 1e-4 absolute and relative, below the
// rounding error of an FP32 sum over thousands of terms, so the product must be summed in
// cuBLAS's order, not merely to FP32 accuracy (an FP32-accurate 3xTF32 tensor-core product fails
// it: README.md). This is a classic SIMT SGEMM built from FP32 fused multiply-adds:
// - each thread block owns a kBlockRows x kBlockCols tile of C and walks the inner dimension in
//   slices kTileDepth deep; the slices of A and B go through shared memory, two stages deep, so
//   the global loads of slice t+1 are in flight (in registers) while slice t is multiplied and
//   only one barrier per slice is needed;
// - each thread accumulates a (4*SubRows) x (4*SubCols) patch of C in registers, made of 4x4
//   pieces spread across the warp's tile, so that every shared-memory read is a 16-byte vector
//   that eight neighbouring lanes take from consecutive addresses (no bank conflicts) while lanes
//   of other rows read the same address (broadcast);
// - A's slice is stored transposed (depth-major) so that a thread's column of A is contiguous.
// Every output element is one thread's sequential FMA chain over the whole inner dimension, the
// order a plain dot product uses and cuBLAS's FP32 kernel uses at the judge's sizes: the results
// are bit for bit cuBLAS's there.
//
// Any M, N, K >= 1 works: loads outside the matrices read as zero and stores outside C are
// skipped. 16-byte global loads and stores are used only when every row stride is a multiple of 4
// floats and every pointer is 16-byte aligned; otherwise the same kernel loads single floats.
#include "gpu/check.h"
#include "gpu/shared_memory.h"
#include "gpu/vendor.h"

#include <cstddef>
#include <cstdint>

namespace matmul {

// Lanes that sit side by side along a row of C: eight 16-byte reads cover all 32 banks once.
constexpr int kLanesAlongCols = 8;

template <int BlockRows, int BlockCols, int TileDepth, int SubRows, int SubCols, int MinBlocksPerSm>
struct TileShape {
  static constexpr int kBlockRows = BlockRows;
  static constexpr int kBlockCols = BlockCols;
  static constexpr int kTileDepth = TileDepth;
  static constexpr int kSubRows = SubRows;
  static constexpr int kSubCols = SubCols;
  static constexpr int kMinBlocksPerSm = MinBlocksPerSm;
  static constexpr int kThreadRows = 4 * SubRows;
  static constexpr int kThreadCols = 4 * SubCols;
  // Independent of the warp size: only the arrangement of warps inside the block depends on it.
  static constexpr int kThreads = (BlockRows / kThreadRows) * (BlockCols / kThreadCols);
  // The transposed A slice is padded by one 16-byte vector per depth row so that the transposing
  // stores of neighbouring threads land in different banks.
  static constexpr int kAStride = BlockRows + 4;
  static constexpr int kBStride = BlockCols;
  static constexpr int kStageFloats = TileDepth * (kAStride + kBStride);
  static constexpr std::size_t kSharedBytes = 2 * kStageFloats * sizeof(float);
  static constexpr int kAVectorsPerThread = BlockRows * TileDepth / 4 / kThreads;
  static constexpr int kBVectorsPerThread = TileDepth * BlockCols / 4 / kThreads;

  static_assert(BlockRows % kThreadRows == 0 && BlockCols % kThreadCols == 0, "uneven block");
  static_assert(TileDepth % 4 == 0, "slices are loaded as 4-float vectors");
  static_assert(BlockRows * TileDepth % (4 * kThreads) == 0, "A slice must split evenly");
  static_assert(TileDepth * BlockCols % (4 * kThreads) == 0, "B slice must split evenly");
};

// The shape solve() uses: 256x128 outputs per block, slices 16 deep, 16x8 outputs per thread, one
// block of 256 threads per SM (about 240 registers each). It was the fastest of the shapes swept
// (README.md, design notes): a taller thread patch reads 24 floats from shared memory per 128
// FMAs instead of 16 per 64, and the deeper slice halves the barriers.
using DefaultShape = TileShape<256, 128, 16, 4, 2, 1>;

// Consecutive blocks walk down a group of kGroupRows tile rows before moving one tile column
// right, so the blocks resident at the same time share panels of A and B in L2.
__device__ __forceinline__ void block_tile(int tile_rows, int tile_cols, int &tile_row,
                                           int &tile_col) {
  constexpr int kGroupRows = 8;
  const int block = static_cast<int>(blockIdx.x);
  const int blocks_per_group = kGroupRows * tile_cols;
  const int group = block / blocks_per_group;
  const int first_row = group * kGroupRows;
  const int group_rows = min(kGroupRows, tile_rows - first_row);
  const int within = block - group * blocks_per_group;
  tile_row = first_row + within % group_rows;
  tile_col = within / group_rows;
}

// On CDNA only the architectural VGPRs feed FMAs (the accumulation registers serve the matrix
// cores), and asking for two resident blocks of four waves halves them to 128 per lane, which
// spills; one block per CU leaves 256.
#if KIT_CUDA
#define MATMUL_MIN_BLOCKS(Shape) Shape::kMinBlocksPerSm
#else
#define MATMUL_MIN_BLOCKS(Shape) 1
#endif

template <class Shape, bool kVectorGlobal>
__global__ void __launch_bounds__(Shape::kThreads, MATMUL_MIN_BLOCKS(Shape))
    matmul_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
                  int rows, int depth, int cols) {
  constexpr int kLanesAlongRows = KIT_WARP_SIZE / kLanesAlongCols;
  constexpr int kWarpRows = kLanesAlongRows * Shape::kThreadRows;
  constexpr int kWarpCols = kLanesAlongCols * Shape::kThreadCols;
  constexpr int kWarpsAlongCols = Shape::kBlockCols / kWarpCols;
  static_assert(Shape::kBlockRows % kWarpRows == 0 && Shape::kBlockCols % kWarpCols == 0,
                "the block tile must be whole warp tiles");
  static_assert((Shape::kBlockRows / kWarpRows) * kWarpsAlongCols * KIT_WARP_SIZE ==
                    Shape::kThreads,
                "warps must cover the block tile exactly");
  constexpr int kDepthVectors = Shape::kTileDepth / 4; // 4-float vectors per row of an A slice
  constexpr int kColVectors = Shape::kBlockCols / 4;   // 4-float vectors per row of a B slice

  extern __shared__ float4 shared_vectors[]; // float4 for 16-byte alignment
  float *const shared = reinterpret_cast<float *>(shared_vectors);

  const int tid = static_cast<int>(threadIdx.x);
  int tile_row, tile_col;
  block_tile((rows + Shape::kBlockRows - 1) / Shape::kBlockRows,
             (cols + Shape::kBlockCols - 1) / Shape::kBlockCols, tile_row, tile_col);
  const int block_row0 = tile_row * Shape::kBlockRows;
  const int block_col0 = tile_col * Shape::kBlockCols;

  // Staging registers: slice t+1 travels from global memory while slice t is multiplied.
  float4 a_next[Shape::kAVectorsPerThread];
  float4 b_next[Shape::kBVectorsPerThread];

  auto load_slice = [&](int depth0) {
#pragma unroll
    for (int v = 0; v < Shape::kAVectorsPerThread; ++v) {
      const int slot = tid + v * Shape::kThreads;
      const int row = block_row0 + slot / kDepthVectors;
      const int k = depth0 + (slot % kDepthVectors) * 4;
      const float *src = a + static_cast<std::size_t>(row) * depth + k;
      if (kVectorGlobal) {
        // depth % 4 == 0 here, so a vector is wholly inside or wholly outside the row.
        a_next[v] = (row < rows && k < depth) ? *reinterpret_cast<const float4 *>(src)
                                              : make_float4(0.f, 0.f, 0.f, 0.f);
      } else {
        const bool row_ok = row < rows;
        a_next[v].x = (row_ok && k + 0 < depth) ? src[0] : 0.f;
        a_next[v].y = (row_ok && k + 1 < depth) ? src[1] : 0.f;
        a_next[v].z = (row_ok && k + 2 < depth) ? src[2] : 0.f;
        a_next[v].w = (row_ok && k + 3 < depth) ? src[3] : 0.f;
      }
    }
#pragma unroll
    for (int v = 0; v < Shape::kBVectorsPerThread; ++v) {
      const int slot = tid + v * Shape::kThreads;
      const int k = depth0 + slot / kColVectors;
      const int col = block_col0 + (slot % kColVectors) * 4;
      const float *src = b + static_cast<std::size_t>(k) * cols + col;
      if (kVectorGlobal) {
        b_next[v] = (k < depth && col < cols) ? *reinterpret_cast<const float4 *>(src)
                                              : make_float4(0.f, 0.f, 0.f, 0.f);
      } else {
        const bool k_ok = k < depth;
        b_next[v].x = (k_ok && col + 0 < cols) ? src[0] : 0.f;
        b_next[v].y = (k_ok && col + 1 < cols) ? src[1] : 0.f;
        b_next[v].z = (k_ok && col + 2 < cols) ? src[2] : 0.f;
        b_next[v].w = (k_ok && col + 3 < cols) ? src[3] : 0.f;
      }
    }
  };

  auto store_slice = [&](int stage) {
    float *const a_tile = shared + stage * Shape::kStageFloats;
    float *const b_tile = a_tile + Shape::kTileDepth * Shape::kAStride;
#pragma unroll
    for (int v = 0; v < Shape::kAVectorsPerThread; ++v) {
      const int slot = tid + v * Shape::kThreads;
      const int row = slot / kDepthVectors;
      const int k = (slot % kDepthVectors) * 4;
      a_tile[(k + 0) * Shape::kAStride + row] = a_next[v].x;
      a_tile[(k + 1) * Shape::kAStride + row] = a_next[v].y;
      a_tile[(k + 2) * Shape::kAStride + row] = a_next[v].z;
      a_tile[(k + 3) * Shape::kAStride + row] = a_next[v].w;
    }
#pragma unroll
    for (int v = 0; v < Shape::kBVectorsPerThread; ++v) {
      const int slot = tid + v * Shape::kThreads;
      const int k = slot / kColVectors;
      const int col = (slot % kColVectors) * 4;
      *reinterpret_cast<float4 *>(b_tile + k * Shape::kBStride + col) = b_next[v];
    }
  };

  // Where this thread's 4x4 pieces sit inside the block tile.
  const int warp = tid / KIT_WARP_SIZE;
  const int lane = tid % KIT_WARP_SIZE;
  const int thread_row0 = (warp / kWarpsAlongCols) * kWarpRows + (lane / kLanesAlongCols) * 4;
  const int thread_col0 = (warp % kWarpsAlongCols) * kWarpCols + (lane % kLanesAlongCols) * 4;
  constexpr int kPieceRowStep = kLanesAlongRows * 4;
  constexpr int kPieceColStep = kLanesAlongCols * 4;

  float acc[Shape::kThreadRows][Shape::kThreadCols];
#pragma unroll
  for (int i = 0; i < Shape::kThreadRows; ++i)
#pragma unroll
    for (int j = 0; j < Shape::kThreadCols; ++j)
      acc[i][j] = 0.f;

  const int slices = (depth + Shape::kTileDepth - 1) / Shape::kTileDepth;
  load_slice(0);
  store_slice(0);
  __syncthreads();

  for (int slice = 0; slice < slices; ++slice) {
    // Unconditional on purpose: past the last slice every bound check fails, so nothing is read
    // and zeros go to a stage nobody reads. Guarding it with "if there is a next slice" let the
    // compiler merge it with the guarded store below, which sank the global loads behind the
    // multiply and exposed their whole latency on every slice (seen in the SASS).
    load_slice((slice + 1) * Shape::kTileDepth);

    const float *const a_tile = shared + (slice & 1) * Shape::kStageFloats;
    const float *const b_tile = a_tile + Shape::kTileDepth * Shape::kAStride;
#pragma unroll
    for (int k = 0; k < Shape::kTileDepth; ++k) {
      float a_frag[Shape::kThreadRows];
      float b_frag[Shape::kThreadCols];
#pragma unroll
      for (int p = 0; p < Shape::kSubRows; ++p) {
        const float4 v = *reinterpret_cast<const float4 *>(a_tile + k * Shape::kAStride +
                                                           thread_row0 + p * kPieceRowStep);
        a_frag[4 * p + 0] = v.x;
        a_frag[4 * p + 1] = v.y;
        a_frag[4 * p + 2] = v.z;
        a_frag[4 * p + 3] = v.w;
      }
#pragma unroll
      for (int p = 0; p < Shape::kSubCols; ++p) {
        const float4 v = *reinterpret_cast<const float4 *>(b_tile + k * Shape::kBStride +
                                                           thread_col0 + p * kPieceColStep);
        b_frag[4 * p + 0] = v.x;
        b_frag[4 * p + 1] = v.y;
        b_frag[4 * p + 2] = v.z;
        b_frag[4 * p + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < Shape::kThreadRows; ++i)
#pragma unroll
        for (int j = 0; j < Shape::kThreadCols; ++j)
          acc[i][j] = fmaf(a_frag[i], b_frag[j], acc[i][j]);
    }

    store_slice((slice + 1) & 1);
    // One barrier per slice: it publishes the stage just stored and, because the next iteration
    // stores into the stage read above, also retires every read of that stage.
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < Shape::kThreadRows; ++i) {
    const int row = block_row0 + thread_row0 + (i / 4) * kPieceRowStep + i % 4;
    if (row >= rows)
      continue;
    float *const c_row = c + static_cast<std::size_t>(row) * cols;
#pragma unroll
    for (int p = 0; p < Shape::kSubCols; ++p) {
      const int col = block_col0 + thread_col0 + p * kPieceColStep;
      const float *const piece = &acc[i][4 * p];
      if (kVectorGlobal) {
        if (col < cols)
          *reinterpret_cast<float4 *>(c_row + col) =
              make_float4(piece[0], piece[1], piece[2], piece[3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (col + j < cols)
            c_row[col + j] = piece[j];
      }
    }
  }
}

inline bool aligned_16(const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// Launches C = A * B with the given tile shape on `stream` (asynchronous). rows x depth times
// depth x cols.
template <class Shape, bool kVectorGlobal>
void launch_with(const float *a, const float *b, float *c, int rows, int depth, int cols,
                 cudaStream_t stream) {
  // Above the default per-block limit on NVIDIA (an opt-in); within the 64 KB LDS on AMD.
  static const bool shared_reserved = [] {
    kit::gpu::reserve_shared_bytes("matmul_kernel", matmul_kernel<Shape, kVectorGlobal>,
                                   Shape::kSharedBytes);
    return true;
  }();
  (void)shared_reserved;
  const long long tiles =
      static_cast<long long>((rows + Shape::kBlockRows - 1) / Shape::kBlockRows) *
      ((cols + Shape::kBlockCols - 1) / Shape::kBlockCols);
  matmul_kernel<Shape, kVectorGlobal>
      <<<static_cast<unsigned>(tiles), Shape::kThreads, Shape::kSharedBytes, stream>>>(
          a, b, c, rows, depth, cols);
  GPU_CHECK_LAUNCH("matmul_kernel");
}

// Picks the 16-byte path when every row stride and pointer allows it.
template <class Shape>
void launch(const float *a, const float *b, float *c, int rows, int depth, int cols,
            cudaStream_t stream) {
  if (rows <= 0 || cols <= 0)
    return;
  const bool vector_ok =
      depth % 4 == 0 && cols % 4 == 0 && aligned_16(a) && aligned_16(b) && aligned_16(c);
  if (vector_ok)
    launch_with<Shape, true>(a, b, c, rows, depth, cols, stream);
  else
    launch_with<Shape, false>(a, b, c, rows, depth, cols, stream);
}

} // namespace matmul

// A is M x N, B is N x K, C is M x K; all device pointers, row-major.
extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
  matmul::launch<matmul::DefaultShape>(A, B, C, M, N, K, nullptr);
  GPU_CHECK(cudaDeviceSynchronize());
}
