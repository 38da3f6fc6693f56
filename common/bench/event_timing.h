// Kernel timing for the benchmarks: GPU events around each round on the default stream, the
// warm-up rounds discarded, the median (and minimum) of the rest. A round is: `before()`
// (untimed: an L2 flush, an input reset; it may synchronise), by default a short spin kernel, the
// start event, `work()`, the stop event, and a wait for it. Every benchmark of the kit times this
// way, so their numbers differ only by what they pass as `before`.
//
// Why the spin kernel: without it the GPU is idle when the start event is recorded, so the event
// fires at once and the work's first launch reaches the GPU only after the host's launch latency
// (which would double the time of an empty kernel). Queued
// behind the spin, the start event, the work and the stop event are all waiting on the GPU when it
// finishes, and the events time the GPU's work only (nvbench's blocking-kernel idea).
// Launch::kIdle skips the spin kernel, for reporting what one call from an idle host costs.
#pragma once

#include "gpu/check.h"
#include "gpu/resources.h"
#include "gpu/vendor.h"

#include <algorithm>
#include <vector>

namespace kit::bench {

enum class Launch {
  kQueued, // behind a spin kernel: GPU time only (the default)
  kIdle,   // on an idle GPU: the host's launch latency included
};

namespace detail {

// Keeps the GPU busy for about `cycles` ticks of clock64 (both backends have it; its rate only
// sets how long the spin lasts). Long enough for the host to enqueue a round.
template <int = 0> __global__ void spin_kernel(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

constexpr long long kSpinCycles = 100000; // about 50 us at the H100/H200 clock of 2 GHz

} // namespace detail

struct EventTiming {
  double median_ms = 0;
  double min_ms = 0;
  int runs = 0;
};

template <class Work, class Before>
EventTiming time_events(int warmup, int runs, Work &&work, Before &&before,
                        Launch launch = Launch::kQueued) {
  cudaEvent_t start, stop;
  GPU_CHECK(cudaEventCreate(&start));
  GPU_CHECK(cudaEventCreate(&stop));
  std::vector<double> times;
  for (int round = 0; round < warmup + runs; ++round) {
    before();
    if (launch == Launch::kQueued) {
      detail::spin_kernel<<<1, 1>>>(detail::kSpinCycles);
      GPU_CHECK_LAUNCH("spin_kernel");
    }
    GPU_CHECK(cudaEventRecord(start, 0));
    work();
    GPU_CHECK(cudaEventRecord(stop, 0));
    GPU_CHECK(cudaEventSynchronize(stop));
    if (round >= warmup)
      times.push_back(gpu::elapsed_ms(start, stop));
  }
  GPU_CHECK(cudaEventDestroy(start));
  GPU_CHECK(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  EventTiming timing;
  timing.runs = runs;
  timing.min_ms = times.front();
  timing.median_ms = times[times.size() / 2];
  return timing;
}

template <class Work>
EventTiming time_events(int warmup, int runs, Work &&work, Launch launch = Launch::kQueued) {
  return time_events(
      warmup, runs, work, [] {}, launch);
}

} // namespace kit::bench
