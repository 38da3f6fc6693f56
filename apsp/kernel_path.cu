// Path selection: the measured rule, the KIT_APSP_PATH override and the memory fallback.
#include "kernel_path.h"

#include "kernel_dense.h"
#include "kernel_sparse.h"

#include "gpu/gpu.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace apsp {

namespace {
constexpr const char *kPathVariable = "KIT_APSP_PATH";

// Measured on the H200 (README, "Choosing the path"). The sparse search costs about V * E / R_s
// (R_s: arc relaxations per second, re-relaxations included), the dense kernel V^3 / R_d, so the
// sparse path wins while the average out-degree E / V stays below V * R_s / R_d. R_d grows from
// 2.8e12 (V = 1024) to 1.27e13 relaxations/s (V >= 8192); R_s depends on where the search keeps
// its state: about 4e10/s in shared memory with two or more blocks per multiprocessor, 2.2e10/s
// with one (V = 16384), 1.1e10/s in global memory (V = 16384). Below V = 8192 the crossover degree
// was 14-24, hence the floor of 16.
constexpr double kMinCrossoverDegree = 16;
constexpr double kVerticesPerDegreeShared = 320;       // R_d / R_s, two or more blocks per SM
constexpr double kVerticesPerDegreeSharedSingle = 600; // one block per SM
constexpr double kVerticesPerDegreeGlobal = 1150;
} // namespace

const char *path_name(Path path) { return path == Path::Dense ? "dense" : "sparse"; }

Path choose_path(int vertices, std::size_t edges) {
  const double v = static_cast<double>(vertices);
  const int shared_blocks = sparse_shared_state_blocks_per_sm(vertices);
  const double per_degree = shared_blocks >= 2   ? kVerticesPerDegreeShared
                            : shared_blocks == 1 ? kVerticesPerDegreeSharedSingle
                                                 : kVerticesPerDegreeGlobal;
  const double crossover_degree = std::max(kMinCrossoverDegree, v / per_degree);
  return static_cast<double>(edges) < crossover_degree * v ? Path::Sparse : Path::Dense;
}

Path selected_path(const Graph &graph) {
  if (const char *forced = std::getenv(kPathVariable)) {
    if (std::strcmp(forced, "dense") == 0)
      return Path::Dense;
    if (std::strcmp(forced, "sparse") == 0)
      return Path::Sparse;
    if (std::strcmp(forced, "auto") != 0 && forced[0] != '\0') {
      std::fprintf(stderr, "apsp: %s='%s': expected dense, sparse or auto\n", kPathVariable,
                   forced);
      std::exit(2);
    }
  }
  const Path rule = choose_path(graph.vertices, graph.edges.size());
  if (rule == Path::Dense) {
    std::size_t free_bytes = 0, total_bytes = 0;
    GPU_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::size_t needed =
        dense_device_bytes(graph.vertices, graph.edges.size(), default_dense_variant().tile);
    if (needed > free_bytes)
      return Path::Sparse; // slower here, but it needs memory for two batches of rows only
  }
  return rule;
}

void solve_with_path(const Graph &graph, const RowBlockSink &sink, Path path) {
  if (path == Path::Dense)
    solve_dense(graph, sink);
  else
    solve_sparse(graph, sink);
}

} // namespace apsp
