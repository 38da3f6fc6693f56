// bench_apsp: the dense kernel against the classic three-phase blocked Floyd-Warshall (32 x 32
// tiles, one thread per distance) in the same run, every dense variant, and the sparse path
// against the dense one on sample-like graphs and on the sweep behind the path rule.
//
//   bench_apsp [dense|variants|sparse|rule|solve|all] [--max-n N]
//
// Times are kernel time on device-resident data (CUDA/HIP events, one warm-up, median of several
// runs; the matrix is restored from a pristine copy before every run, outside the timed region).
// Every result is also compared with the baseline's (dense) or the dense path's (sparse), exactly.
#include "kernel_dense.h"
#include "kernel_path.h"
#include "kernel_sparse.h"

#include "bench/event_timing.h"
#include "gpu/gpu.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

// ------------------------------------------------------------------------------------------
// Baseline: the classic blocked Floyd-Warshall, 32 x 32 tiles, one thread per distance.
// ------------------------------------------------------------------------------------------
constexpr int kClassicTile = 32;

__global__ void classic_phase1(int *d, int n, int kb) {
  __shared__ int t[kClassicTile][kClassicTile];
  const int i = threadIdx.y, j = threadIdx.x;
  int *base = d + static_cast<std::size_t>(kb) * kClassicTile * (n + 1);
  t[i][j] = base[static_cast<std::size_t>(i) * n + j];
  __syncthreads();
  for (int k = 0; k < kClassicTile; ++k) {
    const int through = t[i][k] + t[k][j];
    __syncthreads();
    if (through < t[i][j])
      t[i][j] = through;
    __syncthreads();
  }
  base[static_cast<std::size_t>(i) * n + j] = t[i][j];
}

__global__ void classic_phase2(int *d, int n, int kb) {
  if (static_cast<int>(blockIdx.x) == kb)
    return;
  __shared__ int pivot[kClassicTile][kClassicTile];
  __shared__ int own[kClassicTile][kClassicTile];
  const int i = threadIdx.y, j = threadIdx.x;
  const bool pivot_row = blockIdx.y == 0;
  const std::size_t ti = pivot_row ? kb : blockIdx.x, tj = pivot_row ? blockIdx.x : kb;
  int *own_base = d + ti * kClassicTile * n + tj * kClassicTile;
  const int *pivot_base = d + static_cast<std::size_t>(kb) * kClassicTile * (n + 1);
  pivot[i][j] = pivot_base[static_cast<std::size_t>(i) * n + j];
  own[i][j] = own_base[static_cast<std::size_t>(i) * n + j];
  __syncthreads();
  for (int k = 0; k < kClassicTile; ++k) {
    const int through = pivot_row ? pivot[i][k] + own[k][j] : own[i][k] + pivot[k][j];
    __syncthreads();
    if (through < own[i][j])
      own[i][j] = through;
    __syncthreads();
  }
  own_base[static_cast<std::size_t>(i) * n + j] = own[i][j];
}

__global__ void classic_phase3(int *d, int n, int kb) {
  if (static_cast<int>(blockIdx.x) == kb || static_cast<int>(blockIdx.y) == kb)
    return;
  __shared__ int column[kClassicTile][kClassicTile]; // D(I, kb)
  __shared__ int row[kClassicTile][kClassicTile];    // D(kb, J)
  const int i = threadIdx.y, j = threadIdx.x;
  const std::size_t ti = blockIdx.y, tj = blockIdx.x, k0 = static_cast<std::size_t>(kb);
  int *own = d + (ti * kClassicTile + i) * n + tj * kClassicTile + j;
  column[i][j] = d[(ti * kClassicTile + i) * n + k0 * kClassicTile + j];
  row[i][j] = d[(k0 * kClassicTile + i) * n + tj * kClassicTile + j];
  int current = *own;
  __syncthreads();
  for (int k = 0; k < kClassicTile; ++k)
    current = min(current, column[i][k] + row[k][j]);
  *own = current;
}

void classic_floyd_warshall(int *d, int n, cudaStream_t stream) {
  const int tiles = n / kClassicTile;
  const dim3 threads(kClassicTile, kClassicTile);
  for (int kb = 0; kb < tiles; ++kb) {
    classic_phase1<<<1, threads, 0, stream>>>(d, n, kb);
    classic_phase2<<<dim3(tiles, 2), threads, 0, stream>>>(d, n, kb);
    classic_phase3<<<dim3(tiles, tiles), threads, 0, stream>>>(d, n, kb);
  }
  GPU_CHECK_LAUNCH("classic_floyd_warshall");
}

