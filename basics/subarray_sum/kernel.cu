// subarray_sum: output[0] = input[S] + input[S + 1] + ... + input[E], both ends included
// (LeetGPU signature, device pointers; the challenge guarantees 0 <= S <= E <= N - 1). The output
// arrives uninitialised; solve writes it, it never accumulates.
//
// The range is a box of one segment for the box sum shared with the 2-D and 3-D sub-array sums
// in primitives/box_sum.h: only input[S..E] is read, with 16-byte loads between at most 3 scalar
// ints at each end, in one launch whose block sums the last block to finish combines. The sum is
// exact (at most 1e8 values of at most 10 in the challenge) and otherwise wraps modulo 2^32, as
// the judge's int64 sum does when it is stored into the int32 output.
#include "primitives/box_sum.h"

extern "C" void solve(const int *input, int *output, int N, int S, int E) {
  (void)N; // the range alone says what to read
  const long long length = static_cast<long long>(E) - S + 1;
  kit::box_sum::sum_box(input, static_cast<std::size_t>(S), 0, 0, 1, 1,
                        length > 0 ? static_cast<unsigned int>(length) : 0u, output);
}
