// The vendor layer's scoped atomics: the device-scope loads, stores and max through which blocks
// communicate, and block-scope loads and stores of shared memory that warps read from each other
// without a barrier. Declared in device compilations only.
#pragma once

#include "gpu/platform.h"
#include "gpu/vendor.h"

// <cuda/atomic> (libcu++, for cuda::atomic_ref) is on nvcc's include path but not on a host
// compiler's with CUDA 13 (it moved under include/cccl), so only nvcc's compiles include it.
#if KIT_CUDA && defined(__CUDACC__)
#include <cuda/atomic>
#endif

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace kit {

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)

// Inter-block communication. Every load and store through which one block reads what another
// wrote goes through these device-scope atomics, on both vendors: plain or volatile accesses may
// be served from a non-coherent cache (NVIDIA's L1; gfx908's per-CU vector L1, which agent-scope
// atomics bypass and acquires invalidate: LLVM AMDGPUUsage, "Memory Model GFX9"), and only atomics
// carry the scope that makes them coherent. T is any 4- or 8-byte type
// (int, unsigned, float, double, std::uint64_t). Relaxed orders nothing else; acquire orders
// every later access of the thread after the load; release every earlier access before the
// store, so data written before a release store may be read with plain loads after the acquire
// load that sees it (the acquire invalidates what the reader's caches held).
namespace detail {
template <class T> struct AtomicSize {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "the atomic helpers move 4- or 8-byte values");
};
#if KIT_CUDA
template <class T> using DeviceAtomicRef = cuda::atomic_ref<T, cuda::thread_scope_device>;
#endif
} // namespace detail

template <class T> __device__ __forceinline__ T gpu_load_relaxed(const T *p) {
  (void)detail::AtomicSize<T>{};
#if KIT_CUDA
  return detail::DeviceAtomicRef<T>(*const_cast<T *>(p)).load(cuda::memory_order_relaxed);
#else
  return __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#endif
}
template <class T> __device__ __forceinline__ T gpu_load_acquire(const T *p) {
  (void)detail::AtomicSize<T>{};
#if KIT_CUDA
  return detail::DeviceAtomicRef<T>(*const_cast<T *>(p)).load(cuda::memory_order_acquire);
#else
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
#endif
}
template <class T> __device__ __forceinline__ void gpu_store_relaxed(T *p, T v) {
  (void)detail::AtomicSize<T>{};
#if KIT_CUDA
  detail::DeviceAtomicRef<T>(*p).store(v, cuda::memory_order_relaxed);
#else
  __hip_atomic_store(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#endif
}
template <class T> __device__ __forceinline__ void gpu_store_release(T *p, T v) {
  (void)detail::AtomicSize<T>{};
#if KIT_CUDA
  detail::DeviceAtomicRef<T>(*p).store(v, cuda::memory_order_release);
#else
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
#endif
}

// Relaxed device-scope 64-bit atomic max (no ordering of other memory). Publishing a state word
// with it makes the state monotonic when several threads may publish in either order.
__device__ __forceinline__ void gpu_atomic_max_relaxed(std::uint64_t *p, std::uint64_t v) {
#if KIT_CUDA
  atomicMax(reinterpret_cast<unsigned long long *>(p), static_cast<unsigned long long>(v));
#else
  __hip_atomic_fetch_max(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#endif
}

// Block-scope atomic load and store of shared memory, for a value one warp writes and another
// reads without a barrier in between (ordered by a block-scope fence and an arrival counter). On
// NVIDIA they are read-modify-write atomics (an exchange; an add of 0): a relaxed block-scope load
// or store compiles to a plain shared-memory access, which compute-sanitizer's racecheck cannot
// tell from a racy one, while the atomic instructions it recognises. They are as cheap where they
// are used (a few per block).
namespace detail {
template <class T>
using AtomicWord = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;
}
template <class T> __device__ __forceinline__ T block_load_relaxed(const T *p) {
  (void)detail::AtomicSize<T>{};
#if KIT_CUDA
  using Word = detail::AtomicWord<T>;
  const Word bits = atomicAdd(reinterpret_cast<Word *>(const_cast<T *>(p)), Word{0});
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
#else
  return __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
#endif
}
template <class T> __device__ __forceinline__ void block_store_relaxed(T *p, T v) {
  (void)detail::AtomicSize<T>{};
#if KIT_CUDA
  using Word = detail::AtomicWord<T>;
  Word bits;
  std::memcpy(&bits, &v, sizeof(T));
  atomicExch(reinterpret_cast<Word *>(p), bits);
#else
  __hip_atomic_store(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
#endif
}

#endif // device compilation

} // namespace kit
