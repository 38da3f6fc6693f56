// A block-tile GEMM on the matrix-core layer (primitives/mma.h): for every batch z, output
// (row, col) = epilogue(sum over k of A(z)[row, k] * B(z)[k, col]) with fp16 operands and fp32
// accumulators (Kind::F16) or int8 operands and int32 accumulators (Kind::I8). Any rows, cols,
// depth >= 1: what lies outside the matrices is staged as zeros and outputs outside are skipped.
//
// Interface (namespace kit::mma):
//   Problem p{rows, cols, depth, batches};
//   launch<Shape, Kind>(p, a_loader, b_loader, epilogue, stream);     // the general form
//   launch_matrices<Shape, Kind, BLayout>(p, a, b, epilogue, stream);  // plain matrices in memory
//   launch_auto<Kind, BLayout>(p, a, b, epilogue, multiprocessors, stream); // shape from the table
// with Matrix<Kind>{data, ld, batch_stride} for plain operands (A rows x depth row-major; B as
// BLayout says), Shape a BlockShape (mma_gemm_tuning.h holds the table), and:
//
// THE EPILOGUE: a copyable functor called once per output element inside the matrices,
//   __device__ void operator()(int batch, int row, int col, Accum value) const;
// with the element's fp32 (int32) sum; it stores whatever it makes of it (e.g. alpha * value +
// beta * C rounded to fp16, reading C first; a requantisation of an int32 sum). Which thread
// calls it for which element is unspecified; each element gets exactly one call. An epilogue may
// also take whole runs of a row, for wide loads and stores:
//   static constexpr int kVectorColumns = V;  // a divisor of every block shape's columns
//   __device__ void store_vector(int batch, int row, int col, const Accum (&values)[V]) const;
// Then the block's sums pass through shared memory and each run of V columns inside the matrix
// (col a multiple of V) gets one store_vector() call; the columns of a run that crosses the
// matrix's right edge get operator() calls one by one. The epilogue checks the alignment its
// vector accesses need (e.g. a flag computed on the host).
//
// THE TILE LOADERS (the hook for operands that are not plain matrices, e.g. int4 weights
// dequantised to fp16 while B is staged). A loader moves one stage of an operand, kOuter x kDepth
// elements (outer = the block's rows for A, its columns for B), from global memory into shared
// memory in two halves, so that the global loads of stage t + 1 are in flight in registers while
// stage t is multiplied:
//   struct MyBLoader {
//     static constexpr BLayout kSharedLayout = ...; // how store() lays the stage out (A loaders:
//                                                   // ColsByDepth, i.e. rows along depth)
//     template <class Stage> struct Registers { ... };   // one thread's share of a stage
//     template <class Stage> __device__ void fetch(Registers<Stage> &r, int batch, int outer0,
//                                                  int depth0) const;
//     template <class Stage> __device__ void store(const Registers<Stage> &r, Element *stage,
//                                                  int ld) const;
//   };
// Stage is a StageShape: Stage::kOuter, Stage::kDepth (a multiple of the kind's kDepth) and
// Stage::kThreads (the block's threads, all of which call fetch and store; the thread's index is
// threadIdx.x). fetch() reads the operand's elements (outer0 + o, depth0 + k) for o < kOuter,
// k < kDepth, giving ZERO for those outside the operand (the kernel relies on it for ragged edges);
// it is also called once with depth0 past the end, where it must read nothing out of bounds (its
// values go unused). store() writes them as the kind's Element (fp16 bits, int8) into `stage`:
// element (o, k) at stage[o * ld + k] for ColsByDepth, stage[k * ld + o] for DepthByCols; `stage`
// and ld * sizeof(Element) are 16-byte aligned, so 16-byte stores work. MatrixLoader below is the
// plain loader of a matrix in memory and a model to copy.
//
// THE ASYNCHRONOUS PATH: a loader that can copy its stage into shared memory unchanged, 16 bytes
// at a time, declares
//     static constexpr bool kAsyncCopy = true;
//     template <class Stage> __device__ void copy_async(Element *stage, int ld, int batch,
//                                                       int outer0, int depth0) const;
// (the same elements and zeros as fetch() then store(), through gpu_async_copy_16_or_zeros).
// MatrixLoader with 16-byte loads does. Where both loaders do and the target has cp.async
// (NVIDIA; kRingPath), the kernel runs the ring below; otherwise the register path.
//
// The kernel: each block owns a kBlockRows x kBlockCols output tile, its warps a kWarpRows x
// kWarpCols piece made of 32 x 32 warp tiles (mma.h); the inner dimension is walked in stages of
// kStageSteps k-steps. Within a stage on the ring, each warp reads the next k-step's fragments
// before issuing the current one's products (two fragment sets). Between stages:
// - the ring (cp.async, sm_80 and later): kRingStages shared buffers, the copies of the next
//   kRingStages - 1 stages in flight while one is multiplied, one barrier per stage;
// - the register path: two buffers, the next stage's global loads held in registers while the
//   current one is multiplied, then stored (a loader may transform what it loads here, e.g.
//   dequantise or transpose), one barrier per stage.
// Shared rows are padded by 16 bytes, which puts the eight 16-byte rows of every ldmatrix in
// distinct banks. Consecutive blocks walk down groups of tile rows (kit::gemm::block_tile) to
// share operand panels in L2. Batches over 65535 take one launch per 65535 (blockIdx.z's extent).
#pragma once

