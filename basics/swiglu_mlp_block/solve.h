// swiglu_mlp_block: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines it; the
// build force-includes this header into kernel.cu, so a definition that drifts from it does not
// compile.
#pragma once

extern "C" void solve(const float *x, const float *W_gate, const float *W_up, const float *W_down,
                      float *output, int M, int d_model, int d_ffn);
