// Element-wise passes shared by the basics kernels (relu, leaky_relu, matrix_copy, vector_add,
// color_inversion): out[i] = op(in[i]) or op(a[i], b[i]) over n elements of a 4-byte type.
// Each kernel.cu keeps its own operation and its own story; this header holds the part they all
// had written out identically: how a memory-bound pass keeps HBM busy.
//
// - Vector path (every pointer 16-byte aligned, always true for judge tensors): each thread
//   loads kVectorsPerThread 16-byte vectors per input (a count per target, below), ALL before it
//   stores any; the n % 4 elements after the last whole vector are done by the first threads of
//   block 0.
// - Scalar path for pointers that are not 16-byte aligned (the tests' misaligned runs).
// Out-of-place passes declare their pointers __restrict__ (read-only input loads take the
// non-coherent path); the in-place pass (one pointer) cannot, so it has its own entry point.
#pragma once

#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/vendor.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace kit::elementwise {

inline constexpr int kThreads = 256;

inline bool aligned16(const void *p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// Blocks of `threads` threads that cover `items` items at `items_per_thread` each (at least 1).
inline unsigned blocks_for(std::size_t items, std::size_t items_per_thread,
                           int threads = kThreads) {
  const std::size_t per_block = items_per_thread * static_cast<std::size_t>(threads);
  return static_cast<unsigned>(items == 0 ? 1 : (items + per_block - 1) / per_block);
}

#if KIT_CUDA && !defined(KIT_PERSONA_GFX908)
// NVIDIA: one 16-byte vector per thread, a block for every 1024 elements (on the H100, one vector
// per thread measured 1-2.5% faster than four at the judge's 25-50 million elements: relu,
// sigmoid, vector_add, matrix_addition; and the same as four, or faster, at the small sizes).
inline constexpr int kVectorsPerThread = 1;

// Runs `launch(vectors_per_thread, blocks)` with the vector path's shape for n elements:
// `vectors_per_thread` is a std::integral_constant, so the launch can name its kernel's
// instantiation; blocks cover n / 4 vectors (at least 1, so block 0 also takes the n % 4 tail).
template <class Launch> void with_vector_shape(std::size_t n, Launch launch) {
  launch(std::integral_constant<int, 1>(), blocks_for(n / 4, 1));
}
#else
// gfx908 (and the MI100 persona): four loads in flight per thread, the latency cover a 64-lane
// wavefront gets from its own registers rather than from more resident blocks (not measured on
// hardware).
inline constexpr int kVectorsPerThread = 4;

// The running device's multiprocessor count, asked once per process (a solve runs on one device).
inline std::size_t multiprocessors() {
  static const std::size_t count = static_cast<std::size_t>(kit::gpu::device_multiprocessors());
  return count;
}

// As on NVIDIA, with four vectors per thread, or one when four would leave some multiprocessor of
// the running device without a block: a small pass then spreads its loads and its arithmetic (an
// expf, an erf, a division per element) over every multiprocessor.
template <class Launch> void with_vector_shape(std::size_t n, Launch launch) {
  if (blocks_for(n / 4, kVectorsPerThread) < multiprocessors())
    launch(std::integral_constant<int, 1>(), blocks_for(n / 4, 1));
  else
    launch(std::integral_constant<int, kVectorsPerThread>(), blocks_for(n / 4, kVectorsPerThread));
}
#endif

// The 16-byte vector of four T.
template <class T> struct Vec4;
template <> struct Vec4<float> { using type = float4; };
template <> struct Vec4<unsigned> { using type = uint4; };

// op of each of the four lanes of one vector (a) or two (a, b).
template <int kInputs, class V, class Op> __device__ __forceinline__ V apply(Op op, V a, V b) {
  if constexpr (kInputs == 2)
    return V{op(a.x, b.x), op(a.y, b.y), op(a.z, b.z), op(a.w, b.w)};
  else
    return V{op(a.x), op(a.y), op(a.z), op(a.w)};
}

// The vector path's body for one input (a; b is a again) or two, kVectors 16-byte vectors per
// thread; the kernels below pass their own (possibly __restrict__) pointers.
template <int kVectors, int kInputs, class T, class Op>
__device__ __forceinline__ void map_vectors(const T *a, const T *b, T *out, std::size_t n, Op op) {
  using V = typename Vec4<T>::type;
  const std::size_t vectors = n / 4;
  const std::size_t first =
      static_cast<std::size_t>(blockIdx.x) * kThreads * kVectors + threadIdx.x;
  V x[kVectors], y[kVectors];
#pragma unroll
  for (int k = 0; k < kVectors; ++k) {
    const std::size_t i = first + k * kThreads;
    if (i < vectors) {
      x[k] = reinterpret_cast<const V *>(a)[i];
      y[k] = kInputs == 2 ? reinterpret_cast<const V *>(b)[i] : x[k];
    }
  }
#pragma unroll
  for (int k = 0; k < kVectors; ++k) {
    const std::size_t i = first + k * kThreads;
    if (i < vectors)
      reinterpret_cast<V *>(out)[i] = apply<kInputs>(op, x[k], y[k]);
  }
  const std::size_t tail = vectors * 4 + threadIdx.x;
  if (blockIdx.x == 0 && tail < n) {
    if constexpr (kInputs == 2)
      out[tail] = op(a[tail], b[tail]);
    else
      out[tail] = op(a[tail]);
  }
}

template <int kVectors, class T, class Op>
__global__ void __launch_bounds__(kThreads)
    unary_vec4(const T *__restrict__ in, T *__restrict__ out, std::size_t n, Op op) {
  map_vectors<kVectors, 1>(in, in, out, n, op);
}
template <int kVectors, class T, class Op>
__global__ void __launch_bounds__(kThreads)
    binary_vec4(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ out,
                std::size_t n, Op op) {
  map_vectors<kVectors, 2>(a, b, out, n, op);
}
template <int kVectors, class T, class Op>
__global__ void __launch_bounds__(kThreads) in_place_vec4(T *data, std::size_t n, Op op) {
  map_vectors<kVectors, 1>(data, data, data, n, op);
}
template <class T, class Op>
__global__ void __launch_bounds__(kThreads)
    unary_scalar(const T *in, T *out, std::size_t n, Op op) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i < n)
    out[i] = op(in[i]);
}
template <class T, class Op>
__global__ void __launch_bounds__(kThreads)
    binary_scalar(const T *a, const T *b, T *out, std::size_t n, Op op) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (i < n)
    out[i] = op(a[i], b[i]);
}

