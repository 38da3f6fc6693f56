// Kernel timing for the basics benchmarks: CUDA/HIP events around each call, warm-up calls first,
// the median of many runs, and L2 flushed before every run so that each run reads its inputs
// from DRAM like a first call would (the limits are measured the same way).
#pragma once

#include <functional>
#include <memory>

namespace kit::bench {
class L2Eviction;
} // namespace kit::bench

namespace kit::basics {

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  int runs = 0;
};

class Timer {
public:
  Timer();
  ~Timer();
  Timer(const Timer &) = delete;
  Timer &operator=(const Timer &) = delete;

  // Times `work` (GPU calls on the default stream) `runs` times after `warmup` untimed calls:
  // GPU time only (each call queued behind a spin kernel, common/bench/event_timing.h).
  Timing measure(const std::function<void()> &work, int warmup, int runs);
  // The same, each call made from an idle GPU, as the LeetGPU judge times one solve() between two
  // events: the host's launch latency is included.
  Timing measure_from_idle(const std::function<void()> &work, int warmup, int runs);

private:
  std::unique_ptr<bench::L2Eviction> evict_l2_; // common/bench/l2_eviction.h: a read pass
};

} // namespace kit::basics