// ------------------------------------------------------------------------------------------
// Device-side inputs and checks.
// ------------------------------------------------------------------------------------------

__device__ unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// Random dense graph: each ordered pair is an edge with probability 1/2, weight in [0, 1000].
__global__ void random_matrix_kernel(int *d, int n, unsigned seed) {
  const std::size_t total = static_cast<std::size_t>(n) * n;
  for (std::size_t idx = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       idx < total; idx += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const int i = static_cast<int>(idx / n), j = static_cast<int>(idx % n);
    const unsigned h = mix(static_cast<unsigned>(idx) * 2654435761u ^ seed);
    d[idx] = i == j ? 0 : (h & 1) ? static_cast<int>((h >> 1) % 1001) : kApspInf;
  }
}

// Counts positions of the rows x cols corner where a (pitch pa) and b (pitch pb) differ.
__global__ void count_mismatches_kernel(const int *a, std::size_t pa, const int *b, std::size_t pb,
                                        int rows, int cols, unsigned long long *mismatches) {
  unsigned long long local = 0;
  const std::size_t total = static_cast<std::size_t>(rows) * cols;
  for (std::size_t idx = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       idx < total; idx += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t i = idx / cols, j = idx % cols;
    local += a[i * pa + j] != b[i * pb + j];
  }
  if (local)
    atomicAdd(mismatches, local);
}

unsigned long long count_mismatches(const int *a, std::size_t pa, const int *b, std::size_t pb,
                                    int rows, int cols) {
  unsigned long long *counter = nullptr;
  GPU_CHECK(cudaMalloc(&counter, sizeof(*counter)));
  GPU_CHECK(cudaMemset(counter, 0, sizeof(*counter)));
  count_mismatches_kernel<<<kit::gpu::device_multiprocessors() * 8, 256>>>(a, pa, b, pb, rows, cols,
                                                                           counter);
  GPU_CHECK_LAUNCH("count_mismatches_kernel");
  unsigned long long host = 0;
  GPU_CHECK(cudaMemcpy(&host, counter, sizeof(host), cudaMemcpyDeviceToHost));
  GPU_CHECK(cudaFree(counter));
  return host;
}

// ------------------------------------------------------------------------------------------
// Timing: one warm-up, then the median of `runs`; `prepare` runs before each, untimed.
// ------------------------------------------------------------------------------------------
double median_ms(int runs, const std::function<void()> &prepare,
                 const std::function<void()> &work) {
  const auto prepare_and_wait = [&] {
    prepare();
    GPU_CHECK(cudaDeviceSynchronize());
  };
  return kit::bench::time_events(1, runs, work, prepare_and_wait).median_ms;
}

int runs_for(int n) { return n >= 16384 ? 3 : n >= 8192 ? 5 : 9; }

struct DeviceMatrix {
  explicit DeviceMatrix(std::size_t count) { GPU_CHECK(cudaMalloc(&ptr, count * sizeof(int))); }
  ~DeviceMatrix() { (void)cudaFree(ptr); }
  DeviceMatrix(const DeviceMatrix &) = delete;
  DeviceMatrix &operator=(const DeviceMatrix &) = delete;
  int *ptr = nullptr;
};

// ------------------------------------------------------------------------------------------
// Sections.
// ------------------------------------------------------------------------------------------

struct DenseTimes {
  double baseline_ms;
  std::vector<double> variant_ms;
  std::vector<unsigned long long> variant_mismatches;
};

DenseTimes time_dense(int n, const std::vector<apsp::DenseVariant> &variants, int runs) {
  const std::size_t count = static_cast<std::size_t>(n) * n;
  DeviceMatrix pristine(count), work(count), baseline(count);
  random_matrix_kernel<<<kit::gpu::device_multiprocessors() * 8, 256>>>(pristine.ptr, n,
                                                                        0x9e3779b9u ^ n);
  GPU_CHECK_LAUNCH("random_matrix_kernel");
  auto restore = [&] {
    GPU_CHECK(cudaMemcpy(work.ptr, pristine.ptr, count * sizeof(int), cudaMemcpyDeviceToDevice));
  };
  DenseTimes t;
  t.baseline_ms = median_ms(runs, restore, [&] { classic_floyd_warshall(work.ptr, n, nullptr); });
  GPU_CHECK(cudaMemcpy(baseline.ptr, work.ptr, count * sizeof(int), cudaMemcpyDeviceToDevice));
  for (const apsp::DenseVariant &v : variants) {
    t.variant_ms.push_back(
        median_ms(runs, restore, [&] { apsp::dense_floyd_warshall(work.ptr, n, v, nullptr); }));
    t.variant_mismatches.push_back(count_mismatches(work.ptr, n, baseline.ptr, n, n, n));
  }
  return t;
}

