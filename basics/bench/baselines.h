// The benchmark baselines for softmax, reduction and prefix_sum: the straightforward multi-kernel
// and atomic designs that a first GPU solution of each problem takes (three kernels combining
// blocks through global atomics; a block tree plus one atomicAdd per block; a block scan, the same
// scan of the block totals, an add pass). Same signatures as the judge's solve, device pointers.
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

// The straightforward baseline of a problem (above), or one with an empty name when it has none.
Solver straightforward_baseline(const std::string &problem);

} // namespace kit::basics
