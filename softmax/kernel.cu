// GPU backend of the contest entry point (solve.h): HOST pointers in and out.
//
// Up to one chunk the input goes up, the Engine runs and the result comes down. Larger inputs
// go through a pipeline of pinned staging buffers: while the copy engine moves chunk k, the host
// threads copy chunk k+1 between the caller's (pageable) array and the other staging buffer, and
// pass 1 of chunk k-1 runs on the SMs. Pass 2 waits for every chunk's pass 1, then the same
// pipeline runs in the other direction. The device holds one array, normalised in place.
#include "kernel.h"
#include "solve.h"
#include "io/threads.h"

#include <algorithm>
#include <cstring>

namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20; // elements per pipeline stage (4 MB)
constexpr int kStages = 2;

// Copies with the host thread pool: one core cannot keep up with the copy engine.
void parallel_copy(float *dst, const float *src, std::size_t count) {
  constexpr std::size_t kPiece = std::size_t{1} << 18; // 1 MB per task
  const std::size_t pieces = (count + kPiece - 1) / kPiece;
  if (pieces <= 1) {
    std::memcpy(dst, src, count * sizeof(float));
    return;
  }
  kit::default_pool().run(pieces, [&](std::size_t p) {
    const std::size_t first = p * kPiece;
    std::memcpy(dst + first, src + first, std::min(kPiece, count - first) * sizeof(float));
  });
}

class HostPipeline {
public:
  HostPipeline() {
    for (int s = 0; s < kStages; ++s) {
      GPU_CHECK(cudaStreamCreateWithFlags(&streams_[s], cudaStreamNonBlocking));
      GPU_CHECK(cudaEventCreateWithFlags(&staging_free_[s], cudaEventDisableTiming));
      GPU_CHECK(cudaEventCreateWithFlags(&staged_out_[s], cudaEventDisableTiming));
      GPU_CHECK(cudaEventCreateWithFlags(&reduced_[s], cudaEventDisableTiming));
    }
  }

  void run(const float *input, float *output, std::size_t n) {
    reserve_device(n);
    if (n <= kChunk) {
      // Pageable copies are staged by the runtime; a single chunk has nothing to overlap.
      cudaStream_t stream = streams_[0];
      GPU_CHECK(cudaMemcpyAsync(device_, input, n * sizeof(float), cudaMemcpyHostToDevice, stream));
      engine_.run(device_, device_, n, stream);
      GPU_CHECK(
          cudaMemcpyAsync(output, device_, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
      GPU_CHECK(cudaStreamSynchronize(stream));
      return;
    }
    reserve_staging();
    const std::size_t chunks = (n + kChunk - 1) / kChunk;
    auto chunk_size = [&](std::size_t k) { return std::min(kChunk, n - k * kChunk); };
    unsigned total_partials = 0;
    for (std::size_t k = 0; k < chunks; ++k)
      total_partials += engine_.reduce_blocks(chunk_size(k));
    engine_.reserve_partials(total_partials);

    // Up: staging, copy, pass 1 per chunk.
    unsigned first_partial = 0;
    for (std::size_t k = 0; k < chunks; ++k) {
      const int s = static_cast<int>(k % kStages);
      float *chunk = device_ + k * kChunk;
      GPU_CHECK(cudaEventSynchronize(staging_free_[s]));
      parallel_copy(staging_[s], input + k * kChunk, chunk_size(k));
      GPU_CHECK(cudaMemcpyAsync(chunk, staging_[s], chunk_size(k) * sizeof(float),
                                cudaMemcpyHostToDevice, streams_[s]));
      GPU_CHECK(cudaEventRecord(staging_free_[s], streams_[s]));
      engine_.reduce_part(chunk, chunk_size(k), first_partial, total_partials, streams_[s]);
      first_partial += engine_.reduce_blocks(chunk_size(k));
    }
    // Pass 2 of any chunk needs the statistics of all of them.
    for (int s = 0; s < kStages; ++s)
      GPU_CHECK(cudaEventRecord(reduced_[s], streams_[s]));
    for (int s = 0; s < kStages; ++s)
      for (int other = 0; other < kStages; ++other)
        if (other != s)
          GPU_CHECK(cudaStreamWaitEvent(streams_[s], reduced_[other], 0));

    // Down: pass 2, copy into staging, then the host copies out while the next chunk moves.
    auto start_down = [&](std::size_t k) {
      const int s = static_cast<int>(k % kStages);
      float *chunk = device_ + k * kChunk;
      engine_.normalize_part(chunk, chunk, chunk_size(k), streams_[s]);
      GPU_CHECK(cudaMemcpyAsync(staging_[s], chunk, chunk_size(k) * sizeof(float),
                                cudaMemcpyDeviceToHost, streams_[s]));
      GPU_CHECK(cudaEventRecord(staged_out_[s], streams_[s]));
    };
    for (std::size_t k = 0; k < std::min<std::size_t>(kStages, chunks); ++k)
      start_down(k);
    for (std::size_t k = 0; k < chunks; ++k) {
      const int s = static_cast<int>(k % kStages);
      GPU_CHECK(cudaEventSynchronize(staged_out_[s]));
      parallel_copy(output + k * kChunk, staging_[s], chunk_size(k));
      if (k + kStages < chunks)
        start_down(k + kStages);
    }
    // The next call's first staging copy must not wait on this call's events.
    for (int s = 0; s < kStages; ++s)
      GPU_CHECK(cudaEventRecord(staging_free_[s], streams_[s]));
  }

private:
  void reserve_device(std::size_t n) {
    if (n <= device_capacity_)
      return;
    GPU_CHECK(cudaFree(device_));
    GPU_CHECK(cudaMalloc(&device_, n * sizeof(float)));
    device_capacity_ = n;
  }
  void reserve_staging() {
    if (staging_[0])
      return;
    for (int s = 0; s < kStages; ++s)
      GPU_CHECK(cudaMallocHost(&staging_[s], kChunk * sizeof(float)));
  }

  softmax_gpu::Engine engine_;
  float *device_ = nullptr;
  std::size_t device_capacity_ = 0;
  float *staging_[kStages] = {};
  cudaStream_t streams_[kStages] = {};
  cudaEvent_t staging_free_[kStages] = {}; // the last upload from staging_[s] has completed
  cudaEvent_t staged_out_[kStages] = {};   // the last download into staging_[s] has completed
  cudaEvent_t reduced_[kStages] = {};      // every pass 1 queued on streams_[s] has completed
};

} // namespace

extern "C" void solve(const float *input, float *output, int N) {
  if (N <= 0)
    return;
  // Created on first use and deliberately never destroyed: its device resources go away with the
  // process, and destructors running after the runtime's own teardown would report errors.
  static HostPipeline *pipeline = new HostPipeline;
  pipeline->run(input, output, static_cast<std::size_t>(N));
}
