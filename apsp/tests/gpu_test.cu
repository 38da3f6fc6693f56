// apsp on the GPU against the CPU reference, exact: both paths forced on the same inputs, every
// dense tile variant (int and float distances) and both sparse state layouts on device buffers,
// and apsp_solve itself. Graph families: random (sparse and dense, with duplicate pairs),
// zero-heavy weights, several components with isolated vertices, complete graphs, chains, grids
// and no edges at all, on V = 2 .. 300 around the tile sizes (63/64/65, 127/128/129, 255/256/257)
// plus one V = 1025.
#include "kernel_dense.h"
#include "kernel_path.h"
#include "kernel_sparse.h"
#include "primitives/floyd_warshall_tiles.h"
#include "reference.h"
#include "solve.h"

#include "gpu/check.h"
#include "testing/case_selection.h"
#include "testing/random.h"
#include "testing/test_support.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace {

constexpr int kPoison = 0x5A5A5A5A;

struct Case {
  std::string name;
  Graph graph;
};

int uniform(kit::Rng &rng, int lo, int hi) { return static_cast<int>(rng.uniform_int(lo, hi)); }

Edge random_edge(kit::Rng &rng, int vertices, int max_weight) {
  int src = uniform(rng, 0, vertices - 1), dst = uniform(rng, 0, vertices - 1);
  while (vertices > 1 && dst == src)
    dst = uniform(rng, 0, vertices - 1);
  return {src, dst, uniform(rng, 0, max_weight)};
}

// Random directed graph; about one edge in eight repeats an earlier pair with a new weight.
Graph random_graph(int vertices, std::size_t edges, int max_weight, kit::Rng &rng) {
  Graph g;
  g.vertices = vertices;
  for (std::size_t i = 0; i < edges; ++i) {
    if (i > 0 && rng.next() % 8 == 0) {
      Edge again = g.edges[rng.next() % g.edges.size()];
      again.weight = uniform(rng, 0, max_weight);
      g.edges.push_back(again);
    } else {
      g.edges.push_back(random_edge(rng, vertices, max_weight));
    }
  }
  return g;
}

Graph complete_graph(int vertices, kit::Rng &rng) {
  Graph g;
  g.vertices = vertices;
  for (int i = 0; i < vertices; ++i)
    for (int j = 0; j < vertices; ++j)
      if (i != j)
        g.edges.push_back({i, j, uniform(rng, 0, kApspMaxWeight)});
  return g;
}

// 0 -> 1 -> ... -> V-1, plus a few long forward jumps that are never shorter than the chain.
Graph chain_graph(int vertices, kit::Rng &rng) {
  Graph g;
  g.vertices = vertices;
  for (int i = 0; i + 1 < vertices; ++i)
    g.edges.push_back({i, i + 1, uniform(rng, 0, 9)});
  for (int i = 0; i + 3 < vertices; i += 7)
    g.edges.push_back({i, i + 3, 100});
  return g;
}

// rows x cols grid with right and down edges, like the 80 x 80 sample.
Graph grid_graph(int rows, int cols, kit::Rng &rng) {
  Graph g;
  g.vertices = rows * cols;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int v = r * cols + c;
      if (c + 1 < cols)
        g.edges.push_back({v, v + 1, uniform(rng, 0, kApspMaxWeight)});
      if (r + 1 < rows)
        g.edges.push_back({v, v + cols, uniform(rng, 0, kApspMaxWeight)});
    }
  return g;
}

// Three random components on disjoint vertex ranges plus isolated vertices at the end.
Graph components_graph(int vertices, kit::Rng &rng) {
  Graph g;
  g.vertices = vertices;
  const int isolated = std::max(1, vertices / 10);
  const int used = vertices - isolated;
  const int parts = std::min(3, used);
  for (int p = 0; p < parts; ++p) {
    const int first = used * p / parts, last = used * (p + 1) / parts;
    const int size = last - first;
    if (size < 2)
      continue;
    for (int i = 0; i < 3 * size; ++i) {
      Edge e = random_edge(rng, size, kApspMaxWeight);
      g.edges.push_back({e.src + first, e.dst + first, e.weight});
    }
  }
  return g;
}

