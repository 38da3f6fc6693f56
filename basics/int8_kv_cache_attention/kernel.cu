// int8_kv_cache_attention: one decode step of attention over an int8 KV cache (LeetGPU signature,
// device pointers; tolerance 1e-3 absolute and relative). Per head h, the query q (head_dim
// floats) attends to seq_len cached positions: K(s) = K_int8(h, s) * k_scale(h, s), score
// q . K(s) / sqrt(head_dim), softmax over s, output(h) = sum over s of weight(s) V(s) with V
// dequantised the same way.
//
// Memory-bound: every cached byte is read once (64 MB of int8 keys and values at the judge's 32
// heads x 8192 positions x 128 dimensions, plus 2 MB of scales). Split-sequence ("flash
// decoding") in one launch:
//  - a grid of tiles x heads blocks; a block owns one tile of kPasses * (kThreads / lanes)
//    consecutive positions of one head, where `lanes` threads share a cached row, each holding 16
//    of its dimensions (one 16-byte load of the key row and one of the value row: 128 positions
//    per tile at head_dim 128). All of a thread's key, value and scale loads are issued before
//    any is used;
//  - the block forms its scores (the lanes' partial dot products added by shuffles within the
//    row's lanes), their maximum m and the sum l of exp(score - m) over the block, and the tile's
//    unnormalised output sum of exp(score - m) * v_scale * V_int8 (the row groups added in order
//    through shared memory), and stores (m, l) and that sum in scratch;
//  - the last block of a head to arrive (kit::block_arrives_last on the head's own counter)
//    combines the head's tiles in tile order: M = max m, L = sum l exp(m - M), output = sum of
//    the tile sums times exp(m - M), divided by L. No block waits, and the result does not depend
//    on which block finished when.
// Heads' tiles are launched head after head, so the combines of all heads but the last overlap
// other heads' streaming.
// Rows whose dimension is not 16 * a power of two up to 512, or misaligned caches, take the byte
// path: 32 lanes per row, dimension lane + 32 e of each, single-byte loads.
#include "collectives/block.h"
#include "collectives/warp.h"
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/scoped_atomics.h"
#include "gpu/vendor.h"
#include "primitives/grid_reduce.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace int8_kv_cache_attention {

constexpr int kThreads = 256;
constexpr int kPasses = 4;       // cached rows per thread in a tile (its loads in flight)
constexpr int kDimsPerLane = 16; // one 16-byte vector of int8 per lane and row
constexpr int kByteLanes = 32;   // lanes per row on the byte path
constexpr int kMostDims = 512;   // head_dim limit: 32 lanes of 16 dimensions
constexpr int kMostHeads = 1024; // the harness's limit on num_heads
constexpr int kReduceFloats = kThreads * kDimsPerLane; // row groups x dimensions, any lanes
#if KIT_CUDA
constexpr int kMinBlocks = 3; // 80 registers on sm_90 and sm_100, no spills (ptxas)
#else
constexpr int kMinBlocks = 1; // HIP reads it as waves per execution unit
#endif

// One arrival counter per head; each starts at 0 and the head's last block sets it back. A
// submission file holds one solve, which the judge never calls concurrently.
__device__ unsigned int g_head_arrivals[kMostHeads];

// Dimension of element e of a lane's piece of a row.
template <bool kVector> __device__ __forceinline__ int dim_of(int lane, int e) {
  return kVector ? kDimsPerLane * lane + e : lane + kByteLanes * e;
}

// Element e (0..15) of a piece packed as 16 bytes, as the int8 it holds.
__device__ __forceinline__ float byte_at(const uint4 &piece, int e) {
  const unsigned word = e < 4 ? piece.x : e < 8 ? piece.y : e < 12 ? piece.z : piece.w;
  return static_cast<float>(static_cast<signed char>((word >> (8 * (e % 4))) & 0xffu));
}

// A lane's 16 elements of a cached row (bytes past head_dim read as 0).
template <bool kVector>
__device__ __forceinline__ uint4 load_piece(const std::int8_t *__restrict__ row, int lane,
                                            int head_dim) {
  if constexpr (kVector) {
    return *reinterpret_cast<const uint4 *>(row + kDimsPerLane * lane);
  } else {
    unsigned word[4] = {0u, 0u, 0u, 0u};
#pragma unroll
    for (int e = 0; e < kDimsPerLane; ++e) {
      const int d = dim_of<false>(lane, e);
      if (d < head_dim)
        word[e / 4] |= static_cast<unsigned>(static_cast<unsigned char>(row[d])) << (8 * (e % 4));
    }
    return make_uint4(word[0], word[1], word[2], word[3]);
  }
}

