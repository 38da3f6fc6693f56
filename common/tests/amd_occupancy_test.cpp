// The AMD occupancy arithmetic (gpu/amd_occupancy.h) against gfx908's documented limits: LDS in
// 512-byte granules out of 64 KiB, 8 wave slots per SIMD as the runtime fills them and 4 SIMDs,
// 256 VGPRs per lane in granules of 4, 800 SGPRs per SIMD in granules of 16 with the trap
// handler's 16 per wave, 16 workgroup barriers per CU.
#include "gpu/amd_occupancy.h"

#include <gtest/gtest.h>

namespace {

using kit::gpu::amd::CuLimits;
using kit::gpu::amd::KernelUse;
using kit::gpu::amd::waves_per_simd;
using kit::gpu::amd::waves_per_simd_by_sgprs;
using kit::gpu::amd::workgroups_per_cu;

KernelUse use(int threads, int vgprs, std::size_t lds_bytes, int sgprs = 0) {
  KernelUse u;
  u.threads = threads;
  u.wave_size = 64;
  u.vgprs = vgprs;
  u.sgprs = sgprs;
  u.lds_bytes = lds_bytes;
  return u;
}

TEST(AmdOccupancy, LdsIsAllocatedInGranules) {
  // 21.6 KB rounds to 22,016 bytes: 2 fit in 64 KiB, where the raw division says 3.
  EXPECT_EQ(65536 / 21600, 3);
  EXPECT_EQ(workgroups_per_cu(use(256, 32, 21600)), 2);
  // Exactly a granule multiple is not rounded further.
  EXPECT_EQ(workgroups_per_cu(use(256, 32, 16384)), 4);
  // One byte over a quarter of the LDS costs a whole granule: 3 fit, not 4.
  EXPECT_EQ(workgroups_per_cu(use(256, 32, 16385)), 3);
  // A single byte still takes a granule: 128 would fit by LDS, the wave slots cap it first.
  EXPECT_EQ(workgroups_per_cu(use(64, 0, 1)), 32);
  // More than the CU has: none.
  EXPECT_EQ(workgroups_per_cu(use(64, 32, 65537)), 0);
  EXPECT_EQ(workgroups_per_cu(use(64, 32, 65536)), 1);
}

TEST(AmdOccupancy, WaveSlotsPerSimd) {
  const CuLimits gfx908;
  EXPECT_EQ(waves_per_simd(0, gfx908), 8);  // unknown use: the slots the runtime fills
  EXPECT_EQ(waves_per_simd(24, gfx908), 8); // 256 / 24 = 10, capped at 8
  EXPECT_EQ(waves_per_simd(32, gfx908), 8);
  EXPECT_EQ(waves_per_simd(33, gfx908), 7); // 33 allocates 36: 256 / 36 = 7
  EXPECT_EQ(waves_per_simd(64, gfx908), 4);
  EXPECT_EQ(waves_per_simd(65, gfx908), 3); // 68 allocated
  EXPECT_EQ(waves_per_simd(128, gfx908), 2);
  EXPECT_EQ(waves_per_simd(256, gfx908), 1);
}

TEST(AmdOccupancy, SgprsWithTheTrapHandlers) {
  const CuLimits gfx908;
  EXPECT_EQ(waves_per_simd_by_sgprs(0, gfx908), 8);  // unknown: no limit of its own
  EXPECT_EQ(waves_per_simd_by_sgprs(32, gfx908), 8); // 48: 16 would fit
  EXPECT_EQ(waves_per_simd_by_sgprs(80, gfx908), 8); // 96: 800 / 96 = 8
  EXPECT_EQ(waves_per_simd_by_sgprs(81, gfx908), 7); // 97 allocates 112: 7
  // gfx908's 102 addressable SGPRs: 118 with the trap handler's, 128 allocated, 6 waves.
  EXPECT_EQ(waves_per_simd_by_sgprs(102, gfx908), 6);
  // 4 waves of 256 threads: 8 workgroups by VGPRs, 6 by SGPRs.
  EXPECT_EQ(workgroups_per_cu(use(256, 32, 0, 80)), 8);
  EXPECT_EQ(workgroups_per_cu(use(256, 32, 0, 102)), 6);
}

TEST(AmdOccupancy, WorkgroupsByWaves) {
  // 1024 threads = 16 waves; 32 slots hold 2 such workgroups.
  EXPECT_EQ(workgroups_per_cu(use(1024, 0, 0)), 2);
  // 256 threads = 4 waves: 8 workgroups, or 4 when 64 VGPRs leave 4 slots per SIMD.
  EXPECT_EQ(workgroups_per_cu(use(256, 0, 0)), 8);
  EXPECT_EQ(workgroups_per_cu(use(256, 64, 0)), 4);
  // A partial wave is a whole wave: 320 threads are 5 waves, 32 / 5 = 6.
  EXPECT_EQ(workgroups_per_cu(use(320, 0, 0)), 6);
  // 128 VGPRs and 32 KB of LDS: registers allow 2 slots x 4 SIMDs / 4 waves = 2, LDS 2.
  EXPECT_EQ(workgroups_per_cu(use(256, 128, 32 * 1024)), 2);
  // The smaller of the two limits wins: registers 8, LDS 3.
  EXPECT_EQ(workgroups_per_cu(use(256, 32, 20000)), 3);
}

TEST(AmdOccupancy, WorkgroupBarriers) {
  // With the SIMDs' own 10 slots, 40 two-wave workgroups' waves fit, 16 barriers hold 16 of them;
  // single-wave workgroups need no barrier.
  CuLimits ten_slots;
  ten_slots.waves_per_simd = 10;
  EXPECT_EQ(workgroups_per_cu(use(128, 0, 0), ten_slots), 16);
  EXPECT_EQ(workgroups_per_cu(use(64, 0, 0), ten_slots), 40);
  // At 8 slots two-wave workgroups reach the barrier limit exactly.
  EXPECT_EQ(workgroups_per_cu(use(128, 0, 0)), 16);
}

TEST(AmdOccupancy, DegenerateUse) {
  EXPECT_EQ(workgroups_per_cu(use(0, 0, 0)), 0);
  KernelUse no_wave = use(64, 0, 0);
  no_wave.wave_size = 0;
  EXPECT_EQ(workgroups_per_cu(no_wave), 0);
}

} // namespace
