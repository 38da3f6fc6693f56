// The AMD occupancy arithmetic (gpu/amd_occupancy.h) against gfx908's documented limits: LDS in
// 512-byte granules out of 64 KiB, 10 wave slots per SIMD and 4 SIMDs, 256 VGPRs per lane in
// granules of 4.
#include "gpu/amd_occupancy.h"

#include <gtest/gtest.h>

namespace {

using kit::gpu::amd::CuLimits;
using kit::gpu::amd::KernelUse;
using kit::gpu::amd::waves_per_simd;
using kit::gpu::amd::workgroups_per_cu;

KernelUse use(int threads, int vgprs, std::size_t lds_bytes) {
  KernelUse u;
  u.threads = threads;
  u.wave_size = 64;
  u.vgprs = vgprs;
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
  EXPECT_EQ(workgroups_per_cu(use(64, 0, 1)), 40);
  // More than the CU has: none.
  EXPECT_EQ(workgroups_per_cu(use(64, 32, 65537)), 0);
  EXPECT_EQ(workgroups_per_cu(use(64, 32, 65536)), 1);
}

TEST(AmdOccupancy, WaveSlotsPerSimd) {
  const CuLimits gfx908;
  EXPECT_EQ(waves_per_simd(0, gfx908), 10);  // unknown use: the hardware limit
  EXPECT_EQ(waves_per_simd(24, gfx908), 10); // 256 / 24 = 10
  EXPECT_EQ(waves_per_simd(25, gfx908), 9);  // 25 allocates 28: 256 / 28 = 9
  EXPECT_EQ(waves_per_simd(64, gfx908), 4);
  EXPECT_EQ(waves_per_simd(65, gfx908), 3); // 68 allocated
  EXPECT_EQ(waves_per_simd(128, gfx908), 2);
  EXPECT_EQ(waves_per_simd(256, gfx908), 1);
}

TEST(AmdOccupancy, WorkgroupsByWaves) {
  // 1024 threads = 16 waves; 40 slots hold 2 such workgroups.
  EXPECT_EQ(workgroups_per_cu(use(1024, 0, 0)), 2);
  // 256 threads = 4 waves: 10 workgroups, or 4 when 64 VGPRs leave 4 slots per SIMD.
  EXPECT_EQ(workgroups_per_cu(use(256, 0, 0)), 10);
  EXPECT_EQ(workgroups_per_cu(use(256, 64, 0)), 4);
  // A partial wave is a whole wave: 320 threads are 5 waves, 40 / 5 = 8.
  EXPECT_EQ(workgroups_per_cu(use(320, 0, 0)), 8);
  // 128 VGPRs and 32 KB of LDS: registers allow 2 slots x 4 SIMDs / 4 waves = 2, LDS 2.
  EXPECT_EQ(workgroups_per_cu(use(256, 128, 32 * 1024)), 2);
  // The smaller of the two limits wins: registers 8, LDS 3.
  EXPECT_EQ(workgroups_per_cu(use(256, 32, 20000)), 3);
}

TEST(AmdOccupancy, DegenerateUse) {
  EXPECT_EQ(workgroups_per_cu(use(0, 0, 0)), 0);
  KernelUse no_wave = use(64, 0, 0);
  no_wave.wave_size = 0;
  EXPECT_EQ(workgroups_per_cu(no_wave), 0);
}

} // namespace
