// llama_transformer_block: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines
// it; the build force-includes this header into kernel.cu, so a definition that drifts from it
// does not compile.
#pragma once

extern "C" void solve(const float *x, float *output, const float *weights, const float *cos,
                      const float *sin, int seq_len);
