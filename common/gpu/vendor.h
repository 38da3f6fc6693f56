// The vendor layer: renames and shims, nothing else. Kernels and host code are written once in
// CUDA spelling (cudaMalloc, __global__, atomicAdd, ...); on HIP the runtime names are mapped to
// hip* here, and what differs between the vendors at the level of single intrinsics is shimmed:
// the warp size, warp shuffles, ballots and lane masks. The rest of the vendor layer has headers
// of its own, each included by the code that uses it: which vendor compiles (gpu/platform.h), the
// scoped atomics through which blocks communicate (gpu/scoped_atomics.h) and AMD's DPP lane moves
// (gpu/dpp_lane_moves.h). Everything built on top (error checks, device queries, launches,
// back-off, collectives, device-wide primitives) lives in headers of its own.
//
// Rules for code above this layer: never assume a warp is 32 lanes (use KIT_WARP_SIZE in device
// code, kit::gpu::device_warp_size() on the host); lane masks are kit::lane_mask_t (64-bit); never
// call a *_sync intrinsic directly.
#pragma once

#include "gpu/platform.h"

#if KIT_HIP
#include <hip/hip_runtime.h>
#else
#include <cuda_runtime.h>
#endif

#include <cstddef>
#include <cstdint>

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
#define cudaFuncAttributes hipFuncAttributes
#define cudaFuncGetAttributes hipFuncGetAttributes
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

// KIT_WARP_REDUX: whether warp_redux_max exists, a whole-warp reduction in one instruction (device
// code for NVIDIA sm_80 and later; not under the persona, whose warps are 64-lane groups).
#if KIT_CUDA && !defined(KIT_PERSONA_GFX908) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define KIT_WARP_REDUX 1
#else
#define KIT_WARP_REDUX 0
#endif

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
#if KIT_WARP_REDUX
// The maximum of `v` over the warp in one instruction (redux.sync, sm_80 and later).
__device__ __forceinline__ int warp_redux_max(int v) { return __reduce_max_sync(kFullWarp, v); }
#endif
#else
// HIP's shuffles have no mask: a wavefront executes in lock-step. They compile to ds_bpermute_b32
// (a round trip through the LDS crossbar, no LDS allocated), whose read of a lane with its EXEC bit
// clear returns 0, not the reader's own value (AMD CDNA1 ISA, "DS_BPERMUTE_B32"; LLVM's
// llvm.amdgcn.ds.bpermute). __shfl_up and __shfl_down compute their source lane first and read
// their own lane where it falls outside the width, so only a source lane that is inactive gives 0:
// the kit calls them with every lane active. __ballot returns the 64-bit vote of the active lanes
// (HIP programming guide, "Warp cross-lane functions").
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

__device__ __forceinline__ int lane_mask_popcount(lane_mask_t m) { return __popcll(m); }
// Index of the highest set lane, -1 for an empty mask.
__device__ __forceinline__ int lane_mask_highest(lane_mask_t m) {
  return m ? 63 - __clzll(static_cast<long long>(m)) : -1;
}
// Lanes strictly below the calling lane.
__device__ __forceinline__ lane_mask_t lane_mask_lt() { return (lane_mask_t{1} << lane_id()) - 1; }

#endif // device compilation

} // namespace kit
