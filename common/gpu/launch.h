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
// An older runtime can do worse than fail: ROCm's runtime acquires the cooperative queue only when
// it submits the command (VirtualGPU::submitKernel in ROCm/clr), after the launch call returned,
// and where the launch does not wait for that status it returns hipSuccess for a kernel that never
// runs. So on HIP the first cooperative launch of a process (or cooperative_launch_works(), which
// a program's GPU warm-up calls) first launches a probe kernel cooperatively, synchronises and
// reads back whether its blocks ran; when they did not, every cooperative launch of the run reports
// failure, with that cause, and the callers take their non-cooperative methods.
// KIT_FAIL_COOPERATIVE_LAUNCH=1 makes every cooperative launch report failure, and
// KIT_FAIL_COOPERATIVE_LAUNCH=silent makes every one report success without running (the older
// runtime's fault), so that tests run the fallbacks, and the probe, on any GPU.
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
// What KIT_FAIL_COOPERATIVE_LAUNCH asks of every cooperative launch: nothing ("" or "0"), to
// report failure ("silent": to report success and not run; anything else: to be refused).
enum class InjectedCooperativeFault { None, Refused, Silent };
inline InjectedCooperativeFault injected_cooperative_fault() {
  static const InjectedCooperativeFault fault = [] {
    const char *value = std::getenv("KIT_FAIL_COOPERATIVE_LAUNCH");
    if (!value || !*value || std::strcmp(value, "0") == 0)
      return InjectedCooperativeFault::None;
    return std::strcmp(value, "silent") == 0 ? InjectedCooperativeFault::Silent
                                             : InjectedCooperativeFault::Refused;
  }();
  return fault;
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

// The runtime's cooperative launch, or the fault KIT_FAIL_COOPERATIVE_LAUNCH=silent injects.
inline cudaError_t launch_cooperative(const void *kernel, unsigned grid, unsigned block,
                                      void **arguments, std::size_t shared_bytes,
                                      cudaStream_t stream) {
  if (injected_cooperative_fault() == InjectedCooperativeFault::Silent)
    return cudaSuccess;
  return cudaLaunchCooperativeKernel(kernel, dim3(grid), dim3(block), arguments, shared_bytes,
                                     stream);
}
} // namespace detail

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
namespace detail {
// Each of the probe's blocks counts itself once.
template <int = 0> __global__ void cooperative_probe_kernel(unsigned *blocks_ran) {
  if (threadIdx.x == 0)
    atomicAdd(blocks_ran, 1u);
}

// Why cooperative launches cannot be used on this device, or nullptr when they can: the device
// attribute, then (on HIP) a cooperative launch of the probe (two blocks), synchronised and read
// back. Computed once per process (the kit uses one device); the probe costs an allocation, one
// launch and one synchronisation, off the critical path when a program's GPU warm-up asks first.
inline const char *cooperative_launch_fault() {
  static const char *const fault = []() -> const char * {
    if (!cooperative_launch_supported())
      return "the device does not support it";
#if !KIT_HIP
    // CUDA's launch call itself reports a cooperative launch it cannot run: the probe runs only
    // when a test injects the older ROCm runtime's silent fault, so that its logic is tested on
    // NVIDIA and no solve() there pays for it.
    if (injected_cooperative_fault() != InjectedCooperativeFault::Silent)
      return nullptr;
#endif
    constexpr unsigned kBlocks = 2;
    unsigned *blocks_ran = nullptr;
    check(cudaMalloc(&blocks_ran, sizeof(unsigned)), "cudaMalloc", __FILE__, __LINE__);
    check(cudaMemset(blocks_ran, 0, sizeof(unsigned)), "cudaMemset", __FILE__, __LINE__);
    void *arguments[] = {&blocks_ran};
    const cudaError_t err =
        launch_cooperative(reinterpret_cast<const void *>(cooperative_probe_kernel<>), kBlocks,
                           static_cast<unsigned>(device_warp_size()), arguments, 0, nullptr);
    unsigned ran = 0;
    if (err == cudaSuccess) {
      check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize", __FILE__, __LINE__);
      check(cudaMemcpy(&ran, blocks_ran, sizeof ran, cudaMemcpyDeviceToHost), "cudaMemcpy",
            __FILE__, __LINE__);
    } else {
      (void)cudaGetLastError(); // a refused launch leaves no sticky error for later calls
    }
    check(cudaFree(blocks_ran), "cudaFree", __FILE__, __LINE__);
    if (err != cudaSuccess)
      return "the runtime refused the probe kernel's cooperative launch";
    return ran == kBlocks ? nullptr
                          : "the runtime reported the probe kernel's cooperative launch done, "
                            "but it did not run (an older ROCm runtime that found no "
                            "cooperative queue free)";
  }();
  return fault;
}
} // namespace detail

// Whether cooperative launches can be used: the device supports them and the probe kernel,
// launched cooperatively, ran (see the top of this file). A program's GPU warm-up calls it so
// that the probe runs while the input is parsed.
inline bool cooperative_launch_works() { return detail::cooperative_launch_fault() == nullptr; }

// Launches `kernel` with every block of the grid resident at once, or returns false (after one
// warning line) when cooperative launches do not work here (cooperative_launch_works), the
// runtime refuses this one, or KIT_FAIL_COOPERATIVE_LAUNCH is set; nothing was launched then and
// the runtime's error is cleared. The grid must come from resident_blocks() of the same kernel
// and block size.
template <class... Params, class... Args>
[[nodiscard]] bool try_launch_cooperative(const char *name, void (*kernel)(Params...),
                                          unsigned grid, unsigned block, std::size_t shared_bytes,
                                          cudaStream_t stream, Args &&...args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "one argument per kernel parameter");
  if (detail::injected_cooperative_fault() == detail::InjectedCooperativeFault::Refused) {
    detail::warn_cooperative_fallback(name, grid, block, shared_bytes,
                                      "disabled by KIT_FAIL_COOPERATIVE_LAUNCH");
    return false;
  }
  if (const char *fault = detail::cooperative_launch_fault()) {
    detail::warn_cooperative_fallback(name, grid, block, shared_bytes, fault);
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
  const cudaError_t err = detail::launch_cooperative(reinterpret_cast<const void *>(kernel), grid,
                                                     block, pointers, shared_bytes, stream);
  if (err != cudaSuccess) {
    (void)cudaGetLastError(); // a refused launch leaves no sticky error for later calls
    detail::warn_cooperative_fallback(name, grid, block, shared_bytes, cudaGetErrorString(err));
    return false;
  }
  return true;
}

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
