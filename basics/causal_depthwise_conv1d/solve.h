// causal_depthwise_conv1d: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines it;
// the build force-includes this header into kernel.cu, so a definition that drifts from it does
// not compile.
#pragma once

extern "C" void solve(const float *x, const float *weight, const float *bias, float *output, int B,
                      int L, int D, int K);
