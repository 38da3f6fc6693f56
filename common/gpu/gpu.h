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
#include <cstring>
#include <tuple>
#include <type_traits>
#include <unistd.h>
#include <utility>

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
#define cudaDeviceAttr hipDeviceAttribute_t
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
#define cudaDevAttrCooperativeLaunch hipDeviceAttributeCooperativeLaunch
#define cudaDevAttrComputeCapabilityMajor hipDeviceAttributeComputeCapabilityMajor
#define cudaDevAttrComputeCapabilityMinor hipDeviceAttributeComputeCapabilityMinor
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
#elif defined(KIT_PERSONA_GFX908)
#include "gpu/persona.h" // 64-lane warps on the NVIDIA GPU (CMake option KIT_PERSONA)
#else
#define KIT_WARP_SIZE 32
#endif

namespace kit {

// A bit per lane of a warp; 64 bits so that wave64 fits.
using lane_mask_t = std::uint64_t;

// The widest warp of any target (AMD's wave64): block sizes that are multiples of it divide
// into whole warps everywhere.
inline constexpr int kMaxWarpSize = 64;

// The largest block a kernel may launch: 1024 threads on every target GPU (NVIDIA, and gfx908's
// workgroup limit), 960 under the MI100 persona, whose 64-lane groups take one named barrier
// each (gpu/persona.h). Kernels that size their block to the limit use this, not 1024.
#if defined(KIT_PERSONA_GFX908)
inline constexpr int kMaxBlockThreads = static_cast<int>(persona::kMaxBlockThreads);
#else
inline constexpr int kMaxBlockThreads = 1024;
#endif

// ---------------------------------------------------------------------------------------------
// Warp-level intrinsics. All lanes of the warp must call them together (converged): the CUDA
// versions use the full-warp mask, which is what the HIP ones imply.
// ---------------------------------------------------------------------------------------------
#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)

__device__ __forceinline__ int lane_id() { return static_cast<int>(threadIdx.x) % KIT_WARP_SIZE; }
__device__ __forceinline__ int warp_id() { return static_cast<int>(threadIdx.x) / KIT_WARP_SIZE; }

#if defined(KIT_PERSONA_GFX908)
// The MI100 persona's 64-lane groups (persona.h).
template <class T> __device__ __forceinline__ T warp_shfl(T v, int src_lane) {
  return persona::shfl(v, src_lane);
}
template <class T> __device__ __forceinline__ T warp_shfl_up(T v, unsigned delta) {
  return persona::shfl_up(v, delta);
}
template <class T> __device__ __forceinline__ T warp_shfl_down(T v, unsigned delta) {
  return persona::shfl_down(v, delta);
}
template <class T> __device__ __forceinline__ T warp_shfl_xor(T v, int lane_mask) {
  return persona::shfl_xor(v, lane_mask);
}
__device__ __forceinline__ lane_mask_t warp_ballot(bool predicate) {
  return persona::ballot(predicate);
}
__device__ __forceinline__ void warp_sync() { persona::group_barrier(); }
#elif KIT_CUDA
inline constexpr unsigned kFullWarp = 0xffffffffu;
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
// HIP's shuffles have no mask: a wavefront executes in lock-step, and a lane that reads an
// inactive lane gets its own value back; __ballot returns the 64-bit vote of the active lanes (HIP
// programming guide, "Warp cross-lane functions").
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
// Orders the memory accesses of the wavefront's lanes around this point, like __syncwarp: lane
// b reads what lane a wrote before it. __builtin_amdgcn_wave_barrier alone only keeps the
// compiler from moving code across it; the wavefront-scope release and acquire fences make the
// LDS and global writes before it visible to the other lanes after it (LLVM AMDGPUUsage, "Memory
// Model GFX9": wavefront-scope fences wait for the wave's own outstanding accesses).
__device__ __forceinline__ void warp_sync() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
#endif

// Maximum of a float over the warp, for values that are not NaN; every lane receives it. On sm_80
// and later one redux instruction on an order-preserving integer image of the float (negative
// values have their magnitude bits flipped), elsewhere a butterfly of shuffles.
__device__ __forceinline__ float warp_max(float x) {
#if KIT_CUDA && !defined(KIT_PERSONA_GFX908) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
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
// first): an ordinary coherent load that tells L1 and L2 not to keep the line, so that a kernel
// holding many such loads in flight does not evict data it will use again (the on-chip softmax's
// pass 1). On AMD a plain load.
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

// Bounded exponential back-off for spin-wait loops: each wait() sleeps twice as long as the last,
// up to a cap, so that a waiter polls often while its predecessor is about to publish and then
// leaves the issue slots (and the memory system) to the waves it waits for. On AMD the unit is
// s_sleep 1 (64 clocks) repeated up to 32 times, the bound rocPRIM's look-back uses
// (rocprim/device/detail/lookback_scan_state.hpp). On NVIDIA __nanosleep from 32 ns to 128 ns: a
// waiter's last sleep is added to the time after the value it waits for arrives, which is on the
// critical path where one block combines the others' results, so the cap stays short. On the
// H100, prefix_sum's and softmax's benches measured growing sleeps (then capped at 1 us) level
// with a fixed 100 ns sleep or 1-2 % faster; the LeetGPU reduction's single poller measured about
// 1 us slower with every growing sleep tried (32-128, 64-256, 100-400 ns, 1 us cap) than with a
// fixed 100 ns one (basics/reduction/README.md, "Design notes").
class SpinBackoff {
public:
  __device__ __forceinline__ void wait() {
#if KIT_CUDA
    __nanosleep(units_ * 32u);
#else
    for (unsigned i = 0; i < units_; ++i)
      __builtin_amdgcn_s_sleep(1);
#endif
    if (units_ < kMaxUnits)
      units_ *= 2;
  }

private:
#if KIT_CUDA
  static constexpr unsigned kMaxUnits = 4;
#else
  static constexpr unsigned kMaxUnits = 32;
#endif
  unsigned units_ = 1;
};

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

// ---------------------------------------------------------------------------------------------
// Error checks: print the failing call, where it was made and the runtime's message, then exit.
// ---------------------------------------------------------------------------------------------
namespace gpu {

#if KIT_CUDA
inline constexpr const char *kRuntimeName = "CUDA";
#else
inline constexpr const char *kRuntimeName = "HIP";
#endif

// Exit status of a program stopped by a GPU runtime error (bad input uses 2).
inline constexpr int kGpuFailureExitCode = 3;

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

// Whether this machine has the vendor's GPU driver at all. Without it the runtimes report
// something else: CUDA says "driver version is insufficient", which would blame a version on a
// machine that has no GPU.
inline bool gpu_driver_present() {
#if KIT_HIP
  const char *node = "/dev/kfd"; // the ROCm kernel driver's interface
#else
  const char *node = "/proc/driver/nvidia/version";
#endif
  return access(node, F_OK) == 0;
}
#if KIT_HIP
inline constexpr const char *kNoGpuReason =
    "no AMD GPU driver on this machine: /dev/kfd is missing";
#else
inline constexpr const char *kNoGpuReason = "no NVIDIA driver on this machine";
#endif

// True when a GPU can be used; otherwise `why` receives the runtime's reason (no device, no
// driver, ...). Used by tests to SKIP and by programs to choose a path.
inline bool device_available(const char **why = nullptr) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError(); // clear the sticky error so later calls start clean
    if (why)
      *why = gpu_driver_present() ? cudaGetErrorString(err) : kNoGpuReason;
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

// One attribute of the current device; `what` names it in the error message.
inline int device_attribute(cudaDeviceAttr attribute, const char *what) {
  int device = 0, value = 0;
  check(cudaGetDevice(&device), "cudaGetDevice", __FILE__, __LINE__);
  check(cudaDeviceGetAttribute(&value, attribute, device), what, __FILE__, __LINE__);
  return value;
}

// Lanes per warp of the current device (32 on NVIDIA and RDNA, 64 on CDNA/GCN and under the
// MI100 persona).
inline int device_warp_size() {
#if defined(KIT_PERSONA_GFX908)
  return KIT_WARP_SIZE;
#else
  return device_attribute(cudaDevAttrWarpSize, "cudaDeviceGetAttribute(warp size)");
#endif
}

inline int device_multiprocessors() {
#if defined(KIT_PERSONA_GFX908)
  return persona::kMultiprocessors;
#else
  return device_attribute(cudaDevAttrMultiProcessorCount,
                          "cudaDeviceGetAttribute(multiprocessor count)");
#endif
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
#if defined(KIT_PERSONA_GFX908)
  return persona::kSharedBytesPerBlock;
#else
#if KIT_CUDA
  return device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin,
                          "cudaDeviceGetAttribute(shared memory per block, opt-in)");
#else
  return device_attribute(cudaDevAttrMaxSharedMemoryPerBlock,
                          "cudaDeviceGetAttribute(shared memory per block)");
#endif
#endif
}

// Bytes of L2 cache of the current device (8 MB under the MI100 persona).
inline int l2_cache_bytes() {
#if defined(KIT_PERSONA_GFX908)
  return persona::kL2Bytes;
#else
  return device_attribute(cudaDevAttrL2CacheSize, "cudaDeviceGetAttribute(L2 size)");
#endif
}

// Whether the current device can launch a grid whose blocks are guaranteed to be resident at
// once (cudaLaunchCooperativeKernel / hipLaunchCooperativeKernel). Asked once per device.
inline bool cooperative_launch_supported() {
  constexpr int kCachedDevices = 64;
  static int cached[kCachedDevices] = {}; // 0 unknown, 1 no, 2 yes
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice", __FILE__, __LINE__);
  int *entry = device >= 0 && device < kCachedDevices ? &cached[device] : nullptr;
  if (entry && *entry)
    return *entry == 2;
  const bool supported = device_attribute(cudaDevAttrCooperativeLaunch,
                                          "cudaDeviceGetAttribute(cooperative launch)") != 0;
  if (entry)
    *entry = supported ? 2 : 1;
  return supported;
}

// Launches `kernel` with every block of the grid resident at once, as kernels that wait for other
// blocks (a grid barrier, blocks in blockIdx order waiting on lower ones) need: the runtime
// refuses a grid that does not fit instead of running it in waves that would wait forever. The
// grid must come from resident_blocks() of the same kernel and block size. A device without
// cooperative launch, or a refused grid, ends the program with a message naming `name` and the
// cause (exit 3).
template <class... Params, class... Args>
void launch_cooperative(const char *name, void (*kernel)(Params...), unsigned grid, unsigned block,
                        std::size_t shared_bytes, cudaStream_t stream, Args &&...args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "one argument per kernel parameter");
  if (!cooperative_launch_supported()) {
    std::fprintf(stderr,
                 "%s error: %s needs a cooperative launch, which this GPU does not support\n",
                 kRuntimeName, name);
    std::exit(kGpuFailureExitCode);
  }
  // The runtime copies the arguments from these addresses, typed exactly as the kernel's.
  auto params = std::tuple<Params...>(std::forward<Args>(args)...);
  void *pointers[sizeof...(Params) > 0 ? sizeof...(Params) : 1] = {};
  std::apply(
      [&](auto &...p) {
        int i = 0;
        ((pointers[i++] = static_cast<void *>(&p)), ...);
      },
      params);
  const cudaError_t err = cudaLaunchCooperativeKernel(reinterpret_cast<void *>(kernel), dim3(grid),
                                                      dim3(block), pointers, shared_bytes, stream);
  if (err != cudaSuccess) {
    std::fprintf(stderr,
                 "%s error: cooperative launch of %s (%u blocks of %u threads, %zu bytes of "
                 "shared memory) failed: %s (%s)\n",
                 kRuntimeName, name, grid, block, shared_bytes, cudaGetErrorString(err),
                 cudaGetErrorName(err));
    std::exit(kGpuFailureExitCode);
  }
}

// The GPU families the kit has tuning tables for (<problem>/tuning.h). Kernels are compiled for
// every architecture of the build; the host picks the table of the device it runs on.
enum class GpuArch {
  sm90,   // NVIDIA Hopper (H100, H200), and NVIDIA GPUs without a table of their own
  sm100,  // NVIDIA Blackwell (B200)
  gfx908, // AMD MI100 (CDNA1), and AMD GPUs without a table of their own
};

inline const char *arch_name(GpuArch arch) {
  switch (arch) {
  case GpuArch::sm100:
    return "sm_100";
  case GpuArch::gfx908:
    return "gfx908";
  case GpuArch::sm90:
    break;
  }
  return "sm_90";
}

// The table for the current device: on HIP (and under the MI100 persona) always gfx908's; on CUDA
// sm_100's for compute capability 10.x, else sm_90's.
inline GpuArch device_arch() {
#if KIT_HIP || defined(KIT_PERSONA_GFX908)
  return GpuArch::gfx908;
#else
  static const GpuArch arch = [] {
    const int major = device_attribute(cudaDevAttrComputeCapabilityMajor,
                                       "cudaDeviceGetAttribute(compute capability)");
    return major == 10 ? GpuArch::sm100 : GpuArch::sm90;
  }();
  return arch;
#endif
}

// Calls f(Tuning<arch>{}) with the tuning table of the current device (device_arch()), so that a
// kernel templated on its table is instantiated for every table of the backend and launched with
// the right one. Tuning<GpuArch> is a problem's table (<problem>/tuning.h).
template <template <GpuArch> class Tuning, class F> decltype(auto) with_tuning(F &&f) {
#if KIT_HIP || defined(KIT_PERSONA_GFX908)
  return f(Tuning<GpuArch::gfx908>{});
#else
  if (device_arch() == GpuArch::sm100)
    return f(Tuning<GpuArch::sm100>{});
  return f(Tuning<GpuArch::sm90>{});
#endif
}

} // namespace gpu
} // namespace kit

#define GPU_CHECK(call) ::kit::gpu::check((call), #call, __FILE__, __LINE__)
// After a kernel launch: reports bad launch configurations (and, asynchronously, earlier faults).
#define GPU_CHECK_LAUNCH(kernel_name)                                                              \
  ::kit::gpu::check(cudaGetLastError(), "launch of " kernel_name, __FILE__, __LINE__)
