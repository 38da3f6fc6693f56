// The definition the apsp tests check against: Floyd-Warshall's triple loop on the matrix of
// smallest edge weights (kApspInf where there is no edge, 0 on the diagonal), row-major V x V.
#pragma once

#include "graph.h"

#include <algorithm>
#include <cstddef>
#include <vector>

inline std::vector<int> plain_floyd_warshall(const Graph &g) {
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