template <bool kVector>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    attend_tiles(const float *__restrict__ Q, const std::int8_t *__restrict__ K,
                 const std::int8_t *__restrict__ V, const float *__restrict__ k_scale,
                 const float *__restrict__ v_scale, float *__restrict__ output, int seq_len,
                 int head_dim, int lanes, float2 *__restrict__ tile_stats,
                 float *__restrict__ tile_sums) {
  __shared__ float group_sums[kReduceFloats];
  __shared__ kit::BlockScratch<float, kThreads> scratch;
  const int tid = static_cast<int>(threadIdx.x);
  const int head = static_cast<int>(blockIdx.y);
  const int tile = static_cast<int>(blockIdx.x);
  const int tiles = static_cast<int>(gridDim.x);
  const int lane = tid % lanes;  // lanes divides the warp size: a row's lanes share a warp
  const int group = tid / lanes; // the row group: one row per pass
  const int rows_per_pass = kThreads / lanes;
  const int first_row = tile * kPasses * rows_per_pass;
  const std::size_t head_rows = static_cast<std::size_t>(head) * seq_len;

  // Every load of the tile first: kPasses key and value pieces and their scales.
  uint4 k_piece[kPasses], v_piece[kPasses];
  float ks[kPasses], vs[kPasses];
  bool valid[kPasses];
#pragma unroll
  for (int p = 0; p < kPasses; ++p) {
    const int row = first_row + p * rows_per_pass + group;
    valid[p] = row < seq_len;
    k_piece[p] = v_piece[p] = make_uint4(0u, 0u, 0u, 0u);
    ks[p] = vs[p] = 0.0f;
    if (valid[p]) {
      const std::size_t at = (head_rows + row) * static_cast<std::size_t>(head_dim);
      k_piece[p] = load_piece<kVector>(K + at, lane, head_dim);
      v_piece[p] = load_piece<kVector>(V + at, lane, head_dim);
      ks[p] = k_scale[head_rows + row];
      vs[p] = v_scale[head_rows + row];
    }
  }
  float q[kDimsPerLane];
#pragma unroll
  for (int e = 0; e < kDimsPerLane; ++e) {
    const int d = dim_of<kVector>(lane, e);
    q[e] = d < head_dim ? Q[static_cast<std::size_t>(head) * head_dim + d] : 0.0f;
  }

  // Scores: q . K_int8 over the row's lanes, then the key's scale and 1 / sqrt(head_dim).
  const float inv_sqrt_dim = 1.0f / sqrtf(static_cast<float>(head_dim));
  float score[kPasses];
  float top = -INFINITY;
#pragma unroll
  for (int p = 0; p < kPasses; ++p) {
    float dot = 0.0f;
#pragma unroll
    for (int e = 0; e < kDimsPerLane; ++e)
      dot = fmaf(q[e], byte_at(k_piece[p], e), dot);
    for (int offset = lanes / 2; offset > 0; offset /= 2)
      dot += kit::shuffle_xor(dot, offset);
    score[p] = valid[p] ? dot * ks[p] * inv_sqrt_dim : -INFINITY;
    top = fmaxf(top, score[p]);
  }
  // Every tile holds at least one position, so the maximum is finite.
  const float tile_max = kit::block_reduce<kThreads>(top, kit::Max(), -INFINITY, scratch);
  float weight_sum = 0.0f;
  float sum[kDimsPerLane];
#pragma unroll
  for (int e = 0; e < kDimsPerLane; ++e)
    sum[e] = 0.0f;
#pragma unroll
  for (int p = 0; p < kPasses; ++p) {
    const float weight = valid[p] ? expf(score[p] - tile_max) : 0.0f;
    weight_sum += lane == 0 ? weight : 0.0f; // one lane per row counts its weight
    const float value_weight = weight * vs[p];
#pragma unroll
    for (int e = 0; e < kDimsPerLane; ++e)
      sum[e] = fmaf(value_weight, byte_at(v_piece[p], e), sum[e]);
  }
  const float tile_weight = kit::block_reduce<kThreads>(weight_sum, kit::Plus(), 0.0f, scratch);

  // The tile's output sum: the row groups' sums added in group order.
  const int dim_stride = lanes * kDimsPerLane; // >= head_dim; rows_per_pass * dim_stride fits
#pragma unroll
  for (int e = 0; e < kDimsPerLane; ++e)
    group_sums[group * dim_stride + dim_of<kVector>(lane, e)] = sum[e];
  __syncthreads();
  const std::size_t tile_index = static_cast<std::size_t>(head) * tiles + tile;
  for (int d = tid; d < head_dim; d += kThreads) {
    float total = 0.0f;
    for (int g = 0; g < rows_per_pass; ++g)
      total += group_sums[g * dim_stride + d];
    tile_sums[tile_index * head_dim + d] = total;
  }
  if (tid == 0)
    tile_stats[tile_index] = make_float2(tile_max, tile_weight);
  if (!kit::block_arrives_last(&g_head_arrivals[head]))
    return;

  // The head's last block: every tile's results are visible. Device-scope loads: they come from
  // other blocks. One pass over the tiles' (m, l): each thread merges its tiles' pairs into one
  // (max, sum rescaled to it), then M = the block's maximum and L = the block's sum of each
  // thread's sum rescaled to M.
  const float2 *const stats = tile_stats + static_cast<std::size_t>(head) * tiles;
  const float *const sums = tile_sums + static_cast<std::size_t>(head) * tiles * head_dim;
  float own_max = -INFINITY, own_weight = 0.0f;
  for (int t = tid; t < tiles; t += kThreads) {
    const float m = kit::gpu_load_relaxed(&stats[t].x);
    const float l = kit::gpu_load_relaxed(&stats[t].y);
    const float merged = fmaxf(own_max, m);
    own_weight = own_weight * expf(own_max - merged) + l * expf(m - merged);
    own_max = merged;
  }
  const float head_max = kit::block_reduce<kThreads>(own_max, kit::Max(), -INFINITY, scratch);
  const float total_weight = kit::block_reduce<kThreads>(
      own_max == -INFINITY ? 0.0f : own_weight * expf(own_max - head_max), kit::Plus(), 0.0f,
      scratch);

  // `parts` threads per dimension take every parts-th tile (16 loads in flight each), then one
  // thread per dimension adds the parts in order.
  const int parts = head_dim <= kThreads ? kThreads / head_dim : 1;
  const int part = tid / head_dim;
  constexpr int kBatch = 16;
  if (part < parts) {
    for (int d = tid % head_dim; d < head_dim; d += kThreads) {
      float total = 0.0f;
      for (int t0 = part; t0 < tiles; t0 += kBatch * parts) {
        float partial[kBatch], factor[kBatch];
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
          const int t = t0 + b * parts;
          partial[b] =
              t < tiles ? kit::gpu_load_relaxed(&sums[static_cast<std::size_t>(t) * head_dim + d])
                        : 0.0f;
          factor[b] = t < tiles ? kit::gpu_load_relaxed(&stats[t].x) : -INFINITY;
        }
#pragma unroll
        for (int b = 0; b < kBatch; ++b)
          total = fmaf(partial[b], expf(factor[b] - head_max), total);
      }
      if (head_dim <= kThreads)
        group_sums[part * head_dim + d] = total;
      else
        output[static_cast<std::size_t>(head) * head_dim + d] = total / total_weight;
    }
  }
  if (head_dim <= kThreads) {
    __syncthreads();
    if (tid < head_dim) {
      float total = 0.0f;
      for (int p = 0; p < parts; ++p)
        total += group_sums[p * head_dim + tid];
      output[static_cast<std::size_t>(head) * head_dim + tid] = total / total_weight;
    }
  }
}

