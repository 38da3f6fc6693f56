// int8_kv_cache_attention: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines
// it; the build force-includes this header into kernel.cu, so a definition that drifts from it
// does not compile.
#pragma once

#include <cstdint>

extern "C" void solve(const float *Q, const int8_t *K_int8, const int8_t *V_int8,
                      const float *k_scale, const float *v_scale, float *output, int num_heads,
                      int seq_len, int head_dim);
