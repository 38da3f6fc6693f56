// categorical_cross_entropy_loss: the LeetGPU judge's entry point (DEVICE pointers). kernel.cu
// defines it; the build force-includes this header into kernel.cu, so a definition that drifts
// from it does not compile.
#pragma once

extern "C" void solve(const float *logits, const int *true_labels, float *loss, int N, int C);
