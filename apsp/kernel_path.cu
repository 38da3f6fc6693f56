// Path selection: the tuned rule, the KIT_APSP_PATH override and the fallbacks to the sparse path.
#include "kernel_path.h"

#include "kernel_dense.h"
#include "kernel_sparse.h"
#include "tuning.h"

#include "gpu/check.h"
#include "gpu/tuning_dispatch.h"
#include "gpu/vendor.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace apsp {

namespace {
constexpr const char *kPathVariable = "KIT_APSP_PATH";
} // namespace

const char *path_name(Path path) { return path == Path::Dense ? "dense" : "sparse"; }

Path choose_path(int vertices, std::size_t edges) {
  const PathRule rule =
      kit::gpu::with_tuning<ApspTuning>([](auto tuning) { return decltype(tuning)::kPathRule; });
  const int shared_blocks = sparse_shared_state_blocks_per_sm(vertices);
  const double q = shared_blocks >= 2   ? rule.q_shared_several
                   : shared_blocks == 1 ? rule.q_shared_single
                                        : rule.q_global;
  const double v = static_cast<double>(vertices);
  const double crossover_degree = std::max(rule.min_crossover_degree, v / q);
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
    // Slower here, but the sparse path needs neither the tiles' shared memory nor more device
    // memory than two batches of rows.
    if (!dense_fits_device())
      return Path::Sparse;
    std::size_t free_bytes = 0, total_bytes = 0;
    GPU_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (dense_device_bytes(graph.vertices, graph.edges.size()) > free_bytes)
      return Path::Sparse;
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
