#include "graph_input.h"

#include "io/text_parse.h"

#include <algorithm>
#include <string>

namespace apsp {
namespace {

// Token 3e + f of the edge list is field f of edge e; each field has its own valid range.
struct EdgeFieldConsumer {
  Edge *edges;
  std::size_t edge_count;
  int vertices;

  bool accept(std::size_t index, int value) const {
    Edge &edge = edges[index / 3];
    switch (index % 3) {
    case 0:
      edge.src = value;
      return value >= 0 && value < vertices;
    case 1:
      edge.dst = value;
      return value >= 0 && value < vertices;
    default:
      edge.weight = value;
      return value >= 0 && value <= kApspMaxWeight;
    }
  }
  std::string item(std::size_t index) const {
    static const char *const kField[] = {"source vertex", "destination vertex", "weight"};
    return "the " + std::string(kField[index % 3]) + " of edge " + std::to_string(index / 3 + 1) +
           " of " + std::to_string(edge_count);
  }
  std::string expected(std::size_t index) const {
    if (index % 3 == 2)
      return "a weight in [0, " + std::to_string(kApspMaxWeight) + "]";
    return "a vertex id in [0, " + std::to_string(vertices) + ")";
  }
};

} // namespace

GraphHeader read_graph_header(const char *text, const char *end) {
  const char *cursor = text;
  const auto vertices =
      kit::io::parse_header_integer(text, end, &cursor, "the vertex count V", 1, kApspMaxVertices);
  const auto edges =
      kit::io::parse_header_integer(text, end, &cursor, "the edge count E", 0, kApspMaxEdgeCount);
  return GraphHeader{static_cast<int>(vertices), static_cast<std::size_t>(edges), cursor};
}

Graph read_graph_edges(const char *text, const char *end, const GraphHeader &header,
                       kit::ThreadPool &pool, kit::io::TrailingTokens *trailing,
                       std::size_t chunk_count) {
  Graph graph;
  graph.vertices = header.vertices;
  // Storage for the edges the rest of the file can touch, at most E: the consumer only sees the
  // tokens that exist (a partial last edge included, hence the rounding up), and a file with
  // fewer than 3E numbers fails in parse_values. So the edge list takes about twice the file's
  // size at most (12 bytes per edge of 6 bytes or more), whatever E says.
  const std::size_t storable = (kit::io::max_tokens_after(header.edge_list, end) + 2) / 3;
  graph.edges.resize(std::min(header.edges, storable));
  EdgeFieldConsumer consumer{graph.edges.data(), header.edges, graph.vertices};
  const kit::io::TrailingTokens after_edges = kit::io::parse_values<kit::io::Int32Values>(
      text, header.edge_list, end, 3 * header.edges, "edge number", consumer, pool, chunk_count);
  if (trailing)
    *trailing = after_edges;
  return graph; // complete: the parse found all 3E numbers, so E <= storable
}

Graph read_graph(const char *text, const char *end, kit::ThreadPool &pool,
                 kit::io::TrailingTokens *trailing, std::size_t chunk_count) {
  return read_graph_edges(text, end, read_graph_header(text, end), pool, trailing, chunk_count);
}

} // namespace apsp
