// Moving data into shared memory and L2 without holding registers for it: asynchronous 16-byte
// copies (cp.async, sm_80 and later), bulk copies by the copy engine with their transaction
// barriers (cp.async.bulk and mbarrier, sm_90 and later), and an L2 prefetch hint (sm_90 and
// later). Each function has a portable meaning on every target: where the hardware lacks the
// instruction, the 16-byte copy is a plain load and store, the prefetch does nothing, and the
// bulk-copy functions must not be called (kGpuBulkCopy says where they exist).
#pragma once

#include "gpu/vendor.h"

#include <cstdint>

namespace kit {

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)

// Copies 16 bytes from global to shared memory without passing them through registers, so that a
// thread can keep many copies in flight while its registers hold other data (softmax's on-chip
// method). On sm_80+ it is cp.async with the L2-only (.cg) policy; gfx908 has no asynchronous
// global-to-LDS copy of 16 bytes (the CDNA1 ISA's only direct path, buffer loads with the lds
// bit, moves 4 bytes per lane), so there it is a plain load and store. Both addresses must be
// 16-byte aligned. The calling thread may read the data after gpu_async_copy_wait_all(); other
// threads of the block after that and a __syncthreads().
__device__ __forceinline__ void gpu_async_copy_16(void *shared_dst, const void *global_src) {
#if KIT_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(global_src) : "memory");
#else
  *static_cast<float4 *>(shared_dst) = *static_cast<const float4 *>(global_src);
#endif
}
// gpu_async_copy_16 where the source may lie outside the data: with `inside` false nothing is read
// (global_src may be any address) and the 16 shared bytes become zeros (cp.async's source size 0).
__device__ __forceinline__ void gpu_async_copy_16_or_zeros(void *shared_dst, const void *global_src,
                                                           bool inside) {
#if KIT_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  const unsigned source_bytes = inside ? 16u : 0u;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(global_src),
               "r"(source_bytes)
               : "memory");
#else
  *static_cast<float4 *>(shared_dst) =
      inside ? *static_cast<const float4 *>(global_src) : make_float4(0.f, 0.f, 0.f, 0.f);
#endif
}
// Waits for every gpu_async_copy_16 the calling thread has issued.
__device__ __forceinline__ void gpu_async_copy_wait_all() {
#if KIT_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}
// For waiting in parts: closes the group of the gpu_async_copy_16 the calling thread issued since
// its last commit; gpu_async_copy_wait_pending(k) then waits until at most k (0 to 3, larger
// waits as for 3, which is stricter) of its committed groups are still in flight. On gfx908
// the copies complete when issued and both are no-ops.
__device__ __forceinline__ void gpu_async_copy_commit() {
#if KIT_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
__device__ __forceinline__ void gpu_async_copy_wait_pending(unsigned pending) {
#if KIT_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  // The count is an immediate operand.
  switch (pending) {
  case 0:
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    break;
  case 1:
    asm volatile("cp.async.wait_group 1;" ::: "memory");
    break;
  case 2:
    asm volatile("cp.async.wait_group 2;" ::: "memory");
    break;
  default:
    asm volatile("cp.async.wait_group 3;" ::: "memory");
    break;
  }
#else
  (void)pending;
#endif
}

// Bulk copies from global to shared memory by the copy engine (cp.async.bulk, sm_90 and later):
// one thread moves a whole contiguous range, which arrives without occupying the threads' load
// slots, and the arrival is counted in bytes on a transaction barrier in shared memory (an
// mbarrier); the softmax on-chip kernel's widest shape fills its shared memory this way
// (softmax/README.md, "Design notes", has the comparison). Where kGpuBulkCopy is false
// (older NVIDIA GPUs, gfx908) the functions must not be called; callers fall back to
// gpu_async_copy_16. Protocol: one thread calls gpu_tx_barrier_init, then the block synchronises;
// the issuing thread announces the bytes with gpu_tx_barrier_expect before (or with) its copies;
// any thread that reads the data first waits with gpu_tx_barrier_wait for the barrier's phase 0
// (each barrier is used for one batch here). Addresses and sizes: multiples of 16 bytes, at most
// 2^20 - 1 bytes announced per barrier.
#if KIT_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
inline constexpr bool kGpuBulkCopy = true;
#else
inline constexpr bool kGpuBulkCopy = false;
#endif
// Where a bulk-copy function is called without the hardware: stop the kernel rather than return
// without copying.
__device__ __forceinline__ void gpu_no_bulk_copy() {
#if KIT_CUDA
  __trap();
#else
  __builtin_trap();
#endif
}
__device__ __forceinline__ void gpu_tx_barrier_init(std::uint64_t *barrier) {
#if KIT_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(barrier));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
  // Makes the initialised barrier visible to the copy engine (the async proxy).
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#else
  (void)barrier;
  gpu_no_bulk_copy();
#endif
}
__device__ __forceinline__ void gpu_tx_barrier_expect(std::uint64_t *barrier, unsigned bytes) {
#if KIT_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(barrier));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
               : "memory");
#else
  (void)barrier;
  (void)bytes;
  gpu_no_bulk_copy();
#endif
}
__device__ __forceinline__ void gpu_bulk_copy_to_shared(void *shared_dst, const void *global_src,
                                                        unsigned bytes, std::uint64_t *barrier) {
#if KIT_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(barrier));
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
               "[%3];" ::"r"(dst),
               "l"(global_src), "r"(bytes), "r"(bar)
               : "memory");
#else
  (void)shared_dst;
  (void)global_src;
  (void)bytes;
  (void)barrier;
  gpu_no_bulk_copy();
#endif
}
__device__ __forceinline__ void gpu_tx_barrier_wait(std::uint64_t *barrier, unsigned phase) {
#if KIT_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(barrier));
  unsigned done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 "
                 "%0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(bar), "r"(phase & 1)
                 : "memory");
#else
  (void)barrier;
  (void)phase;
  gpu_no_bulk_copy();
#endif
}

// Asks the memory system to bring `bytes` bytes from `p` into L2 without holding registers or
// shared memory for them; called by ONE thread for the whole range. `p` must be 16-byte aligned
// and `bytes` a multiple of 16. On sm_90+ it is one bulk prefetch (cp.async.bulk.prefetch.L2),
// which lets a streaming kernel keep DRAM busy beyond what its resident blocks can hold. Older
// NVIDIA GPUs and gfx908 (no such instruction) ignore the hint.
__device__ __forceinline__ void gpu_prefetch_l2(const void *p, unsigned int bytes) {
#if KIT_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(p), "r"(bytes) : "memory");
#else
  (void)p;
  (void)bytes;
#endif
}

#endif // device compilation

} // namespace kit
