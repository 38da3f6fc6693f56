// 3d_subarray_sum: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines it; the
// build force-includes this header into kernel.cu, so a definition that drifts from it does not
// compile.
#pragma once

extern "C" void solve(const int *input, int *output, int N, int M, int K, int S_DEP, int E_DEP,
                      int S_ROW, int E_ROW, int S_COL, int E_COL);
