// dot_product: result[0] = sum of A[i] * B[i] over the N floats of A and B (LeetGPU signature,
// device pointers). The result arrives uninitialised; solve writes it, it never accumulates.
//
// Each product is formed in double, where the product of two floats is exact, and added in
// double; only the final rounding to float remains. The sum itself is the two-array case of
// primitives/term_sum.h (one grid-stride launch, four 16-byte loads per input in flight per
// thread, the block sums combined in a fixed order by the last block to finish). The judge's
// performance case has N = 5: one block, and the call costs about one kernel launch.
#include "primitives/term_sum.h"

#include <cstddef>

namespace {

struct Dot : kit::term_sum::NoBlockSetup, kit::term_sum::ReadOnlyLoads {
  static constexpr int kArrays = 2; // A, B

  __device__ double term(std::size_t, const float (&x)[2]) const {
    return static_cast<double>(x[0]) * static_cast<double>(x[1]);
  }
  __device__ float finish(double sum, std::size_t) const { return static_cast<float>(sum); }
};

} // namespace

extern "C" void solve(const float *A, const float *B, float *result, int N) {
  const std::size_t n = N > 0 ? static_cast<std::size_t>(N) : 0;
  kit::term_sum::term_sum<Dot>({{A, B}}, n, Dot{}, result);
}
