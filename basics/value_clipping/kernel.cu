// value_clipping: output = min(max(input, lo), hi) over N floats (LeetGPU signature, device
// pointers, lo <= hi).
//
// Memory-bound: 8 bytes per element. The pass is the shared element-wise one
// (primitives/elementwise.h: one 16-byte vector per thread on NVIDIA, four on gfx908, the last N %
// 4 elements done by the first threads of block 0, a scalar kernel for pointers that are not
// 16-byte aligned); the bounds travel to the kernel inside the operation object (kernel parameters,
// no copy).
#include "gpu/vendor.h"
#include "primitives/elementwise.h"

#include <cstddef>

namespace {

// torch.clamp(min=lo, max=hi) on a float tensor: NaN stays NaN (fmaxf alone would turn it into
// lo), every other value becomes min(max(x, lo), hi), infinities included.
struct Clip {
  float lo;
  float hi;
  __device__ __forceinline__ float operator()(float x) const {
    return x != x ? x : fminf(fmaxf(x, lo), hi);
  }
};

} // namespace

extern "C" void solve(const float *input, float *output, float lo, float hi, int N) {
  if (N <= 0)
    return;
  kit::elementwise::map(input, output, static_cast<std::size_t>(N), Clip{lo, hi});
}
