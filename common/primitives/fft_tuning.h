// The FFT passes' tuning, one table per GPU family (primitives/fft.h): how many points a block
// transforms in shared memory and how many of them each thread holds in registers. A block's
// sub-transform (one sequence, or several short ones) has at most kMaxThreads * kPointsPerThread
// points; longer sequences take two passes (the four-step split).
#pragma once

#include "gpu/tuning_dispatch.h"

namespace kit::fft {

template <gpu::GpuArch> struct FftTuning;

template <> struct FftTuning<gpu::GpuArch::sm90> {
  // 8192 points (64 KB of shared memory, 66.5 KB with the row padding): sequences up to 8192
  // points in one pass, so 2^18 and 2048 x 2048 are two passes each. Not swept.
  static constexpr int kMaxThreads = 512;
  static constexpr int kPointsPerThread = 16;
};

template <> struct FftTuning<gpu::GpuArch::sm100> : FftTuning<gpu::GpuArch::sm90> {};

template <> struct FftTuning<gpu::GpuArch::gfx908> {
  // Not measured on hardware. 4096 points (32 KB, 33 KB padded): two workgroups share a CU's
  // 64 KB of LDS, and the 8192-point block would not fit its 64 KB limit with the padding.
  static constexpr int kMaxThreads = 256;
  static constexpr int kPointsPerThread = 16;
};

} // namespace kit::fft
