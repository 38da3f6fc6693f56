// bench_apsp: the dense kernel against the classic three-phase blocked Floyd-Warshall (32 x 32
// tiles, one thread per distance) in the same run, the tile variants the tuning was chosen from,
// the sparse path against the dense one on sample-like graphs, and whole solver calls.
//
//   bench_apsp [SECTION...] [--max-n N]
//
// Sections: dense, variants, sparse, solve (the default: all four), rule (the sweep behind the
// path rule, minutes), all. Times are kernel time on device-resident data (events, one warm-up,
// median of several runs; the matrix is restored from a pristine copy before every run, outside
// the timed region); solve is wall clock. Every result is compared exactly with the baseline's
// (dense) or the dense path's (sparse).
#include "kernel_dense.h"
#include "kernel_path.h"
#include "kernel_sparse.h"
#include "primitives/floyd_warshall_tiles.h"
#include "tuning.h"

#include "bench/event_timing.h"
#include "bench/options.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/resources.h"
#include "gpu/tuning_dispatch.h"
#include "gpu/vendor.h"
#include "testing/random.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <type_traits>
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

int grid_for_device() { return kit::gpu::device_multiprocessors() * 8; }

// Random dense graph: each ordered pair is an edge with probability 1/2, weight in [0, 1000].
__global__ void random_matrix_kernel(int *d, int n, std::uint64_t seed) {
  const std::size_t total = static_cast<std::size_t>(n) * n;
  for (std::size_t idx = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       idx < total; idx += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t i = idx / n, j = idx % n;
    const std::uint64_t h = kit::Rng::mix(seed ^ idx);
    d[idx] = i == j ? 0 : (h & 1) ? static_cast<int>((h >> 1) % 1001) : kApspInf;
  }
}

// The int matrix as floats (INF becomes 2^30, still far above every path length).
__global__ void to_float_kernel(const int *in, float *out, std::size_t count) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<float>(in[i]);
}

__device__ int as_distance(int v) { return v; }
// Path lengths are integers far below 2^24, exact in float; 2^30 and above is INF.
__device__ int as_distance(float v) { return v >= 1073741824.0f ? kApspInf : static_cast<int>(v); }

// Counts positions of the rows x cols corner where a (pitch pa) and b (pitch pb) differ.
template <class T>
__global__ void count_mismatches_kernel(const T *a, std::size_t pa, const int *b, std::size_t pb,
                                        int rows, int cols, unsigned long long *mismatches) {
  unsigned long long local = 0;
  const std::size_t total = static_cast<std::size_t>(rows) * cols;
  for (std::size_t idx = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       idx < total; idx += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t i = idx / cols, j = idx % cols;
    local += as_distance(a[i * pa + j]) != b[i * pb + j];
  }
  if (local)
    atomicAdd(mismatches, local);
}

