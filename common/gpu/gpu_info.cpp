// gpu_info: one line about the GPU this machine's runtime sees, for logs such as the self-test's:
//   GPU: NVIDIA H100 80GB HBM3 (sm_90), 132 multiprocessors, warp 32, 79.2 GiB; runtime start-up
//   0.306 s
// The start-up is the first runtime call of a fresh process (cudaFree(nullptr) / hipFree(nullptr)),
// which every contest program pays once. Under the MI100 persona a second line gives the limits the
// kit's code sees. Exit status 1 with the reason when there is no usable GPU.
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/tuning_dispatch.h"
#include "gpu/vendor.h"

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
#if defined(KIT_PERSONA_GFX908)
  std::printf(
      "GPU as the kit sees it (MI100 persona): warp %d, %d multiprocessors, %d KiB of shared "
      "memory per block, %d MiB of L2, the %s tuning tables\n",
      kit::gpu::device_warp_size(), kit::gpu::device_multiprocessors(),
      kit::gpu::max_shared_bytes_per_block() / 1024, kit::gpu::l2_cache_bytes() >> 20,
      kit::gpu::arch_name(kit::gpu::device_arch()));
#endif
  return 0;
}
