// The kit's FP32 GEMM: a classic SIMT SGEMM built from fused multiply-adds, generic over leading
// dimensions, a batch (blockIdx.z, one stride per operand), B's layout and an epilogue applied to
// each output element. Every output element is one thread's sequential FMA chain over the whole
// inner dimension, starting from 0: the order of a plain dot product, and the order of cuBLAS's
// FP32 kernel at matrix_multiplication's judge size, where the results match torch's (cuBLAS's)
// bit for bit (basics/matrix_multiplication/README.md; at other sizes cuBLAS may pick another
// kernel, e.g. a split inner dimension, which the GPU tests' comparison with cuBLAS would show). A
// tile shape changes only which thread forms an element, never its chain, so any shape of
// gemm_tuning.h gives the same bits.
//
// The tile machinery:
// - each thread block owns a kBlockRows x kBlockCols tile of the output and walks the inner
//   dimension in slices kTileDepth deep; the slices of A and B go through shared memory, two
//   stages deep, so the global loads of slice t+1 are in flight (in registers) while slice t is
//   multiplied and only one barrier per slice is needed;
// - each thread accumulates a (4*SubRows) x (4*SubCols) patch in registers, made of 4x4 pieces
//   spread across the warp's tile, so that every shared-memory read is a 16-byte vector that eight
//   neighbouring lanes take from consecutive addresses (no bank conflicts) while lanes of other
//   rows read the same address (broadcast);
// - an operand whose rows run along the inner dimension (A always, B when it is stored as
//   cols x depth, the x @ W^T of a linear layer) is stored transposed in shared memory, so that a
//   thread's column of it is contiguous; its stage is padded by one 16-byte vector per depth row
//   so that the transposing stores of neighbouring threads land in different banks;
// - consecutive blocks walk down groups of 8 tile rows before moving one tile column right, so
//   the blocks resident at the same time share panels of A and B in L2.
//
// B may be two matrices (panels) of the same layout, leading dimension and batch stride:
// - paired panels (swiglu_mlp_block's gate and up projections): each block's B tile holds, in
//   every warp's column span, the same output columns from the first panel (first half of the
//   span) and then from the second. Each thread thus holds both products of the same output
//   elements, and the epilogue combines the two;
// - stacked panels (lora_linear's x W^T beside x A^T): output columns below `stack_split` come
//   from the first panel, the rest from the second (column c - stack_split), so two products
//   that share A run as one grid; the epilogue decides where each column goes.
//
// The depth may be dealt to parts (Operands::depth_parts = S > 1): slice t of the inner dimension
// (kTileDepth deep) goes to part t % S, each part is its own entry of the batch grid and its own
// FMA chain from 0, and the epilogue stores part z % S of batch z / S as batch entry z (a Store
// with a batch stride of one output plane writes S planes), which launch_split() adds in part
// order. This is the order of the sliced-depth SIMT kernels cuBLAS picks for some shapes (S slices
// of 8 dealt round-robin to the blocks of a split, then summed in order), so with kTileDepth 8 and
// the same S a product matches cuBLAS's bit for bit (basics/matrix_power/README.md).
//
// launch_split() runs depth parts: the S parts' raw products go to S planes of device scratch,
// then one pass sums each element's parts in part order and applies the caller's epilogue to the
// sum. For cuBLAS's order (matrix_power), or for speed when the output has too few tiles to fill
// the GPU; the order is not the one chain per element of launch(), so only callers whose
// tolerance leaves room for another order use it for speed (gemm_tuning.h's launch_auto_split).
// Paired panels are not supported (the epilogue needs both sums at once).
//
// Any sizes >= 1 work: loads outside the matrices read as zero and stores outside the output are
// skipped. 16-byte global loads and stores are used only when every leading dimension, batch
// stride and the column count are multiples of 4 floats, the depth too where an operand's rows run
// along it, and every pointer is 16-byte aligned; otherwise the same kernel loads single floats.
#pragma once

