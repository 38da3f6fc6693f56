// Reading an apsp input ("V E", then E lines "src dst w") into a Graph, in parallel.
#pragma once

#include "graph.h"
#include "text_parse.h"
#include "threads.h"

namespace apsp {

// Parses the whole text [text, end). Throws kit::io::InputError for: V or E not an integer, V
// outside [1, kApspMaxVertices], E outside [0, V*(V-1)], fewer than 3E numbers, a non-numeric
// token, a vertex id outside [0, V), a weight outside [0, kApspMaxWeight]. Tokens after the 3E
// numbers are ignored and described in
// `*trailing` when given. Duplicate (src, dst) pairs and self-loops are kept (the solvers use the
// smallest weight).
Graph read_graph(const char *text, const char *end, kit::ThreadPool &pool,
                 kit::io::TrailingTokens *trailing = nullptr, std::size_t chunk_count = 0);

} // namespace apsp