#include "gpu/bulk_copy.h"
#include "gpu/check.h"
#include "gpu/shared_memory.h"
#include "gpu/vendor.h"
#include "primitives/gemm.h"
#include "primitives/mma.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace kit::mma {

// The block tile: kWarpsAlongRows x kWarpsAlongCols warps, each owning a (BlockRows /
// WarpsAlongRows) x (BlockCols / WarpsAlongCols) piece (multiples of 32), stages of StageSteps
// k-steps. The thread count follows the warp size of the target.
template <int BlockRows, int BlockCols, int WarpsAlongRows, int WarpsAlongCols, int StageSteps,
          int MinBlocksPerSm, int RingStages = 4>
struct BlockShape {
  static constexpr int kBlockRows = BlockRows;
  static constexpr int kBlockCols = BlockCols;
  static constexpr int kWarpsAlongRows = WarpsAlongRows;
  static constexpr int kWarpsAlongCols = WarpsAlongCols;
  static constexpr int kStageSteps = StageSteps;
  static constexpr int kMinBlocksPerSm = MinBlocksPerSm;
  static constexpr int kRingStages = RingStages; // stages in flight on the asynchronous path
  static constexpr int kWarps = WarpsAlongRows * WarpsAlongCols;
  static constexpr int kThreads = kWarps * KIT_WARP_SIZE;
  static constexpr int kWarpRows = BlockRows / WarpsAlongRows;
  static constexpr int kWarpCols = BlockCols / WarpsAlongCols;
  static_assert(kWarpRows % kTileRows == 0 && kWarpCols % kTileCols == 0,
                "a warp's piece must be whole 32 x 32 tiles");
  static_assert(RingStages >= 2 && RingStages <= 5, "the ring waits on at most 3 pending stages");
};

template <int Outer, int Depth, int Threads> struct StageShape {
  static constexpr int kOuter = Outer;
  static constexpr int kDepth = Depth;
  static constexpr int kThreads = Threads;
};

struct Problem {
  int rows = 0;
  int cols = 0;
  int depth = 0;
  int batches = 1;
  int first_batch = 0; // set by launch(): grids of at most 65535 batches
};

template <Kind K> struct Matrix {
  const typename KindTraits<K>::Element *data = nullptr;
  std::size_t ld = 0;           // elements between rows as stored
  std::size_t batch_stride = 0; // elements between batches (0: one matrix for every batch)
};

// The shared-memory geometry of a shape, a kind and the B loader's layout (elements).
template <class Shape, Kind K, BLayout kBLayout> struct Staging {
  using Element = typename KindTraits<K>::Element;
  static constexpr int kStageDepth = Shape::kStageSteps * KindTraits<K>::kDepth;
  static constexpr int kPad = kRowAlignBytes / static_cast<int>(sizeof(Element));
  static constexpr int kLdA = kStageDepth + kPad;
  static constexpr bool kBDepthRows = kBLayout == BLayout::DepthByCols;
  static constexpr int kLdB = (kBDepthRows ? Shape::kBlockCols : kStageDepth) + kPad;
  static constexpr int kAElements = Shape::kBlockRows * kLdA;
  static constexpr int kBElements = (kBDepthRows ? kStageDepth : Shape::kBlockCols) * kLdB;
  static constexpr int kStageElements = kAElements + kBElements;
  // Shared memory for `buffers` stages: 2 on the register path, Shape::kRingStages on the ring.
  static constexpr std::size_t shared_bytes(int buffers) {
    return static_cast<std::size_t>(buffers) * kStageElements * sizeof(Element);
  }
  static_assert(kAElements * sizeof(Element) % 16 == 0, "B's stage must start 16-byte aligned");
};

