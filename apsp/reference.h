// CPU reference: exact all-pairs shortest paths, rows delivered in order through `sink`.
#pragma once

#include "graph.h"

void apsp_reference(const Graph &graph, const RowBlockSink &sink);