std::vector<Case> make_cases() {
  kit::Rng rng(20261121);
  std::vector<Case> cases;
  auto add = [&](std::string name, Graph g) {
    name += " V=" + std::to_string(g.vertices) + " E=" + std::to_string(g.edges.size());
    cases.push_back({name, std::move(g)});
  };
  const int sizes[] = {2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200, 255, 256, 257, 300};
  for (int v : sizes) {
    const std::size_t vv = static_cast<std::size_t>(v) * v;
    add("random sparse", random_graph(v, 3 * static_cast<std::size_t>(v), kApspMaxWeight, rng));
    add("random dense", random_graph(v, vv / 4 + 1, kApspMaxWeight, rng));
    add("zero-heavy weights", random_graph(v, 2 * static_cast<std::size_t>(v), 2, rng));
    add("components", components_graph(v, rng));
    add("chain", chain_graph(v, rng));
    Graph empty;
    empty.vertices = v;
    add("no edges", std::move(empty));
  }
  for (int v : {2, 5, 33, 64, 65, 129})
    add("complete", complete_graph(v, rng));
  add("grid 1x2", grid_graph(1, 2, rng));
  add("grid 8x8", grid_graph(8, 8, rng));
  add("grid 5x13", grid_graph(5, 13, rng));
  add("grid 17x17", grid_graph(17, 17, rng));
  add("grid 15x20", grid_graph(15, 20, rng));
  add("random sparse", random_graph(1025, 4 * 1025, kApspMaxWeight, rng));
  add("random dense", random_graph(1025, 1025 * 1025 / 8, kApspMaxWeight, rng));
  return cases;
}

// Collects the sink's rows into a V x V matrix, checking that they arrive in order and once.
class RowCollector {
public:
  explicit RowCollector(int vertices)
      : vertices_(vertices), rows_(static_cast<std::size_t>(vertices) * vertices, kPoison) {}
  RowBlockSink sink() {
    return [this](int first_row, int row_count, const int *rows) {
      if (first_row != next_row_ || row_count <= 0 || first_row + row_count > vertices_)
        in_order_ = false;
      else
        std::copy(rows, rows + static_cast<std::size_t>(row_count) * vertices_,
                  rows_.begin() + static_cast<std::size_t>(first_row) * vertices_);
      next_row_ = first_row + row_count;
    };
  }
  bool complete_and_in_order() const { return in_order_ && next_row_ == vertices_; }
  const std::vector<int> &rows() const { return rows_; }

private:
  int vertices_;
  int next_row_ = 0;
  bool in_order_ = true;
  std::vector<int> rows_;
};

std::vector<int> reference_rows(const Graph &graph) {
  RowCollector collector(graph.vertices);
  apsp_reference(graph, collector.sink());
  return collector.rows();
}

void check_path(kit::test::Checker &check, const Case &c, const std::vector<int> &want,
                const char *label, const std::function<void(const RowBlockSink &)> &solve) {
  RowCollector collector(c.graph.vertices);
  solve(collector.sink());
  const std::string what = c.name + ", " + label;
  check.expect(collector.complete_and_in_order(), (what + ": rows complete and in order").c_str());
  check.expect_equal(collector.rows(), want, what.c_str());
}

// The int matrix as floats (INF becomes 2^30, still far above every path length).
__global__ void to_float_kernel(const int *in, float *out, std::size_t count) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<float>(in[i]);
}

// Path lengths are integers far below 2^24, exact in float; 2^30 and above is INF.
int as_distance(int v) { return v; }
int as_distance(float v) { return v >= 1073741824.0f ? kApspInf : static_cast<int>(v); }

// A tile variant of the dense kernel on a device matrix: the built graph (as T), Floyd-Warshall,
// the V x V corner back as ints.
template <class T, int R, kit::min_plus::MinPlusForm F>
std::vector<int> tile_variant_rows(const Graph &g) {
  const int v = g.vertices;
  const int n = apsp::dense_padded_size(v, kit::min_plus::TileShape<T, R>::kTile);
  const std::size_t count = static_cast<std::size_t>(n) * n;
  kit::test::DeviceBuffer<int> built(count);
  apsp::dense_build(g, built.get(), n, nullptr);
  kit::test::DeviceBuffer<T> d(count);
  if constexpr (std::is_same<T, int>::value) {
    GPU_CHECK(cudaMemcpy(d.get(), built.get(), built.bytes(), cudaMemcpyDeviceToDevice));
  } else {
    to_float_kernel<<<64, 256>>>(built.get(), d.get(), count);
    GPU_CHECK_LAUNCH("to_float_kernel");
  }
  kit::min_plus::floyd_warshall_tiles<T, R, F>(d.get(), n, nullptr);
  GPU_CHECK(cudaDeviceSynchronize());
  const std::vector<T> full = d.download();
  std::vector<int> rows(static_cast<std::size_t>(v) * v, kPoison);
  for (int i = 0; i < v; ++i)
    for (int j = 0; j < v; ++j)
      rows[static_cast<std::size_t>(i) * v + j] =
          as_distance(full[static_cast<std::size_t>(i) * n + j]);
  return rows;
}

struct TileVariant {
  const char *name;
  std::function<bool()> fits;
  std::function<std::vector<int>(const Graph &)> rows;
};

template <class T, int R, kit::min_plus::MinPlusForm F> TileVariant tile_variant(const char *name) {
  return {name, [] { return kit::min_plus::floyd_warshall_tiles_fit_device<T, R>(); },
          [](const Graph &g) { return tile_variant_rows<T, R, F>(g); }};
}

