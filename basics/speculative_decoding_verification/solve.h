// speculative_decoding_verification: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu
// defines it; the build force-includes this header into kernel.cu, so a definition that drifts
// from it does not compile.
#pragma once

extern "C" void solve(const int *draft_tokens, const float *draft_probs, const float *target_probs,
                      const float *uniform_samples, int *output_tokens, int B, int T, int V);
