// grouped_query_attention: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines it;
// the build force-includes this header into kernel.cu, so a definition that drifts from it does not
// compile.
#pragma once

extern "C" void solve(const float *Q, const float *K, const float *V, float *output,
                      int num_q_heads, int num_kv_heads, int seq_len, int head_dim);
