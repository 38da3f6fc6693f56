// monte_carlo_integration: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines
// it; the build force-includes this header into kernel.cu, so a definition that drifts from it
// does not compile.
#pragma once

extern "C" void solve(const float *y_samples, float *result, float a, float b, int n_samples);
