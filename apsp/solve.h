// apsp: the solver entry point (the contest prescribes none). The CPU backend implements it with
// the reference (solve_cpu.cpp), the GPU backends with the kernels.
#pragma once

#include "graph.h"

void apsp_solve(const Graph &graph, const RowBlockSink &sink);