// Every tile variant the benchmark compares, the production ones among them.
std::vector<TileVariant> tile_variants() {
  using kit::min_plus::MinPlusForm;
  std::vector<TileVariant> variants = {
      tile_variant<int, 1, MinPlusForm::AddMin>("int tile 64 add_min"),
      tile_variant<int, 1, MinPlusForm::PairedMin3>("int tile 64 paired_min3"),
      tile_variant<float, 1, MinPlusForm::AddMin>("float tile 64 add_min"),
      tile_variant<float, 1, MinPlusForm::PairedMin3>("float tile 64 paired_min3")};
#if KIT_CUDA
  variants.push_back(tile_variant<int, 2, MinPlusForm::AddMin>("int tile 128 add_min"));
#endif
  return variants;
}

// The sparse kernel with a given state layout, rows computed in two uneven launches.
std::vector<int> sparse_state_rows(const Graph &graph, apsp::SparseState state) {
  const int v = graph.vertices;
  kit::test::DeviceBuffer<int> out(static_cast<std::size_t>(v) * v);
  apsp::SparseSolver solver(graph, state);
  const int split = v / 3;
  solver.compute_rows(0, split, out.get(), nullptr);
  solver.compute_rows(split, v - split, out.get() + static_cast<std::size_t>(split) * v, nullptr);
  GPU_CHECK(cudaDeviceSynchronize());
  return out.download();
}

void check_path_selection(kit::test::Checker &check) {
  Graph g;
  g.vertices = 100;
  setenv("KIT_APSP_PATH", "dense", 1);
  check.expect(apsp::selected_path(g) == apsp::Path::Dense, "KIT_APSP_PATH=dense forces dense");
  setenv("KIT_APSP_PATH", "sparse", 1);
  check.expect(apsp::selected_path(g) == apsp::Path::Sparse, "KIT_APSP_PATH=sparse forces sparse");
  setenv("KIT_APSP_PATH", "auto", 1);
  check.expect(apsp::selected_path(g) == apsp::choose_path(100, 0), "KIT_APSP_PATH=auto: rule");
  unsetenv("KIT_APSP_PATH");
  check.expect(apsp::choose_path(6400, 12640) == apsp::Path::Sparse, "rule: 80x80 grid sparse");
  check.expect(apsp::choose_path(2048, std::size_t{2048} * 2047) == apsp::Path::Dense,
               "rule: complete graph dense");
  check.expect(apsp::choose_path(4096, std::size_t{4096} * 8) == apsp::Path::Sparse,
               "rule: V = 4096, degree 8 sparse");
  check.expect(apsp::choose_path(4096, std::size_t{4096} * 32) == apsp::Path::Dense,
               "rule: V = 4096, degree 32 dense");
}

} // namespace

int main() {
  kit::test::begin_gpu_test("apsp_gpu_test", kit::test::Cases::Selectable);
  kit::test::Checker check;
  kit::test::CaseSelection selection;
  if (selection.runs("path selection rule"))
    check_path_selection(check);

  const std::vector<TileVariant> variants = tile_variants();
  int cases = 0;
  for (const Case &c : make_cases()) {
    if (!selection.runs(c.name))
      continue;
    const auto start = std::chrono::steady_clock::now();
    const int failures_before = check.failures();
    const std::vector<int> want = reference_rows(c.graph);
    check_path(check, c, want, "dense path", [&](const RowBlockSink &s) {
      apsp::solve_with_path(c.graph, s, apsp::Path::Dense);
    });
    check_path(check, c, want, "sparse path", [&](const RowBlockSink &s) {
      apsp::solve_with_path(c.graph, s, apsp::Path::Sparse);
    });
    check_path(check, c, want, "apsp_solve",
               [&](const RowBlockSink &s) { apsp_solve(c.graph, s); });
    // Every kernel variant on the sizes around the tiles and on one of each family.
    const int v = c.graph.vertices;
    const bool variant_size = v == 63 || v == 65 || v == 127 || v == 129 || v == 255 || v == 257 ||
                              v == 1025 || c.name.rfind("grid", 0) == 0 ||
                              c.name.rfind("complete", 0) == 0;
    if (variant_size) {
      for (const TileVariant &variant : variants) {
        if (!variant.fits())
          continue;
        check.expect_equal(variant.rows(c.graph), want, (c.name + ", " + variant.name).c_str());
      }
      check.expect_equal(sparse_state_rows(c.graph, apsp::SparseState::Global), want,
                         (c.name + ", sparse global state").c_str());
      if (apsp::sparse_shared_state_fits(v))
        check.expect_equal(sparse_state_rows(c.graph, apsp::SparseState::Shared), want,
                           (c.name + ", sparse shared state").c_str());
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s %s%s (%.2f s)\n", check.failures() == failures_before ? "PASS" : "FAIL",
                c.name.c_str(), variant_size ? " [every tile variant]" : "", seconds);
    ++cases;
  }
  std::printf("apsp_gpu_test: %d graphs\n", cases);
  return check.finish("apsp_gpu_test");
}
