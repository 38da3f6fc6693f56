// sparse_matrix_dense_matrix_multiplication (LeetGPU 75): C = A B in FP32, A an M x N row-major
// matrix stored densely with about 35% of its entries non-zero, B N x K, C M x K (DEVICE pointers;
// tolerance 1e-3 absolute and relative). N is the inner (summed) size.
//
// At 35% density a compacted (value, column) form of A saves little: it still drives a dense row
// of B per non-zero, and what bounds a product of this shape on the FP32 pipes is the issue of
// its FMAs, not the bytes. So the kernel is a register-tiled product over dense slices of A and B
// in shared memory that issues the FMAs of non-zero entries of A only:
//  - a 256-thread block owns a tile of C, 8 rows per warp (64 rows on 32-lane warps, 32 on 64)
//    by 256 columns, and walks the inner size in slices 16 deep; the slices of A (stored
//    transposed, depth-major) and B go through shared memory two stages deep, the global loads
//    of slice t + 1 in flight in registers while slice t is multiplied, one barrier per slice;
//  - every lane of a warp owns the same 8 rows of C and its own 8 (or, on 64-lane warps, 4)
//    columns, so an entry of A is the same value in every lane (one broadcast read), and the
//    test "this entry is 0, skip its FMAs" is uniform across the warp: a zero entry costs a
//    compare and a branch instead of 8 FMAs. At 35% density the FMAs issued are 35% of the dense
//    product's, M N K * 0.35 = 1.5e9 at the judge's 4096 x 2048 x 512;
//  - each element of C is one thread's FMA chain over the inner size in index order, zeros
//    skipped (adding 0 * b leaves a finite sum unchanged, so the result is bit for bit the dense
//    sequential chain's);
//  - 16-byte global loads and stores when N % 4 == 0, K % 4 == 0 and the pointers are 16-byte
//    aligned; otherwise the same kernel reads and writes single floats. Any M, N, K >= 1: reads
//    outside the matrices are zeros, writes outside C are skipped.
#include "gpu/check.h"
#include "gpu/vendor.h"

#include <cstddef>
#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / KIT_WARP_SIZE;
constexpr int kRowsPerWarp = 8;
constexpr int kBlockRows = kRowsPerWarp * kWarps;
constexpr int kBlockCols = 256;
constexpr int kPieces = kBlockCols / (4 * KIT_WARP_SIZE); // 16-byte pieces per lane and row
constexpr int kThreadCols = 4 * kPieces;
constexpr int kDepth = 16;
// The transposed A slice is padded by one 16-byte vector per depth row, so the transposing
// stores of neighbouring threads spread over the banks.
constexpr int kAStride = kBlockRows + 4;
constexpr int kStageFloats = kDepth * kAStride + kDepth * kBlockCols;
constexpr int kDepthVectors = kDepth / 4;   // 16-byte vectors per row of an A slice
constexpr int kColVectors = kBlockCols / 4; // 16-byte vectors per row of a B slice
constexpr int kAVectorSlots = kBlockRows * kDepthVectors;
constexpr int kAVectors = (kAVectorSlots + kThreads - 1) / kThreads;
constexpr int kBVectors = kDepth * kColVectors / kThreads;

static_assert(kPieces >= 1 && kBlockCols % (4 * KIT_WARP_SIZE) == 0, "a warp spans the tile");
static_assert(kDepth * kColVectors % kThreads == 0, "B slice must split evenly");
static_assert(kStageFloats % 4 == 0 && kAStride % 4 == 0, "16-byte aligned tiles");

