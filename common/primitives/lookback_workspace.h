// Host side of the look-back for primitives that own their tile states (primitives/lookback.h):
// the packed states, the ticket and the launch epoch, allocated once and reused by every launch.
#pragma once

#include "gpu/check.h"
#include "gpu/resources.h"
#include "primitives/lookback.h"

#include <cstddef>
#include <cstdint>

namespace kit::lookback {

// Packed tile states and a ticket shared by consecutive launches in stream order (same stream, or
// chained with events): the epoch and the ticket assume it.
class Workspace {
public:
  // Makes room for `tiles` states. Growing allocates and synchronises the device, so a stream
  // pipeline calls it once before it starts; otherwise it costs nothing.
  void reserve(std::size_t tiles) {
    if (!ticket_) {
      ticket_ = gpu::DeviceArray<unsigned int>(1);
      GPU_CHECK(cudaMemset(ticket_.get(), 0, sizeof(unsigned int)));
      GPU_CHECK(cudaDeviceSynchronize()); // the memset must land before any stream uses it
    }
    if (tiles > words_.size()) {
      words_.reset(); // cudaFree waits for launches still using the old array
      words_ = gpu::DeviceArray<std::uint64_t>(tiles);
      GPU_CHECK(cudaMemset(words_.get(), 0, words_.bytes()));
      GPU_CHECK(cudaDeviceSynchronize());
    }
  }

  // The epoch of the next launch in `stream`. After 2^30 - 1 launches the epoch wraps: clearing
  // the words in stream order keeps old states from matching (and from outranking new ones).
  std::uint64_t next_epoch(cudaStream_t stream) {
    if (++epoch_ == kPackedEpochLimit) {
      GPU_CHECK(cudaMemsetAsync(words_.get(), 0, words_.bytes(), stream));
      epoch_ = 1;
    }
    return epoch_;
  }

  std::uint64_t *words() const { return words_.get(); }
  unsigned int *ticket() const { return ticket_.get(); }

private:
  gpu::DeviceArray<std::uint64_t> words_;
  gpu::DeviceArray<unsigned int> ticket_;
  std::uint64_t epoch_ = 0;
};

} // namespace kit::lookback