// Host entry points: pick the vector or the scalar kernel and launch it on the default stream.
// No synchronisation (the judge's next operation is stream-ordered after it).
// out[i] = op(in[i]).
template <class T, class Op> void map(const T *in, T *out, std::size_t n, Op op) {
  if (n == 0)
    return;
  if (aligned16(in) && aligned16(out)) {
    with_vector_shape(n, [&](auto vectors, unsigned blocks) {
      unary_vec4<decltype(vectors)::value><<<blocks, kThreads>>>(in, out, n, op);
    });
    GPU_CHECK_LAUNCH("elementwise::unary_vec4");
  } else {
    unary_scalar<<<blocks_for(n, 1), kThreads>>>(in, out, n, op);
    GPU_CHECK_LAUNCH("elementwise::unary_scalar");
  }
}

// out[i] = op(a[i], b[i]), on the default stream, no synchronisation.
template <class T, class Op> void map_pairs(const T *a, const T *b, T *out, std::size_t n, Op op) {
  if (n == 0)
    return;
  if (aligned16(a) && aligned16(b) && aligned16(out)) {
    with_vector_shape(n, [&](auto vectors, unsigned blocks) {
      binary_vec4<decltype(vectors)::value><<<blocks, kThreads>>>(a, b, out, n, op);
    });
    GPU_CHECK_LAUNCH("elementwise::binary_vec4");
  } else {
    binary_scalar<<<blocks_for(n, 1), kThreads>>>(a, b, out, n, op);
    GPU_CHECK_LAUNCH("elementwise::binary_scalar");
  }
}

// In place, vector path only: the caller handles pointers that are not 16-byte aligned (for
// color_inversion that is a per-byte kernel, since its 4-byte words are then misaligned too).
template <class T, class Op> void map_in_place_aligned(T *data, std::size_t n, Op op) {
  if (n == 0)
    return;
  with_vector_shape(n, [&](auto vectors, unsigned blocks) {
    in_place_vec4<decltype(vectors)::value><<<blocks, kThreads>>>(data, n, op);
  });
  GPU_CHECK_LAUNCH("elementwise::in_place_vec4");
}

} // namespace kit::elementwise
