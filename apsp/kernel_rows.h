// apsp: hands finished distance rows from device memory to the RowBlockSink in chunks, through
// two pinned host buffers, so that the copy of one chunk overlaps the sink's formatting of the
// previous one.
#pragma once

#include "graph.h"

#include "gpu/resources.h"
#include "gpu/vendor.h"

#include <cstddef>

namespace apsp {

class RowStreamer {
public:
  // `max_rows`: the most rows one deliver() call will pass (sizes the chunks for small graphs).
  RowStreamer(int vertices, int max_rows);

  // Delivers rows [first_row, first_row + row_count): row r lies at d_rows + (r - first_row) *
  // pitch ints in device memory once `ready` has completed (nullptr: already complete). Returns
  // after the sink has consumed every row, so the device rows may then be overwritten.
  void deliver(const int *d_rows, std::size_t pitch, int first_row, int row_count,
               cudaEvent_t ready, const RowBlockSink &sink);

private:
  int vertices_;
  int chunk_rows_;
  kit::gpu::PinnedArray<int> pinned_[2];
  kit::gpu::Event copied_[2];
  kit::gpu::Stream stream_;
};

} // namespace apsp
