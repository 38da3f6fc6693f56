// Alternatives to the production path, kept for measurement: only the benchmark
// (`bench_softmax --variants`) and the GPU tests build bench/variants.cu, so the contest program
// holds none of their kernels. Each variant is a set of EngineOptions.
#pragma once

#include "kernel.h"

#include <string>
#include <vector>

namespace softmax {

struct EngineVariant {
  std::string name;
  EngineOptions options;
};

// The on-chip kernels of the device's tuning table with 16-byte copies per thread instead of bulk
// copies: on NVIDIA sm_90 and later the path that gfx908 and older GPUs take.
const OnChipKernels &per_thread_copy_kernels();

// Every variant: "per-thread copies" (above), and "narrow to capacity" (the narrow on-chip shape
// up to its own capacity instead of the wide shape above its register capacity).
std::vector<EngineVariant> engine_variants();

} // namespace softmax