// The plain loader: a matrix in memory, one per batch. kLayout says how it is stored (and how it
// is staged: the same way): ColsByDepth, element (outer, k) at data[outer * ld + k] (A, and B as
// cols x depth); DepthByCols, element (k, outer) at data[k * ld + outer] (B as depth x cols). With
// kVector, 16-byte loads, for which the run dimension's extent, ld, the batch stride and the
// pointer must be multiples of 16 bytes (vector_ok); otherwise element by element.
template <Kind K, BLayout kLayout, bool kVector> struct MatrixLoader {
  using Element = typename KindTraits<K>::Element;
  static constexpr BLayout kSharedLayout = kLayout;
  static constexpr int kVectorElements = 16 / static_cast<int>(sizeof(Element));

  Matrix<K> matrix;
  int outer_extent = 0; // rows of A, columns of B
  int depth = 0;

  static bool vector_ok(const Matrix<K> &m, int outer_extent, int depth) {
    const int run = kLayout == BLayout::ColsByDepth ? depth : outer_extent;
    return reinterpret_cast<std::uintptr_t>(m.data) % 16 == 0 && run % kVectorElements == 0 &&
           m.ld % kVectorElements == 0 && m.batch_stride % kVectorElements == 0;
  }

  template <class Stage> struct Registers {
    static constexpr int kRunVectors =
        (kLayout == BLayout::ColsByDepth ? Stage::kDepth : Stage::kOuter) / kVectorElements;
    static constexpr int kVectors = Stage::kOuter * Stage::kDepth / kVectorElements;
    static constexpr int kPerThread = kVectors / Stage::kThreads;
    static_assert(kVectors % Stage::kThreads == 0, "a stage must split evenly over the threads");
    static_assert((kLayout == BLayout::ColsByDepth ? Stage::kDepth : Stage::kOuter) %
                          kVectorElements ==
                      0,
                  "a staged run must be whole 16-byte vectors");
    uint4 v[kPerThread];
  };

  // Vector slot s of a stage: its run (an outer index for ColsByDepth, a depth otherwise) and the
  // first element along the run.
  template <class Stage> __device__ static void slot_position(int slot, int &outer, int &k) {
    constexpr int kRunVectors = Registers<Stage>::kRunVectors;
    if constexpr (kLayout == BLayout::ColsByDepth) {
      outer = slot / kRunVectors;
      k = (slot % kRunVectors) * kVectorElements;
    } else {
      k = slot / kRunVectors;
      outer = (slot % kRunVectors) * kVectorElements;
    }
  }

  template <class Stage>
  __device__ void fetch(Registers<Stage> &r, int batch, int outer0, int depth0) const {
    const Element *const base = matrix.data + static_cast<std::size_t>(batch) * matrix.batch_stride;
    const int tid = static_cast<int>(threadIdx.x);
#pragma unroll
    for (int i = 0; i < Registers<Stage>::kPerThread; ++i) {
      int o, k;
      slot_position<Stage>(tid + i * Stage::kThreads, o, k);
      const int outer = outer0 + o, kk = depth0 + k;
      const bool along_depth = kLayout == BLayout::ColsByDepth;
      const std::size_t offset = along_depth ? static_cast<std::size_t>(outer) * matrix.ld + kk
                                             : static_cast<std::size_t>(kk) * matrix.ld + outer;
      if constexpr (kVector) {
        // The run's extent is a multiple of the vector: a vector is wholly inside or outside.
        r.v[i] = (outer < outer_extent && kk < depth)
                     ? *reinterpret_cast<const uint4 *>(base + offset)
                     : make_uint4(0u, 0u, 0u, 0u);
      } else {
        // Packed by shifts, lowest address in the lowest bits (a byte array copied into the
        // vector would live in scratch memory on AMD).
        constexpr int kPerWord = 4 / static_cast<int>(sizeof(Element));
        std::uint32_t words[4];
#pragma unroll
        for (int w = 0; w < 4; ++w) {
          words[w] = 0;
#pragma unroll
          for (int e = 0; e < kPerWord; ++e) {
            const int j = w * kPerWord + e;
            const bool inside = along_depth ? (outer < outer_extent && kk + j < depth)
                                            : (outer + j < outer_extent && kk < depth);
            using Unsigned = std::make_unsigned_t<Element>;
            const std::uint32_t bits =
                inside ? static_cast<Unsigned>(base[offset + j]) : std::uint32_t{0};
            words[w] |= bits << (8 * static_cast<int>(sizeof(Element)) * e);
          }
        }
        r.v[i] = make_uint4(words[0], words[1], words[2], words[3]);
      }
    }
  }

  template <class Stage>
  __device__ void store(const Registers<Stage> &r, Element *stage, int ld) const {
    const int tid = static_cast<int>(threadIdx.x);
#pragma unroll
    for (int i = 0; i < Registers<Stage>::kPerThread; ++i) {
      int o, k;
      slot_position<Stage>(tid + i * Stage::kThreads, o, k);
      const int at = kLayout == BLayout::ColsByDepth ? o * ld + k : k * ld + o;
      *reinterpret_cast<uint4 *>(stage + at) = r.v[i];
    }
  }

  // The asynchronous path (see the top of the file): the same vectors straight from global to
  // shared memory, zeros outside.
  static constexpr bool kAsyncCopy = kVector;
  template <class Stage>
  __device__ void copy_async(Element *stage, int ld, int batch, int outer0, int depth0) const {
    static_assert(kVector, "16-byte copies only");
    const Element *const base = matrix.data + static_cast<std::size_t>(batch) * matrix.batch_stride;
    const int tid = static_cast<int>(threadIdx.x);
#pragma unroll
    for (int i = 0; i < Registers<Stage>::kPerThread; ++i) {
      int o, k;
      slot_position<Stage>(tid + i * Stage::kThreads, o, k);
      const int outer = outer0 + o, kk = depth0 + k;
      const bool along_depth = kLayout == BLayout::ColsByDepth;
      const bool inside = outer < outer_extent && kk < depth;
      const std::size_t offset = along_depth ? static_cast<std::size_t>(outer) * matrix.ld + kk
                                             : static_cast<std::size_t>(kk) * matrix.ld + outer;
      const int at = along_depth ? o * ld + k : k * ld + o;
      gpu_async_copy_16_or_zeros(stage + at, inside ? base + offset : base, inside);
    }
  }
};