bool dense_section(int max_n) {
  const apsp::DenseVariant kit_variant = apsp::default_dense_variant();
  std::printf("\n## Dense: kit (tile %d, %s) vs classic blocked-32 baseline\n", kit_variant.tile,
              apsp::form_name(kit_variant.form));
  std::printf("| n | baseline ms | kit ms | speedup | baseline relax/s | kit relax/s | check |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  bool ok = true;
  for (int n : {1024, 2048, 4096, 8192, 16384}) {
    if (n > max_n)
      break;
    const DenseTimes t = time_dense(n, {kit_variant}, runs_for(n));
    const double relaxations = static_cast<double>(n) * n * n;
    const bool exact = t.variant_mismatches[0] == 0;
    ok = ok && exact;
    std::printf("| %d | %.2f | %.2f | %.2fx | %.3g | %.3g | %s |\n", n, t.baseline_ms,
                t.variant_ms[0], t.baseline_ms / t.variant_ms[0],
                relaxations / (t.baseline_ms * 1e-3), relaxations / (t.variant_ms[0] * 1e-3),
                exact ? "exact" : "MISMATCH");
    std::fflush(stdout);
  }
  return ok;
}

bool variants_section(int max_n) {
  std::vector<apsp::DenseVariant> variants;
  for (int tile : {64, 128})
    for (apsp::MinPlusForm form :
         {apsp::MinPlusForm::AddMin, apsp::MinPlusForm::PairedMin3, apsp::MinPlusForm::Separate})
      if (apsp::dense_variant_supported({tile, form}))
        variants.push_back({tile, form});
  std::printf("\n## Dense variants (ratio = baseline / variant, same run)\n");
  std::printf(
      "| n | tile | form | ms | relax/s | ratio | check |\n|---|---|---|---|---|---|---|\n");
  bool ok = true;
  for (int n : {4096, 8192}) {
    if (n > max_n)
      break;
    const DenseTimes t = time_dense(n, variants, runs_for(n));
    const double relaxations = static_cast<double>(n) * n * n;
    std::printf("| %d | classic 32 | separate | %.2f | %.3g | 1.00x | reference |\n", n,
                t.baseline_ms, relaxations / (t.baseline_ms * 1e-3));
    for (std::size_t i = 0; i < variants.size(); ++i) {
      const bool exact = t.variant_mismatches[i] == 0;
      ok = ok && exact;
      std::printf("| %d | %d | %s | %.2f | %.3g | %.2fx | %s |\n", n, variants[i].tile,
                  apsp::form_name(variants[i].form), t.variant_ms[i],
                  relaxations / (t.variant_ms[i] * 1e-3), t.baseline_ms / t.variant_ms[i],
                  exact ? "exact" : "MISMATCH");
    }
    std::fflush(stdout);
  }
  return ok;
}

Graph grid_graph(int side, std::mt19937 &rng) {
  Graph g;
  g.vertices = side * side;
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) {
      const int v = r * side + c;
      if (c + 1 < side)
        g.edges.push_back({v, v + 1, static_cast<int>(rng() % 1001)});
      if (r + 1 < side)
        g.edges.push_back({v, v + side, static_cast<int>(rng() % 1001)});
    }
  return g;
}

Graph random_graph(int vertices, std::size_t edges, std::mt19937 &rng) {
  Graph g;
  g.vertices = vertices;
  g.edges.reserve(edges);
  for (std::size_t i = 0; i < edges; ++i) {
    const int src = static_cast<int>(rng() % vertices);
    int dst = static_cast<int>(rng() % vertices);
    if (dst == src)
      dst = (dst + 1) % vertices;
    g.edges.push_back({src, dst, static_cast<int>(rng() % 1001)});
  }
  return g;
}

Graph chain_graph(int vertices, std::mt19937 &rng) {
  Graph g;
  g.vertices = vertices;
  for (int i = 0; i + 1 < vertices; ++i)
    g.edges.push_back({i, i + 1, static_cast<int>(rng() % 1001)});
  return g;
}

struct PathTimes {
  double dense_ms;
  double sparse_ms[2]; // shared state, global state (negative: not possible)
  unsigned long long mismatches;
};

