// apsp: the graph as read from the input, and how results leave a solver.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

struct Edge {
  int src;
  int dst;
  int weight;
};

struct Graph {
  int vertices = 0;
  std::vector<Edge> edges; // may hold duplicate (src, dst) pairs: the smallest weight counts
};

// Distance of an unreachable vertex: 2^30 - 1, so that INF + INF still fits in int32.
constexpr int kApspInf = 1073741823;

// Largest edge weight of the contest (0 <= w <= 1000). With at most 40,000 vertices every finite
// distance stays below 4e7, far from kApspInf; the input reader rejects heavier edges.
constexpr int kApspMaxWeight = 1000;
// Largest vertex count of the contest.
constexpr int kApspMaxVertices = 40000;
// Largest edge count a header may announce. Only absurd headers reach it (the file bounds the
// real count: each edge takes at least 6 bytes, so 10^18 edges need 6 EB); it keeps 3E, the count
// of edge numbers, far from overflow and within what the header parser reads exactly.
constexpr std::int64_t kApspMaxEdgeCount = 1000000000000000000;

// Receives the distance matrix in row blocks, in increasing row order, each block `row_count`
// full rows of `vertices` ints (row = source vertex). Solvers call it as rows become final so
// that output formatting overlaps the rest of the computation and the copy-back.
using RowBlockSink = std::function<void(int first_row, int row_count, const int *rows)>;
