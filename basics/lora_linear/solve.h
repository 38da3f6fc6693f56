// lora_linear: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines it; the build
// force-includes this header into kernel.cu, so a definition that drifts from it does not compile.
#pragma once

extern "C" void solve(const float *x, const float *W, const float *A, const float *B, float *output,
                      int batch, int d_in, int d_out, int rank, float lora_scale);
