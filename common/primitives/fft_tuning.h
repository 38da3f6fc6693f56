// The FFT passes' tuning, one table per GPU family (primitives/fft.h): how many points a block
// transforms in shared memory and how many of them each thread holds in registers. A block's
// sub-transform (one sequence, or several short ones) has at most kMaxThreads * kPointsPerThread
// points; longer sequences take two passes (the four-step split).
#pragma once

#include "gpu/tuning_dispatch.h"

namespace kit::fft {

template <gpu::GpuArch> struct FftTuning;

template <> struct FftTuning<gpu::GpuArch::sm90> {
  // 8192 points (64 KB of shared memory, 73 KB with the padding of fft.h's slot()): sequences up
  // to 8192 points in one pass, so 2^18 takes two passes and each direction of 2048 x 2048 one.
  // Not swept.
  static constexpr int kMaxThreads = 512;
  static constexpr int kPointsPerThread = 16;
  // Blocks of kMaxThreads per multiprocessor asked of the compiler (__launch_bounds__): two caps
  // the pass at 64 registers (56 on sm_90, 64 on sm_100; 86 uncapped on sm_90, which leaves room
  // for one 512-thread block per multiprocessor), no spills.
  static constexpr int kMinBlocks = 2;
};

template <> struct FftTuning<gpu::GpuArch::sm100> : FftTuning<gpu::GpuArch::sm90> {};

template <> struct FftTuning<gpu::GpuArch::gfx908> {
  // Not measured on hardware. 4096 points (32 KB, 36.6 KB padded): the 8192-point block would not
  // fit a workgroup's 64 KB of LDS with the padding.
  static constexpr int kMaxThreads = 256;
  static constexpr int kPointsPerThread = 16;
  // HIP reads __launch_bounds__'s second argument as waves per execution unit: none asked.
  static constexpr int kMinBlocks = 1;
};

} // namespace kit::fft
