// A problem's vendor-library counterparts (cuBLAS, CUB, cuFFT), on CUDA only: the benchmark's
// library baselines and, where the judge compares with torch's FP32 result and a library computes
// that result the same way, that reference for the GPU test. A problem that has them defines both
// functions in basics/<name>/bench/library.cu, which basics/CMakeLists.txt compiles and links into
// the problem's program and GPU test; solve never calls a library.
#pragma once

#include "harness/signature.h"

#include <vector>

namespace kit::basics {

// Timed and checked beside solve by `<name> --bench` (same data, same method).
std::vector<Solver> library_baselines();

// What the judge compares with, or Solver{} (an empty name) when no library computes it.
Solver library_judge_reference();

} // namespace kit::basics
