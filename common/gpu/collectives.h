// Warp- and block-level reduce and scan, generic over the warp size (32 or 64 lanes).
//
// Layering follows CUB/rocPRIM: warp collectives use only shuffles; block collectives combine the
// warps' results through a small shared-memory scratch that the caller owns (so several
// collectives can share or reuse it), and take the block size as a template parameter so that the
// number of warps is a compile-time constant. Block sizes must be multiples of the warp size;
// lanes without data pass the operator's identity.
//
// Every function is a collective: all threads of the warp (or block) must call it.
#pragma once

#include "gpu/gpu.h"

namespace kit {

struct Plus {
  template <class T> __host__ __device__ __forceinline__ T operator()(T a, T b) const {
    return a + b;
  }
};
struct Max {
  template <class T> __host__ __device__ __forceinline__ T operator()(T a, T b) const {
    return a < b ? b : a;
  }
};
struct Min {
  template <class T> __host__ __device__ __forceinline__ T operator()(T a, T b) const {
    return b < a ? b : a;
  }
};

// ---------------------------------------------------------------------------------------------
// Warp level
// ---------------------------------------------------------------------------------------------

// Reduction over the warp; every lane receives the result (butterfly exchange).
template <class T, class Op> __device__ __forceinline__ T warp_reduce(T v, Op op) {
#pragma unroll
  for (int offset = KIT_WARP_SIZE / 2; offset > 0; offset /= 2)
    v = op(v, warp_shfl_xor(v, offset));
  return v;
}

// Inclusive scan over the warp (Hillis-Steele with shfl_up: log2(warp) steps).
template <class T, class Op> __device__ __forceinline__ T warp_inclusive_scan(T v, Op op) {
  const int lane = lane_id();
#pragma unroll
  for (int offset = 1; offset < KIT_WARP_SIZE; offset *= 2) {
    T other = warp_shfl_up(v, offset);
    if (lane >= offset)
      v = op(other, v);
  }
  return v;
}

// Exclusive scan over the warp; lane 0 receives `identity`. `warp_total` gets the inclusive
// result of the last lane.
template <class T, class Op>
__device__ __forceinline__ T warp_exclusive_scan(T v, Op op, T identity, T &warp_total) {
  T inclusive = warp_inclusive_scan(v, op);
  warp_total = warp_shfl(inclusive, KIT_WARP_SIZE - 1);
  T exclusive = warp_shfl_up(inclusive, 1);
  return lane_id() == 0 ? identity : exclusive;
}

// ---------------------------------------------------------------------------------------------
// Block level
// ---------------------------------------------------------------------------------------------

// Shared-memory scratch for the block collectives below: one slot per warp plus a broadcast slot.
template <class T, int kBlockThreads> struct BlockScratch {
  static_assert(kBlockThreads % KIT_WARP_SIZE == 0, "block size must be a multiple of the warp");
  static constexpr int kWarps = kBlockThreads / KIT_WARP_SIZE;
  static_assert(kWarps <= KIT_WARP_SIZE, "the warp totals are combined by one warp");
  T warp_values[kWarps];
  T broadcast;
};

// Reduction over the block; every thread receives the result. Ends with a barrier, so the
// scratch may be reused immediately.
template <int kBlockThreads, class T, class Op>
__device__ __forceinline__ T block_reduce(T v, Op op, T identity,
                                          BlockScratch<T, kBlockThreads> &scratch) {
  constexpr int kWarps = BlockScratch<T, kBlockThreads>::kWarps;
  T warp_value = warp_reduce(v, op);
  if (lane_id() == 0)
    scratch.warp_values[warp_id()] = warp_value;
  __syncthreads();
  if (warp_id() == 0) {
    T x = lane_id() < kWarps ? scratch.warp_values[lane_id()] : identity;
    x = warp_reduce(x, op);
    if (lane_id() == 0)
      scratch.broadcast = x;
  }
  __syncthreads();
  T result = scratch.broadcast;
  __syncthreads();
  return result;
}

namespace detail {
// Second phase of a block scan: warp `w` contributed `warp_total` (from lane `total_lane`);
// returns the combination of warps 0..w-1 (identity for warp 0) and sets `block_total`.
template <int kBlockThreads, class T, class Op>
__device__ __forceinline__ T block_warp_prefix(T warp_total, int total_lane, Op op, T identity,
                                               T &block_total,
                                               BlockScratch<T, kBlockThreads> &scratch) {
  constexpr int kWarps = BlockScratch<T, kBlockThreads>::kWarps;
  if (lane_id() == total_lane)
    scratch.warp_values[warp_id()] = warp_total;
  __syncthreads();
  if (warp_id() == 0) {
    T x = lane_id() < kWarps ? scratch.warp_values[lane_id()] : identity;
    T total;
    T prefix = warp_exclusive_scan(x, op, identity, total);
    if (lane_id() < kWarps)
      scratch.warp_values[lane_id()] = prefix;
    if (lane_id() == 0)
      scratch.broadcast = total;
  }
  __syncthreads();
  T warp_prefix = scratch.warp_values[warp_id()];
  block_total = scratch.broadcast;
  __syncthreads();
  return warp_prefix;
}
} // namespace detail

// Inclusive scan over the block in thread order; `block_total` receives the reduction of all
// threads. Ends with a barrier, so the scratch may be reused immediately.
template <int kBlockThreads, class T, class Op>
__device__ __forceinline__ T block_inclusive_scan(T v, Op op, T identity, T &block_total,
                                                  BlockScratch<T, kBlockThreads> &scratch) {
  T inclusive = warp_inclusive_scan(v, op);
  T prefix =
      detail::block_warp_prefix(inclusive, KIT_WARP_SIZE - 1, op, identity, block_total, scratch);
  return warp_id() > 0 ? op(prefix, inclusive) : inclusive;
}

// Exclusive scan over the block; thread 0 receives `identity`.
template <int kBlockThreads, class T, class Op>
__device__ __forceinline__ T block_exclusive_scan(T v, Op op, T identity, T &block_total,
                                                  BlockScratch<T, kBlockThreads> &scratch) {
  T warp_total;
  T exclusive = warp_exclusive_scan(v, op, identity, warp_total);
  T prefix = detail::block_warp_prefix(warp_total, 0, op, identity, block_total, scratch);
  return warp_id() > 0 ? op(prefix, exclusive) : exclusive;
}

// ---------------------------------------------------------------------------------------------
// Grid level
// ---------------------------------------------------------------------------------------------

// Counts the calling block's arrival after all its threads' earlier writes; returns true in every
// thread of the block that arrives last, to which every write the other blocks made before they
// arrived is then visible (fence, arrival, fence: the "last block finishes" pattern). No block
// waits. All threads of the block must call it. `arrivals` must be 0 before the first launch; the
// last block sets it back to 0 (every block has arrived by then), so consecutive launches in one
// stream can share it.
__device__ __forceinline__ bool block_arrives_last(unsigned int *arrivals) {
  __shared__ bool is_last;
  __threadfence(); // this thread's writes are visible device-wide before the arrival is counted
  __syncthreads();
  if (threadIdx.x == 0) {
    is_last = atomicAdd(arrivals, 1u) == gridDim.x - 1;
    if (is_last)
      gpu_store_relaxed(arrivals, 0u);
  }
  __syncthreads();
  if (is_last)
    __threadfence(); // pairs with the other blocks' fences: their writes are visible from here on
  return is_last;
}

// Grid-wide reduction in a single launch ("last block finishes"): every block publishes
// `block_value` (the block's reduction, equal in all its threads) to partials[blockIdx.x]; the
// block that arrives last combines all partials and returns true with the result in `total`;
// every other block returns false. The last block reads the partials in block order and combines
// them with a fixed tree, so the result does not depend on which block finished when.
// `partials` needs gridDim.x slots of a 4- or 8-byte type T. `arrivals` must be 0 before the first
// launch; the last block sets it back to 0, so consecutive launches in one stream can share it.
template <int kBlockThreads, class T, class Op>
__device__ __forceinline__ bool
grid_reduce_last_block(T block_value, Op op, T identity, T *partials, unsigned int *arrivals,
                       T &total, BlockScratch<T, kBlockThreads> &scratch) {
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    gpu_store_relaxed(partials + blockIdx.x, block_value);
    __threadfence(); // the partial is visible device-wide before the arrival is counted
    is_last = atomicAdd(arrivals, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last)
    return false;
  __threadfence(); // pairs with the writers' fences: every partial is visible from here on
  // Device-scope loads (gpu.h): a plain load could be served by a non-coherent cache still holding
  // a previous launch's partials. They are issued kLoads at a time before any is used: one
  // latency per batch.
  constexpr int kLoads = 4;
  T v = identity;
  for (unsigned int base = threadIdx.x; base < gridDim.x; base += kLoads * kBlockThreads) {
    T loaded[kLoads];
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
      const unsigned int i = base + k * kBlockThreads;
      loaded[k] = i < gridDim.x ? gpu_load_relaxed(partials + i) : identity;
    }
#pragma unroll
    for (int k = 0; k < kLoads; ++k)
      v = op(v, loaded[k]);
  }
  total = block_reduce<kBlockThreads>(v, op, identity, scratch);
  if (threadIdx.x == 0)
    gpu_store_relaxed(arrivals, 0u);
  return true;
}

} // namespace kit
