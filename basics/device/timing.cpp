#include "timing.h"

#include "bench/event_timing.h"
#include "bench/l2_eviction.h"
#include "gpu/vendor.h"

namespace kit::basics {

Timer::Timer() : evict_l2_(std::make_unique<bench::L2Eviction>()) {}
Timer::~Timer() = default;

Timing Timer::measure(const std::function<void()> &work, int warmup, int runs) {
  int round = 0;
  const auto flush_timed_rounds = [&] {
    if (round++ >= warmup)
      (*evict_l2_)();
  };
  const bench::EventTiming t = bench::time_events(warmup, runs, work, flush_timed_rounds);
  return Timing{t.median_ms, t.min_ms, t.runs};
}

} // namespace kit::basics
