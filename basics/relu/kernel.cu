// relu: output = max(0, input) over N floats (LeetGPU signature, device pointers).
//
// Memory-bound: 8 bytes per element. The pass is the shared element-wise one
// (primitives/elementwise.h: one 16-byte vector per thread on NVIDIA, four on gfx908, the last N %
// 4 elements done by the first threads of block 0, a scalar kernel for pointers that are not
// 16-byte aligned); this file only says what happens to one element.
#include "gpu/vendor.h"
#include "primitives/elementwise.h"

#include <cstddef>

namespace {

struct Relu {
  __device__ __forceinline__ float operator()(float x) const { return x > 0.0f ? x : 0.0f; }
};

} // namespace

extern "C" void solve(const float *input, float *output, int N) {
  if (N <= 0)
    return;
  kit::elementwise::map(input, output, static_cast<std::size_t>(N), Relu());
}
