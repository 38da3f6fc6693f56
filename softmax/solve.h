// softmax: the contest's entry point (HOST pointers). The CPU backend implements it with the
// reference (solve_cpu.cpp), the GPU backends with the kernels (solve_gpu.cu). `input == output` is
// allowed (the program answers in place, common/program/values_program.h).
#pragma once

extern "C" void solve(const float *input, float *output, int N);

// Loads the GPU code that solve() launches (the runtimes load it lazily on first use); the GPU
// warm-up thread calls it during parsing (common/program/gpu_warmup.h). Nothing on the CPU
// backend.
void preload_gpu_code();
