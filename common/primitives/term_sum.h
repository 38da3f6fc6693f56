// One float from K float arrays of n elements each: out = finish(sum over i of term(i, x)), where
// x holds element i of every array and the sum is taken in double. The kit's one pass for a
// scalar from float arrays: monte_carlo_integration (one array), dot_product and
// mean_squared_error (two), ppo_clipped_surrogate_loss and grpo_surrogate_loss (three),
// dpo_sequence_loss (four).
//
// Memory-bound: 4 K bytes read per element. One grid-stride kernel sized to fill the GPU once
// (at most one block per batch of elements); each thread keeps kVectorsInFlight 16-byte loads in
// flight over the K arrays before it forms any term (four per array for two arrays; a scalar
// loop when any pointer is not 16-byte aligned, and for the last n % 4 elements). Terms are added
// in double, one vector's four terms at a time in the order of the loads: float accumulation
// would lose the 1e-5 absolute tolerance as soon as large terms cancel (dot products of both
// signs, losses with terms in the thousands), and the double adds cost nothing next to the loads.
//
// The block sums go through kit::grid_reduce_last_block: the last block to finish adds them in
// block order with a fixed tree and stores the result, so there is one launch, no block waits
// for another, and the result is the same on every call (for a given GPU: the grid is sized from
// its occupancy). A one-block grid (n <= 4096 for two arrays, e.g. the dot product's N = 5
// performance case) stores its sum directly. The output arrives uninitialised: the kernel writes
// it, it never accumulates into it.
#pragma once

#include "gpu/check.h"
#include "gpu/launch.h"
#include "gpu/vendor.h"
#include "primitives/grid_reduce.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace kit::term_sum {

inline constexpr int kThreads = 256;
inline constexpr int kVectorsInFlight = 8; // 16-byte loads per thread, over all arrays
inline constexpr int kMaxBlocks = 4096;

// Loads per array in one batch: kVectorsInFlight shared among the K arrays.
template <int K> inline constexpr int kUnroll = K >= kVectorsInFlight ? 1 : kVectorsInFlight / K;

template <int K> struct Arrays { const float *at[K]; };

// An Op provides
//   static constexpr int kArrays;                     // K
//   __device__ double term(std::size_t i, const float (&x)[kArrays]) const;
//   __device__ float finish(double sum, std::size_t n) const;
//   std::size_t shared_bytes() const;                 // dynamic shared memory per block
//   __device__ void begin_block();                    // every thread, before any term
// and, optionally, a term of four consecutive elements (i, i + 1, i + 2, i + 3; i a multiple of
// 4), where the four share work (grpo_surrogate_loss: one row lookup per vector):
//   __device__ double vector_term(std::size_t i, const float4 (&x)[kArrays]) const;
// begin_block may fill the block's dynamic shared memory; it must end with a barrier if so.
// NoBlockSetup supplies shared_bytes and begin_block for the Ops that need neither.
// An Op that also derives from ReadOnlyLoads has the arrays read through the read-only
// (non-coherent) path, as the kit's passes with restrict-qualified inputs do: dot_product and
// mean_squared_error, whose measured speed is on that path. It is a choice, not the default,
// because it changes register allocation: with it, ptxas 13.0 (sm_90) spills the three-array
// kernel of ppo_clipped_surrogate_loss, which the plain loads keep in 40 registers.
struct NoBlockSetup {
  std::size_t shared_bytes() const { return 0; }
  __device__ void begin_block() {}
};
struct ReadOnlyLoads {};

template <class Op, class = void> struct HasVectorTerm : std::false_type {};
template <class Op>
struct HasVectorTerm<Op, std::void_t<decltype(&Op::vector_term)>> : std::true_type {};

// Per-launch state of the grid reduction. A submission file is one translation unit holding one
// solve, so one set is enough (solve is never called concurrently by the judge).
namespace {
__device__ double g_block_sums[kMaxBlocks];
__device__ unsigned int g_arrivals;
} // namespace

// Element i of an array, and its i-th 16-byte vector: through the read-only (non-coherent) path
// where the Op asks for it (ReadOnlyLoads), else a plain global load. Both are correct, the
// arrays are never written while the kernel runs; __ldg states it explicitly because a pointer
// held in Arrays is not a restrict-qualified kernel parameter (CUDA and HIP both provide it; on
// AMD it is a plain load).
template <bool kReadOnly>
__device__ __forceinline__ float load_element(const float *array, std::size_t i) {
  if constexpr (kReadOnly)
    return __ldg(array + i);
  else
    return array[i];
}
template <bool kReadOnly>
__device__ __forceinline__ float4 load_vector(const float *array, std::size_t i) {
  const float4 *vector = reinterpret_cast<const float4 *>(array) + i;
  if constexpr (kReadOnly)
    return __ldg(vector);
  else
    return *vector;
}

