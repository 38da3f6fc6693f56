// Device building blocks of the softmax kernels (kernel_engine.cu): exp evaluation, the online
// (max, sum) statistics and their merges across a warp, a block and the grid, the element layout
// for 16-byte accesses, and the grid-wide barrier of the single-kernel methods.
//
// Accuracy budget. The grader accepts a value within 1e-5 relative (or 1e-6 absolute) of an
// expected value printed with 6 significant digits, so our float must stay within about 1e-6
// relative of the exact softmax for the printed digits to agree to the last place. The error
// sources kept below that:
// - exp: exp2 of (x - shift) * log2(e), the product rounded once (log2(e) in two floats); with
//   |x - shift| small for every value that matters, exp2f adds its 2 ulp (2.4e-7);
// - the sum: exp2 terms are added in float four at a time, then in double per thread, and pairs
//   are combined in double with exp evaluated in double, so N = 1e8 costs nothing measurable;
// - pass 1 shifts by a running reference that only moves when the maximum grows past it by more
//   than kRebaseSlack: rescaling (a double exp) is rare even for sorted input, and no exp2
//   argument exceeds 2.9, where its rounding is below 1.2e-7.
#pragma once

#include "collectives.h"
#include "gpu.h"
#include "kernel.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace softmax_gpu::detail {

constexpr int kBlockThreads = 256;
// float4 loads each thread keeps in flight in the streaming loops.
constexpr int kUnroll = 4;
// float4 items per thread of the register-resident kernel.
constexpr int kResidentItems = 8;
constexpr float kRebaseSlack = 2.0f;
// log2(e) = kLog2eHi + kLog2eLo to about 48 bits.
constexpr float kLog2eHi = 1.44269502e+00f;
constexpr float kLog2eLo = 1.92596303e-08f;

// Device workspace header; the partial pairs follow in their own allocation.
struct Control {
  unsigned ticket;        // pass-1 blocks finished (the last one combines); reset to 0 by it
  unsigned barrier_count; // blocks arrived at the grid barrier; reset to 0 by the last one
  std::uint64_t barrier_epoch;
  Stats stats;
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

__device__ __forceinline__ float exp_minus(float x, float shift) {
  const float d = x - shift;
  return exp2f(fmaf(d, kLog2eHi, d * kLog2eLo));
}

__device__ __forceinline__ float normalized(float x, const Stats &s) {
  return exp_minus(x, s.max) * s.inv_sum;
}
__device__ __forceinline__ float4 normalized(float4 v, const Stats &s) {
  return make_float4(normalized(v.x, s), normalized(v.y, s), normalized(v.z, s),
                     normalized(v.w, s));
}

// sum * exp(from - to) in double. Out of line: it is rare in the hot loops, and inlined copies of
// a double exp would crowd them. sum == 0 covers from == -inf (nothing accumulated yet).
__device__ __noinline__ double rescaled(double sum, float from, float to) {
  if (sum == 0.0 || from == to)
    return sum;
  return sum * exp(static_cast<double>(from) - static_cast<double>(to));
}

// A maximum and the sum of exp(x - max) over some set of values; the empty set is {-inf, 0}.
struct Pair {
  float max;
  double sum;
};

__device__ __forceinline__ Pair merge(Pair a, Pair b) {
  const float m = fmaxf(a.max, b.max);
  return Pair{m, rescaled(a.sum, a.max, m) + rescaled(b.sum, b.max, m)};
}

// A thread's statistics while it streams: `sum` is relative to `ref`, a lagging copy of the
// maximum (max - kRebaseSlack <= ref <= max once anything was added).
struct Running {
  float max = -INFINITY;
  float ref = -INFINITY;
  double sum = 0.0;

