// ssm_selective_scan: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines it; the
// build force-includes this header into kernel.cu, so a definition that drifts from it does not
// compile.
#pragma once

extern "C" void solve(const float *u, const float *delta, const float *A, const float *B,
                      const float *C, const float *skip, float *y, int batch, int seq_len,
                      int d_model, int d_state);
