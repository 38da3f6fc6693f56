// Error checks: GPU_CHECK(call) and GPU_CHECK_LAUNCH(name) print the failing call (named as the
// backend spells it), where it was made and the runtime's message, then exit with status 3.
#pragma once

#include "gpu/vendor.h"

#include <cstdio>
#include <cstdlib>

namespace kit::gpu {

#if KIT_CUDA
inline constexpr const char *kRuntimeName = "CUDA";
#else
inline constexpr const char *kRuntimeName = "HIP";
#endif

// Exit status of a program stopped by a GPU runtime error (bad input uses 2).
inline constexpr int kGpuFailureExitCode = 3;

#if KIT_HIP
// The failing call as messages name it, `prefix` then `rest`. Calls are written (and GPU_CHECK
// stringifies them) in CUDA spelling; on HIP the leading `cuda` becomes `hip`, or the HIP name of
// a call that HIP renames beyond the prefix (the #defines above), so the message names the call
// that actually failed. Arguments keep their source spelling.
struct RuntimeCallName {
  const char *prefix;
  const char *rest;
};
inline RuntimeCallName runtime_call_name(const char *call) {
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
  return {"", call};
}
#endif

[[noreturn]] inline void fail(cudaError_t err, const char *call, const char *file, int line) {
#if KIT_HIP
  const RuntimeCallName name = runtime_call_name(call);
  std::fprintf(stderr, "HIP error: %s%s failed at %s:%d: %s (%s)\n", name.prefix, name.rest,
               file, line, cudaGetErrorString(err), cudaGetErrorName(err));
#else
  std::fprintf(stderr, "CUDA error: %s failed at %s:%d: %s (%s)\n", call, file, line,
               cudaGetErrorString(err), cudaGetErrorName(err));
#endif
  std::exit(kGpuFailureExitCode);
}

inline void check(cudaError_t err, const char *call, const char *file, int line) {
  if (err != cudaSuccess)
    fail(err, call, file, line);
}

} // namespace kit::gpu

#define GPU_CHECK(call) ::kit::gpu::check((call), #call, __FILE__, __LINE__)
// After a kernel launch: reports bad launch configurations (and, asynchronously, earlier faults).
#define GPU_CHECK_LAUNCH(kernel_name)                                                              \
  ::kit::gpu::check(cudaGetLastError(), "launch of " kernel_name, __FILE__, __LINE__)
