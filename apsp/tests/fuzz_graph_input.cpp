// libFuzzer target for the apsp reader and, on small graphs, the CPU reference. Any bytes must
// either parse or raise InputError (never crash, hang or read out of bounds), alike for every
// chunking; the edge storage must follow the file, not the header (the test runs with a small
// -malloc_limit_mb, and a header may announce any E); and a graph that parses must be answered
// like the definition: self-loops change nothing, duplicates count with their smallest weight.
#include "graph_input.h"
#include "io/input_error.h"
#include "plain_floyd_warshall.h"
#include "reference.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// Graphs up to this size also go through apsp_reference (both algorithms, by density).
constexpr int kMaxSolvedVertices = 70;

struct Parsed {
  std::string error; // empty when the text parsed
  Graph graph;
  kit::io::TrailingTokens trailing;
};

Parsed parse(const std::string &text, kit::ThreadPool &pool, std::size_t chunks) {
  Parsed parsed;
  try {
    parsed.graph =
        apsp::read_graph(text.data(), text.data() + text.size(), pool, &parsed.trailing, chunks);
  } catch (const kit::io::InputError &e) {
    parsed.error = "error at " + std::to_string(e.offset()) + ": " + e.what();
  }
  return parsed;
}

std::string describe(const Parsed &parsed) {
  if (!parsed.error.empty())
    return parsed.error;
  std::string out = "V " + std::to_string(parsed.graph.vertices) + " edges";
  for (const Edge &e : parsed.graph.edges)
    out +=
        " " + std::to_string(e.src) + ">" + std::to_string(e.dst) + ":" + std::to_string(e.weight);
  return out + " trailing " + std::to_string(parsed.trailing.count) + " at " +
         std::to_string(parsed.trailing.offset) + " " + parsed.trailing.first;
}

std::vector<int> reference_distances(const Graph &g) {
  const std::size_t n = static_cast<std::size_t>(g.vertices);
  std::vector<int> d(n * n, -1);
  int next_row = 0;
  apsp_reference(g, [&](int first, int count, const int *rows) {
    if (first != next_row)
      std::abort(); // rows out of order
    std::copy(rows, rows + static_cast<std::size_t>(count) * n, d.begin() + first * n);
    next_row = first + count;
  });
  if (next_row != g.vertices)
    std::abort();
  return d;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  static kit::ThreadPool pool(3);
  const std::string text(reinterpret_cast<const char *>(data), size);
  const Parsed whole = parse(text, pool, 1);
  if (describe(whole) != describe(parse(text, pool, size % 13 + 2)))
    std::abort();
  if (!whole.error.empty())
    return 0;
  // Every edge took at least 6 bytes of the file, after a header of at least 3 ("1 0").
  const Graph &graph = whole.graph;
  if (6 * graph.edges.size() + 3 > size)
    std::abort();
  if (graph.vertices <= kMaxSolvedVertices &&
      reference_distances(graph) != plain_floyd_warshall(graph))
    std::abort();
  return 0;
}
