// CUB's onesweep radix sort (cub::DeviceRadixSort::SortKeys, all 32 bits) with the judge's
// radix_sort signature (device pointers): the radix_sort benchmark baseline on CUDA.
#pragma once

namespace kit::basics {

void cub_radix_sort(const unsigned int *input, unsigned int *output, int N);

} // namespace kit::basics
