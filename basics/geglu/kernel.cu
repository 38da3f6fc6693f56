// geglu: output[i] = x1[i] * gelu(x2[i]) for i < N / 2, where x1 is the first half of the N input
// floats and x2 the second, and gelu is the exact (erf) form (LeetGPU signature, device pointers;
// N is even).
//
// Memory-bound: 12 bytes per output (two floats read, one written); one erff per output is far
// below what the multiprocessors issue meanwhile. The pass is the shared gated one
// (primitives/gated.h: the element-wise binary pass over the two halves, with a coalesced vector
// path for the second half's start when N / 2 % 4 != 0).
#include "gpu/vendor.h"
#include "primitives/gated.h"

#include <cstddef>

namespace {

// The float nearest 1/sqrt(2). The reference divides x2 by math.sqrt(2.0); torch computes a
// division of a CUDA tensor by a Python scalar as a multiplication by the scalar's reciprocal in
// float, 1 / 1.41421354f, which rounds to this same float.
constexpr float kInvSqrt2 = 0.70710678118654752f;

// 0.5 * x2 * (1 + erf(x2 / sqrt(2))) evaluated left to right as the reference's torch expression
// is, each step rounded to float, then times x1. Where erf is near -1 (x2 below about -3) the sum
// 1 + erf cancels; the reference cancels the same way, and the tolerance (1e-4 absolute) covers
// the erff implementations' last-place differences there. Large negative x2 give -0 (erf = -1).
struct Geglu {
  __device__ __forceinline__ float operator()(float x1, float x2) const {
    const float gelu = (0.5f * x2) * (1.0f + erff(x2 * kInvSqrt2));
    return x1 * gelu;
  }
};

} // namespace

extern "C" void solve(const float *input, float *output, int N) {
  if (N < 2)
    return;
  kit::gated::map(input, output, static_cast<std::size_t>(N / 2), Geglu());
}
