// Block collectives: reduce and inclusive/exclusive scan over a block, built on the warp
// collectives. The warps' results are combined through a small shared-memory scratch that the
// caller owns (so several collectives can share or reuse it); the block size is a template
// parameter so that the number of warps is a compile-time constant. Block sizes must be multiples
// of the warp size; lanes without data pass the operator's identity.
//
// Every function is a collective: all threads of the block must call it.
#pragma once

#include "collectives/warp.h"

namespace kit {

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
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

#endif // device compilation

} // namespace kit
