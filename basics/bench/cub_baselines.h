// CUB's device-wide primitives with the judge's signatures (device pointers): the benchmark
// baselines of the problems CUB solves directly, on CUDA (CUB ships with the toolkit).
#pragma once

namespace kit::basics {

// radix_sort: cub::DeviceRadixSort::SortKeys, all 32 bits (onesweep).
void cub_radix_sort(const unsigned int *input, unsigned int *output, int N);

// stream_compaction: cub::DeviceSelect::If with the predicate A[i] > 0 (decoupled look-back).
void cub_select_positive(const float *A, int N, float *out);

} // namespace kit::basics
