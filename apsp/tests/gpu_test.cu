// apsp on the GPU against the CPU reference, exact: both paths forced on the same inputs, every
// dense kernel variant and both sparse state layouts on device buffers, and apsp_solve itself.
// Graph families: random (sparse and dense, with duplicate pairs), zero-heavy weights, several
// components with isolated vertices, complete graphs, chains, grids and no edges at all, on
// V = 2 .. 300 around the tile sizes (63/64/65, 127/128/129, 255/256/257) plus one V = 1025.
#include "kernel_dense.h"
#include "kernel_path.h"
#include "kernel_sparse.h"
#include "reference.h"
#include "solve.h"

#include "testing/test_support.h"

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int kPoison = 0x5A5A5A5A;

struct Case {
  std::string name;
  Graph graph;
};

Edge random_edge(std::mt19937 &rng, int vertices, int max_weight) {
  std::uniform_int_distribution<int> vertex(0, vertices - 1), weight(0, max_weight);
  int src = vertex(rng), dst = vertex(rng);
  while (vertices > 1 && dst == src)
    dst = vertex(rng);
  return {src, dst, weight(rng)};
}

// Random directed graph; about one edge in eight repeats an earlier pair with a new weight.
Graph random_graph(int vertices, std::size_t edges, int max_weight, std::mt19937 &rng) {
  Graph g;
  g.vertices = vertices;
  for (std::size_t i = 0; i < edges; ++i) {
    if (i > 0 && rng() % 8 == 0) {
      Edge again = g.edges[rng() % g.edges.size()];
      again.weight = static_cast<int>(rng() % (max_weight + 1));
      g.edges.push_back(again);
    } else {
      g.edges.push_back(random_edge(rng, vertices, max_weight));
    }
  }
  return g;
}

Graph complete_graph(int vertices, std::mt19937 &rng) {
  Graph g;
  g.vertices = vertices;
  for (int i = 0; i < vertices; ++i)
    for (int j = 0; j < vertices; ++j)
      if (i != j)
        g.edges.push_back({i, j, static_cast<int>(rng() % (kApspMaxWeight + 1))});
  return g;
}

// 0 -> 1 -> ... -> V-1, plus a few long forward jumps that are never shorter than the chain.
Graph chain_graph(int vertices, std::mt19937 &rng) {
  Graph g;
  g.vertices = vertices;
  for (int i = 0; i + 1 < vertices; ++i)
    g.edges.push_back({i, i + 1, static_cast<int>(rng() % 10)});
  for (int i = 0; i + 3 < vertices; i += 7)
    g.edges.push_back({i, i + 3, 100});
  return g;
}

// rows x cols grid with right and down edges, like the 80 x 80 sample.
Graph grid_graph(int rows, int cols, std::mt19937 &rng) {
  Graph g;
  g.vertices = rows * cols;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int v = r * cols + c;
      if (c + 1 < cols)
        g.edges.push_back({v, v + 1, static_cast<int>(rng() % (kApspMaxWeight + 1))});
      if (r + 1 < rows)
        g.edges.push_back({v, v + cols, static_cast<int>(rng() % (kApspMaxWeight + 1))});
    }
  return g;
}

// Three random components on disjoint vertex ranges plus isolated vertices at the end.
Graph components_graph(int vertices, std::mt19937 &rng) {
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
  std::mt19937 rng(20261121);
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

// A dense variant on a device matrix: build, Floyd-Warshall, copy the V x V corner back.
std::vector<int> dense_variant_rows(const Graph &graph, const apsp::DenseVariant &variant) {
  const int v = graph.vertices;
  const int n = apsp::dense_padded_size(v, variant.tile);
  kit::test::DeviceBuffer<int> d(static_cast<std::size_t>(n) * n);
  apsp::dense_build(graph, d.get(), n, nullptr);
  apsp::dense_floyd_warshall(d.get(), n, variant, nullptr);
  GPU_CHECK(cudaDeviceSynchronize());
  std::vector<int> full = d.download(), rows(static_cast<std::size_t>(v) * v, kPoison);
  for (int i = 0; i < v; ++i)
    std::copy(full.begin() + static_cast<std::size_t>(i) * n,
              full.begin() + static_cast<std::size_t>(i) * n + v,
              rows.begin() + static_cast<std::size_t>(i) * v);
  return rows;
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

bool shared_state_possible(int vertices) {
  return 2 * static_cast<std::size_t>(vertices) * sizeof(int) + 64 <=
         static_cast<std::size_t>(kit::gpu::max_shared_bytes_per_block());
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
  kit::test::skip_without_gpu("apsp_gpu_test");
  kit::test::Checker check;
  check_path_selection(check);

  const apsp::DenseVariant variants[] = {{64, apsp::MinPlusForm::AddMin},
                                         {64, apsp::MinPlusForm::PairedMin3},
                                         {64, apsp::MinPlusForm::Separate},
                                         {128, apsp::MinPlusForm::AddMin},
                                         {128, apsp::MinPlusForm::PairedMin3}};
  int cases = 0;
  for (const Case &c : make_cases()) {
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
      for (const apsp::DenseVariant &variant : variants) {
        if (!apsp::dense_variant_supported(variant))
          continue;
        const std::string what = c.name + ", dense tile " + std::to_string(variant.tile) + " " +
                                 apsp::form_name(variant.form);
        check.expect_equal(dense_variant_rows(c.graph, variant), want, what.c_str());
      }
      check.expect_equal(sparse_state_rows(c.graph, apsp::SparseState::Global), want,
                         (c.name + ", sparse global state").c_str());
      if (shared_state_possible(v))
        check.expect_equal(sparse_state_rows(c.graph, apsp::SparseState::Shared), want,
                           (c.name + ", sparse shared state").c_str());
    }
    ++cases;
  }
  std::printf("apsp_gpu_test: %d graphs\n", cases);
  return check.finish("apsp_gpu_test");
}
