// 3d_convolution: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines it; the
// build force-includes this header into kernel.cu, so a definition that drifts from it does not
// compile.
#pragma once

extern "C" void solve(const float *input, const float *kernel, float *output, int input_depth,
                      int input_rows, int input_cols, int kernel_depth, int kernel_rows,
                      int kernel_cols);