#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/shared_memory.h"
#include "gpu/vendor.h"

#include <cstddef>
#include <cstdint>

namespace kit::gemm {

// Lanes that sit side by side along a row of the output: eight 16-byte reads cover all 32 banks
// once. Inline, so that a file whose solve instantiates no SIMT tile (the matrix-core GEMMs'
// exports) compiles without an unused-variable warning.
inline constexpr int kLanesAlongCols = 8;

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
  static constexpr int kAVectorsPerThread = BlockRows * TileDepth / 4 / kThreads;
  static constexpr int kBVectorsPerThread = TileDepth * BlockCols / 4 / kThreads;

  static_assert(BlockRows % kThreadRows == 0 && BlockCols % kThreadCols == 0, "uneven block");
  static_assert(TileDepth % 4 == 0, "slices are loaded as 4-float vectors");
  static_assert(BlockRows * TileDepth % (4 * kThreads) == 0, "A slice must split evenly");
  static_assert(TileDepth * BlockCols % (4 * kThreads) == 0, "B slice must split evenly");
};

// How B lies in memory (A is always rows x depth, row-major, element (r, k) at a[r * lda + k]).
enum class Panels {
  One,     // B is ops.b
  Paired,  // two panels, both products of each output element (see above)
  Stacked, // two panels side by side in the output's columns (see above)
};

enum class BLayout {
  DepthByCols, // B is depth x cols: element (k, c) at b[k * ldb + c] (C = A B)
  ColsByDepth, // B is cols x depth: element (k, c) at b[c * ldb + k] (C = A W^T)
};

// The shared-memory stage of a shape and layout: the transposed operands' rows are padded by one
// 16-byte vector.
template <class Shape, BLayout kLayout> struct Staging {
  static constexpr int kAStride = Shape::kBlockRows + 4;
  static constexpr int kBStride = Shape::kBlockCols + (kLayout == BLayout::ColsByDepth ? 4 : 0);
  static constexpr int kStageFloats = Shape::kTileDepth * (kAStride + kBStride);
  static constexpr std::size_t kSharedBytes = 2 * kStageFloats * sizeof(float);
};

// The operands of one call. Batch z reads a + z * a_batch_stride and b + z * b_batch_stride
// (strides of 0 share an operand across the batch). With two panels, b_second is the second
// (same layout, leading dimension and batch stride as b). cols is the count of output columns:
// paired panels read cols columns of each; stacked ones read stack_split columns of the first and
// cols - stack_split of the second.
struct Operands {
  const float *a = nullptr;
  std::size_t lda = 0;
  std::size_t a_batch_stride = 0;
  const float *b = nullptr;
  std::size_t ldb = 0;
  std::size_t b_batch_stride = 0;
  const float *b_second = nullptr;
  int stack_split = 0;
  int rows = 0;
  int cols = 0;
  int depth = 0;
  int batches = 1;
  int depth_parts = 1; // > 1: the depth's slices dealt round-robin to that many parts (see above)
  int first_batch = 0; // set by launch(): grids of at most 65535 entries (blockIdx.z's extent)
};

