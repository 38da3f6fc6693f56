// Path selection: the measured rule, the KIT_APSP_PATH override and the memory fallback.
#include "kernel_path.h"

#include "kernel_dense.h"
#include "kernel_sparse.h"

#include "gpu.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace apsp {

namespace {
constexpr const char *kPathVariable = "KIT_APSP_PATH";

// Measured crossover (README, "Choosing the path"): the sparse search wins while E stays below
// V^2 / kSparseDivisor.
constexpr double kSparseDivisor = 64.0;
} // namespace

const char *path_name(Path path) { return path == Path::Dense ? "dense" : "sparse"; }

Path choose_path(int vertices, std::size_t edges) {
  const double v = static_cast<double>(vertices);
  return static_cast<double>(edges) * kSparseDivisor < v * v ? Path::Sparse : Path::Dense;
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
