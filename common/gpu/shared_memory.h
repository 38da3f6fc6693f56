// Dynamic shared memory of a launch, checked against the device it runs on: the kernels that
// size their shared memory at run time (convolution_1d) or beyond the default per-block limit
// (matrix_multiplication) ask here before they launch, so a configuration the device cannot hold
// is never launched.
//
// The exporter inlines this header into each submission file (basics/<name>/kernel.cu includes
// it as "../gpu/shared_memory.h").
#pragma once

#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/vendor.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>

namespace kit::gpu {

// Shared memory one block may use without opting in: 48 KB on NVIDIA; on AMD the whole LDS a
// workgroup may allocate, the same as kit::gpu::max_shared_bytes_per_block().
inline int default_shared_bytes_per_block() {
  int device = 0, bytes = 0;
  GPU_CHECK(cudaGetDevice(&device));
  GPU_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlock, device));
  return bytes;
}

// Lets `kernel` launch with `bytes` of dynamic shared memory per block on the current device:
// opts in above the default limit, and ends the program with a message naming `name` (exit 3,
// as for any GPU failure) when the device cannot give that much at all. The limits are read once
// per process (the judge calls solve on one device).
template <class... Params>
void reserve_shared_bytes(const char *name, void (*kernel)(Params...), std::size_t bytes) {
  static const std::size_t most = static_cast<std::size_t>(kit::gpu::max_shared_bytes_per_block());
  static const std::size_t without_opt_in =
      static_cast<std::size_t>(default_shared_bytes_per_block());
  if (bytes > most) {
    std::fprintf(stderr,
                 "%s error: %s needs %zu bytes of shared memory per block; this GPU allows %zu\n",
                 kit::gpu::kRuntimeName, name, bytes, most);
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
  if (bytes > without_opt_in)
    GPU_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void *>(kernel),
                                   cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(bytes)));
}

} // namespace kit::gpu
