// moe_topk_gating: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines it; the
// build force-includes this header into kernel.cu, so a definition that drifts from it does not
// compile.
#pragma once

extern "C" void solve(const float *logits, float *topk_weights, int *topk_indices, int M, int E,
                      int k);
