// How many workgroups of a kernel one AMD compute unit holds at once, from the kernel's resource
// use and the CU's documented limits: a bound that can only under-count, so that a grid of
// resident_blocks() (gpu/launch.h) is co-resident and a grid barrier over it never waits for a
// block that cannot start. Plain host arithmetic (unit-tested on any machine); on HIP
// gpu/launch.h caps the runtime's occupancy answer with it.
//
// Why the runtime's answer is not enough: ROCm's occupancy calculator (ROCm/clr,
// hipamd/src/hip_platform.cpp, ihipOccupancyMaxActiveBlocksPerMultiprocessor) divides the CU's LDS
// by the bytes a workgroup uses, while the hardware allocates LDS in granules (LLVM AMDGPUUsage,
// "Code Object V3 Kernel Descriptor", compute_pgm_rsrc2.LDS_SIZE: 128 dwords = 512 bytes on
// GFX7-GFX11). A workgroup of 21.6 KB is counted 3 per CU where 2 fit, and HIP's own
// cooperative-launch check uses the same division: a grid barrier over such a grid would wait
// forever for blocks that never start. It also leaves out two limits that this bound keeps:
//   - SGPRs: each wave's scalar registers (the code object's count, VCC and the other special
//     registers included) plus the 16 the trap handler adds when enabled, which the count leaves
//     out (AMDGPUUsage, compute_pgm_rsrc1.GRANULATED_WAVEFRONT_SGPR_COUNT; LLVM's
//     TRAP_NUM_SGPRS), from 800 per SIMD in granules of 16. hipFuncGetAttributes reports no SGPR
//     count, so resident_blocks() cannot apply this limit at run time: instead the test command
//     fails a cooperative kernel whose gfx908 SGPRs would bind before its other limits
//     (cmake/hip_resource_usage.sh -c);
//   - workgroup barriers: a CU holds at most 16 workgroups of more than one wave (LLVM
//     AMDGPUBaseInfo, getMaxWorkGroupsPerCU).
// Wave slots are counted as the runtime counts them on GFX9, 8 per SIMD (its "Limited by SPI 32
// per CU"), not the 10 the SIMD has.
#pragma once

#include <algorithm>
#include <cstddef>

namespace kit::gpu::amd {

// Per-CU limits. The defaults are gfx908's (MI100, CDNA1): 4 SIMDs, of whose 10 wave slots each
// (AMD "Instinct MI100" CDNA1 ISA, "Wavefront slots") the runtime fills 8; 256 architectural VGPRs
// per lane allocated in granules of 4 (AMDGPUUsage, compute_pgm_rsrc1.
// GRANULATED_WORKITEM_VGPR_COUNT: GFX6-GFX9 use a granule of 4; the AGPR file is separate on
// gfx908 and holds the same count); 800 SGPRs per SIMD in granules of 16, and 16 more per wave for
// the trap handler; 16 workgroup barriers; 64 KiB of LDS allocated in 512-byte granules.
struct CuLimits {
  int simds = 4;
  int waves_per_simd = 8;
  int vgprs_per_lane = 256;
  int vgpr_granule = 4;
  int sgprs_per_simd = 800;
  int sgpr_granule = 16;
  int trap_sgprs = 16;
  int workgroup_barriers = 16;
  std::size_t lds_bytes = 64 * 1024;
  std::size_t lds_granule = 512;
};

// What one workgroup of the kernel uses: its threads, the wavefront size, the VGPRs per lane the
// compiler allocated (hipFuncAttributes::numRegs; 0 when unknown), the SGPRs per wave of its code
// object (0 when unknown: the run-time case, see above) and its LDS (static plus dynamic bytes).
struct KernelUse {
  int threads = 0;
  int wave_size = 64;
  int vgprs = 0;
  int sgprs = 0;
  std::size_t lds_bytes = 0;
};

constexpr std::size_t round_up(std::size_t value, std::size_t granule) {
  return (value + granule - 1) / granule * granule;
}

// Wave slots of one SIMD that a kernel's VGPRs leave: all of them, or fewer when each wave's
// (granule-rounded) VGPRs exhaust the file first.
constexpr int waves_per_simd(int vgprs, const CuLimits &cu) {
  if (vgprs <= 0)
    return cu.waves_per_simd;
  const int allocated = static_cast<int>(
      round_up(static_cast<std::size_t>(vgprs), static_cast<std::size_t>(cu.vgpr_granule)));
  return std::min(cu.waves_per_simd, cu.vgprs_per_lane / allocated);
}

// Waves of one SIMD that a kernel's SGPRs leave, the trap handler's included (all the slots when
// the count is unknown).
constexpr int waves_per_simd_by_sgprs(int sgprs, const CuLimits &cu) {
  if (sgprs <= 0)
    return cu.waves_per_simd;
  const int allocated = static_cast<int>(round_up(static_cast<std::size_t>(sgprs + cu.trap_sgprs),
                                                  static_cast<std::size_t>(cu.sgpr_granule)));
  return std::min(cu.waves_per_simd, cu.sgprs_per_simd / allocated);
}

// Workgroups resident on one CU at once: the smallest of what its wave slots (by VGPRs and SGPRs),
// its workgroup barriers (workgroups of more than one wave) and its LDS hold (0 when one workgroup
// alone does not fit).
constexpr int workgroups_per_cu(const KernelUse &use, const CuLimits &cu = CuLimits{}) {
  if (use.threads <= 0 || use.wave_size <= 0)
    return 0;
  const int waves = (use.threads + use.wave_size - 1) / use.wave_size;
  const int slots = std::min(waves_per_simd(use.vgprs, cu), waves_per_simd_by_sgprs(use.sgprs, cu));
  int fit = cu.simds * slots / waves;
  if (waves > 1)
    fit = std::min(fit, cu.workgroup_barriers);
  if (use.lds_bytes == 0)
    return fit;
  const std::size_t allocated = round_up(use.lds_bytes, cu.lds_granule);
  const int by_lds = allocated > cu.lds_bytes ? 0 : static_cast<int>(cu.lds_bytes / allocated);
  return std::min(fit, by_lds);
}

} // namespace kit::gpu::amd
