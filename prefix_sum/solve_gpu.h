// The GPU path behind solve() (solve_gpu.cu), exposed with its knobs for the benchmark and the GPU
// tests: which transfer path to take, and where the time went.
#pragma once

#include "program/staging.h"

#include <cstddef>

enum class PrefixSumPath {
  kAuto,   // direct up to the tuning's kDirectMaxItems, staged above
  kDirect, // one device buffer, pageable copies in and out around a single scan
  kStaged, // chunks through pinned staging slots: host copies, both copy engines and scans overlap
};

// Milliseconds spent in each part. `parts.work_ms` is the scan (per chunk, including any wait for
// the previous chunk's carry); the direct path fills h2d_ms, work_ms and d2h_ms only. The staged
// parts overlap, so they add up to more than `total_ms`.
struct PrefixSumTiming {
  bool staged = false;
  std::size_t chunks = 0;
  double total_ms = 0; // wall time of the whole call
  double setup_ms = 0; // device and pinned allocations, streams, tile states
  kit::gpu::StagingTimes parts;
};

// Inclusive int32 scan (wrap-around) of host arrays on the GPU; `input == output` is allowed
// (each chunk is staged in before its result is written back). `timing` may be null.
void prefix_sum_gpu(const int *input, int *output, std::size_t n,
                    PrefixSumPath path = PrefixSumPath::kAuto, PrefixSumTiming *timing = nullptr);

// The chunk size of the staged path on the current device (the GPU tests cross it).
std::size_t prefix_sum_chunk_items();
