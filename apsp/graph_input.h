// Reading an apsp input ("V E", then E lines "src dst w") into a Graph, in parallel.
#pragma once

#include "graph.h"
#include "io/text_parse.h"
#include "io/threads.h"

namespace apsp {

// The first line, "V E", and where the edge list starts.
struct GraphHeader {
  int vertices = 0;
  std::size_t edges = 0;
  const char *edge_list = nullptr;
};

// Reads V and E from the start of [text, end). Throws kit::io::InputError when V or E is not an
// integer, V is outside [1, kApspMaxVertices] or E outside [0, kApspMaxEdgeCount]. E is not
// bounded by V (duplicate edges and self-loops are allowed): the file bounds it, see below.
GraphHeader read_graph_header(const char *text, const char *end);

// Reads the 3E numbers after the header. Throws kit::io::InputError for fewer than 3E numbers, a
// non-numeric token, a vertex id outside [0, V), a weight outside [0, kApspMaxWeight]. Tokens
// after them are ignored and described in `*trailing` when given. Duplicate (src, dst) pairs and
// self-loops are kept (the solvers use the smallest weight; a self-loop never beats d(i,i) = 0).
// Memory is bounded by the file, not by E: at most as many edges are stored as the rest of the
// file can hold.
Graph read_graph_edges(const char *text, const char *end, const GraphHeader &header,
                       kit::ThreadPool &pool, kit::io::TrailingTokens *trailing = nullptr,
                       std::size_t chunk_count = 0);

// Both of the above: the whole text [text, end).
Graph read_graph(const char *text, const char *end, kit::ThreadPool &pool,
                 kit::io::TrailingTokens *trailing = nullptr, std::size_t chunk_count = 0);

} // namespace apsp
