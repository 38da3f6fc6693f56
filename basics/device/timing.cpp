#include "timing.h"

#include "bench/limits.h"
#include "event_timing.h"
#include "gpu.h"

#include <algorithm>

namespace kit::basics {

Timer::Timer() {
  int device = 0, l2_bytes = 0;
  GPU_CHECK(cudaGetDevice(&device));
  GPU_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
  flush_bytes_ = 2 * static_cast<std::size_t>(std::max(l2_bytes, 1 << 20));
  GPU_CHECK(cudaMalloc(&flush_buffer_, flush_bytes_));
  GPU_CHECK(cudaMemset(flush_buffer_, 1, flush_bytes_));
}

Timer::~Timer() { (void)cudaFree(flush_buffer_); }

// Reading (not writing) twice the L2 size leaves only clean lines behind: a memset would leave
// dirty lines whose write-back the timed kernel would pay for.
void Timer::flush_l2() { read_through(flush_buffer_, flush_bytes_); }

Timing Timer::measure(const std::function<void()> &work, int warmup, int runs) {
  int round = 0;
  const auto flush_timed_rounds = [&] {
    if (round++ >= warmup)
      flush_l2();
  };
  const bench::EventTiming t = bench::time_events(warmup, runs, work, flush_timed_rounds);
  return Timing{t.median_ms, t.min_ms, t.runs};
}

} // namespace kit::basics
