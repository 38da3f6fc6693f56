// prefix_sum's (LeetGPU) tuning per GPU family (kit::gpu::GpuArch): the tile shape of its scan,
// kThreads threads x kRounds float4 passes per warp. It is fixed at compile time, so kernel.cu
// takes its vendor's table (kit::gpu::VendorTuning).
#pragma once

#include "gpu/tuning_dispatch.h"

namespace prefix_sum {

template <kit::gpu::GpuArch> struct PrefixSumTuning;

template <> struct PrefixSumTuning<kit::gpu::GpuArch::sm90> {
  // 256 threads x 8 float4 passes, 8192-element tiles.
  static constexpr int kThreads = 256;
  static constexpr int kRounds = 8;
};

// Blackwell: not measured; the Hopper entry.
template <>
struct PrefixSumTuning<kit::gpu::GpuArch::sm100> : PrefixSumTuning<kit::gpu::GpuArch::sm90> {};

template <> struct PrefixSumTuning<kit::gpu::GpuArch::gfx908> {
  // 512 x 2, 4096-element tiles (also under the MI100 persona), since 8 passes need more than
  // gfx908's 102 SGPRs (22 spilled; 512 x 2 takes 64 SGPRs and 51 VGPRs). Not measured on
  // hardware.
  static constexpr int kThreads = 512;
  static constexpr int kRounds = 2;
};

} // namespace prefix_sum