// A depth x cols B (element (k, c) at data[k * ld + c]) staged as cols x depth, so that the warp
// tiles read a column's consecutive depths as one word: on NVIDIA through ldmatrix like A (there is
// no 8-bit ldmatrix.trans: staged as it lies, int8 B is gathered byte by byte), on the MFMA one
// ds_read_b64 (fp16) or ds_read_b32 (int8) per operand instead of four 16- or 8-bit reads down a
// column. A thread takes blocks of 4 depths x 4 bytes of columns (two fp16 or four int8 columns):
// four 4-byte loads, one per depth, stored as one run of 4 depths per column (8 or 4 bytes).
// Consecutive threads go along depth, so that a warp's stores fill consecutive words of a column.
// Needs the data 4-byte aligned and cols, ld and the batch stride whole words (transposable()).
template <Kind K> struct TransposingLoader {
  using Element = typename KindTraits<K>::Element;
  static constexpr BLayout kSharedLayout = BLayout::ColsByDepth;
  static constexpr int kColsPerWord = 4 / static_cast<int>(sizeof(Element));

  Matrix<K> matrix;
  int cols = 0;
  int depth = 0;

  static bool transposable(const Matrix<K> &m, int cols) {
    return reinterpret_cast<std::uintptr_t>(m.data) % 4 == 0 && cols % kColsPerWord == 0 &&
           m.ld % kColsPerWord == 0 && m.batch_stride % kColsPerWord == 0;
  }

  template <class Stage> struct Registers {
    static constexpr int kDepthQuads = Stage::kDepth / 4;
    static constexpr int kBlocks = kDepthQuads * (Stage::kOuter / kColsPerWord);
    static constexpr int kPerThread = (kBlocks + Stage::kThreads - 1) / Stage::kThreads;
    std::uint32_t rows[kPerThread][4]; // [block][depth]: one word of consecutive columns
  };

  template <class Stage>
  __device__ void fetch(Registers<Stage> &r, int batch, int outer0, int depth0) const {
    using R = Registers<Stage>;
    const Element *const base = matrix.data + static_cast<std::size_t>(batch) * matrix.batch_stride;
    const int t = static_cast<int>(threadIdx.x);
#pragma unroll
    for (int i = 0; i < R::kPerThread; ++i) {
      const int q = t + i * Stage::kThreads;
      const int col = outer0 + kColsPerWord * (q / R::kDepthQuads); // a word: inside or outside
      const int k0 = depth0 + 4 * (q % R::kDepthQuads);
#pragma unroll
      for (int j = 0; j < 4; ++j)
        r.rows[i][j] = q < R::kBlocks && col < cols && k0 + j < depth
                           ? *reinterpret_cast<const std::uint32_t *>(
                                 base + static_cast<std::size_t>(k0 + j) * matrix.ld + col)
                           : 0u;
    }
  }

  template <class Stage>
  __device__ void store(const Registers<Stage> &r, Element *stage, int ld) const {
    using R = Registers<Stage>;
    constexpr int kBits = 8 * static_cast<int>(sizeof(Element));
    constexpr std::uint32_t kMask = (1u << kBits) - 1;
    using Run = std::conditional_t<K == Kind::F16, std::uint64_t, std::uint32_t>;
    const int t = static_cast<int>(threadIdx.x);
#pragma unroll
    for (int i = 0; i < R::kPerThread; ++i) {
      const int q = t + i * Stage::kThreads;
      if (q >= R::kBlocks)
        continue;
      const int col = kColsPerWord * (q / R::kDepthQuads), k = 4 * (q % R::kDepthQuads);
#pragma unroll
      for (int c = 0; c < kColsPerWord; ++c) {
        Run run = 0;
#pragma unroll
        for (int j = 0; j < 4; ++j)
          run |= static_cast<Run>((r.rows[i][j] >> (kBits * c)) & kMask) << (kBits * j);
        *reinterpret_cast<Run *>(stage + (col + c) * ld + k) = run;
      }
    }
  }
};

