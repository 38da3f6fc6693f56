#include "timing.h"

#include "bench/limits.h"
#include "gpu.h"

#include <algorithm>
#include <vector>

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
  for (int i = 0; i < warmup; ++i)
    work();
  GPU_CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  GPU_CHECK(cudaEventCreate(&start));
  GPU_CHECK(cudaEventCreate(&stop));
  std::vector<double> ms;
  for (int run = 0; run < runs; ++run) {
    flush_l2();
    GPU_CHECK(cudaEventRecord(start, 0));
    work();
    GPU_CHECK(cudaEventRecord(stop, 0));
    GPU_CHECK(cudaEventSynchronize(stop));
    float elapsed = 0;
    GPU_CHECK(cudaEventElapsedTime(&elapsed, start, stop));
    ms.push_back(elapsed);
  }
  GPU_CHECK(cudaEventDestroy(start));
  GPU_CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  Timing t;
  t.runs = runs;
  t.min_ms = ms.front();
  t.median_ms = ms[ms.size() / 2];
  return t;
}

} // namespace kit::basics
