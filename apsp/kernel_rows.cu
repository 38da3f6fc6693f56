#include "kernel_rows.h"

#include "gpu/check.h"
#include "gpu/tuning_dispatch.h"
#include "tuning.h"

#include <algorithm>

namespace apsp {

RowStreamer::RowStreamer(int vertices, int max_rows) : vertices_(vertices) {
  const std::size_t chunk_bytes = kit::gpu::with_tuning<ApspTuning>(
      [](auto tuning) { return decltype(tuning)::kOutputChunkBytes; });
  const std::size_t row_bytes = static_cast<std::size_t>(vertices) * sizeof(int);
  chunk_rows_ = static_cast<int>(std::max<std::size_t>(1, chunk_bytes / row_bytes));
  chunk_rows_ = std::max(1, std::min(chunk_rows_, max_rows));
  for (kit::gpu::PinnedArray<int> &buffer : pinned_)
    buffer = kit::gpu::PinnedArray<int>(static_cast<std::size_t>(vertices) * chunk_rows_);
}

void RowStreamer::deliver(const int *d_rows, std::size_t pitch, int first_row, int row_count,
                          cudaEvent_t ready, const RowBlockSink &sink) {
  if (row_count <= 0)
    return;
  if (ready)
    GPU_CHECK(cudaStreamWaitEvent(stream_.get(), ready, 0));
  const int chunks = (row_count + chunk_rows_ - 1) / chunk_rows_;
  const std::size_t row_bytes = static_cast<std::size_t>(vertices_) * sizeof(int);
  auto enqueue_copy = [&](int chunk) {
    const int first = chunk * chunk_rows_;
    const int rows = std::min(chunk_rows_, row_count - first);
    GPU_CHECK(cudaMemcpy2DAsync(
        pinned_[chunk % 2].get(), row_bytes, d_rows + static_cast<std::size_t>(first) * pitch,
        pitch * sizeof(int), row_bytes, rows, cudaMemcpyDeviceToHost, stream_.get()));
    GPU_CHECK(cudaEventRecord(copied_[chunk % 2].get(), stream_.get()));
  };
  enqueue_copy(0);
  for (int chunk = 0; chunk < chunks; ++chunk) {
    // The other buffer was handed to the sink in the previous iteration, which has returned.
    if (chunk + 1 < chunks)
      enqueue_copy(chunk + 1);
    GPU_CHECK(cudaEventSynchronize(copied_[chunk % 2].get()));
    const int first = chunk * chunk_rows_;
    sink(first_row + first, std::min(chunk_rows_, row_count - first), pinned_[chunk % 2].get());
  }
}

} // namespace apsp
