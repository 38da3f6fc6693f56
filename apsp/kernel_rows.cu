#include "kernel_rows.h"

#include <algorithm>

namespace apsp {

namespace {
// Large enough that a copy is far from launch-bound, small enough that the first rows reach the
// sink early and that pinning the two buffers stays cheap (a few ms).
constexpr std::size_t kChunkBytes = std::size_t{8} << 20;
} // namespace

RowStreamer::RowStreamer(int vertices, int max_rows) : vertices_(vertices) {
  const std::size_t row_bytes = static_cast<std::size_t>(vertices) * sizeof(int);
  chunk_rows_ = static_cast<int>(std::max<std::size_t>(1, kChunkBytes / row_bytes));
  chunk_rows_ = std::max(1, std::min(chunk_rows_, max_rows));
  const std::size_t chunk_bytes = row_bytes * chunk_rows_;
  GPU_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  for (int b = 0; b < 2; ++b) {
    GPU_CHECK(cudaMallocHost(reinterpret_cast<void **>(&pinned_[b]), chunk_bytes));
    GPU_CHECK(cudaEventCreateWithFlags(&copied_[b], cudaEventDisableTiming));
  }
}

RowStreamer::~RowStreamer() {
  for (int b = 0; b < 2; ++b) {
    (void)cudaEventDestroy(copied_[b]);
    (void)cudaFreeHost(pinned_[b]);
  }
  (void)cudaStreamDestroy(stream_);
}

void RowStreamer::deliver(const int *d_rows, std::size_t pitch, int first_row, int row_count,
                          cudaEvent_t ready, const RowBlockSink &sink) {
  if (row_count <= 0)
    return;
  if (ready)
    GPU_CHECK(cudaStreamWaitEvent(stream_, ready, 0));
  const int chunks = (row_count + chunk_rows_ - 1) / chunk_rows_;
  const std::size_t row_bytes = static_cast<std::size_t>(vertices_) * sizeof(int);
  auto enqueue_copy = [&](int chunk) {
    const int first = chunk * chunk_rows_;
    const int rows = std::min(chunk_rows_, row_count - first);
    GPU_CHECK(cudaMemcpy2DAsync(
        pinned_[chunk % 2], row_bytes, d_rows + static_cast<std::size_t>(first) * pitch,
        pitch * sizeof(int), row_bytes, rows, cudaMemcpyDeviceToHost, stream_));
    GPU_CHECK(cudaEventRecord(copied_[chunk % 2], stream_));
  };
  enqueue_copy(0);
  for (int chunk = 0; chunk < chunks; ++chunk) {
    // The other buffer was handed to the sink in the previous iteration, which has returned.
    if (chunk + 1 < chunks)
      enqueue_copy(chunk + 1);
    GPU_CHECK(cudaEventSynchronize(copied_[chunk % 2]));
    const int first = chunk * chunk_rows_;
    sink(first_row + first, std::min(chunk_rows_, row_count - first), pinned_[chunk % 2]);
  }
}

} // namespace apsp
