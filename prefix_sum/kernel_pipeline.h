// The GPU path behind solve() (kernel.cu), exposed with its knobs for the benchmark and the GPU
// tests: which transfer path to take, and where the time went.
#pragma once

#include <cstddef>

enum class PrefixSumPath {
  kAuto,   // direct below kDirectMaxItems, staged above
  kDirect, // one device buffer, pageable copies in and out around a single scan
  kStaged, // chunks through pinned staging buffers, copies in both directions and scans overlap
};

// Milliseconds spent in each part. In the staged path the parts overlap, so they add up to more
// than `total_ms`; the device parts are sums of per-chunk event intervals.
struct PrefixSumTiming {
  bool staged = false;
  std::size_t chunks = 0;
  double total_ms = 0;     // wall time of the whole call
  double setup_ms = 0;     // device/pinned allocations, streams, workspace
  double stage_in_ms = 0;  // host copies from the caller's input into pinned staging
  double h2d_ms = 0;       // host-to-device transfers
  double scan_ms = 0;      // scan kernels
  double d2h_ms = 0;       // device-to-host transfers
  double stage_out_ms = 0; // host copies from pinned staging into the caller's output
};

// Inclusive int32 scan (wrap-around) of host arrays on the GPU; `input == output` is allowed
// (each chunk is staged in before its result is written back). `timing` may be null.
void prefix_sum_gpu(const int *input, int *output, std::size_t n,
                    PrefixSumPath path = PrefixSumPath::kAuto, PrefixSumTiming *timing = nullptr);