  __device__ __forceinline__ void rebase_above(float top) {
    if (top > ref + kRebaseSlack) {
      sum = rescaled(sum, ref, top);
      ref = top;
    }
  }
  __device__ __forceinline__ void add(float4 v) {
    const float top = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
    max = fmaxf(max, top);
    rebase_above(top);
    sum += static_cast<double>((exp_minus(v.x, ref) + exp_minus(v.y, ref)) +
                               (exp_minus(v.z, ref) + exp_minus(v.w, ref)));
  }
  __device__ __forceinline__ void add(float x) {
    max = fmaxf(max, x);
    rebase_above(x);
    sum += static_cast<double>(exp_minus(x, ref));
  }
  __device__ __forceinline__ Pair finish() const { return Pair{max, rescaled(sum, ref, max)}; }
};

template <int kBlock> struct PairScratch {
  static constexpr int kWarps = kBlock / KIT_WARP_SIZE;
  static_assert(kBlock % KIT_WARP_SIZE == 0 && kWarps <= KIT_WARP_SIZE, "block of whole warps");
  float max[kWarps];
  double sum[kWarps];
  Pair broadcast;
};

__device__ __forceinline__ Pair warp_merge(Pair p) {
#pragma unroll
  for (int offset = KIT_WARP_SIZE / 2; offset > 0; offset /= 2)
    p = merge(p, Pair{kit::warp_shfl_xor(p.max, offset), kit::warp_shfl_xor(p.sum, offset)});
  return p;
}

// Every thread of the block receives the merge of all threads' pairs. Ends with a barrier, so
// the scratch may be reused at once.
template <int kBlock> __device__ __forceinline__ Pair block_merge(Pair p, PairScratch<kBlock> &s) {
  p = warp_merge(p);
  if (kit::lane_id() == 0) {
    s.max[kit::warp_id()] = p.max;
    s.sum[kit::warp_id()] = p.sum;
  }
  __syncthreads();
  if (kit::warp_id() == 0) {
    const bool has = kit::lane_id() < PairScratch<kBlock>::kWarps;
    Pair q{has ? s.max[kit::lane_id()] : -INFINITY, has ? s.sum[kit::lane_id()] : 0.0};
    q = warp_merge(q);
    if (kit::lane_id() == 0)
      s.broadcast = q;
  }
  __syncthreads();
  const Pair result = s.broadcast;
  __syncthreads();
  return result;
}

// Partials are two 64-bit words (sum, max) written by one thread and read, after a fence and a
// ticket or barrier, with device-scope loads that bypass the non-coherent L1.
__device__ __forceinline__ void store_partial(std::uint64_t *partials, unsigned i, Pair p) {
  partials[2 * i] = static_cast<std::uint64_t>(__double_as_longlong(p.sum));
  partials[2 * i + 1] = __float_as_uint(p.max);
}
__device__ __forceinline__ Pair load_partial(const std::uint64_t *partials, unsigned i) {
  const std::uint64_t sum = kit::gpu_load_relaxed(partials + 2 * i);
  const std::uint64_t max = kit::gpu_load_relaxed(partials + 2 * i + 1);
  return Pair{__uint_as_float(static_cast<unsigned>(max)),
              __longlong_as_double(static_cast<long long>(sum))};
}

// Merges partials [0, count) with the whole block; every thread receives the statistics.
template <int kBlock>
__device__ Stats combine_partials(const std::uint64_t *partials, unsigned count,
                                  PairScratch<kBlock> &scratch) {
  Pair acc{-INFINITY, 0.0};
  for (unsigned i = threadIdx.x; i < count; i += kBlock)
    acc = merge(acc, load_partial(partials, i));
  const Pair total = block_merge(acc, scratch);
  return Stats{total.max, static_cast<float>(1.0 / total.sum), total.sum};
}

// Grid-wide barrier for a grid whose blocks are all resident (sized with the occupancy API).
// Thread 0 arrives on a counter; the last arrival resets it and bumps an epoch the others wait
// on, so the barrier needs no reset between launches and works for any grid size. Ordering:
// the fence before the arrival releases the block's writes (and orders the epoch read before
// it); the waiters' acquire load, or the last arrival's fence, acquires everybody's.
__device__ __forceinline__ void grid_barrier(Control *control) {
  __syncthreads();
  if (threadIdx.x == 0) {
    const std::uint64_t seen = kit::gpu_load_relaxed(&control->barrier_epoch);
    __threadfence();
    const unsigned arrived = atomicAdd(&control->barrier_count, 1u) + 1;
    if (arrived == gridDim.x) {
      __threadfence();
      atomicExch(&control->barrier_count, 0u);
      kit::gpu_store_release(&control->barrier_epoch, seen + 1);
    } else {
      while (kit::gpu_load_acquire(&control->barrier_epoch) == seen)
        kit::gpu_sleep_hint();
    }
  }
  __syncthreads();
}

template <bool kStreaming> __device__ __forceinline__ void store4(float4 *p, float4 v) {
  if constexpr (kStreaming)
    kit::store_streaming(p, v);
  else
    *p = v;
}

// Pass 1 over the float4 items first, first + stride, ... below nvec, kUnroll loads in flight.
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

// Pass 2 over the same items as accumulate(), forward or in reverse order.
template <bool kReverse, bool kStreaming>
__device__ __forceinline__ void normalize_items(const float4 *in, float4 *out, std::size_t nvec,
                                                std::size_t first, std::size_t stride,
                                                const Stats &s) {
  if (first >= nvec)
    return;
  const std::size_t count = (nvec - 1 - first) / stride + 1;
  auto index = [&](std::size_t k) { return first + (kReverse ? count - 1 - k : k) * stride; };
  std::size_t k = 0;
  for (; k + kUnroll <= count; k += kUnroll) {
    float4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      v[u] = in[index(k + u)];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      store4<kStreaming>(out + index(k + u), normalized(v[u], s));
  }
  for (; k < count; ++k)
    store4<kStreaming>(out + index(k), normalized(in[index(k)], s));
}

} // namespace softmax_gpu::detail
