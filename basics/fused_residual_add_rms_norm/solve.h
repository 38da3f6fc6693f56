// fused_residual_add_rms_norm: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu
// defines it; the build force-includes this header into kernel.cu, so a definition that drifts
// from it does not compile.
#pragma once

extern "C" void solve(const float *x, const float *residual, const float *weight, float *out, int N,
                      int C, float eps);
