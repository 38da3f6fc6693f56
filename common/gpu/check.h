// Error checks: GPU_CHECK(call) and GPU_CHECK_LAUNCH(name) print the failing call (named as the
// backend spells it), where it was made and the runtime's message, then exit with status 3; and
// whether a GPU can be used at all.
#pragma once

#include "gpu/vendor.h"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace kit {
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
} // namespace gpu
} // namespace kit

#define GPU_CHECK(call) ::kit::gpu::check((call), #call, __FILE__, __LINE__)
// After a kernel launch: reports bad launch configurations (and, asynchronously, earlier faults).
#define GPU_CHECK_LAUNCH(kernel_name)                                                              \
  ::kit::gpu::check(cudaGetLastError(), "launch of " kernel_name, __FILE__, __LINE__)
