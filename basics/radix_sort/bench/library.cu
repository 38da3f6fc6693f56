// radix_sort's library baseline: CUB's DeviceRadixSort::SortKeys over all 32 bits (onesweep).
#include <cub/device/device_radix_sort.cuh>

#include "device/library.h"
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"

#include <cstddef>

namespace kit::basics {
namespace {

// CUB's temporary storage is kept from one call to the next, as the kit's own solve keeps its
// scratch: the benchmark times the sort, not an allocation.
void cub_radix_sort(const unsigned int *input, unsigned int *output, int N) {
  static gpu::DeviceScratch temp;
  std::size_t bytes = 0;
  GPU_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, input, output, N));
  GPU_CHECK(cub::DeviceRadixSort::SortKeys(temp.reserve(bytes), bytes, input, output, N));
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("CUB DeviceRadixSort::SortKeys", cub_radix_sort)};
}

Solver library_judge_reference() { return {}; }

} // namespace kit::basics
