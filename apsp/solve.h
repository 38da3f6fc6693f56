// apsp: the solver entry point (the contest prescribes none). The CPU backend implements it with
// the reference (solve_cpu.cpp), the GPU backends with the kernels.
#pragma once

#include "graph.h"

void apsp_solve(const Graph &graph, const RowBlockSink &sink);

// Loads the GPU code that apsp_solve() launches (the runtimes load it lazily on first use); the GPU
// warm-up thread calls it during parsing (common/program/gpu_warmup.h). Nothing on the CPU
// backend.
void preload_gpu_code();