// Whether launch_matrices() transposes a depth x cols B while staging it (TransposingLoader):
// int8 everywhere (see above); fp16 where the matrix unit is the MFMA (HIP builds, whose non-MFMA
// targets read either layout alike, and the persona). NVIDIA's fp16 path reads the layout as it
// lies through ldmatrix.trans and keeps its 16-byte loads.
#if KIT_HIP || defined(KIT_PERSONA_GFX908)
inline constexpr bool kMfmaBackend = true;
#else
inline constexpr bool kMfmaBackend = false;
#endif
template <Kind K> inline constexpr bool kTransposesDepthByCols = K == Kind::I8 || kMfmaBackend;

// Whether a pair of loaders takes the asynchronous ring (both declare kAsyncCopy, and the target
// has cp.async: NVIDIA; gfx908 has no asynchronous 16-byte copy to LDS, so there the ring would
// be plain loads and stores that wait for themselves).
template <class Loader, class = void> struct CopiesAsync : std::false_type {};
template <class Loader>
struct CopiesAsync<Loader, std::void_t<decltype(Loader::kAsyncCopy)>>
    : std::bool_constant<Loader::kAsyncCopy> {};
template <class ALoader, class BLoader>
inline constexpr bool kRingPath =
    !kMfmaBackend && CopiesAsync<ALoader>::value && CopiesAsync<BLoader>::value;
// Whether the target's build has the ring at all (for a caller that would reshape its operands for
// it, e.g. transpose a matrix once so that plain 16-byte loaders stage it).
inline constexpr bool kRingAvailable = !kMfmaBackend;
template <class Shape, class ALoader, class BLoader>
inline constexpr int kStageBuffers = kRingPath<ALoader, BLoader> ? Shape::kRingStages : 2;

// The shape a block shape runs as on the register path, whose staged loads hold registers through
// the stage: warps of more than 32 columns (64 x 64 on the ring) are split in two along the
// columns (twice the warps) and stages of more than 2 k-steps are cut to 2, so that the kernel
// stays within 255 registers on sm_90 without spilling, also with element-by-element loaders.
template <class Shape> struct RegisterPathOf {
  static constexpr bool kSplit = Shape::kWarpCols > kTileCols;
  static constexpr int kWarpsAlongCols =
      kSplit ? 2 * Shape::kWarpsAlongCols : Shape::kWarpsAlongCols;
  static constexpr int kStageSteps = Shape::kStageSteps < 2 ? Shape::kStageSteps : 2;
  using type = BlockShape<Shape::kBlockRows, Shape::kBlockCols, Shape::kWarpsAlongRows,
                          kWarpsAlongCols, kStageSteps, Shape::kMinBlocksPerSm, Shape::kRingStages>;
};
template <class Shape>
using RegisterPathShape =
    std::conditional_t<(Shape::kWarpCols > kTileCols || Shape::kStageSteps > 2),
                       typename RegisterPathOf<Shape>::type, Shape>;

// Whether an epilogue takes runs of columns (kVectorColumns, store_vector).
template <class Epilogue, class = void> struct StoresVectors : std::false_type {};
template <class Epilogue>
struct StoresVectors<Epilogue, std::enable_if_t<(Epilogue::kVectorColumns > 0)>> : std::true_type {
};

// The vector epilogue's pass through shared memory: one 32-row warp tile of every warp row at a
// time (kWarpsAlongRows x 32 rows of the block's columns, as Accum), rows padded by 4 elements.
template <class Shape, class Accum> struct EpilogueChunk {
  static constexpr int kRows = Shape::kWarpsAlongRows * kTileRows;
  static constexpr int kLd = Shape::kBlockCols + 4;
  static constexpr std::size_t kBytes = static_cast<std::size_t>(kRows) * kLd * sizeof(Accum);
};

template <class Shape, Kind K, class ALoader, class BLoader, class Epilogue>
constexpr std::size_t kernel_shared_bytes() {
  using Stage = Staging<Shape, K, BLoader::kSharedLayout>;
  const std::size_t stages = Stage::shared_bytes(kStageBuffers<Shape, ALoader, BLoader>);
  const std::size_t chunk = StoresVectors<Epilogue>::value
                                ? EpilogueChunk<Shape, typename KindTraits<K>::Accum>::kBytes
                                : 0;
  return stages > chunk ? stages : chunk;
}

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
// An accumulator from its 32 bits (no memcpy into an array: on AMD that array would live in
// scratch memory).
template <class Accum> __device__ __forceinline__ Accum accum_from_bits(unsigned bits) {
  if constexpr (std::is_same_v<Accum, float>)
    return __uint_as_float(bits);
  else
    return static_cast<Accum>(bits);
}
#endif

#if KIT_CUDA
#define KIT_MMA_GEMM_MIN_BLOCKS(Shape) Shape::kMinBlocksPerSm
#else
#define KIT_MMA_GEMM_MIN_BLOCKS(Shape) 1
#endif

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)

