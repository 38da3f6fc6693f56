// L2 eviction between timed benchmark runs, so that every run reads its inputs from DRAM as a
// first call would. The eviction READS a buffer of twice the L2 size: a memset would leave the L2
// full of dirty lines, and the timed kernel would then pay for writing them back (at 1e7 floats
// that is as many bytes of write-back as the kernel reads), which no real first call pays and
// which a 1 GiB copy (the bandwidth reference) hardly notices.
#pragma once

#include "gpu/check.h"
#include "gpu/launch.h"
#include "gpu/vendor.h"

#include <algorithm>
#include <cstddef>

namespace kit::bench {

namespace detail {

// Reads `vectors` 16-byte words and folds them into one value, which is stored only if it equals
// a constant no real buffer produces: the loads cannot be optimised away, nothing is written.
template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    read_vectors_kernel(const uint4 *data, std::size_t vectors, unsigned *sink) {
  unsigned acc = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kThreads;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x; i < vectors;
       i += stride) {
    const uint4 v = data[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9E3779B9u)
    sink[0] = acc;
}

} // namespace detail

// Enqueues on the default stream a full-occupancy pass that reads `bytes` (a multiple of 16, a
// 16-byte aligned pointer) and discards them; `sink` is a device word the pass never writes in
// practice. The eviction's pass only: the basics bench's read limit has its own kernel in the
// copy limit's shapes (basics/bench/limits.cu), so the two limits compare like with like.
inline void read_device_bytes(const void *buffer, std::size_t bytes, unsigned *sink) {
  constexpr int kThreads = 256;
  static const int blocks =
      kit::gpu::resident_blocks(detail::read_vectors_kernel<kThreads>, kThreads);
  detail::read_vectors_kernel<kThreads>
      <<<blocks, kThreads>>>(static_cast<const uint4 *>(buffer), bytes / 16, sink);
  GPU_CHECK_LAUNCH("read_vectors_kernel");
}

class L2Eviction {
public:
  L2Eviction() {
    int device = 0, l2_bytes = 0;
    GPU_CHECK(cudaGetDevice(&device));
    GPU_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
    bytes_ = 2 * static_cast<std::size_t>(std::max(l2_bytes, 1 << 20));
    GPU_CHECK(cudaMalloc(&buffer_, bytes_));
    GPU_CHECK(cudaMalloc(&sink_, sizeof(unsigned)));
    GPU_CHECK(cudaMemset(buffer_, 1, bytes_));
    GPU_CHECK(cudaDeviceSynchronize());
  }
  ~L2Eviction() {
    (void)cudaFree(buffer_);
    (void)cudaFree(sink_);
  }
  L2Eviction(const L2Eviction &) = delete;
  L2Eviction &operator=(const L2Eviction &) = delete;

  // Enqueues the eviction on the default stream (asynchronous).
  void operator()() const { read_device_bytes(buffer_, bytes_, sink_); }

private:
  void *buffer_ = nullptr;
  unsigned *sink_ = nullptr;
  std::size_t bytes_ = 0;
};

} // namespace kit::bench
