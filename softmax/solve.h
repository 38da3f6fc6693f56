// softmax: the contest's entry point (HOST pointers). The CPU backend implements it with the
// reference (solve_cpu.cpp), the GPU backends with the kernel (kernel.cu). `input == output` is
// allowed (the program answers in place, common/program/values_program.h).
#pragma once

extern "C" void solve(const float *input, float *output, int N);
