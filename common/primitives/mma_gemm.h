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
// calls it for which element is unspecified; each element gets exactly one call.
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
// The kernel: each block owns a kBlockRows x kBlockCols output tile, its warps a kWarpRows x
// kWarpCols piece made of 32 x 32 warp tiles (mma.h); the inner dimension is walked in stages of
// kStageSteps k-steps through two shared-memory buffers (double-buffered: one barrier per stage;
// the next stage's global loads are issued before the current one is multiplied). The loaders
// stage through registers, not cp.async, so that a loader can transform what it loads. Shared
// rows are padded by 16 bytes, which puts the eight 16-byte rows of every ldmatrix in distinct
// banks. Consecutive blocks walk down groups of tile rows (kit::gemm::block_tile) to share
// operand panels in L2. Batches over 65535 take one launch per 65535 (blockIdx.z's extent).
#pragma once

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
          int MinBlocksPerSm>
struct BlockShape {
  static constexpr int kBlockRows = BlockRows;
  static constexpr int kBlockCols = BlockCols;
  static constexpr int kWarpsAlongRows = WarpsAlongRows;
  static constexpr int kWarpsAlongCols = WarpsAlongCols;
  static constexpr int kStageSteps = StageSteps;
  static constexpr int kMinBlocksPerSm = MinBlocksPerSm;
  static constexpr int kWarps = WarpsAlongRows * WarpsAlongCols;
  static constexpr int kThreads = kWarps * KIT_WARP_SIZE;
  static constexpr int kWarpRows = BlockRows / WarpsAlongRows;
  static constexpr int kWarpCols = BlockCols / WarpsAlongCols;
  static_assert(kWarpRows % kTileRows == 0 && kWarpCols % kTileCols == 0,
                "a warp's piece must be whole 32 x 32 tiles");
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
  static constexpr std::size_t kSharedBytes = 2 * kStageElements * sizeof(Element);
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
};

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

  typename ALoader::template Registers<AStage> a_next;
  typename BLoader::template Registers<BStage> b_next;
  auto stage_a = [&](int stage) { return shared + stage * Stage::kStageElements; };
  auto stage_b = [&](int stage) { return stage_a(stage) + Stage::kAElements; };

  typename Tile::Acc acc[kTilesDown][kTilesAcross];
#pragma unroll
  for (int i = 0; i < kTilesDown; ++i)
#pragma unroll
    for (int j = 0; j < kTilesAcross; ++j)
      Tile::zero(acc[i][j]);

  a_loader.template fetch<AStage>(a_next, batch, block_row0, 0);
  b_loader.template fetch<BStage>(b_next, batch, block_col0, 0);
  a_loader.template store<AStage>(a_next, stage_a(0), Stage::kLdA);
  b_loader.template store<BStage>(b_next, stage_b(0), Stage::kLdB);
  __syncthreads();

  const int stages = (p.depth + Stage::kStageDepth - 1) / Stage::kStageDepth;
  for (int s = 0; s < stages; ++s) {
    // Unconditional: past the last stage the loaders read nothing and the zeros they stage go
    // unread (a guard would let the compiler sink these loads behind the multiply).
    const int next_depth0 = (s + 1) * Stage::kStageDepth;
    a_loader.template fetch<AStage>(a_next, batch, block_row0, next_depth0);
    b_loader.template fetch<BStage>(b_next, batch, block_col0, next_depth0);

    const Element *const tile_a = stage_a(s & 1);
    const Element *const tile_b = stage_b(s & 1);
#pragma unroll
    for (int step = 0; step < Shape::kStageSteps; ++step) {
      const int k0 = step * Tile::kDepth;
      typename Tile::A fragment_a[kTilesDown];
      typename Tile::B fragment_b[kTilesAcross];
#pragma unroll
      for (int i = 0; i < kTilesDown; ++i)
        Tile::load_a(fragment_a[i], tile_a + (warp_row0 + i * kTileRows) * Stage::kLdA + k0,
                     Stage::kLdA);
#pragma unroll
      for (int j = 0; j < kTilesAcross; ++j) {
        const int col = warp_col0 + j * kTileCols;
        Tile::template load_b<kBLayout>(
            fragment_b[j],
            tile_b + (Stage::kBDepthRows ? k0 * Stage::kLdB + col : col * Stage::kLdB + k0),
            Stage::kLdB);
      }
#pragma unroll
      for (int i = 0; i < kTilesDown; ++i)
#pragma unroll
        for (int j = 0; j < kTilesAcross; ++j)
          Tile::mma(acc[i][j], fragment_a[i], fragment_b[j]);
    }

    a_loader.template store<AStage>(a_next, stage_a((s + 1) & 1), Stage::kLdA);
    b_loader.template store<BStage>(b_next, stage_b((s + 1) & 1), Stage::kLdB);
    // Publishes the stage just stored and retires every read of the stage the next iteration
    // overwrites.
    __syncthreads();
  }

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

// Launches the GEMM (asynchronous) with the given shape and loaders; see the top of the file.
template <class Shape, Kind K, class ALoader, class BLoader, class Epilogue>
void launch(const Problem &problem, const ALoader &a_loader, const BLoader &b_loader,
            const Epilogue &epilogue, cudaStream_t stream) {
  if (problem.rows <= 0 || problem.cols <= 0 || problem.depth <= 0 || problem.batches <= 0)
    return;
  using Stage = Staging<Shape, K, BLoader::kSharedLayout>;
  auto *const kernel = mma_gemm_kernel<Shape, K, ALoader, BLoader, Epilogue>;
  static const bool shared_reserved = [kernel] {
    kit::gpu::reserve_shared_bytes("mma_gemm_kernel", kernel, Stage::kSharedBytes);
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
    kernel<<<grid, Shape::kThreads, Stage::kSharedBytes, stream>>>(part, a_loader, b_loader,
                                                                   epilogue);
    GPU_CHECK_LAUNCH("mma_gemm_kernel");
  }
}

// Plain matrices: A rows x depth row-major, B as kBLayout says; 16-byte loads for each operand
// that allows them.
template <class Shape, Kind K, BLayout kBLayout, class Epilogue>
void launch_matrices(const Problem &p, const Matrix<K> &a, const Matrix<K> &b,
                     const Epilogue &epilogue, cudaStream_t stream) {
  using AVector = MatrixLoader<K, BLayout::ColsByDepth, true>;
  using AScalar = MatrixLoader<K, BLayout::ColsByDepth, false>;
  using BVector = MatrixLoader<K, kBLayout, true>;
  using BScalar = MatrixLoader<K, kBLayout, false>;
  const bool a_vector = AVector::vector_ok(a, p.rows, p.depth);
  const bool b_vector = BVector::vector_ok(b, p.cols, p.depth);
  if (a_vector && b_vector)
    launch<Shape, K>(p, AVector{a, p.rows, p.depth}, BVector{b, p.cols, p.depth}, epilogue, stream);
  else if (a_vector)
    launch<Shape, K>(p, AVector{a, p.rows, p.depth}, BScalar{b, p.cols, p.depth}, epilogue, stream);
  else if (b_vector)
    launch<Shape, K>(p, AScalar{a, p.rows, p.depth}, BVector{b, p.cols, p.depth}, epilogue, stream);
  else
    launch<Shape, K>(p, AScalar{a, p.rows, p.depth}, BScalar{b, p.cols, p.depth}, epilogue, stream);
}

#endif // device compilation

} // namespace kit::mma
