// apsp, sparse path: one exact single-source search per vertex, all sources in parallel on the
// GPU (one source per thread block at a time), rows written straight into device memory.
#pragma once

#include "graph.h"

#include "gpu/launch.h"
#include "gpu/resources.h"
#include "gpu/vendor.h"

#include <cstddef>

namespace apsp {

// Where a block keeps its tentative distances and queue marks while it searches.
enum class SparseState {
  Auto,   // shared memory when 2 * V ints fit in one block's shared memory, else global
  Shared, // shared memory (fails when V is too large for the device)
  Global, // the output row itself and a per-block scratch array in global memory
};

// Whether 2 * V ints (the Auto choice of the shared state) fit in one block's shared memory.
bool sparse_shared_state_fits(int vertices);

// Blocks of the shared-state search one multiprocessor holds at once (0 when it does not fit).
int sparse_shared_state_blocks_per_sm(int vertices);

// The graph in CSR form on the device plus per-block scratch; computes rows on request.
class SparseSolver {
public:
  SparseSolver(const Graph &graph, SparseState state = SparseState::Auto);

  // Distances from sources first .. first + count - 1 into out (count rows of V ints, pitch V),
  // asynchronous on `stream`. Calls on one solver must not overlap in time (shared scratch).
  void compute_rows(int first, int count, int *out, cudaStream_t stream);

  bool shared_state() const { return shared_state_; }
  // Blocks the device keeps resident at once (one source each).
  int resident_blocks() const { return resident_blocks_; }

private:
  int vertices_;
  bool shared_state_;
  int resident_blocks_ = 0;
  std::size_t shared_bytes_ = 0;
  kit::gpu::DeviceArray<int> first_arc_; // vertices + 1 offsets into arcs_ (CSR)
  kit::gpu::DeviceArray<int2> arcs_;     // {destination, weight}
  kit::gpu::DeviceArray<int> queues_;    // two vertex queues per resident block
  kit::gpu::DeviceArray<int> marks_;     // global state: a queue mark per vertex and block
  kit::gpu::DeviceArray<int> next_source_;
};

// The whole sparse path: rows are computed in batches and streamed to the sink while the next
// batch is being computed.
void solve_sparse(const Graph &graph, const RowBlockSink &sink);

// Loads the sparse path's kernel code (GPU warm-up).
void preload_sparse_code();

} // namespace apsp
