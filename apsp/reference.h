// CPU reference: exact all-pairs shortest paths, rows delivered in order through `sink`.
#pragma once

#include "graph.h"

#include <cstddef>
#include <cstdint>

// The reference's two exact algorithms (reference.cpp).
enum class ApspReferenceAlgorithm { floyd_warshall, dijkstra };

// Which one apsp_reference runs: Floyd-Warshall for dense graphs (E >= V^2 / 16, measured) when
// its padded V x V matrix fits in `usable_bytes` of host memory; otherwise Dijkstra, which holds
// only a few blocks of rows at a time (slower on dense graphs, but exact all the same).
ApspReferenceAlgorithm choose_reference_algorithm(int vertices, std::size_t edges,
                                                  std::uint64_t usable_bytes);

// Throws kit::HostMemoryError (host_memory.h), naming the bytes needed, before any work when the
// chosen algorithm's memory exceeds kit::usable_host_memory().
void apsp_reference(const Graph &graph, const RowBlockSink &sink);
