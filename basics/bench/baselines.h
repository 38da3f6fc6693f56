// The benchmark baselines for softmax, reduction and prefix_sum: the straightforward versions
// that the seed notes describe (their code is not available to us; these are our own
// implementations of those designs, with the seeds' bugs fixed). Same signatures as the judge's
// solve, device pointers.
#pragma once

#include "harness/signature.h"

#include <string>

namespace kit::basics {

// Max, sum of exp and normalise as three kernels, combining blocks with global atomics into a
// max and a sum that a fourth tiny kernel initialises (-inf and 0) on every call.
void softmax_three_kernels(const float *input, float *output, int N);
// Output cleared, then one element per thread, a shared-memory tree per block and one
// atomicAdd of the block sum into the output.
void reduction_atomic_blocks(const float *input, float *output, int N);
// A shared-memory block scan writing block totals, the same scan applied recursively to the
// totals, then a kernel that adds each block's offset: 3+ launches, 3 passes over the data.
void prefix_sum_block_scan_add(const float *input, float *output, int N);

// The seed-style baseline of a problem, or one with an empty name when it has none.
Solver seed_baseline(const std::string &problem);

} // namespace kit::basics
