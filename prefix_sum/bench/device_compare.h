// Device-side comparison of two int arrays, for the GPU tests and the benchmark: checking a large
// result against a device-resident expected one avoids copying it back for every run.
#pragma once

#include "gpu/check.h"
#include "gpu/vendor.h"

#include <algorithm>
#include <cstddef>

namespace prefix_sum {

__global__ void count_mismatches_kernel(const int *a, const int *b, std::size_t n,
                                        unsigned long long *count) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    if (a[i] != b[i])
      atomicAdd(count, 1ull);
}

// Number of positions where a and b differ; `counter` is one device word of scratch.
inline unsigned long long count_mismatches(const int *a, const int *b, std::size_t n,
                                           unsigned long long *counter) {
  GPU_CHECK(cudaMemset(counter, 0, sizeof(unsigned long long)));
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 4096));
  count_mismatches_kernel<<<std::max(blocks, 1u), 256>>>(a, b, n, counter);
  GPU_CHECK_LAUNCH("count_mismatches_kernel");
  unsigned long long count = 0;
  GPU_CHECK(cudaMemcpy(&count, counter, sizeof count, cudaMemcpyDeviceToHost));
  return count;
}

} // namespace prefix_sum
