// The tuning numbers of the softmax kernels, one table per GPU family (kit::gpu::GpuArch), chosen
// at run time with kit::gpu::with_tuning. Kernels are templated on the values, not on the table, so
// tables that agree share their kernels. Everything that depends on the device itself (shared
// memory per block, multiprocessors, registers, hence every capacity and grid) is read from the
// device at run time (Engine, kernel_engine.cu); a shape that does not fit the device is never
// launched.
//
// Where the sm_90 numbers come from: README.md, "Design notes" (H100 and H200 measurements).
#pragma once

#include "gpu/tuning_dispatch.h"
#include "gpu/vendor.h"

#include <cstddef>

namespace softmax {

// A block shape of the on-chip method: kThreads threads, each holding kRegisterItems float4 of the
// block's slice in registers (the rest of the slice lives in dynamic shared memory), one block per
// multiprocessor. Pass 1 works through kGroup float4 at a time (one maximum and at most one
// reference move per group, kGroup independent exponentials).
template <int kThreadsValue, int kRegisterItemsValue, int kGroupValue> struct OnChipShape {
  static constexpr int kThreads = kThreadsValue;
  static constexpr int kRegisterItems = kRegisterItemsValue;
  static constexpr int kGroup = kGroupValue;
  static_assert(kRegisterItems % kGroup == 0, "register items in whole pass-1 groups");
};

template <kit::gpu::GpuArch> struct SoftmaxTuning;

// Rules every table follows (the Engine applies them):
// - kAuto runs kTwoPassReverse below kAutoSingleLaunchMinItems; from there kResident up to
//   resident_capacity / kAutoResidentDivisor, then kOnChip up to its capacity (the input is read
//   once), then kTwoPassReverse.
// - kOnChip runs in OnChipNarrow while that shape's registers alone hold the input (on the full
//   grid), in OnChipWide above, up to the wide shape's capacity (registers + shared memory).
// - The single-kernel methods shrink their grid below k*MinBlockItems float4 per block (fewer
//   partials to combine and fewer arrivals at the grid barrier); the streaming passes below
//   kStreamThreads x kStreamUnroll float4 per block.

// NVIDIA Hopper (H100, H200): measured.
template <> struct SoftmaxTuning<kit::gpu::GpuArch::sm90> {
  // Streaming passes (kTwoPassReverse, solve() with host pointers): threads per block and float4
  // loads in flight per thread. 95-96 % of the copy bandwidth at N = 1e8 on both GPUs.
  static constexpr int kStreamThreads = 256;
  static constexpr int kStreamUnroll = 4;
  // kResident: 8 float4 per thread in registers (64 registers, 4 blocks per SM).
  static constexpr int kResidentThreads = 256;
  static constexpr int kResidentItems = 8;
  static constexpr unsigned kResidentMinBlockItems = kResidentThreads * kStreamUnroll;
  // kOnChip: 512x16 (16 warps per SM) was 6-12 % faster than 256x40 up to 2e6 on both GPUs and
  // level at 4e6; with bulk copies 256x40 (the most registers per SM) was 3-6 % faster than 512x16
  // above 512x16's register capacity (4.3e6) on both. 768x8 and 1024x8 were never faster than
  // 512x16 by more than 1 %.
  using OnChipNarrow = OnChipShape<512, 16, 8>;
  using OnChipWide = OnChipShape<256, 40, 8>;
  // 1024 and 4096 measured within 1.8 % of 2048 on the H100.
  static constexpr unsigned kOnChipMinBlockItems = 2048;
  // Resident and 512x16 on-chip tied at 5e5 on the H100, on-chip won from 7.5e5 (its grid at the
  // barrier is 132 blocks against resident's 245-528); capacity / 6 is 7.2e5 on 132 SMs.
  static constexpr unsigned kAutoResidentDivisor = 6;
  // A cooperative launch costs what an ordinary one does (the grid barrier kernel's floor): the
  // single-launch methods win from the smallest inputs.
  static constexpr std::size_t kAutoSingleLaunchMinItems = 0;
  // solve() with host pointers: chunks of 2^20 floats (4 MB) through 2 pinned staging slots.
  static constexpr std::size_t kSolveChunkItems = std::size_t{1} << 20;
  static constexpr int kSolveSlots = 2;
};

// NVIDIA Blackwell (B200): not measured; Hopper's table.
template <>
struct SoftmaxTuning<kit::gpu::GpuArch::sm100> : SoftmaxTuning<kit::gpu::GpuArch::sm90> {};

// AMD MI100 (CDNA1: 120 CUs of 4 SIMDs, wavefront 64, 512 VGPRs per SIMD lane and at most 256 per
// thread, 64 KB of LDS per workgroup, 8 MB L2, about 1.2 TB/s HBM2). Not measured on hardware:
// each number is reasoned from these limits. Block sizes are multiples of 64; no bulk copies (the
// on-chip kernel's shared-memory part arrives by 16-byte copies per thread).
template <> struct SoftmaxTuning<kit::gpu::GpuArch::gfx908> {
  // 4 wavefronts per block; 4 float4 in flight per thread (16 VGPRs) over several blocks per CU
  // covers the bytes in flight that 1.2 TB/s needs at about 1 us of DRAM latency (10 KB per CU).
  static constexpr int kStreamThreads = 256;
  static constexpr int kStreamUnroll = 4;
  // 8 float4 = 32 VGPRs of data, 76 VGPRs in all: 3 wavefronts per SIMD, 3 blocks per CU.
  static constexpr int kResidentThreads = 256;
  static constexpr int kResidentItems = 8;
  static constexpr unsigned kResidentMinBlockItems = kResidentThreads * kStreamUnroll;
  // 512x16: 8 wavefronts per CU (2 per SIMD) at 122 VGPRs. 256x40: 40 float4 = 160 VGPRs of data
  // (218 in all, no spills) at one wavefront per SIMD, the most data per CU in registers, which
  // matters more where only 64 KB of LDS holds the rest (7 slots per thread in 512x16, 15 in
  // 256x40).
  using OnChipNarrow = OnChipShape<512, 16, 8>;
  using OnChipWide = OnChipShape<256, 40, 8>;
  static constexpr unsigned kOnChipMinBlockItems = 2048;
  // Resident's grid at the barrier is 360 blocks against the on-chip method's 120, the cause of
  // the cross-over on Hopper: the same rule.
  static constexpr unsigned kAutoResidentDivisor = 6;
  // Not measured on hardware. A cooperative launch on ROCm fences the stream, moves to the
  // device-wide cooperative queue under a lock and first runs a kernel that sets up the grid
  // barrier's hardware (ROCm/clr hipamd/src/hip_module.cpp, rocclr/device/rocm/rocvirtual.cpp):
  // reasoned at 15-25 us against about 5 us for the ordinary launch the two-pass method adds. A
  // single launch saves that launch and a second read of 4N bytes (N / 3e11 s at 1.2 TB/s), so it
  // pays only from N of about 3e6 to 6e6, where the resident method's capacity (about 3e6) already
  // ends: two passes below 4M, the on-chip method above up to its capacity. The self-test's tuning
  // phase (TUNE=1) measures this cross-over on the MI100.
  static constexpr std::size_t kAutoSingleLaunchMinItems = std::size_t{1} << 22;
  // A 4 MB chunk takes about 160 us over PCIe 4 x16, far above the per-copy overhead.
  static constexpr std::size_t kSolveChunkItems = std::size_t{1} << 20;
  static constexpr int kSolveSlots = 2;
};

// Whether a table's on-chip rules fit its shapes: a shrunk grid holds its items in registers.
template <class Tuning> constexpr bool onchip_rules_fit() {
  using Narrow = typename Tuning::OnChipNarrow;
  using Wide = typename Tuning::OnChipWide;
  return Tuning::kOnChipMinBlockItems <=
             static_cast<unsigned>(Narrow::kThreads * Narrow::kRegisterItems) &&
         Tuning::kOnChipMinBlockItems <=
             static_cast<unsigned>(Wide::kThreads * Wide::kRegisterItems);
}

} // namespace softmax
