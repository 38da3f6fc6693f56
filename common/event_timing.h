// Kernel timing for the benchmarks: GPU events around each round on the default stream, the
// warm-up rounds discarded, the median (and minimum) of the rest. A round is: `before()`
// (untimed: an L2 flush, an input reset; it may synchronise), the start event, `work()`, the
// stop event, and a wait for it. Every benchmark of the kit times this way, so their numbers
// differ only by what they pass as `before`.
#pragma once

#include "gpu.h"

#include <algorithm>
#include <vector>

namespace kit::bench {

struct EventTiming {
  double median_ms = 0;
  double min_ms = 0;
  int runs = 0;
};

template <class Work, class Before>
EventTiming time_events(int warmup, int runs, Work &&work, Before &&before) {
  cudaEvent_t start, stop;
  GPU_CHECK(cudaEventCreate(&start));
  GPU_CHECK(cudaEventCreate(&stop));
  std::vector<double> times;
  for (int round = 0; round < warmup + runs; ++round) {
    before();
    GPU_CHECK(cudaEventRecord(start, 0));
    work();
    GPU_CHECK(cudaEventRecord(stop, 0));
    GPU_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    GPU_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (round >= warmup)
      times.push_back(ms);
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

template <class Work> EventTiming time_events(int warmup, int runs, Work &&work) {
  return time_events(warmup, runs, work, [] {});
}

} // namespace kit::bench
