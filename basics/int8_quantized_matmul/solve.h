// int8_quantized_matmul: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines it;
// the build force-includes this header into kernel.cu, so a definition that drifts from it does not
// compile.
#pragma once

#include <cstdint>

extern "C" void solve(const std::int8_t *A, const std::int8_t *B, std::int8_t *C, int M, int N,
                      int K, float scale_A, float scale_B, float scale_C, int zero_point_A,
                      int zero_point_B, int zero_point_C);
