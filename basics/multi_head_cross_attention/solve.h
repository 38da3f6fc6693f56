// multi_head_cross_attention: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines
// it; the build force-includes this header into kernel.cu, so a definition that drifts from it does
// not compile.
#pragma once

extern "C" void solve(const float *Q, const float *K, const float *V, float *output, int M, int N,
                      int H, int D);