template <bool kVectorGlobal>
__global__ void __launch_bounds__(kThreads, 1)
    multiply_nonzeros(const float *__restrict__ a, const float *__restrict__ b,
                      float *__restrict__ c, int rows, int inner, int cols) {
  __shared__ float4 stages[2 * kStageFloats / 4];
  float *const shared = reinterpret_cast<float *>(stages);

  const int tid = static_cast<int>(threadIdx.x);
  const int block_row0 = static_cast<int>(blockIdx.y) * kBlockRows;
  const int block_col0 = static_cast<int>(blockIdx.x) * kBlockCols;

  // Staging registers: slice t + 1 travels from global memory while slice t is multiplied.
  float4 a_next[kAVectors];
  float4 b_next[kBVectors];

  auto load_slice = [&](int depth0) {
#pragma unroll
    for (int v = 0; v < kAVectors; ++v) {
      const int slot = tid + v * kThreads;
      const int row = block_row0 + slot / kDepthVectors;
      const int k = depth0 + (slot % kDepthVectors) * 4;
      const bool row_ok = slot < kAVectorSlots && row < rows;
      const float *src = a + static_cast<std::size_t>(row) * inner + k;
      if (kVectorGlobal) {
        // inner % 4 == 0 here, so a vector is wholly inside or wholly outside the row.
        a_next[v] = row_ok && k < inner ? *reinterpret_cast<const float4 *>(src)
                                        : make_float4(0.f, 0.f, 0.f, 0.f);
      } else {
        a_next[v].x = row_ok && k + 0 < inner ? src[0] : 0.f;
        a_next[v].y = row_ok && k + 1 < inner ? src[1] : 0.f;
        a_next[v].z = row_ok && k + 2 < inner ? src[2] : 0.f;
        a_next[v].w = row_ok && k + 3 < inner ? src[3] : 0.f;
      }
    }
#pragma unroll
    for (int v = 0; v < kBVectors; ++v) {
      const int slot = tid + v * kThreads;
      const int k = depth0 + slot / kColVectors;
      const int col = block_col0 + (slot % kColVectors) * 4;
      const float *src = b + static_cast<std::size_t>(k) * cols + col;
      if (kVectorGlobal) {
        b_next[v] = k < inner && col < cols ? *reinterpret_cast<const float4 *>(src)
                                            : make_float4(0.f, 0.f, 0.f, 0.f);
      } else {
        const bool k_ok = k < inner;
        b_next[v].x = k_ok && col + 0 < cols ? src[0] : 0.f;
        b_next[v].y = k_ok && col + 1 < cols ? src[1] : 0.f;
        b_next[v].z = k_ok && col + 2 < cols ? src[2] : 0.f;
        b_next[v].w = k_ok && col + 3 < cols ? src[3] : 0.f;
      }
    }
  };

  auto store_slice = [&](int stage) {
    float *const a_tile = shared + stage * kStageFloats;
    float *const b_tile = a_tile + kDepth * kAStride;
#pragma unroll
    for (int v = 0; v < kAVectors; ++v) {
      const int slot = tid + v * kThreads;
      if (slot < kAVectorSlots) {
        const int row = slot / kDepthVectors;
        const int k = (slot % kDepthVectors) * 4;
        a_tile[(k + 0) * kAStride + row] = a_next[v].x;
        a_tile[(k + 1) * kAStride + row] = a_next[v].y;
        a_tile[(k + 2) * kAStride + row] = a_next[v].z;
        a_tile[(k + 3) * kAStride + row] = a_next[v].w;
      }
    }
#pragma unroll
    for (int v = 0; v < kBVectors; ++v) {
      const int slot = tid + v * kThreads;
      const int k = slot / kColVectors;
      const int col = (slot % kColVectors) * 4;
      *reinterpret_cast<float4 *>(b_tile + k * kBlockCols + col) = b_next[v];
    }
  };

  const int lane = tid % KIT_WARP_SIZE;
  const int warp_row0 = (tid / KIT_WARP_SIZE) * kRowsPerWarp;
  // Piece p of this lane: columns p * 4 * warp + 4 * lane .. + 3 of the tile, so the warp's
  // 16-byte reads of a B row are consecutive.
  const int lane_col0 = 4 * lane;
  constexpr int kPieceStep = 4 * KIT_WARP_SIZE;

  float acc[kRowsPerWarp][kThreadCols];
#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r)
#pragma unroll
    for (int j = 0; j < kThreadCols; ++j)
      acc[r][j] = 0.f;

  const int slices = (inner + kDepth - 1) / kDepth;
  load_slice(0);
  store_slice(0);
  __syncthreads();

  for (int slice = 0; slice < slices; ++slice) {
    // Unconditional, as in matrix_multiplication: past the last slice every bound check fails,
    // so nothing is read and zeros go to a stage nobody reads.
    load_slice((slice + 1) * kDepth);

    const float *const a_tile = shared + (slice & 1) * kStageFloats;
    const float *const b_tile = a_tile + kDepth * kAStride;
#pragma unroll
    for (int k = 0; k < kDepth; ++k) {
      float b_frag[kThreadCols];
#pragma unroll
      for (int p = 0; p < kPieces; ++p) {
        const float4 v =
            *reinterpret_cast<const float4 *>(b_tile + k * kBlockCols + p * kPieceStep + lane_col0);
        b_frag[4 * p + 0] = v.x;
        b_frag[4 * p + 1] = v.y;
        b_frag[4 * p + 2] = v.z;
        b_frag[4 * p + 3] = v.w;
      }
      // The warp's 8 entries of A at depth k: the same address in every lane (a broadcast).
      const float4 a_low = *reinterpret_cast<const float4 *>(a_tile + k * kAStride + warp_row0);
      const float4 a_high =
          *reinterpret_cast<const float4 *>(a_tile + k * kAStride + warp_row0 + 4);
      const float a_frag[kRowsPerWarp] = {a_low.x,  a_low.y,  a_low.z,  a_low.w,
                                          a_high.x, a_high.y, a_high.z, a_high.w};
#pragma unroll
      for (int r = 0; r < kRowsPerWarp; ++r)
        if (a_frag[r] != 0.f) // the same in every lane of the warp: no divergence
#pragma unroll
          for (int j = 0; j < kThreadCols; ++j)
            acc[r][j] = fmaf(a_frag[r], b_frag[j], acc[r][j]);
    }

    store_slice((slice + 1) & 1);
    // One barrier per slice: it publishes the stage just stored and, because the next iteration
    // stores into the stage read above, also retires every read of that stage.
    __syncthreads();
  }

#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) {
    const int row = block_row0 + warp_row0 + r;
    if (row >= rows)
      continue;
    float *const c_row = c + static_cast<std::size_t>(row) * cols;
#pragma unroll
    for (int p = 0; p < kPieces; ++p) {
      const int col = block_col0 + p * kPieceStep + lane_col0;
      const float *const piece = &acc[r][4 * p];
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

bool aligned16(const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <bool kVectorGlobal>
void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  const dim3 grid(static_cast<unsigned>((K + kBlockCols - 1) / kBlockCols),
                  static_cast<unsigned>((M + kBlockRows - 1) / kBlockRows));
  multiply_nonzeros<kVectorGlobal><<<grid, kThreads>>>(A, B, C, M, N, K);
  GPU_CHECK_LAUNCH("multiply_nonzeros");
}

} // namespace

// A is M x N, B is N x K, C is M x K, row-major device pointers; nnz (A's non-zero count) is not
// needed.
extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K, int nnz) {
  (void)nnz;
  if (M <= 0 || K <= 0)
    return;
  if (N % 4 == 0 && K % 4 == 0 && aligned16(A) && aligned16(B) && aligned16(C))
    launch<true>(A, B, C, M, N, K);
  else
    launch<false>(A, B, C, M, N, K);
}
