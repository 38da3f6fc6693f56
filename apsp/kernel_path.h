// apsp on the GPU: the two paths and the rule that picks one.
#pragma once

#include "graph.h"

#include <cstddef>

namespace apsp {

enum class Path { Dense, Sparse };

const char *path_name(Path path);

// The tuned rule (tuning.h, PathRule): which path is faster for V vertices and E edges on this
// device (the sparse search's speed depends on whether its state fits in shared memory).
Path choose_path(int vertices, std::size_t edges);

// The path apsp_solve takes: KIT_APSP_PATH=dense|sparse forces one (exit 2 on any other value
// except auto); otherwise choose_path, falling back to the sparse path when the dense tiles or
// matrix do not fit the device.
Path selected_path(const Graph &graph);

// Runs one path regardless of the rule (tests run both on the same inputs).
void solve_with_path(const Graph &graph, const RowBlockSink &sink, Path path);

} // namespace apsp