inline bool aligned_16(const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

} // namespace int8_kv_cache_attention

extern "C" void solve(const float *Q, const int8_t *K_int8, const int8_t *V_int8,
                      const float *k_scale, const float *v_scale, float *output, int num_heads,
                      int seq_len, int head_dim) {
  namespace a = int8_kv_cache_attention;
  if (num_heads <= 0 || seq_len <= 0 || head_dim <= 0 || head_dim > a::kMostDims ||
      num_heads > a::kMostHeads)
    return;
  // The 16-byte path: 16 dimensions per lane, a power-of-two count of lanes per row (so a row's
  // lanes are one aligned segment of a warp) and 16-byte aligned rows.
  const int vector_lanes = head_dim / a::kDimsPerLane;
  const bool vector = head_dim % a::kDimsPerLane == 0 && (vector_lanes & (vector_lanes - 1)) == 0 &&
                      a::aligned_16(K_int8) && a::aligned_16(V_int8);
  const int lanes = vector ? vector_lanes : a::kByteLanes;
  const int tile_rows = a::kPasses * (a::kThreads / lanes);
  const int tiles = (seq_len + tile_rows - 1) / tile_rows;

  static kit::gpu::DeviceScratch scratch;
  const std::size_t tile_count = static_cast<std::size_t>(num_heads) * tiles;
  const std::size_t stats_bytes = tile_count * sizeof(float2);
  char *const base = static_cast<char *>(scratch.reserve(
      stats_bytes + tile_count * static_cast<std::size_t>(head_dim) * sizeof(float)));
  float2 *const tile_stats = reinterpret_cast<float2 *>(base);
  float *const tile_sums = reinterpret_cast<float *>(base + stats_bytes);

  const dim3 grid(static_cast<unsigned>(tiles), static_cast<unsigned>(num_heads));
  if (vector)
    a::attend_tiles<true><<<grid, a::kThreads>>>(Q, K_int8, V_int8, k_scale, v_scale, output,
                                                 seq_len, head_dim, lanes, tile_stats, tile_sums);
  else
    a::attend_tiles<false><<<grid, a::kThreads>>>(Q, K_int8, V_int8, k_scale, v_scale, output,
                                                  seq_len, head_dim, lanes, tile_stats, tile_sums);
  GPU_CHECK_LAUNCH("attend_tiles");
}
