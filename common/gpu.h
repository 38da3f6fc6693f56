// The kit's only vendor layer. Kernels and host code are written once in CUDA spelling
// (cudaMalloc, __global__, atomicAdd, ...); on HIP the runtime names are mapped to hip* here.
// Everything that differs between the vendors beyond a rename lives in this file too:
// warp size, warp shuffles and ballots, lane masks, DPX/min3 helpers, spin-loop back-off,
// acquire/release atomics, and the error checks.
//
// Rules for code above this layer: never assume a warp is 32 lanes (use KIT_WARP_SIZE in device
// code, kit::gpu::device_warp_size() on the host); lane masks are kit::lane_mask_t (64-bit); never
// call a *_sync intrinsic directly.
#pragma once

// KIT_BACKEND_HIP comes from the build (kit::backend) so that plain C++ host files compiled by
// g++ also pick HIP; the other macros cover hipcc/clang compiles such as the exported folders.
#if defined(KIT_BACKEND_HIP) || defined(__HIPCC__) || defined(__HIP__) ||                          \
    defined(__HIP_PLATFORM_AMD__)
#define KIT_HIP 1
#include <hip/hip_runtime.h>
#else
#define KIT_CUDA 1
// <cuda/atomic> (libcu++, used by the device helpers only) is on nvcc's include path but not on a
// host compiler's with CUDA 13 (it moved under include/cccl), so plain C++ files skip it.
#if defined(__CUDACC__)
#include <cuda/atomic>
#endif
#include <cuda_runtime.h>
#endif

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

// ---------------------------------------------------------------------------------------------
// Runtime API: CUDA names, mapped to HIP.
// ---------------------------------------------------------------------------------------------
#if KIT_HIP
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaErrorNoDevice hipErrorNoDevice
#define cudaErrorMemoryAllocation hipErrorOutOfMemory
#define cudaGetErrorString hipGetErrorString
#define cudaGetErrorName hipGetErrorName
#define cudaGetLastError hipGetLastError
#define cudaPeekAtLastError hipPeekAtLastError
#define cudaGetDeviceCount hipGetDeviceCount
#define cudaGetDevice hipGetDevice
#define cudaSetDevice hipSetDevice
#define cudaDeviceProp hipDeviceProp_t
#define cudaGetDeviceProperties hipGetDeviceProperties
#define cudaDeviceGetAttribute hipDeviceGetAttribute
#define cudaDevAttrWarpSize hipDeviceAttributeWarpSize
#define cudaDevAttrMultiProcessorCount hipDeviceAttributeMultiprocessorCount
#define cudaDevAttrMaxSharedMemoryPerBlock hipDeviceAttributeMaxSharedMemoryPerBlock
#define cudaDevAttrL2CacheSize hipDeviceAttributeL2CacheSize
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaDeviceReset hipDeviceReset
#define cudaFree hipFree
#define cudaMalloc hipMalloc
#define cudaMemGetInfo hipMemGetInfo
#define cudaMemcpy hipMemcpy
#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemcpy2DAsync hipMemcpy2DAsync
#define cudaMemset hipMemset
#define cudaMemsetAsync hipMemsetAsync
#define cudaMemcpyKind hipMemcpyKind
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define cudaMemcpyDefault hipMemcpyDefault
#define cudaMallocHost hipHostMalloc
#define cudaFreeHost hipHostFree
#define cudaHostRegister hipHostRegister
#define cudaHostUnregister hipHostUnregister
#define cudaHostRegisterDefault hipHostRegisterDefault
#define cudaStream_t hipStream_t
#define cudaStreamCreate hipStreamCreate
#define cudaStreamCreateWithFlags hipStreamCreateWithFlags
#define cudaStreamNonBlocking hipStreamNonBlocking
#define cudaStreamDestroy hipStreamDestroy
#define cudaStreamSynchronize hipStreamSynchronize
#define cudaStreamWaitEvent hipStreamWaitEvent
#define cudaEvent_t hipEvent_t
#define cudaEventCreate hipEventCreate
#define cudaEventCreateWithFlags hipEventCreateWithFlags
#define cudaEventDisableTiming hipEventDisableTiming
#define cudaEventDestroy hipEventDestroy
#define cudaEventRecord hipEventRecord
#define cudaEventSynchronize hipEventSynchronize
#define cudaEventQuery hipEventQuery
#define cudaEventElapsedTime hipEventElapsedTime
#define cudaFuncSetAttribute hipFuncSetAttribute
#define cudaFuncAttributeMaxDynamicSharedMemorySize hipFuncAttributeMaxDynamicSharedMemorySize
#define cudaOccupancyMaxActiveBlocksPerMultiprocessor hipOccupancyMaxActiveBlocksPerMultiprocessor
#define cudaLaunchCooperativeKernel hipLaunchCooperativeKernel
#endif