// Kernel time of each path: dense = Floyd-Warshall on the built matrix (the build is redone,
// untimed, before each run); sparse = all V rows in one launch (CSR upload excluded).
PathTimes time_paths(const Graph &g, int runs, double known_dense_ms = -1) {
  const int v = g.vertices;
  const apsp::DenseVariant variant = apsp::default_dense_variant();
  const int n = apsp::dense_padded_size(v, variant.tile);
  DeviceMatrix dense(static_cast<std::size_t>(n) * n), rows(static_cast<std::size_t>(v) * v);
  PathTimes t{};
  auto build = [&] { apsp::dense_build(g, dense.ptr, n, nullptr); };
  auto floyd_warshall = [&] { apsp::dense_floyd_warshall(dense.ptr, n, variant, nullptr); };
  if (known_dense_ms >= 0) { // same V: the dense kernel's time does not depend on E
    build();
    floyd_warshall();
    t.dense_ms = known_dense_ms;
  } else {
    t.dense_ms = median_ms(runs, build, floyd_warshall);
  }
  t.mismatches = 0;
  const apsp::SparseState states[2] = {apsp::SparseState::Shared, apsp::SparseState::Global};
  for (int s = 0; s < 2; ++s) {
    const bool fits = 2 * static_cast<std::size_t>(v) * sizeof(int) + 64 <=
                      static_cast<std::size_t>(kit::gpu::max_shared_bytes_per_block());
    if (s == 0 && !fits) {
      t.sparse_ms[s] = -1;
      continue;
    }
    apsp::SparseSolver solver(g, states[s]);
    auto poison = [&] {
      GPU_CHECK(cudaMemset(rows.ptr, 0xA5, static_cast<std::size_t>(v) * v * sizeof(int)));
    };
    t.sparse_ms[s] = median_ms(runs, poison, [&] { solver.compute_rows(0, v, rows.ptr, nullptr); });
    t.mismatches += count_mismatches(rows.ptr, v, dense.ptr, n, v, v);
  }
  return t;
}

void print_path_row(const char *name, const Graph &g, const PathTimes &t) {
  char shared_ms[32];
  if (t.sparse_ms[0] < 0)
    std::snprintf(shared_ms, sizeof(shared_ms), "-");
  else
    std::snprintf(shared_ms, sizeof(shared_ms), "%.2f", t.sparse_ms[0]);
  const double best_sparse =
      t.sparse_ms[0] < 0 ? t.sparse_ms[1] : std::min(t.sparse_ms[0], t.sparse_ms[1]);
  std::printf("| %s | %d | %zu | %.2f | %s | %.2f | %.2f | %s | %s |\n", name, g.vertices,
              g.edges.size(), t.dense_ms, shared_ms, t.sparse_ms[1], t.dense_ms / best_sparse,
              apsp::path_name(apsp::choose_path(g.vertices, g.edges.size())),
              t.mismatches == 0 ? "exact" : "MISMATCH");
  std::fflush(stdout);
}

const char *kPathHeader =
    "| graph | V | E | dense ms | sparse shared ms | sparse global ms | dense/sparse | rule picks "
    "| check |\n|---|---|---|---|---|---|---|---|---|\n";

bool sparse_section() {
  std::printf("\n## Sample-like graphs: dense kernel (Floyd-Warshall on the built matrix) vs "
              "sparse kernel (all V rows)\n%s",
              kPathHeader);
  std::mt19937 rng(6400);
  bool ok = true;
  const Graph grid = grid_graph(80, rng);
  PathTimes t = time_paths(grid, 5);
  print_path_row("grid 80x80", grid, t);
  ok = ok && t.mismatches == 0;
  const Graph random = random_graph(4000, 70000, rng);
  t = time_paths(random, 5);
  print_path_row("random", random, t);
  ok = ok && t.mismatches == 0;
  const Graph chain = chain_graph(4096, rng);
  t = time_paths(chain, 3);
  print_path_row("chain", chain, t);
  ok = ok && t.mismatches == 0;
  return ok;
}

bool rule_section(int max_n) {
  std::printf("\n## Path rule sweep: random graphs, average out-degree E/V\n%s", kPathHeader);
  std::mt19937 rng(2026);
  bool ok = true;
  for (int v : {1024, 2048, 4096, 8192, 12288, 16384}) {
    if (v > max_n)
      break;
    double dense_ms = -1;
    for (int degree : {2, 8, 32, 128}) {
      if (degree >= v / 2)
        continue;
      const Graph g = random_graph(v, static_cast<std::size_t>(v) * degree, rng);
      const PathTimes t = time_paths(g, 3, dense_ms);
      dense_ms = t.dense_ms;
      char name[32];
      std::snprintf(name, sizeof(name), "random deg %d", degree);
      print_path_row(name, g, t);
      ok = ok && t.mismatches == 0;
      // Past the crossover: larger degrees only cost time.
      const double best_sparse =
          t.sparse_ms[0] < 0 ? t.sparse_ms[1] : std::min(t.sparse_ms[0], t.sparse_ms[1]);
      if (best_sparse > 2 * t.dense_ms)
        break;
    }
  }
  return ok;
}

