// sorting's library baseline in the benchmark (CUDA only): CUB's radix sort of the floats
// (cub::DeviceRadixSort::SortKeys, onesweep, the sort under torch.sort), in place through a
// DoubleBuffer whose alternate buffer is kept from one call to the next. The judge's reference
// (torch.sort) is exact, as is any correct sort, so there is no judge reference to add.
#include <cub/device/device_radix_sort.cuh>

#include "device/library.h"
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"

#include <cstddef>

namespace kit::basics {
namespace {

void cub_sort_floats(float *data, int N) {
  static gpu::DeviceScratch alternate, temp;
  const std::size_t bytes_of_keys = static_cast<std::size_t>(N) * sizeof(float);
  cub::DoubleBuffer<float> keys(data, static_cast<float *>(alternate.reserve(bytes_of_keys)));
  std::size_t bytes = 0;
  GPU_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, keys, N));
  GPU_CHECK(cub::DeviceRadixSort::SortKeys(temp.reserve(bytes), bytes, keys, N));
  if (keys.Current() != data) // the passes may end in the alternate buffer
    GPU_CHECK(cudaMemcpyAsync(data, keys.Current(), bytes_of_keys, cudaMemcpyDeviceToDevice));
}

} // namespace

std::vector<Solver> library_baselines() {
  return {solver("CUB DeviceRadixSort::SortKeys (floats, in place)", cub_sort_floats)};
}

Solver library_judge_reference() { return Solver{}; }

} // namespace kit::basics
