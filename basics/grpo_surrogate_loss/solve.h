// grpo_surrogate_loss: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu defines it;
// the build force-includes this header into kernel.cu, so a definition that drifts from it does
// not compile.
#pragma once

extern "C" void solve(const float *rewards, const float *log_pi, const float *log_pi_old,
                      const float *log_ref, float *output, float clip_eps, float beta, int B, int G,
                      int S);
