// The min-plus tiles' tuning, one table per GPU family (primitives/floyd_warshall_tiles.h): the
// register block R (tile of 64 R) and how the inner loop spells its relaxations. apsp and the
// LeetGPU all_pairs_shortest_paths both take their tiles from here.
#pragma once

#include "gpu/tuning_dispatch.h"
#include "primitives/min_plus.h"

namespace kit::min_plus {

template <gpu::GpuArch> struct MinPlusTuning;

template <> struct MinPlusTuning<gpu::GpuArch::sm90> {
  // Dense tiles of 64 (R = 1): 45.7 ms at n = 8192 against 48.9 ms for the 128 tile (R = 2), H200.
  static constexpr int kDenseRegisterBlock = 1;
  // One DPX VIADDMNMX per relaxation; paired_min3 ran within 0.5 % (nvcc fuses both forms).
  static constexpr MinPlusForm kDenseForm = MinPlusForm::AddMin;
};

template <> struct MinPlusTuning<gpu::GpuArch::sm100> : MinPlusTuning<gpu::GpuArch::sm90> {};

template <> struct MinPlusTuning<gpu::GpuArch::gfx908> {
  // Not measured on hardware. The 64 tile stages 32 KB of operands, so two workgroups share a
  // CU's 64 KB of LDS; the 128 tile would need 128 KB.
  static constexpr int kDenseRegisterBlock = 1;
  // Not measured on hardware. Without DPX, min(a + b, d) is v_add + v_min (2 instructions); two k
  // steps in one v_min3_i32 cost 3 instructions for 2 relaxations (1.5 each; seen in the ISA).
  static constexpr MinPlusForm kDenseForm = MinPlusForm::PairedMin3;
};

} // namespace kit::min_plus