template <class Shape, Kind K, class ALoader, class BLoader, class Epilogue>
__global__ void __launch_bounds__(Shape::kThreads, KIT_MMA_GEMM_MIN_BLOCKS(Shape))
    mma_gemm_kernel(Problem p, ALoader a_loader, BLoader b_loader, Epilogue epilogue) {
  using Tile = WarpTile<K>;
  using Element = typename Tile::Element;
  using Accum = typename Tile::Accum;
  constexpr BLayout kBLayout = BLoader::kSharedLayout;
  static_assert(ALoader::kSharedLayout == BLayout::ColsByDepth, "A is staged rows x depth");
  using Stage = Staging<Shape, K, kBLayout>;
  using AStage = StageShape<Shape::kBlockRows, Stage::kStageDepth, Shape::kThreads>;
  using BStage = StageShape<Shape::kBlockCols, Stage::kStageDepth, Shape::kThreads>;
  constexpr int kTilesDown = Shape::kWarpRows / kTileRows;
  constexpr int kTilesAcross = Shape::kWarpCols / kTileCols;

  extern __shared__ uint4 mma_gemm_shared[]; // uint4 for 16-byte alignment
  Element *const shared = reinterpret_cast<Element *>(mma_gemm_shared);

  const int batch = p.first_batch + static_cast<int>(blockIdx.z);
  int tile_row, tile_col;
  kit::gemm::block_tile((p.rows + Shape::kBlockRows - 1) / Shape::kBlockRows,
                        (p.cols + Shape::kBlockCols - 1) / Shape::kBlockCols, tile_row, tile_col);
  const int block_row0 = tile_row * Shape::kBlockRows;
  const int block_col0 = tile_col * Shape::kBlockCols;
  const int warp = static_cast<int>(threadIdx.x) / KIT_WARP_SIZE;
  const int warp_row0 = (warp / Shape::kWarpsAlongCols) * Shape::kWarpRows;
  const int warp_col0 = (warp % Shape::kWarpsAlongCols) * Shape::kWarpCols;

  auto stage_a = [&](int stage) { return shared + stage * Stage::kStageElements; };
  auto stage_b = [&](int stage) { return stage_a(stage) + Stage::kAElements; };

  typename Tile::Acc acc[kTilesDown][kTilesAcross];
#pragma unroll
  for (int i = 0; i < kTilesDown; ++i)
#pragma unroll
    for (int j = 0; j < kTilesAcross; ++j)
      Tile::zero(acc[i][j]);

  // The warp's products over one staged stage. On the ring the next k-step's fragments are read
  // before this one's products are issued (two sets of fragment registers), so that the
  // shared-memory reads overlap the matrix unit's work; the register path, whose staged loads
  // already hold registers across the stage, reads them step by step (one set).
  constexpr int kFragmentSets = kRingPath<ALoader, BLoader> ? 2 : 1;
  auto multiply_stage = [&](int buffer) {
    const Element *const tile_a = stage_a(buffer);
    const Element *const tile_b = stage_b(buffer);
    typename Tile::A fragment_a[kFragmentSets][kTilesDown];
    typename Tile::B fragment_b[kFragmentSets][kTilesAcross];
    auto load_fragments = [&](int step, int set) {
      const int k0 = step * Tile::kDepth;
#pragma unroll
      for (int i = 0; i < kTilesDown; ++i)
        Tile::load_a(fragment_a[set][i], tile_a + (warp_row0 + i * kTileRows) * Stage::kLdA + k0,
                     Stage::kLdA);
#pragma unroll
      for (int j = 0; j < kTilesAcross; ++j) {
        const int col = warp_col0 + j * kTileCols;
        Tile::template load_b<kBLayout>(
            fragment_b[set][j],
            tile_b + (Stage::kBDepthRows ? k0 * Stage::kLdB + col : col * Stage::kLdB + k0),
            Stage::kLdB);
      }
    };
    if constexpr (kFragmentSets == 2)
      load_fragments(0, 0);
#pragma unroll
    for (int step = 0; step < Shape::kStageSteps; ++step) {
      const int set = step % kFragmentSets;
      if constexpr (kFragmentSets == 2) {
        if (step + 1 < Shape::kStageSteps)
          load_fragments(step + 1, (step + 1) % 2);
      } else {
        load_fragments(step, 0);
      }
#pragma unroll
      for (int i = 0; i < kTilesDown; ++i)
#pragma unroll
        for (int j = 0; j < kTilesAcross; ++j)
          Tile::mma(acc[i][j], fragment_a[set][i], fragment_b[set][j]);
    }
  };

  const int stages = (p.depth + Stage::kStageDepth - 1) / Stage::kStageDepth;
  if constexpr (kRingPath<ALoader, BLoader>) {
    // The ring: kRingStages buffers, the copies of the next kRingStages - 1 stages in flight while
    // one is multiplied. One barrier per stage: at stage s it publishes stage s (every thread has
    // waited for its own copies of it) and retires the reads of stage s - 1, whose buffer the
    // copies issued next overwrite.
    constexpr int kRing = Shape::kRingStages;
    auto copy_stage = [&](int s) {
      if (s < stages) {
        a_loader.template copy_async<AStage>(stage_a(s % kRing), Stage::kLdA, batch, block_row0,
                                             s * Stage::kStageDepth);
        b_loader.template copy_async<BStage>(stage_b(s % kRing), Stage::kLdB, batch, block_col0,
                                             s * Stage::kStageDepth);
      }
      gpu_async_copy_commit(); // one group per stage, empty past the end
    };
#pragma unroll
    for (int s = 0; s < kRing - 1; ++s)
      copy_stage(s);
    for (int s = 0; s < stages; ++s) {
      gpu_async_copy_wait_pending(kRing - 2); // stage s has landed
      __syncthreads();
      copy_stage(s + kRing - 1);
      multiply_stage(s % kRing);
    }
  } else {
    // The register path: two buffers; the next stage's global loads are issued before the
    // current one is multiplied and stored after it.
    typename ALoader::template Registers<AStage> a_next;
    typename BLoader::template Registers<BStage> b_next;
    a_loader.template fetch<AStage>(a_next, batch, block_row0, 0);
    b_loader.template fetch<BStage>(b_next, batch, block_col0, 0);
    a_loader.template store<AStage>(a_next, stage_a(0), Stage::kLdA);
    b_loader.template store<BStage>(b_next, stage_b(0), Stage::kLdB);
    __syncthreads();
    for (int s = 0; s < stages; ++s) {
      // Unconditional: past the last stage the loaders read nothing and the zeros they stage go
      // unread (a guard would let the compiler sink these loads behind the multiply).
      const int next_depth0 = (s + 1) * Stage::kStageDepth;
      a_loader.template fetch<AStage>(a_next, batch, block_row0, next_depth0);
      b_loader.template fetch<BStage>(b_next, batch, block_col0, next_depth0);
      multiply_stage(s & 1);
      a_loader.template store<AStage>(a_next, stage_a((s + 1) & 1), Stage::kLdA);
      b_loader.template store<BStage>(b_next, stage_b((s + 1) & 1), Stage::kLdB);
      // Publishes the stage just stored and retires every read of the stage the next iteration
      // overwrites.
      __syncthreads();
    }
  }

  if constexpr (StoresVectors<Epilogue>::value) {
    // Through shared memory, one warp tile row at a time: chunk row q is block row
    // (q / 32) * kWarpRows + 32 i + q % 32.
    using Chunk = EpilogueChunk<Shape, Accum>;
    constexpr int kV = Epilogue::kVectorColumns;
    static_assert(Shape::kBlockCols % kV == 0, "a run of columns never straddles two blocks");
    constexpr int kRuns = Chunk::kRows * (Shape::kBlockCols / kV);
    Accum *const sums = reinterpret_cast<Accum *>(mma_gemm_shared);
    gpu_async_copy_wait_pending(0); // (only empty groups remain on the ring)
#pragma unroll
    for (int i = 0; i < kTilesDown; ++i) {
      __syncthreads(); // the stages (or the previous chunk) are read: reuse the memory
      const int chunk_row0 = (warp / Shape::kWarpsAlongCols) * kTileRows;
#pragma unroll
      for (int j = 0; j < kTilesAcross; ++j) {
        Accum *const tile = sums + chunk_row0 * Chunk::kLd + warp_col0 + j * kTileCols;
        Tile::visit(acc[i][j],
                    [&](int r, int c, Accum value) { tile[r * Chunk::kLd + c] = value; });
      }
      __syncthreads();
      for (int run = static_cast<int>(threadIdx.x); run < kRuns; run += Shape::kThreads) {
        const int q = run / (Shape::kBlockCols / kV), c = (run % (Shape::kBlockCols / kV)) * kV;
        const int row =
            block_row0 + (q / kTileRows) * Shape::kWarpRows + i * kTileRows + q % kTileRows;
        const int col = block_col0 + c;
        if (row >= p.rows || col >= p.cols)
          continue;
        Accum values[kV];
        static_assert(kV % 4 == 0, "runs of whole 16-byte vectors");
#pragma unroll
        for (int w = 0; w < kV / 4; ++w) { // 16-byte reads: kLd and c are multiples of 4
          const uint4 v = *reinterpret_cast<const uint4 *>(sums + q * Chunk::kLd + c + 4 * w);
          values[4 * w] = accum_from_bits<Accum>(v.x);
          values[4 * w + 1] = accum_from_bits<Accum>(v.y);
          values[4 * w + 2] = accum_from_bits<Accum>(v.z);
          values[4 * w + 3] = accum_from_bits<Accum>(v.w);
        }
        if (col + kV <= p.cols) {
          epilogue.store_vector(batch, row, col, values);
        } else {
          for (int e = 0; e < kV && col + e < p.cols; ++e)
            epilogue(batch, row, col + e, values[e]);
        }
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < kTilesDown; ++i)
#pragma unroll
      for (int j = 0; j < kTilesAcross; ++j) {
        const int row0 = block_row0 + warp_row0 + i * kTileRows;
        const int col0 = block_col0 + warp_col0 + j * kTileCols;
        Tile::visit(acc[i][j], [&](int r, int c, Accum value) {
          if (row0 + r < p.rows && col0 + c < p.cols)
            epilogue(batch, row0 + r, col0 + c, value);
        });
      }
  }
}

// Launches the GEMM (asynchronous) with the given shape and loaders (on the register path as
// RegisterPathShape<Shape>); see the top of the file.
template <class Shape, Kind K, class ALoader, class BLoader, class Epilogue>
void launch(const Problem &problem, const ALoader &a_loader, const BLoader &b_loader,
            const Epilogue &epilogue, cudaStream_t stream) {
  if (problem.rows <= 0 || problem.cols <= 0 || problem.depth <= 0 || problem.batches <= 0)
    return;
  if constexpr (!kRingPath<ALoader, BLoader> && !std::is_same_v<RegisterPathShape<Shape>, Shape>) {
    launch<RegisterPathShape<Shape>, K>(problem, a_loader, b_loader, epilogue, stream);
  } else {
    constexpr std::size_t kSharedBytes =
        kernel_shared_bytes<Shape, K, ALoader, BLoader, Epilogue>();
    auto *const kernel = mma_gemm_kernel<Shape, K, ALoader, BLoader, Epilogue>;
    static const bool shared_reserved = [kernel] {
      kit::gpu::reserve_shared_bytes("mma_gemm_kernel", kernel, kSharedBytes);
      return true;
    }();
    (void)shared_reserved;
    const long long tiles =
        static_cast<long long>((problem.rows + Shape::kBlockRows - 1) / Shape::kBlockRows) *
        ((problem.cols + Shape::kBlockCols - 1) / Shape::kBlockCols);
    constexpr int kMostBatchesPerGrid = 65535;
    for (int first = 0; first < problem.batches; first += kMostBatchesPerGrid) {
      Problem part = problem;
      part.first_batch = first;
      const int batches = problem.batches - first < kMostBatchesPerGrid ? problem.batches - first
                                                                        : kMostBatchesPerGrid;
      const dim3 grid(static_cast<unsigned>(tiles), 1, static_cast<unsigned>(batches));
      kernel<<<grid, Shape::kThreads, kSharedBytes, stream>>>(part, a_loader, b_loader, epilogue);
      GPU_CHECK_LAUNCH("mma_gemm_kernel");
    }
  }
}

// Plain matrices: A rows x depth row-major, B as kBLayout says; 16-byte loads for each operand
// that allows them, and a depth x cols B transposed while staged where kTransposesDepthByCols says
// so and it is transposable (4-byte loads).
template <class Shape, Kind K, BLayout kBLayout, class Epilogue>
void launch_matrices(const Problem &p, const Matrix<K> &a, const Matrix<K> &b,
                     const Epilogue &epilogue, cudaStream_t stream) {
  using AVector = MatrixLoader<K, BLayout::ColsByDepth, true>;
  using AScalar = MatrixLoader<K, BLayout::ColsByDepth, false>;
  constexpr bool kTranspose = kBLayout == BLayout::DepthByCols && kTransposesDepthByCols<K>;
  using BFast =
      std::conditional_t<kTranspose, TransposingLoader<K>, MatrixLoader<K, kBLayout, true>>;
  using BScalar = MatrixLoader<K, kBLayout, false>;
  const bool a_vector = AVector::vector_ok(a, p.rows, p.depth);
  bool b_fast;
  if constexpr (kTranspose)
    b_fast = BFast::transposable(b, p.cols);
  else
    b_fast = BFast::vector_ok(b, p.cols, p.depth);
  if (a_vector && b_fast)
    launch<Shape, K>(p, AVector{a, p.rows, p.depth}, BFast{b, p.cols, p.depth}, epilogue, stream);
  else if (a_vector)
    launch<Shape, K>(p, AVector{a, p.rows, p.depth}, BScalar{b, p.cols, p.depth}, epilogue, stream);
  else if (b_fast)
    launch<Shape, K>(p, AScalar{a, p.rows, p.depth}, BFast{b, p.cols, p.depth}, epilogue, stream);
  else
    launch<Shape, K>(p, AScalar{a, p.rows, p.depth}, BScalar{b, p.cols, p.depth}, epilogue, stream);
}

#endif // device compilation

} // namespace kit::mma