template <class T>
unsigned long long count_mismatches(const T *a, std::size_t pa, const int *b, std::size_t pb,
                                    int rows, int cols) {
  kit::gpu::DeviceArray<unsigned long long> counter(1);
  GPU_CHECK(cudaMemset(counter.get(), 0, sizeof(unsigned long long)));
  count_mismatches_kernel<<<grid_for_device(), 256>>>(a, pa, b, pb, rows, cols, counter.get());
  GPU_CHECK_LAUNCH("count_mismatches_kernel");
  unsigned long long host = 0;
  GPU_CHECK(cudaMemcpy(&host, counter.get(), sizeof(host), cudaMemcpyDeviceToHost));
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

// ------------------------------------------------------------------------------------------
// Dense variants: the production kernel and the forms and tiles it was chosen from.
// ------------------------------------------------------------------------------------------

enum class Distance { Int, Float };

struct DenseVariant {
  std::string name;
  Distance distance;
  int tile;
  std::function<bool()> fits;
  std::function<void(void *, int)> run; // in place on the device matrix, default stream
};

template <class T, int R, kit::min_plus::MinPlusForm F> DenseVariant tile_variant() {
  const bool is_int = std::is_same<T, int>::value;
  return {std::string(is_int ? "int" : "float") + " " + kit::min_plus::form_name(F),
          is_int ? Distance::Int : Distance::Float, kit::min_plus::TileShape<T, R>::kTile,
          [] { return kit::min_plus::floyd_warshall_tiles_fit_device<T, R>(); },
          [](void *d, int n) {
            kit::min_plus::floyd_warshall_tiles<T, R, F>(static_cast<T *>(d), n, nullptr);
          }};
}

std::vector<DenseVariant> dense_variants() {
  using kit::min_plus::MinPlusForm;
  std::vector<DenseVariant> variants = {tile_variant<int, 1, MinPlusForm::AddMin>(),
                                        tile_variant<int, 1, MinPlusForm::PairedMin3>(),
                                        tile_variant<float, 1, MinPlusForm::AddMin>(),
                                        tile_variant<float, 1, MinPlusForm::PairedMin3>()};
#if KIT_CUDA
  // The 128 tile stages 128 KB of operands: NVIDIA only (AMD's LDS is 64 KB per workgroup).
  variants.push_back(tile_variant<int, 2, MinPlusForm::AddMin>());
#endif
  return variants;
}

struct DenseTimes {
  double baseline_ms;
  std::vector<double> variant_ms;
  std::vector<unsigned long long> variant_mismatches;
};

// The classic baseline and each variant on the same random matrix, each checked against the
// baseline's result.
DenseTimes time_dense(int n, const std::vector<DenseVariant> &variants, int runs) {
  const std::size_t count = static_cast<std::size_t>(n) * n;
  kit::gpu::DeviceArray<int> pristine(count), work(count), baseline(count);
  random_matrix_kernel<<<grid_for_device(), 256>>>(pristine.get(), n,
                                                   kit::derive_seed(2026, std::to_string(n)));
  GPU_CHECK_LAUNCH("random_matrix_kernel");
  kit::gpu::DeviceArray<float> pristine_float, work_float;
  if (std::any_of(variants.begin(), variants.end(),
                  [](const DenseVariant &v) { return v.distance == Distance::Float; })) {
    pristine_float = kit::gpu::DeviceArray<float>(count);
    work_float = kit::gpu::DeviceArray<float>(count);
    to_float_kernel<<<grid_for_device(), 256>>>(pristine.get(), pristine_float.get(), count);
    GPU_CHECK_LAUNCH("to_float_kernel");
  }
  auto restore = [&] {
    GPU_CHECK(cudaMemcpy(work.get(), pristine.get(), pristine.bytes(), cudaMemcpyDeviceToDevice));
  };
  auto restore_float = [&] {
    GPU_CHECK(cudaMemcpy(work_float.get(), pristine_float.get(), pristine_float.bytes(),
                         cudaMemcpyDeviceToDevice));
  };
  DenseTimes t;
  t.baseline_ms = median_ms(runs, restore, [&] { classic_floyd_warshall(work.get(), n, nullptr); });
  GPU_CHECK(cudaMemcpy(baseline.get(), work.get(), work.bytes(), cudaMemcpyDeviceToDevice));
  for (const DenseVariant &v : variants) {
    if (v.distance == Distance::Int) {
      t.variant_ms.push_back(median_ms(runs, restore, [&] { v.run(work.get(), n); }));
      t.variant_mismatches.push_back(count_mismatches(work.get(), n, baseline.get(), n, n, n));
    } else {
      t.variant_ms.push_back(median_ms(runs, restore_float, [&] { v.run(work_float.get(), n); }));
      t.variant_mismatches.push_back(
          count_mismatches(work_float.get(), n, baseline.get(), n, n, n));
    }
  }
  return t;
}

// The production kernel: what apsp_solve runs on this device (ApspTuning).
DenseVariant production_variant() {
  return {"kit", Distance::Int, apsp::dense_tile(), [] { return apsp::dense_fits_device(); },
          [](void *d, int n) { apsp::dense_floyd_warshall(static_cast<int *>(d), n, nullptr); }};
}

bool dense_section(int max_n) {
  const char *form = kit::gpu::with_tuning<apsp::ApspTuning>(
      [](auto tuning) { return kit::min_plus::form_name(decltype(tuning)::kDenseForm); });
  std::printf("\n## Dense: kit (tile %d, %s) vs classic blocked-32 baseline, random dense graphs\n",
              apsp::dense_tile(), form);
  std::printf("| n | baseline ms | kit ms | speedup | baseline relax/s | kit relax/s | check |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  bool ok = true;
  for (int n : {1024, 2048, 4096, 8192, 16384}) {
    if (n > max_n)
      break;
    const DenseTimes t = time_dense(n, {production_variant()}, runs_for(n));
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
  std::vector<DenseVariant> variants;
  for (DenseVariant &v : dense_variants())
    if (v.fits())
      variants.push_back(std::move(v));
  std::printf("\n## Dense variants (ratio = baseline / variant, same run)\n");
  std::printf("| n | tile | variant | ms | relax/s | ratio | check |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  bool ok = true;
  for (int n : {2048, 4096, 8192}) {
    if (n > max_n)
      break;
    const DenseTimes t = time_dense(n, variants, runs_for(n));
    const double relaxations = static_cast<double>(n) * n * n;
    std::printf("| %d | 32 | classic int | %.2f | %.3g | 1.00x | reference |\n", n, t.baseline_ms,
                relaxations / (t.baseline_ms * 1e-3));
    for (std::size_t i = 0; i < variants.size(); ++i) {
      const bool exact = t.variant_mismatches[i] == 0;
      ok = ok && exact;
      std::printf("| %d | %d | %s | %.2f | %.3g | %.2fx | %s |\n", n, variants[i].tile,
                  variants[i].name.c_str(), t.variant_ms[i], relaxations / (t.variant_ms[i] * 1e-3),
                  t.baseline_ms / t.variant_ms[i], exact ? "exact" : "MISMATCH");
    }
    std::fflush(stdout);
  }
  return ok;
}

// ------------------------------------------------------------------------------------------
// Graphs for the path comparisons.
// ------------------------------------------------------------------------------------------

int random_weight(kit::Rng &rng) { return static_cast<int>(rng.uniform_int(0, kApspMaxWeight)); }

Graph grid_graph(int side, kit::Rng &rng) {
  Graph g;
  g.vertices = side * side;
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) {
      const int v = r * side + c;
      if (c + 1 < side)
        g.edges.push_back({v, v + 1, random_weight(rng)});
      if (r + 1 < side)
        g.edges.push_back({v, v + side, random_weight(rng)});
    }
  return g;
}

Graph random_graph(int vertices, std::size_t edges, kit::Rng &rng) {
  Graph g;
  g.vertices = vertices;
  g.edges.reserve(edges);
  for (std::size_t i = 0; i < edges; ++i) {
    const int src = static_cast<int>(rng.uniform_int(0, vertices - 1));
    int dst = static_cast<int>(rng.uniform_int(0, vertices - 1));
    if (dst == src)
      dst = (dst + 1) % vertices;
    g.edges.push_back({src, dst, random_weight(rng)});
  }
  return g;
}

Graph chain_graph(int vertices, kit::Rng &rng) {
  Graph g;
  g.vertices = vertices;
  for (int i = 0; i + 1 < vertices; ++i)
    g.edges.push_back({i, i + 1, random_weight(rng)});
  return g;
}

// ------------------------------------------------------------------------------------------
// Dense path against sparse path.
// ------------------------------------------------------------------------------------------

struct PathTimes {
  double dense_ms;
  double sparse_ms[2]; // shared state, global state (negative: not possible)
  unsigned long long mismatches;
  double best_sparse_ms() const {
    return sparse_ms[0] < 0 ? sparse_ms[1] : std::min(sparse_ms[0], sparse_ms[1]);
  }
};

// Kernel time of each path: dense = Floyd-Warshall on the built matrix (the build is redone,
// untimed, before each run); sparse = all V rows in one launch (CSR upload excluded).
PathTimes time_paths(const Graph &g, int runs, double known_dense_ms = -1) {
  const int v = g.vertices;
  const int n = apsp::dense_padded_size(v, apsp::dense_tile());
  kit::gpu::DeviceArray<int> dense(static_cast<std::size_t>(n) * n);
  kit::gpu::DeviceArray<int> rows(static_cast<std::size_t>(v) * v);
  PathTimes t{};
  auto build = [&] { apsp::dense_build(g, dense.get(), n, nullptr); };
  auto floyd_warshall = [&] { apsp::dense_floyd_warshall(dense.get(), n, nullptr); };
  if (known_dense_ms >= 0) { // same V: the dense kernel's time does not depend on E
    build();
    floyd_warshall();
    t.dense_ms = known_dense_ms;
  } else {
    t.dense_ms = median_ms(runs, build, floyd_warshall);
  }
  const apsp::SparseState states[2] = {apsp::SparseState::Shared, apsp::SparseState::Global};
  for (int s = 0; s < 2; ++s) {
    if (states[s] == apsp::SparseState::Shared && !apsp::sparse_shared_state_fits(v)) {
      t.sparse_ms[s] = -1;
      continue;
    }
    apsp::SparseSolver solver(g, states[s]);
    auto poison = [&] { GPU_CHECK(cudaMemset(rows.get(), 0xA5, rows.bytes())); };
    t.sparse_ms[s] =
        median_ms(runs, poison, [&] { solver.compute_rows(0, v, rows.get(), nullptr); });
    t.mismatches += count_mismatches(rows.get(), v, dense.get(), n, v, v);
  }
  return t;
}

void print_path_row(const char *name, const Graph &g, const PathTimes &t) {
  char shared_ms[32];
  if (t.sparse_ms[0] < 0)
    std::snprintf(shared_ms, sizeof(shared_ms), "-");
  else
    std::snprintf(shared_ms, sizeof(shared_ms), "%.2f", t.sparse_ms[0]);
  std::printf("| %s | %d | %zu | %.2f | %s | %.2f | %.2f | %s | %s |\n", name, g.vertices,
              g.edges.size(), t.dense_ms, shared_ms, t.sparse_ms[1],
              t.dense_ms / t.best_sparse_ms(),
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
  kit::Rng rng(6400);
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
  kit::Rng rng(2026);
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
      if (t.best_sparse_ms() > 2 * t.dense_ms) // past the crossover: larger degrees only cost time
        break;
    }
  }
  return ok;
}

// ------------------------------------------------------------------------------------------
// Whole solver calls, wall clock: matrix build or CSR upload, compute, copy-back in row blocks
// through pinned buffers, and a sink that folds each row block into a checksum (vectorisable, so
// far faster than formatting: the time is what the formatting thread would wait for). Per-row
// sums make the total independent of how the solver splits rows into blocks; both paths must
// give the same checksum.
// ------------------------------------------------------------------------------------------
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

bool solve_section() {
  std::printf("\n## apsp solve (wall clock, sink = checksum; copy-back included)\n");
  std::printf("| graph | V | E | dense path ms | sparse path ms | rule picks | check |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  kit::Rng rng(77);
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
    std::printf("| %s | %d | %zu | %.1f | %.1f | %s | %s |\n", g.name, g.graph.vertices,
                g.graph.edges.size(), ms[0], ms[1],
                apsp::path_name(apsp::choose_path(g.graph.vertices, g.graph.edges.size())),
                same ? "same checksum" : "MISMATCH");
    std::fflush(stdout);
  }
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  const std::set<std::string> known = {"dense", "variants", "sparse", "rule", "solve", "all"};
  std::set<std::string> sections;
  std::size_t max_n = 16384;
  kit::bench::Options options("bench_apsp",
                              "the dense kernel against the classic blocked-32 Floyd-Warshall, "
                              "its variants, and the sparse path against the dense one");
  options.size("--max-n", &max_n, "largest n (or V) of the dense table and the rule sweep")
      .positional("[dense|variants|sparse|solve|rule|all]...", [&](const std::string &section) {
        if (!known.count(section))
          return false;
        sections.insert(section);
        return true;
      });
  options.parse(argc, argv);
  if (sections.empty())
    sections = {"dense", "variants", "sparse", "solve"};
  const auto wanted = [&](const char *section) {
    return sections.count(section) || sections.count("all");
  };
  const int largest = static_cast<int>(std::min<std::size_t>(max_n, 1 << 20));

  const cudaDeviceProp prop = kit::gpu::device_properties_or_exit("bench_apsp");
  std::printf("bench_apsp on %s (%d multiprocessors, tuning table %s)\n", prop.name,
              prop.multiProcessorCount, kit::gpu::arch_name(kit::gpu::device_arch()));
  bool ok = true;
  if (wanted("dense"))
    ok = dense_section(largest) && ok;
  if (wanted("variants"))
    ok = variants_section(largest) && ok;
  if (wanted("sparse"))
    ok = sparse_section() && ok;
  if (wanted("rule"))
    ok = rule_section(largest) && ok;
  if (wanted("solve"))
    ok = solve_section() && ok;
  std::printf("\nbench_apsp: %s\n", ok ? "all results exact" : "MISMATCHES FOUND");
  return ok ? 0 : 1;
}
