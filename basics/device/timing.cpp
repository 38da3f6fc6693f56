#include "timing.h"

#include "bench/event_timing.h"
#include "bench/l2_eviction.h"
#include "gpu/check.h"
#include "gpu/vendor.h"

namespace kit::basics {

Timer::Timer() : evict_l2_(std::make_unique<bench::L2Eviction>()) {}
Timer::~Timer() = default;

namespace {

Timing timed(bench::L2Eviction &evict_l2, const std::function<void()> &work, int warmup, int runs,
             bench::Launch launch) {
  int round = 0;
  const auto flush_timed_rounds = [&] {
    if (round++ >= warmup) {
      evict_l2();
      if (launch == bench::Launch::kIdle)
        GPU_CHECK(cudaDeviceSynchronize()); // the flush done: the GPU is idle at the start event
    }
  };
  const bench::EventTiming t = bench::time_events(warmup, runs, work, flush_timed_rounds, launch);
  return Timing{t.median_ms, t.min_ms, t.runs};
}

} // namespace

Timing Timer::measure(const std::function<void()> &work, int warmup, int runs) {
  return timed(*evict_l2_, work, warmup, runs, bench::Launch::kQueued);
}

Timing Timer::measure_from_idle(const std::function<void()> &work, int warmup, int runs) {
  return timed(*evict_l2_, work, warmup, runs, bench::Launch::kIdle);
}

} // namespace kit::basics
