// CPU backend: the solver is the reference itself.
#include "reference.h"
#include "solve.h"

void apsp_solve(const Graph &graph, const RowBlockSink &sink) { apsp_reference(graph, sink); }

void preload_gpu_code() {}
