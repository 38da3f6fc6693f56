// vec: b[i] = 2 * (a[i] + 1) + the warp width, a LeetGPU-style solution of the fixture.
#include "gpu.h"

extern "C" void solve(const float *a, float *b, int n) {
  // Uses the fixture's conditional helpers, so that the export keeps them (a LeetGPU file is
  // compiled by nvcc; a host compile of it has no __CUDA_ARCH__: one step adds one).
  if (!kFixtureDeviceCompile || fixture_arch_step(0) != 1)
    return;
  for (int i = 0; i < n; ++i)
    b[i] = static_cast<float>(fixture_vendor_twice(static_cast<int>(a[i])) + kFixtureWarp);
}
