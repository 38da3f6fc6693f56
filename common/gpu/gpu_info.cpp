// gpu_info: one line about the GPU this machine's runtime sees, for logs such as the self-test's:
//   GPU: NVIDIA H100 80GB HBM3 (sm_90), 132 multiprocessors, warp 32, 79.2 GiB; runtime start-up 0.306 s
// The start-up is the first runtime call of a fresh process (cudaFree(nullptr) / hipFree(nullptr)),
// which every contest program pays once. Exit status 1 with the reason when there is no usable GPU.
#include "gpu/gpu.h"

#include <chrono>
#include <cstdio>

int main() {
  const auto start = std::chrono::steady_clock::now();
  const cudaError_t started = cudaFree(nullptr);
  const double startup_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const char *why = nullptr;
  if (!kit::gpu::device_available(&why) || started != cudaSuccess) {
    std::printf("GPU: none usable (%s)\n", why ? why : cudaGetErrorString(started));
    return 1;
  }
  cudaDeviceProp prop{};
  GPU_CHECK(cudaGetDeviceProperties(&prop, 0));
#if defined(KIT_BACKEND_HIP)
  const char *arch = prop.gcnArchName;
  const char *arch_prefix = "";
#else
  char arch[16];
  std::snprintf(arch, sizeof arch, "%d%d", prop.major, prop.minor);
  const char *arch_prefix = "sm_";
#endif
  std::printf("GPU: %s (%s%s), %d multiprocessors, warp %d, %.1f GiB; runtime start-up %.3f s\n",
              prop.name, arch_prefix, arch, prop.multiProcessorCount, prop.warpSize,
              static_cast<double>(prop.totalGlobalMem) / (1u << 30), startup_s);
  return 0;
}
