// apsp_solve on the GPU: the dense or the sparse path, as kernel_path.h selects.
#include "kernel_dense.h"
#include "kernel_path.h"
#include "kernel_sparse.h"
#include "solve.h"

void apsp_solve(const Graph &graph, const RowBlockSink &sink) {
  if (graph.vertices <= 0)
    return;
  apsp::solve_with_path(graph, sink, apsp::selected_path(graph));
}

void preload_gpu_code() {
  apsp::preload_dense_code();
  apsp::preload_sparse_code();
}
