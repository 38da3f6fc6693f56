// ppo_clipped_surrogate_loss: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu
// defines it; the build force-includes this header into kernel.cu, so a definition that drifts
// from it does not compile.
#pragma once

extern "C" void solve(const float *advantages, const float *log_pi, const float *log_pi_old,
                      float *output, float clip_eps, int B, int S);