template <class Op>
__device__ __forceinline__ double vector_terms(const Op &op, std::size_t first,
                                               const float4 (&v)[Op::kArrays]) {
  if constexpr (HasVectorTerm<Op>::value) {
    return op.vector_term(first, v);
  } else {
    constexpr int K = Op::kArrays;
    float x[4][K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      x[0][k] = v[k].x;
      x[1][k] = v[k].y;
      x[2][k] = v[k].z;
      x[3][k] = v[k].w;
    }
    return (op.term(first, x[0]) + op.term(first + 1, x[1])) +
           (op.term(first + 2, x[2]) + op.term(first + 3, x[3]));
  }
}

template <class Op>
__global__ void __launch_bounds__(kThreads)
    term_sum_kernel(Arrays<Op::kArrays> in, std::size_t n, bool vectorized, Op op, float *out) {
  constexpr int K = Op::kArrays;
  constexpr int kBatch = kUnroll<K>;
  constexpr bool kReadOnly = std::is_base_of_v<ReadOnlyLoads, Op>;
  __shared__ kit::BlockScratch<double, kThreads> scratch;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kThreads;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  const std::size_t vectors = vectorized ? n / 4 : 0;
  // A batch: kBatch vectors of every array, all loaded before any term is formed.
  float4 v[kBatch][K];
  auto load_batch = [&](std::size_t i) {
#pragma unroll
    for (int u = 0; u < kBatch; ++u)
#pragma unroll
      for (int k = 0; k < K; ++k)
        v[u][k] = load_vector<kReadOnly>(in.at[k], i + u * stride);
  };
  double sum = 0;
  // Each vector's four terms go into the running sum in the order of the loads.
  auto add_batch_terms = [&](std::size_t i) {
#pragma unroll
    for (int u = 0; u < kBatch; ++u)
      sum += vector_terms(op, 4 * (i + u * stride), v[u]);
  };
  std::size_t i = thread;
  // The first batch is requested before the block's setup (begin_block, which every thread
  // reaches exactly once), so a setup that reads memory overlaps the first loads' latency.
  const bool first_batch = i + (kBatch - 1) * stride < vectors;
  if (first_batch)
    load_batch(i);
  op.begin_block();
  if (first_batch) {
    add_batch_terms(i);
    i += kBatch * stride;
  }
  for (; i + (kBatch - 1) * stride < vectors; i += kBatch * stride) {
    load_batch(i);
    add_batch_terms(i);
  }
  for (; i < vectors; i += stride) {
#pragma unroll
    for (int k = 0; k < K; ++k)
      v[0][k] = load_vector<kReadOnly>(in.at[k], i);
    sum += vector_terms(op, 4 * i, v[0]);
  }
  for (i = vectors * 4 + thread; i < n; i += stride) {
    float x[K];
#pragma unroll
    for (int k = 0; k < K; ++k)
      x[k] = load_element<kReadOnly>(in.at[k], i);
    sum += op.term(i, x);
  }

  const double block_sum = kit::block_reduce<kThreads>(sum, kit::Plus(), 0.0, scratch);
  kit::grid_reduce_store<kThreads>(block_sum, kit::Plus(), 0.0, g_block_sums, &g_arrivals, scratch,
                                   [&](double total) { *out = op.finish(total, n); });
}

// *out = op.finish(sum of op.term(i, element i of every array) for i < n, n) (device pointers;
// the default stream, no synchronisation). n = 0 stores op.finish(0, 0) from one block.
template <class Op>
inline void term_sum(const Arrays<Op::kArrays> &in, std::size_t n, const Op &op, float *out) {
  constexpr int K = Op::kArrays;
  // The occupancy is read once per dynamic shared memory size (one size per problem shape).
  static std::size_t resident_for_bytes = ~std::size_t{0};
  static int resident = 0;
  const std::size_t shared_bytes = op.shared_bytes();
  if (shared_bytes != resident_for_bytes) {
    resident = kit::gpu::resident_blocks(term_sum_kernel<Op>, kThreads, shared_bytes);
    resident_for_bytes = shared_bytes;
  }
  const std::size_t per_block = static_cast<std::size_t>(kThreads) * kUnroll<K> * 4;
  const int blocks = static_cast<int>(std::max<std::size_t>(
      1, std::min<std::size_t>({(n + per_block - 1) / per_block, static_cast<std::size_t>(resident),
                                static_cast<std::size_t>(kMaxBlocks)})));
  bool vectorized = true;
  for (int k = 0; k < K; ++k)
    vectorized = vectorized && reinterpret_cast<std::uintptr_t>(in.at[k]) % 16 == 0;
  term_sum_kernel<Op><<<blocks, kThreads, shared_bytes>>>(in, n, vectorized, op, out);
  GPU_CHECK_LAUNCH("term_sum_kernel");
}

} // namespace kit::term_sum
