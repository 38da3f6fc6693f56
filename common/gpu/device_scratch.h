// Device scratch memory that a solve keeps from one call to the next: one allocation per
// DeviceScratch object, grown (never shrunk) when a call needs more, freed when the process ends.
// The judge calls solve many times with the same sizes, so after the first call no call allocates;
// the judge allows allocation inside solve, and only the first call of a new largest size pays it.
// Used by radix_sort (the second buffer of keys and the tile states), bfs_shortest_path (the
// bitmaps of grids larger than shared memory), all_pairs_shortest_paths (the padded matrix) and
// segmented_prefix_sum (the tile states, zeroed when the scratch grows).
//
// The exporter inlines this header into each submission file (basics/<name>/kernel.cu includes
// it as "../gpu/device_scratch.h").
#pragma once

#include "gpu/check.h"
#include "gpu/vendor.h"

#include <cstddef>

namespace kit::gpu {

class DeviceScratch {
public:
  DeviceScratch() = default;
  DeviceScratch(const DeviceScratch &) = delete;
  DeviceScratch &operator=(const DeviceScratch &) = delete;
  // At process exit the runtime may already be shutting down: the error of that cudaFree is
  // ignored (the memory goes with the process either way).
  ~DeviceScratch() {
    if (data_)
      (void)cudaFree(data_);
  }

  // At least `bytes` of device memory (cudaMalloc's alignment, 256 bytes), contents undefined.
  // Growing waits for the device first: work queued by earlier calls may still use the old
  // allocation. `grew` (optional) says whether this call replaced the allocation, so callers
  // whose scratch must start in a known state (zeros) initialise it then.
  void *reserve(std::size_t bytes, bool *grew = nullptr) {
    if (grew)
      *grew = false;
    if (bytes <= capacity_ && data_)
      return data_;
    if (data_) {
      GPU_CHECK(cudaDeviceSynchronize());
      GPU_CHECK(cudaFree(data_));
      data_ = nullptr;
      capacity_ = 0;
    }
    GPU_CHECK(cudaMalloc(&data_, bytes > 0 ? bytes : 1));
    capacity_ = bytes;
    if (grew)
      *grew = true;
    return data_;
  }

  std::size_t capacity() const { return capacity_; }

private:
  void *data_ = nullptr;
  std::size_t capacity_ = 0;
};

} // namespace kit::gpu
