// dpo_sequence_loss: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines it; the
// build force-includes this header into kernel.cu, so a definition that drifts from it does not
// compile.
#pragma once

extern "C" void solve(const float *chosen_logps, const float *rejected_logps,
                      const float *chosen_ref_logps, const float *rejected_ref_logps, float *output,
                      float beta, int B);
