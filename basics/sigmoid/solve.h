// sigmoid: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines it; the build
// force-includes this header into kernel.cu, so a definition that drifts from it does not compile.
// N is an int, as the challenge's starter declares it (its challenge.py passes a size_t; see
// README.md).
#pragma once

extern "C" void solve(const float *X, float *Y, int N);