// ---------------------------------------------------------------------------------------------
// Warp size. KIT_WARP_SIZE is exact in device code (64 on CDNA/GCN, 32 on RDNA and NVIDIA). The
// host pass of a HIP compile sees the default wavefront of the target family (64), so host code
// must ask the device instead: kit::gpu::device_warp_size().
// ---------------------------------------------------------------------------------------------
#if KIT_HIP
#if defined(__AMDGCN_WAVEFRONT_SIZE)
#define KIT_WARP_SIZE __AMDGCN_WAVEFRONT_SIZE
#else
#define KIT_WARP_SIZE 64
#endif
#else
#define KIT_WARP_SIZE 32
#endif

namespace kit {

// A bit per lane of a warp; 64 bits so that wave64 fits.
using lane_mask_t = std::uint64_t;

constexpr int kMaxWarpSize = 64;

// ---------------------------------------------------------------------------------------------
// Warp-level intrinsics. All lanes of the warp must call them together (converged): the CUDA
// versions use the full-warp mask, which is what the HIP ones imply.
// ---------------------------------------------------------------------------------------------
#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)

__device__ __forceinline__ int lane_id() { return static_cast<int>(threadIdx.x) % KIT_WARP_SIZE; }
__device__ __forceinline__ int warp_id() { return static_cast<int>(threadIdx.x) / KIT_WARP_SIZE; }

#if KIT_CUDA
constexpr unsigned kFullWarp = 0xffffffffu;
template <class T> __device__ __forceinline__ T warp_shfl(T v, int src_lane) {
  return __shfl_sync(kFullWarp, v, src_lane);
}
template <class T> __device__ __forceinline__ T warp_shfl_up(T v, unsigned delta) {
  return __shfl_up_sync(kFullWarp, v, delta);
}
template <class T> __device__ __forceinline__ T warp_shfl_down(T v, unsigned delta) {
  return __shfl_down_sync(kFullWarp, v, delta);
}
template <class T> __device__ __forceinline__ T warp_shfl_xor(T v, int lane_mask) {
  return __shfl_xor_sync(kFullWarp, v, lane_mask);
}
__device__ __forceinline__ lane_mask_t warp_ballot(bool predicate) {
  return static_cast<lane_mask_t>(__ballot_sync(kFullWarp, predicate));
}
__device__ __forceinline__ void warp_sync() { __syncwarp(); }
#else
// HIP's shuffles have no mask: a wavefront executes in lock-step, and inactive lanes read back
// their own value. __ballot returns the full 64-bit exec-masked vote.
template <class T> __device__ __forceinline__ T warp_shfl(T v, int src_lane) {
  return __shfl(v, src_lane);
}
template <class T> __device__ __forceinline__ T warp_shfl_up(T v, unsigned delta) {
  return __shfl_up(v, delta);
}
template <class T> __device__ __forceinline__ T warp_shfl_down(T v, unsigned delta) {
  return __shfl_down(v, delta);
}
template <class T> __device__ __forceinline__ T warp_shfl_xor(T v, int lane_mask) {
  return __shfl_xor(v, lane_mask);
}
__device__ __forceinline__ lane_mask_t warp_ballot(bool predicate) {
  return static_cast<lane_mask_t>(__ballot(predicate));
}
// A wavefront never diverges its lanes' progress, so ordering inside it needs only a compiler
// barrier plus the LDS wait that __builtin_amdgcn_wave_barrier provides.
__device__ __forceinline__ void warp_sync() { __builtin_amdgcn_wave_barrier(); }
#endif

// Maximum of a float over the warp, for values that are not NaN; every lane receives it. On sm_80
// and later one redux instruction on an order-preserving integer image of the float (negative
// values have their magnitude bits flipped), elsewhere a butterfly of shuffles.
__device__ __forceinline__ float warp_max(float x) {
#if KIT_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const auto ordered = [](int bits) { return bits ^ ((bits >> 31) & 0x7fffffff); };
  return __int_as_float(ordered(__reduce_max_sync(kFullWarp, ordered(__float_as_int(x)))));
#else
#pragma unroll
  for (int offset = KIT_WARP_SIZE / 2; offset > 0; offset /= 2)
    x = fmaxf(x, warp_shfl_xor(x, offset));
  return x;
#endif
}

__device__ __forceinline__ int lane_mask_popcount(lane_mask_t m) { return __popcll(m); }
// Index of the highest set lane, -1 for an empty mask.
__device__ __forceinline__ int lane_mask_highest(lane_mask_t m) {
  return m ? 63 - __clzll(static_cast<long long>(m)) : -1;
}
// Lanes strictly below the calling lane.
__device__ __forceinline__ lane_mask_t lane_mask_lt() { return (lane_mask_t{1} << lane_id()) - 1; }

// ---------------------------------------------------------------------------------------------
// Integer min-plus helpers (APSP inner loops).
// ---------------------------------------------------------------------------------------------

// min(a + b, c). On sm_90+ this is one DPX instruction (VIADDMNMX); older NVIDIA GPUs get the
// intrinsic's emulation, AMD the two-instruction form.
__device__ __forceinline__ int gpu_add_min(int a, int b, int c) {
#if KIT_CUDA
  return __viaddmin_s32(a, b, c);
#else
  return min(a + b, c);
#endif
}

// min(a, b, c). NVIDIA sm_90 has a DPX 3-way min; on AMD the compiler folds the nested min into
// v_min3_i32 (checked in the gfx908 ISA), which lets two k steps share one instruction.
__device__ __forceinline__ int gpu_min3(int a, int b, int c) {
#if KIT_CUDA
  return __vimin3_s32(a, b, c);
#else
  return min(min(a, b), c);
#endif
}

// ---------------------------------------------------------------------------------------------
// Streaming arithmetic and loads (softmax).
// ---------------------------------------------------------------------------------------------

// 2^x where results below the smallest normal float (2^-126) may be 0. On NVIDIA the bare
// special-function instruction (ex2.approx.ftz: MUFU.EX2, the 2 ulp of exp2f), without exp2f's
// fix-up for denormal results (a compare and two predicated multiplies per call): with 8-16 warps
// per SM the on-chip softmax waits on exactly these instructions (softmax/README.md). On AMD,
// exp2f (this hipcc has no bare v_exp_f32 builtin). Host code gets exp2f.
__host__ __device__ __forceinline__ float gpu_exp2_flush(float x) {
#if KIT_CUDA && defined(__CUDA_ARCH__)
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
#else
  return exp2f(x);
#endif
}

// A 16-byte load of data the kernel reads once. On NVIDIA cache-streaming (ld.global.cs, evict
// first): an ordinary coherent load that tells L1 and L2 not to keep the line (the on-chip
// softmax's pass 1 issues 40 of these per thread at once; 2 % faster at 1e7 on the H200). On AMD
// a plain load (a non-temporal load is unmeasured there).
__device__ __forceinline__ float4 gpu_load_once(const float4 *p) {
#if KIT_CUDA
  return __ldcs(p);
#else
  return *p;
#endif
}

// ---------------------------------------------------------------------------------------------
// Spin loops and inter-block communication.
// ---------------------------------------------------------------------------------------------

// Back-off hint for spin-wait loops. Some early MI100 firmware is known to hang when a wave
// spins on a global flag without ever yielding its SIMD; s_sleep lets the other waves (including
// the one that will write the flag) issue. About 64 clocks on AMD, 100 ns on NVIDIA.
__device__ __forceinline__ void gpu_sleep_hint() {
#if KIT_CUDA
  __nanosleep(100);
#else
  __builtin_amdgcn_s_sleep(1);
#endif
}

// Copies 16 bytes from global to shared memory without passing them through registers, so that a
// thread can keep many copies in flight while its registers hold other data (softmax's on-chip
// method). On sm_80+ it is cp.async with the L2-only (.cg) policy; gfx908 has no asynchronous
// global-to-LDS copy, so there it is a plain load and store. Both addresses must be 16-byte
// aligned. The calling thread may read the data after gpu_async_copy_wait_all(); other threads of
// the block after that and a __syncthreads().
__device__ __forceinline__ void gpu_async_copy_16(void *shared_dst, const void *global_src) {
#if KIT_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(global_src) : "memory");
#else
  *static_cast<float4 *>(shared_dst) = *static_cast<const float4 *>(global_src);
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
// mbarrier). They made the softmax on-chip kernel 3-4 % faster than 16-byte cp.async per thread
// in its 256x40 shape on the H100 and the H200 (softmax/README.md). Where kGpuBulkCopy is false
// (older NVIDIA GPUs, gfx908) the functions must not be called; callers fall back to
// gpu_async_copy_16. Protocol: one thread calls gpu_tx_barrier_init, then the block synchronises;
// the issuing thread announces the bytes with gpu_tx_barrier_expect before (or with) its copies;
// any thread that reads the data first waits with gpu_tx_barrier_wait for the barrier's phase 0
// (each barrier is used for one batch here). Addresses and sizes: multiples of 16 bytes, at most
// 2^20 - 1 bytes announced per barrier.
#if KIT_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
constexpr bool kGpuBulkCopy = true;
#else
constexpr bool kGpuBulkCopy = false;
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

// Device-scope acquire load / release store of a 64-bit word, for flag-and-value protocols
// between blocks (decoupled look-back). Release orders every earlier write of the calling thread
// before the store; acquire orders every later read after the load.
__device__ __forceinline__ std::uint64_t gpu_load_acquire(const std::uint64_t *p) {
#if KIT_CUDA
  cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device> ref(*const_cast<std::uint64_t *>(p));
  return ref.load(cuda::memory_order_acquire);
#else
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
#endif
}
__device__ __forceinline__ void gpu_store_release(std::uint64_t *p, std::uint64_t v) {
#if KIT_CUDA
  cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device> ref(*p);
  ref.store(v, cuda::memory_order_release);
#else
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
#endif
}
// Relaxed device-scope load: observes other blocks' stores without ordering anything else.
__device__ __forceinline__ std::uint64_t gpu_load_relaxed(const std::uint64_t *p) {
#if KIT_CUDA
  cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device> ref(*const_cast<std::uint64_t *>(p));
  return ref.load(cuda::memory_order_relaxed);
#else
  return __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#endif
}
// Relaxed device-scope store: a single-copy-atomic 64-bit write with no fence. Enough when the
// word carries all the information a reader needs (a packed {status, value} scan tile state).
__device__ __forceinline__ void gpu_store_relaxed(std::uint64_t *p, std::uint64_t v) {
#if KIT_CUDA
  cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device> ref(*p);
  ref.store(v, cuda::memory_order_relaxed);
#else
  __hip_atomic_store(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
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

// ---------------------------------------------------------------------------------------------
// Error checks: print the failing call, where it was made and the runtime's message, then exit.
// ---------------------------------------------------------------------------------------------
namespace gpu {

#if KIT_CUDA
constexpr const char *kRuntimeName = "CUDA";
#else
constexpr const char *kRuntimeName = "HIP";
#endif

// Exit status of a program stopped by a GPU runtime error (bad input uses 2).
constexpr int kGpuFailureExitCode = 3;

// The failing call as messages name it, `prefix` then `rest`. Calls are written (and GPU_CHECK
// stringifies them) in CUDA spelling; on HIP the leading `cuda` becomes `hip`, or the HIP name of
// a call that HIP renames beyond the prefix (the #defines above), so the message names the call
// that actually failed. Arguments keep their source spelling.
struct RuntimeCallName {
  const char *prefix;
  const char *rest;
};
inline RuntimeCallName runtime_call_name(const char *call) {
#if KIT_HIP
  // Advances `text` past `prefix` when it starts with it.
  const auto skip = [](const char *text, const char *prefix) -> const char * {
    for (; *prefix; ++text, ++prefix)
      if (*text != *prefix)
        return nullptr;
    return text;
  };
  static const char *const kRenamed[][2] = {{"cudaMallocHost(", "hipHostMalloc("},
                                            {"cudaFreeHost(", "hipHostFree("}};
  for (const auto &names : kRenamed)
    if (const char *rest = skip(call, names[0]))
      return {names[1], rest};
  if (const char *rest = skip(call, "cuda"))
    return {"hip", rest};
#endif
  return {"", call};
}

[[noreturn]] inline void fail(cudaError_t err, const char *call, const char *file, int line) {
  const RuntimeCallName name = runtime_call_name(call);
  std::fprintf(stderr, "%s error: %s%s failed at %s:%d: %s (%s)\n", kRuntimeName, name.prefix,
               name.rest, file, line, cudaGetErrorString(err), cudaGetErrorName(err));
  std::exit(kGpuFailureExitCode);
}

inline void check(cudaError_t err, const char *call, const char *file, int line) {
  if (err != cudaSuccess)
    fail(err, call, file, line);
}

// True when a GPU can be used; otherwise `why` receives the runtime's reason (no device, no
// driver, ...). Used by tests to SKIP and by programs to choose a path.
inline bool device_available(const char **why = nullptr) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError(); // clear the sticky error so later calls start clean
    if (why)
      *why = cudaGetErrorString(err);
    return false;
  }
  if (count == 0) {
    if (why)
      *why = "no GPU device found";
    return false;
  }
  return true;
}

// For benchmarks and experiments, which have no CPU path: the properties of device 0, or
// "<program>: no usable GPU (<reason>)" on stderr and exit status 1.
inline cudaDeviceProp device_properties_or_exit(const char *program) {
  const char *why = nullptr;
  if (!device_available(&why)) {
    std::fprintf(stderr, "%s: no usable GPU (%s)\n", program, why ? why : "unknown");
    std::exit(1);
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties", __FILE__, __LINE__);
  return prop;
}

// Lanes per warp of the current device (32 on NVIDIA and RDNA, 64 on CDNA/GCN).
inline int device_warp_size() {
  int device = 0, warp = 0;
  check(cudaGetDevice(&device), "cudaGetDevice", __FILE__, __LINE__);
  check(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device), "cudaDeviceGetAttribute",
        __FILE__, __LINE__);
  return warp;
}

inline int device_multiprocessors() {
  int device = 0, sms = 0;
  check(cudaGetDevice(&device), "cudaGetDevice", __FILE__, __LINE__);
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
        "cudaDeviceGetAttribute", __FILE__, __LINE__);
  return sms;
}

// How many blocks of `kernel` (with `threads` threads and `shared_bytes` of dynamic shared memory)
// the current device holds at once: the grid of a grid-stride kernel that should fill the GPU
// exactly once, and the largest grid a cooperative launch accepts. Callers cache the result.
template <class Kernel>
inline int resident_blocks(Kernel kernel, int threads, std::size_t shared_bytes = 0) {
  int per_multiprocessor = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, threads,
                                                      shared_bytes),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor", __FILE__, __LINE__);
  return per_multiprocessor * device_multiprocessors();
}

// Most dynamic shared memory one block may use, in bytes. NVIDIA allows more than the default
// 48 KB after a per-kernel opt-in (cudaFuncSetAttribute with
// cudaFuncAttributeMaxDynamicSharedMemorySize); this is that opt-in limit. AMD has no opt-in:
// the limit is the LDS a workgroup may allocate (64 KB on gfx908).
inline int max_shared_bytes_per_block() {
  int device = 0, bytes = 0;
  check(cudaGetDevice(&device), "cudaGetDevice", __FILE__, __LINE__);
#if KIT_CUDA
  check(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
        "cudaDeviceGetAttribute", __FILE__, __LINE__);
#else
  check(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlock, device),
        "cudaDeviceGetAttribute", __FILE__, __LINE__);
#endif
  return bytes;
}

} // namespace gpu
} // namespace kit

#define GPU_CHECK(call) ::kit::gpu::check((call), #call, __FILE__, __LINE__)
// After a kernel launch: reports bad launch configurations (and, asynchronously, earlier faults).
#define GPU_CHECK_LAUNCH(kernel_name)                                                              \
  ::kit::gpu::check(cudaGetLastError(), "launch of " kernel_name, __FILE__, __LINE__)
