// matrix_copy: B = A for an N x N float matrix (LeetGPU signature, device pointers).
//
// A row-major N x N matrix is one contiguous run of N*N floats, so this is a plain copy at
// 8 bytes per element, done by the shared element-wise pass (primitives/elementwise.h: one 16-byte
// vector per thread on NVIDIA, four on gfx908, the last (N*N) % 4 elements done by the first
// threads of block 0, a scalar kernel for pointers that are not 16-byte aligned) with the identity.
#include "gpu/vendor.h"
#include "primitives/elementwise.h"

#include <cstddef>

namespace {

struct Identity {
  __device__ __forceinline__ float operator()(float x) const { return x; }
};

} // namespace

extern "C" void solve(const float *A, float *B, int N) {
  if (N <= 0)
    return;
  const std::size_t n = static_cast<std::size_t>(N) * static_cast<std::size_t>(N);
  kit::elementwise::map(A, B, n, Identity());
}
