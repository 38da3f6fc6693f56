// Occupancy and co-residency: how many blocks of a kernel the device holds at once, and launches
// whose blocks wait for each other.
//
// A kernel whose blocks wait for other blocks (a grid barrier, blocks waiting on lower blockIdx)
// is correct only if every block it waits for is running. A cooperative launch makes the runtime
// guarantee that; it can fail where the attribute says it is supported (ROCm: "Runtime failed to
// acquire a cooperative queue", ROCm/clr rocclr/device/rocm/rocvirtual.cpp), so every cooperative
// launch here has a non-cooperative way to the same answer and never ends the program:
//   - try_launch_cooperative returns false, after one warning line on stderr, and the caller runs
//     its non-cooperative method;
//   - launch_cooperative_or_single_block launches the same kernel as a grid of one block, which is
//     co-resident with itself: correct for any kernel whose work does not depend on the grid size
//     (grid-stride loops), slower but never a hang.
// KIT_FAIL_COOPERATIVE_LAUNCH=1 makes every cooperative launch report failure, so that tests run
// the fallbacks on any GPU.
#pragma once

#include "gpu/check.h"
#include "gpu/device.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <utility>

#if KIT_HIP
#include "gpu/amd_occupancy.h"
#endif

namespace kit::gpu {

// How many blocks of `kernel` (with `threads` threads and `shared_bytes` of dynamic shared memory)
// the current device holds at once: the grid of a grid-stride kernel that should fill the GPU
// exactly once, and the largest grid a cooperative launch may use. Callers cache the result.
// On HIP the runtime's answer is capped by amd::workgroups_per_cu with the kernel's static and
// dynamic LDS rounded to the allocation granule (gpu/amd_occupancy.h says why), so the grid never
// exceeds what the CUs hold.
template <class Kernel>
inline int resident_blocks(Kernel kernel, int threads, std::size_t shared_bytes = 0) {
  int per_multiprocessor = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, threads,
                                                      shared_bytes),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor", __FILE__, __LINE__);
#if KIT_HIP
  hipFuncAttributes attributes{};
  check(hipFuncGetAttributes(&attributes, reinterpret_cast<const void *>(kernel)),
        "hipFuncGetAttributes", __FILE__, __LINE__);
  amd::KernelUse use;
  use.threads = threads;
  use.wave_size = device_warp_size();
  use.vgprs = attributes.numRegs;
  use.lds_bytes = attributes.sharedSizeBytes + shared_bytes;
  per_multiprocessor = std::min(per_multiprocessor, amd::workgroups_per_cu(use));
#endif
  return per_multiprocessor * device_multiprocessors();
}

// Loads the code of `kernel` now. Both runtimes load kernel code on first use: CUDA per kernel
// (CUDA_MODULE_LOADING=LAZY, the default since CUDA 12.2), ROCm a translation unit's whole code
// object on the first use of any of its kernels (HIP_ENABLE_DEFERRED_LOADING=1, the default;
// ROCm/clr hipamd/src/hip_code_object.cpp). A program's GPU warm-up thread calls this for the
// kernels solve() will launch, so that no code is loaded on the critical path after parsing.
template <class Kernel> void load_kernel_code(Kernel kernel) {
  cudaFuncAttributes attributes{};
  check(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void *>(kernel)),
        "cudaFuncGetAttributes", __FILE__, __LINE__);
}

namespace detail {
// Whether KIT_FAIL_COOPERATIVE_LAUNCH (anything but "" or "0") asks every cooperative launch to
// report failure.
inline bool cooperative_failure_injected() {
  static const bool injected = [] {
    const char *value = std::getenv("KIT_FAIL_COOPERATIVE_LAUNCH");
    return value && *value && std::strcmp(value, "0") != 0;
  }();
  return injected;
}

// One warning line per kernel name and process: a benchmark loop must not repeat it.
inline void warn_cooperative_fallback(const char *name, unsigned grid, unsigned block,
                                      std::size_t shared_bytes, const char *cause) {
  constexpr int kRemembered = 32;
  static const char *warned[kRemembered] = {};
  static int count = 0;
  for (int i = 0; i < count; ++i)
    if (std::strcmp(warned[i], name) == 0)
      return;
  if (count < kRemembered)
    warned[count++] = name;
  std::fprintf(stderr,
               "%s warning: cooperative launch of %s (%u blocks of %u threads, %zu bytes of "
               "shared memory) not possible: %s; using its non-cooperative method\n",
               kRuntimeName, name, grid, block, shared_bytes, cause);
}
} // namespace detail

// Launches `kernel` with every block of the grid resident at once, or returns false (after one
// warning line) when the device cannot launch cooperatively, the runtime refuses, or
// KIT_FAIL_COOPERATIVE_LAUNCH is set; nothing was launched then and the runtime's error is
// cleared. The grid must come from resident_blocks() of the same kernel and block size.
template <class... Params, class... Args>
[[nodiscard]] bool try_launch_cooperative(const char *name, void (*kernel)(Params...),
                                          unsigned grid, unsigned block, std::size_t shared_bytes,
                                          cudaStream_t stream, Args &&...args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "one argument per kernel parameter");
  if (detail::cooperative_failure_injected()) {
    detail::warn_cooperative_fallback(name, grid, block, shared_bytes,
                                      "disabled by KIT_FAIL_COOPERATIVE_LAUNCH");
    return false;
  }
  if (!cooperative_launch_supported()) {
    detail::warn_cooperative_fallback(name, grid, block, shared_bytes,
                                      "the device does not support it");
    return false;
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
    (void)cudaGetLastError(); // a refused launch leaves no sticky error for later calls
    detail::warn_cooperative_fallback(name, grid, block, shared_bytes, cudaGetErrorString(err));
    return false;
  }
  return true;
}

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
// A cooperative launch of `grid` blocks, or, when that is not possible, an ordinary launch of the
// same kernel as ONE block. For kernels whose answer does not depend on the grid size (grid-stride
// loops; a grid barrier or a wait on other blocks that one block passes alone).
template <class... Params, class... Args>
void launch_cooperative_or_single_block(const char *name, void (*kernel)(Params...), unsigned grid,
                                        unsigned block, std::size_t shared_bytes,
                                        cudaStream_t stream, Args &&...args) {
  if (try_launch_cooperative(name, kernel, grid, block, shared_bytes, stream, args...))
    return;
  kernel<<<1, block, shared_bytes, stream>>>(std::forward<Args>(args)...);
  check(cudaGetLastError(), name, __FILE__, __LINE__);
}
#endif

} // namespace kit::gpu