inline bool aligned_16(const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// The epilogues. Each gives the address of output element (batch, row, col) and the value stored
// there from the element's product (two products with paired panels); it may read that address
// first (the kernel stores after the call). The addresses of a row's columns are consecutive.
// `vector_ok` says whether four consecutive columns from a multiple of 4 may be stored as one
// 16-byte vector.

// C = product.
struct Store {
  float *c;
  std::size_t ldc;
  std::size_t batch_stride;
  __device__ float *at(int batch, int row, int col) const {
    return c + static_cast<std::size_t>(batch) * batch_stride +
           static_cast<std::size_t>(row) * ldc + col;
  }
  __device__ float operator()(float product, const float *) const { return product; }
  bool vector_ok() const { return aligned_16(c) && ldc % 4 == 0 && batch_stride % 4 == 0; }
};

// C = C + scale * product, each step rounded to FP32 as torch's `c + scale * p` rounds them (the
// product scaled first, then added; no fused multiply-add).
struct ScaleAdd {
  float *c;
  std::size_t ldc;
  std::size_t batch_stride;
  float scale;
  __device__ float *at(int batch, int row, int col) const {
    return c + static_cast<std::size_t>(batch) * batch_stride +
           static_cast<std::size_t>(row) * ldc + col;
  }
  __device__ float operator()(float product, const float *out) const {
    return __fadd_rn(*out, __fmul_rn(scale, product));
  }
  bool vector_ok() const { return aligned_16(c) && ldc % 4 == 0 && batch_stride % 4 == 0; }
};

// C = residual + product, or residual + (product + bias[col]) with a bias: a transformer block's
// residual connection, rounded as torch's `x + (a @ W + b)` (the bias added to the product first).
// The residual has C's layout (an element's offset from c is its offset from residual), and the
// bias column is that offset modulo ldc (batch strides multiples of ldc).
struct ResidualStore {
  float *c;
  std::size_t ldc;
  std::size_t batch_stride;
  const float *residual;
  const float *bias; // one per column, or nullptr
  __device__ float *at(int batch, int row, int col) const {
    return c + static_cast<std::size_t>(batch) * batch_stride +
           static_cast<std::size_t>(row) * ldc + col;
  }
  __device__ float operator()(float product, const float *out) const {
    const std::size_t offset = static_cast<std::size_t>(out - c);
    const float sum = bias ? __fadd_rn(product, bias[offset % ldc]) : product;
    return __fadd_rn(residual[offset], sum);
  }
  bool vector_ok() const { return aligned_16(c) && ldc % 4 == 0 && batch_stride % 4 == 0; }
};

// Stacked panels' outputs: columns below `split` to c (leading dimension ldc), the rest to
// c_second (column c - split, leading dimension ld_second). Batch strides as Store's.
struct StackedStore {
  float *c;
  std::size_t ldc;
  std::size_t batch_stride;
  float *c_second;
  std::size_t ld_second;
  std::size_t second_batch_stride;
  int split;
  __device__ float *at(int batch, int row, int col) const {
    return col < split ? c + static_cast<std::size_t>(batch) * batch_stride +
                             static_cast<std::size_t>(row) * ldc + col
                       : c_second + static_cast<std::size_t>(batch) * second_batch_stride +
                             static_cast<std::size_t>(row) * ld_second + (col - split);
  }
  __device__ float operator()(float product, const float *) const { return product; }
  // A 16-byte piece starts at a multiple of 4 and never straddles the split.
  bool vector_ok() const {
    return aligned_16(c) && aligned_16(c_second) && ldc % 4 == 0 && ld_second % 4 == 0 &&
           batch_stride % 4 == 0 && second_batch_stride % 4 == 0 && split % 4 == 0;
  }
};

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
// spills the large shape; one block per CU leaves 256.
#if KIT_CUDA
#define KIT_GEMM_MIN_BLOCKS(Shape) Shape::kMinBlocksPerSm
#else
#define KIT_GEMM_MIN_BLOCKS(Shape) 1
#endif

// Output columns per block: with paired panels, half the B tile's columns.
template <class Shape, Panels kPanels>
constexpr int kOutputColsPerBlock =
    kPanels == Panels::Paired ? Shape::kBlockCols / 2 : Shape::kBlockCols;

template <class Shape, BLayout kLayout, Panels kPanels, bool kVectorGlobal, class Epilogue>
__global__ void __launch_bounds__(Shape::kThreads, KIT_GEMM_MIN_BLOCKS(Shape))
    gemm_kernel(Operands ops, Epilogue epilogue) {
  using Stage = Staging<Shape, kLayout>;
  constexpr int kLanesAlongRows = KIT_WARP_SIZE / kLanesAlongCols;
  constexpr int kWarpRows = kLanesAlongRows * Shape::kThreadRows;
  constexpr int kWarpCols = kLanesAlongCols * Shape::kThreadCols;
  constexpr int kWarpsAlongCols = Shape::kBlockCols / kWarpCols;
  static_assert(Shape::kBlockRows % kWarpRows == 0 && Shape::kBlockCols % kWarpCols == 0,
                "the block tile must be whole warp tiles");
  static_assert((Shape::kBlockRows / kWarpRows) * kWarpsAlongCols * KIT_WARP_SIZE ==
                    Shape::kThreads,
                "warps must cover the block tile exactly");
  constexpr bool kPaired = kPanels == Panels::Paired;
  static_assert(!kPaired || Shape::kSubCols % 2 == 0, "paired panels split a thread's pieces");
  constexpr int kDepthVectors = Shape::kTileDepth / 4; // 4-float vectors per depth run of a slice
  constexpr int kColVectors = Shape::kBlockCols / 4;   // 4-float vectors per row of a B slice
  // Paired panels: each warp's column span holds kHalfSpan output columns of the first panel, then
  // the same columns of the second.
  constexpr int kHalfSpan = kWarpCols / 2;
  constexpr int kOutCols = kOutputColsPerBlock<Shape, kPanels>;

  extern __shared__ float4 shared_vectors[]; // float4 for 16-byte alignment
  float *const shared = reinterpret_cast<float *>(shared_vectors);

  const int rows = ops.rows, cols = ops.cols, depth = ops.depth;
  // The batch grid's entry: the epilogue's batch index; the operands' batch and the depth part.
  const int entry = ops.first_batch + static_cast<int>(blockIdx.z);
  const int parts = ops.depth_parts;
  const int batch = entry / parts;
  const int part = entry - batch * parts;
  const float *const a = ops.a + static_cast<std::size_t>(batch) * ops.a_batch_stride;
  const float *const b = ops.b + static_cast<std::size_t>(batch) * ops.b_batch_stride;
  const float *const b_second =
      kPanels != Panels::One ? ops.b_second + static_cast<std::size_t>(batch) * ops.b_batch_stride
                             : nullptr;
  const int stack_split = ops.stack_split;
  const std::size_t lda = ops.lda, ldb = ops.ldb;

  const int tid = static_cast<int>(threadIdx.x);
  int tile_row, tile_col;
  block_tile((rows + Shape::kBlockRows - 1) / Shape::kBlockRows, (cols + kOutCols - 1) / kOutCols,
             tile_row, tile_col);
  const int block_row0 = tile_row * Shape::kBlockRows;
  const int block_col0 = tile_col * kOutCols;

  // Column `local` of the block's B tile: which panel it comes from, its output column (the
  // bound every load checks) and its column in that panel.
  auto b_column = [&](int local, const float *&panel, int &col, int &panel_col) {
    if (kPanels == Panels::Paired) {
      const int within = local % kWarpCols;
      panel = within < kHalfSpan ? b : b_second;
      col = block_col0 + (local / kWarpCols) * kHalfSpan + within % kHalfSpan;
      panel_col = col;
    } else if (kPanels == Panels::Stacked) {
      col = block_col0 + local;
      const bool first = col < stack_split;
      panel = first ? b : b_second;
      panel_col = first ? col : col - stack_split;
    } else {
      panel = b;
      col = block_col0 + local;
      panel_col = col;
    }
  };

  // Staging registers: slice t+1 travels from global memory while slice t is multiplied. The
  // operands are read only, and the loads say so (__ldg: the read-only data path on NVIDIA, what
  // __restrict__ kernel parameters give; Operands' members cannot carry the qualifier).
  float4 a_next[Shape::kAVectorsPerThread];
  float4 b_next[Shape::kBVectorsPerThread];

  // Four consecutive depths of a row that runs along the inner dimension; zeros outside it.
  auto load_depth_run = [&](const float *row_start, bool row_ok, int k) {
    const float *src = row_start + k;
    if (kVectorGlobal) {
      // depth % 4 == 0 here, so a vector is wholly inside or wholly outside the row.
      return (row_ok && k < depth) ? __ldg(reinterpret_cast<const float4 *>(src))
                                   : make_float4(0.f, 0.f, 0.f, 0.f);
    }
    float4 v;
    v.x = (row_ok && k + 0 < depth) ? __ldg(src + 0) : 0.f;
    v.y = (row_ok && k + 1 < depth) ? __ldg(src + 1) : 0.f;
    v.z = (row_ok && k + 2 < depth) ? __ldg(src + 2) : 0.f;
    v.w = (row_ok && k + 3 < depth) ? __ldg(src + 3) : 0.f;
    return v;
  };

  auto load_slice = [&](int depth0) {
#pragma unroll
    for (int v = 0; v < Shape::kAVectorsPerThread; ++v) {
      const int slot = tid + v * Shape::kThreads;
      const int row = block_row0 + slot / kDepthVectors;
      const int k = depth0 + (slot % kDepthVectors) * 4;
      a_next[v] = load_depth_run(a + static_cast<std::size_t>(row) * lda, row < rows, k);
    }
#pragma unroll
    for (int v = 0; v < Shape::kBVectorsPerThread; ++v) {
      const int slot = tid + v * Shape::kThreads;
      const float *panel;
      int col, panel_col;
      if (kLayout == BLayout::ColsByDepth) {
        b_column(slot / kDepthVectors, panel, col, panel_col);
        const int k = depth0 + (slot % kDepthVectors) * 4;
        b_next[v] =
            load_depth_run(panel + static_cast<std::size_t>(panel_col) * ldb, col < cols, k);
      } else {
        const int k = depth0 + slot / kColVectors;
        b_column((slot % kColVectors) * 4, panel, col, panel_col);
        const float *src = panel + static_cast<std::size_t>(k) * ldb + panel_col;
        if (kVectorGlobal) {
          // cols % 4 == 0 (and stack_split % 4 == 0), so a vector never straddles the end of the
          // matrix or a change of panel.
          b_next[v] = (k < depth && col < cols) ? __ldg(reinterpret_cast<const float4 *>(src))
                                                : make_float4(0.f, 0.f, 0.f, 0.f);
        } else {
          // Element by element; with stacked panels each column finds its own panel.
          float element[4];
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            const float *element_panel = panel;
            int element_col = col + e, element_panel_col = panel_col + e;
            if (kPanels == Panels::Stacked)
              b_column((slot % kColVectors) * 4 + e, element_panel, element_col, element_panel_col);
            element[e] =
                (k < depth && element_col < cols)
                    ? __ldg(element_panel + static_cast<std::size_t>(k) * ldb + element_panel_col)
                    : 0.f;
          }
          b_next[v] = make_float4(element[0], element[1], element[2], element[3]);
        }
      }
    }
  };

  auto store_slice = [&](int stage) {
    float *const a_tile = shared + stage * Stage::kStageFloats;
    float *const b_tile = a_tile + Shape::kTileDepth * Stage::kAStride;
#pragma unroll
    for (int v = 0; v < Shape::kAVectorsPerThread; ++v) {
      const int slot = tid + v * Shape::kThreads;
      const int row = slot / kDepthVectors;
      const int k = (slot % kDepthVectors) * 4;
      a_tile[(k + 0) * Stage::kAStride + row] = a_next[v].x;
      a_tile[(k + 1) * Stage::kAStride + row] = a_next[v].y;
      a_tile[(k + 2) * Stage::kAStride + row] = a_next[v].z;
      a_tile[(k + 3) * Stage::kAStride + row] = a_next[v].w;
    }
#pragma unroll
    for (int v = 0; v < Shape::kBVectorsPerThread; ++v) {
      const int slot = tid + v * Shape::kThreads;
      if (kLayout == BLayout::ColsByDepth) {
        const int col = slot / kDepthVectors;
        const int k = (slot % kDepthVectors) * 4;
        b_tile[(k + 0) * Stage::kBStride + col] = b_next[v].x;
        b_tile[(k + 1) * Stage::kBStride + col] = b_next[v].y;
        b_tile[(k + 2) * Stage::kBStride + col] = b_next[v].z;
        b_tile[(k + 3) * Stage::kBStride + col] = b_next[v].w;
      } else {
        const int k = slot / kColVectors;
        const int col = (slot % kColVectors) * 4;
        *reinterpret_cast<float4 *>(b_tile + k * Stage::kBStride + col) = b_next[v];
      }
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

  // This part's slices: depth slices part, part + parts, part + 2 parts, ...
  const int depth_slices = (depth + Shape::kTileDepth - 1) / Shape::kTileDepth;
  const int slices = depth_slices > part ? (depth_slices - part + parts - 1) / parts : 0;
  const int slice_step = parts * Shape::kTileDepth;
  load_slice(part * Shape::kTileDepth);
  store_slice(0);
  __syncthreads();

  for (int slice = 0; slice < slices; ++slice) {
    // Unconditional on purpose: past the last slice every bound check fails, so nothing is read
    // and zeros go to a stage nobody reads. Guarding it with "if there is a next slice" let the
    // compiler merge it with the guarded store below, which sank the global loads behind the
    // multiply and exposed their whole latency on every slice (seen in the SASS).
    load_slice(part * Shape::kTileDepth + (slice + 1) * slice_step);

    const float *const a_tile = shared + (slice & 1) * Stage::kStageFloats;
    const float *const b_tile = a_tile + Shape::kTileDepth * Stage::kAStride;
#pragma unroll
    for (int k = 0; k < Shape::kTileDepth; ++k) {
      float a_frag[Shape::kThreadRows];
      float b_frag[Shape::kThreadCols];
#pragma unroll
      for (int p = 0; p < Shape::kSubRows; ++p) {
        const float4 v = *reinterpret_cast<const float4 *>(a_tile + k * Stage::kAStride +
                                                           thread_row0 + p * kPieceRowStep);
        a_frag[4 * p + 0] = v.x;
        a_frag[4 * p + 1] = v.y;
        a_frag[4 * p + 2] = v.z;
        a_frag[4 * p + 3] = v.w;
      }
#pragma unroll
      for (int p = 0; p < Shape::kSubCols; ++p) {
        const float4 v = *reinterpret_cast<const float4 *>(b_tile + k * Stage::kBStride +
                                                           thread_col0 + p * kPieceColStep);
        b_frag[4 * p + 0] = v.x;
        b_frag[4 * p + 1] = v.y;
        b_frag[4 * p + 2] = v.z;
        b_frag[4 * p + 3] = v.w;
      }
      // The element's chain: one FMA per depth, in depth order.
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

  // The epilogue. Without paired panels piece p of the thread's patch is output columns
  // thread_col0 + p * kPieceColStep; with them, pieces p and p + kSubCols / 2 are the first and
  // second panels' products of the same output columns.
  constexpr int kOutPieces = kPaired ? Shape::kSubCols / 2 : Shape::kSubCols;
  const int warp_out_col0 =
      kPaired ? (warp % kWarpsAlongCols) * kHalfSpan : (warp % kWarpsAlongCols) * kWarpCols;
  const int thread_out_col0 = block_col0 + warp_out_col0 + (lane % kLanesAlongCols) * 4;
#pragma unroll
  for (int i = 0; i < Shape::kThreadRows; ++i) {
    const int row = block_row0 + thread_row0 + (i / 4) * kPieceRowStep + i % 4;
    if (row >= rows)
      continue;
#pragma unroll
    for (int p = 0; p < kOutPieces; ++p) {
      const int col = thread_out_col0 + p * kPieceColStep;
      const float *const first = &acc[i][4 * p];
      const float *const second = &acc[i][kPaired ? 4 * (p + kOutPieces) : 4 * p];
      auto value = [&](int j, const float *out) {
        if constexpr (kPaired)
          return epilogue(first[j], second[j], out);
        else
          return epilogue(first[j], out);
      };
      if (kVectorGlobal) {
        if (col < cols) {
          float *const out = epilogue.at(entry, row, col);
          const float4 v =
              make_float4(value(0, out), value(1, out + 1), value(2, out + 2), value(3, out + 3));
          *reinterpret_cast<float4 *>(out) = v;
        }
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (col + j < cols) {
            float *const out = epilogue.at(entry, row, col + j);
            *out = value(j, out);
          }
      }
    }
  }
}

// Whether the 16-byte path may serve these operands (the epilogue's own check aside).
template <BLayout kLayout, Panels kPanels> bool operands_vector_ok(const Operands &ops) {
  const bool depth_runs = ops.depth % 4 == 0; // A's rows (and B's in ColsByDepth) run along it
  return depth_runs && ops.cols % 4 == 0 && ops.lda % 4 == 0 && ops.ldb % 4 == 0 &&
         ops.a_batch_stride % 4 == 0 && ops.b_batch_stride % 4 == 0 && aligned_16(ops.a) &&
         aligned_16(ops.b) && (kPanels == Panels::One || aligned_16(ops.b_second)) &&
         (kPanels != Panels::Stacked || ops.stack_split % 4 == 0);
}

template <class Shape, BLayout kLayout, Panels kPanels, bool kVectorGlobal, class Epilogue>
void launch_with(const Operands &ops, const Epilogue &epilogue, cudaStream_t stream) {
  using Stage = Staging<Shape, kLayout>;
  auto *const kernel = gemm_kernel<Shape, kLayout, kPanels, kVectorGlobal, Epilogue>;
  // Above the default per-block limit on NVIDIA for the large shape (an opt-in); within the 64 KB
  // LDS on AMD.
  static const bool shared_reserved = [kernel] {
    kit::gpu::reserve_shared_bytes("gemm_kernel", kernel, Stage::kSharedBytes);
    return true;
  }();
  (void)shared_reserved;
  constexpr int kOutCols = kOutputColsPerBlock<Shape, kPanels>;
  const long long tiles =
      static_cast<long long>((ops.rows + Shape::kBlockRows - 1) / Shape::kBlockRows) *
      ((ops.cols + kOutCols - 1) / kOutCols);
  constexpr int kMostEntriesPerGrid = 65535;
  const int entries = ops.batches * ops.depth_parts;
  for (int first = 0; first < entries; first += kMostEntriesPerGrid) {
    Operands part = ops;
    part.first_batch = first;
    const int count = entries - first < kMostEntriesPerGrid ? entries - first : kMostEntriesPerGrid;
    const dim3 grid(static_cast<unsigned>(tiles), 1, static_cast<unsigned>(count));
    kernel<<<grid, Shape::kThreads, Stage::kSharedBytes, stream>>>(part, epilogue);
    GPU_CHECK_LAUNCH("gemm_kernel");
  }
}

// Launches the GEMM with the given tile shape on `stream` (asynchronous): for every batch z <
// ops.batches, output (row, col) = epilogue(sum over k of A(z)[row, k] * B(z)[k, col]) in
// ascending k, one FMA chain per element (per part with depth parts, see the top). The 16-byte
// path is taken when operands and epilogue allow it. More than 65535 grid entries (batches times
// parts: the grid's z extent) take one launch per 65535.
template <class Shape, BLayout kLayout, Panels kPanels = Panels::One, class Epilogue>
void launch(const Operands &ops, const Epilogue &epilogue, cudaStream_t stream) {
  if (ops.rows <= 0 || ops.cols <= 0 || ops.batches <= 0 || ops.depth_parts <= 0)
    return;
  if (operands_vector_ok<kLayout, kPanels>(ops) && epilogue.vector_ok())
    launch_with<Shape, kLayout, kPanels, true>(ops, epilogue, stream);
  else
    launch_with<Shape, kLayout, kPanels, false>(ops, epilogue, stream);
}

// The second pass of a split launch: element (batch, row, col) of the output gets
// epilogue(((planes[0] + planes[1]) + planes[2]) + ...), its `parts` partial products summed in
// part order, each addition rounded to FP32. Plane (batch, part) is entry batch * parts + part of
// the first pass's grid, a packed rows x cols matrix at planes + entry * rows * cols.
template <class Epilogue>
__global__ void sum_parts_epilogue_kernel(const float *planes, int parts, int rows, int cols,
                                          int batches, Epilogue epilogue) {
  const std::size_t plane = static_cast<std::size_t>(rows) * cols;
  const std::size_t elements = plane * batches;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < elements; i += stride) {
    const std::size_t batch = i / plane;
    const std::size_t within = i - batch * plane;
    const float *const first = planes + batch * parts * plane + within;
    float sum = first[0];
    for (int p = 1; p < parts; ++p)
      sum = sum + first[p * plane]; // not contracted: nothing to fuse with
    const int row = static_cast<int>(within / cols);
    const int col = static_cast<int>(within - static_cast<std::size_t>(row) * cols);
    float *const out = epilogue.at(static_cast<int>(batch), row, col);
    *out = epilogue(sum, out);
  }
}

// A scratch for callers of launch_split() that keep none of their own (one per program, grown to
// the largest split seen; stream order keeps successive users on one stream apart).
inline kit::gpu::DeviceScratch &split_scratch() {
  static kit::gpu::DeviceScratch scratch;
  return scratch;
}

// launch() with the depth dealt to `parts` parts (see the top): the first pass writes each part's
// raw product to its own plane of `scratch` (batches x parts planes of rows x cols floats), the
// second sums every element's planes in part order and applies `epilogue` at
// epilogue.at(batch, row, col) (it may read the output first, as ScaleAdd does). The order is that
// of depth parts summed in part order, not launch()'s one chain per element; parts == 1 is
// launch().
// Asynchronous on `stream`; `multiprocessors` sizes the second pass's grid. Growing `scratch`
// waits for the device (DeviceScratch::reserve).
template <class Shape, BLayout kLayout, Panels kPanels = Panels::One, class Epilogue>
void launch_split(const Operands &ops, const Epilogue &epilogue, int parts,
                  kit::gpu::DeviceScratch &scratch, int multiprocessors, cudaStream_t stream) {
  static_assert(kPanels != Panels::Paired,
                "paired panels combine two products per element: not supported by the split");
  if (ops.rows <= 0 || ops.cols <= 0 || ops.batches <= 0 || parts <= 0)
    return;
  if (parts == 1) {
    Operands whole = ops;
    whole.depth_parts = 1;
    launch<Shape, kLayout, kPanels>(whole, epilogue, stream);
    return;
  }
  const std::size_t plane = static_cast<std::size_t>(ops.rows) * ops.cols;
  const std::size_t planes = static_cast<std::size_t>(ops.batches) * parts;
  float *const partial = static_cast<float *>(scratch.reserve(planes * plane * sizeof(float)));
  Operands split = ops;
  split.depth_parts = parts;
  // Entry z = batch * parts + part of the grid stores to plane z.
  launch<Shape, kLayout, kPanels>(split, Store{partial, static_cast<std::size_t>(ops.cols), plane},
                                  stream);
  constexpr int kThreads = 256;
  const std::size_t elements = plane * ops.batches;
  const std::size_t needed = (elements + kThreads - 1) / kThreads;
  const std::size_t most = static_cast<std::size_t>(multiprocessors > 0 ? multiprocessors : 1) * 8;
  const unsigned blocks = static_cast<unsigned>(needed < most ? needed : most);
  sum_parts_epilogue_kernel<Epilogue>
      <<<blocks, kThreads, 0, stream>>>(partial, parts, ops.rows, ops.cols, ops.batches, epilogue);
  GPU_CHECK_LAUNCH("sum_parts_epilogue_kernel");
}

} // namespace kit::gemm
