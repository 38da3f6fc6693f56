// Per-architecture tuning dispatch: the GPU families the kit has tables for, the family of the
// running device, with_tuning, which calls a functor with a problem's table for it, and
// VendorTuning, the table of the compiling vendor for numbers fixed at compile time.
#pragma once

#include "gpu/device.h"

namespace kit::gpu {

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

// The family a build's kernels take without asking the device: gfx908 on HIP and under the MI100
// persona (one table per vendor there), sm_90 on NVIDIA (whose builds may also serve sm_100).
#if KIT_HIP || defined(KIT_PERSONA_GFX908)
inline constexpr GpuArch kVendorArch = GpuArch::gfx908;
#else
inline constexpr GpuArch kVendorArch = GpuArch::sm90;
#endif
inline constexpr bool kVendorArchOnly = kVendorArch == GpuArch::gfx908;

// The table for the current device: on HIP (and under the MI100 persona) always gfx908's; on CUDA
// sm_100's for compute capability 10.x, else sm_90's.
inline GpuArch device_arch() {
  if constexpr (kVendorArchOnly) {
    return kVendorArch;
  } else {
    static const GpuArch arch = [] {
      const int major = device_attribute(cudaDevAttrComputeCapabilityMajor,
                                         "cudaDeviceGetAttribute(compute capability)");
      return major == 10 ? GpuArch::sm100 : GpuArch::sm90;
    }();
    return arch;
  }
}

// Calls f(Tuning<arch>{}) with the tuning table of the current device (device_arch()), so that a
// kernel templated on its table is instantiated for every table of the backend and launched with
// the right one. Tuning<GpuArch> is a problem's table (<problem>/tuning.h).
template <template <GpuArch> class Tuning, class F> decltype(auto) with_tuning(F &&f) {
  if constexpr (kVendorArchOnly) {
    return f(Tuning<kVendorArch>{});
  } else {
    if (device_arch() == GpuArch::sm100)
      return f(Tuning<GpuArch::sm100>{});
    return f(Tuning<GpuArch::sm90>{});
  }
}

// The table of the compiling vendor (kVendorArch's), for numbers fixed at compile time without a
// run-time choice (a kernel's block size where the kernel is not templated on it). One compile
// serves every NVIDIA family of the build, so on NVIDIA it is sm_90's, and a table used this way
// gives its other NVIDIA families sm_90's numbers (their entries inherit it).
template <template <GpuArch> class Tuning> using VendorTuning = Tuning<kVendorArch>;
} // namespace kit::gpu