// Whole solver calls, wall clock: matrix build or CSR upload, compute, copy-back in row blocks
// through pinned buffers, and a sink that only folds each row block into a checksum (so the time
// is what the formatting thread would wait for). Both paths must give the same checksum.
// Per-row sums folded into one checksum: vectorisable, so the sink is far faster than formatting
// would be, and the total does not depend on how the solver splits rows into blocks.
std::uint64_t row_checksum(int first_row, int row_count, const int *rows, int vertices) {
  std::uint64_t sum = 0;
  for (int r = 0; r < row_count; ++r) {
    const int *row = rows + static_cast<std::size_t>(r) * vertices;
    std::uint64_t plain = 0, weighted = 0;
    for (int j = 0; j < vertices; ++j) {
      const std::uint64_t value = static_cast<std::uint32_t>(row[j]);
      plain += value;
      weighted += value * static_cast<std::uint64_t>(j);
    }
    sum += plain * (2 * static_cast<std::uint64_t>(first_row + r) + 1) + weighted;
  }
  return sum;
}

// Whole solver calls, wall clock: matrix build or CSR upload, compute, copy-back in row blocks
// through pinned buffers, and a checksum sink (the time a formatting thread would wait for rows).
// Both paths must give the same checksum.
bool solve_section() {
  std::printf("\n## apsp solve (wall clock, sink = checksum; copy-back included)\n");
  std::printf("| graph | V | E | dense path ms | sparse path ms | check |\n");
  std::printf("|---|---|---|---|---|---|\n");
  std::mt19937 rng(77);
  bool ok = true;
  struct Named {
    const char *name;
    Graph graph;
  };
  const Named graphs[] = {{"grid 80x80", grid_graph(80, rng)},
                          {"random", random_graph(4000, 70000, rng)},
                          {"random", random_graph(10000, 200000, rng)}};
  for (const Named &g : graphs) {
    double ms[2];
    std::uint64_t sums[2];
    for (int p = 0; p < 2; ++p) {
      const apsp::Path path = p == 0 ? apsp::Path::Dense : apsp::Path::Sparse;
      std::vector<double> times;
      for (int run = 0; run < 4; ++run) {
        std::uint64_t sum = 0;
        const RowBlockSink sink = [&](int first_row, int row_count, const int *rows) {
          sum += row_checksum(first_row, row_count, rows, g.graph.vertices);
        };
        const auto start = std::chrono::steady_clock::now();
        apsp::solve_with_path(g.graph, sink, path);
        const auto stop = std::chrono::steady_clock::now();
        if (run > 0) // run 0 warms up (pinned allocations, module load)
          times.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
        sums[p] = sum;
      }
      std::sort(times.begin(), times.end());
      ms[p] = times[times.size() / 2];
    }
    const bool same = sums[0] == sums[1];
    ok = ok && same;
    std::printf("| %s | %d | %zu | %.1f | %.1f | %s |\n", g.name, g.graph.vertices,
                g.graph.edges.size(), ms[0], ms[1], same ? "same checksum" : "MISMATCH");
    std::fflush(stdout);
  }
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  std::string section = "all";
  int max_n = 16384;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--max-n") == 0 && i + 1 < argc) {
      max_n = std::atoi(argv[++i]);
    } else if (argv[i][0] != '-') {
      section = argv[i];
    } else {
      std::fprintf(stderr, "usage: %s [dense|variants|sparse|rule|solve|all] [--max-n N]\n",
                   argv[0]);
      return 1;
    }
  }
  const cudaDeviceProp prop = kit::gpu::device_properties_or_exit("bench_apsp");
  std::printf("bench_apsp on %s (%d SMs)\n", prop.name, prop.multiProcessorCount);
  bool ok = true;
  if (section == "all" || section == "dense")
    ok = dense_section(max_n) && ok;
  if (section == "all" || section == "variants")
    ok = variants_section(max_n) && ok;
  if (section == "all" || section == "sparse")
    ok = sparse_section() && ok;
  if (section == "all" || section == "rule")
    ok = rule_section(max_n) && ok;
  if (section == "all" || section == "solve")
    ok = solve_section() && ok;
  std::printf("\nbench_apsp: %s\n", ok ? "all results exact" : "MISMATCHES FOUND");
  return ok ? 0 : 1;
}
