// Grid reduction in a single launch: every block publishes its value and the block that arrives
// last combines them ("last block finishes"). No block waits for another, so any grid size and
// any launch are safe.
#pragma once

#include "collectives/block.h"
#include "gpu/scoped_atomics.h"

namespace kit {

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
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

// The reduction of a whole grid whose blocks each hold `block_value` (equal in all its threads),
// handed to `store(total)` in thread 0 of the block that ends with it: a one-block grid's own value
// (no partials, no arrival), else grid_reduce_last_block's total in the last block to arrive.
// Every thread of every block must call it; `partials` and `arrivals` as for
// grid_reduce_last_block.
template <int kBlockThreads, class T, class Op, class Store>
__device__ __forceinline__ void
grid_reduce_store(T block_value, Op op, T identity, T *partials, unsigned int *arrivals,
                  BlockScratch<T, kBlockThreads> &scratch, Store store) {
  if (gridDim.x == 1) {
    if (threadIdx.x == 0)
      store(block_value);
    return;
  }
  T total;
  if (grid_reduce_last_block<kBlockThreads>(block_value, op, identity, partials, arrivals, total,
                                            scratch) &&
      threadIdx.x == 0)
    store(total);
}

#endif // device compilation

} // namespace kit
