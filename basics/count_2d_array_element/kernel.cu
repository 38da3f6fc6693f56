// count_2d_array_element: output[0] = how many ints of the N x M array equal K (LeetGPU
// signature, device pointers). The output arrives uninitialised; solve writes it, it never
// accumulates.
//
// A row-major N x M array is one contiguous run of N*M ints, so this is the 1-D count over N*M
// elements, shared with count_array_element in primitives/count.h (one grid-stride launch, four
// 16-byte loads in flight per thread, the block counts combined by the last block to finish).
#include "primitives/count.h"

#include <cstddef>

extern "C" void solve(const int *input, int *output, int N, int M, int K) {
  const std::size_t n =
      N > 0 && M > 0 ? static_cast<std::size_t>(N) * static_cast<std::size_t>(M) : 0;
  kit::count::count_equal(input, n, K, output);
}
