// apsp_reference (Dijkstra and blocked Floyd-Warshall paths) against a plain triple loop, on
// awkward sizes around the 64-vertex tile and densities on both sides of the switch point.
#include "reference.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace {

std::vector<int> plain_floyd_warshall(const Graph &g) {
  const std::size_t n = static_cast<std::size_t>(g.vertices);
  std::vector<int> d(n * n, kApspInf);
  for (std::size_t i = 0; i < n; ++i)
    d[i * n + i] = 0;
  for (const Edge &e : g.edges)
    d[e.src * n + e.dst] = std::min(d[e.src * n + e.dst], e.weight);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        d[i * n + j] = std::min(d[i * n + j], d[i * n + k] + d[k * n + j]);
  return d;
}

std::vector<int> collect(const Graph &g) {
  const std::size_t n = static_cast<std::size_t>(g.vertices);
  std::vector<int> rows(n * n, -7); // poison: every cell must be delivered
  int next_row = 0;
  apsp_reference(g, [&](int first, int count, const int *block) {
    EXPECT_EQ(first, next_row) << "rows out of order";
    next_row = first + count;
    std::copy(block, block + static_cast<std::size_t>(count) * n, rows.begin() + first * n);
  });
  EXPECT_EQ(next_row, g.vertices);
  return rows;
}

TEST(ApspReference, MatchesPlainFloydWarshall) {
  std::mt19937 rng(99);
  for (int v : {1, 2, 3, 31, 63, 64, 65, 130}) {
    for (double density : {0.0, 0.02, 0.1, 0.5, 1.0}) {
      Graph g;
      g.vertices = v;
      std::uniform_int_distribution<int> weight(0, kApspMaxWeight), vertex(0, v - 1);
      const long long edges = static_cast<long long>(density * v * v);
      for (long long e = 0; e < edges; ++e) // duplicates and self-loops included on purpose
        g.edges.push_back(
            Edge{vertex(rng), vertex(rng), e % 5 == 0 ? weight(rng) % 3 : weight(rng)});
      EXPECT_EQ(collect(g), plain_floyd_warshall(g)) << "V = " << v << " density " << density;
    }
  }
}

} // namespace
