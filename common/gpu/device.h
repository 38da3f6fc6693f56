// Whether a GPU can be used at all, and device properties, read at run time from the current
// device (the MI100 persona reports gfx908's), each asked of the runtime with a message naming it
// when the call fails.
#pragma once

#include "gpu/check.h"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace kit::gpu {

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
} // namespace kit::gpu
