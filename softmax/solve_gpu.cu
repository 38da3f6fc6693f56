// GPU backend of the contest entry point (solve.h): HOST pointers in and out.
//
// Up to one chunk the input goes up, the Engine runs (kAuto) and the result comes down. Larger
// inputs go through the kit's staging pipeline (program/staging.h): while the copy engine moves
// chunk k, the host threads stage chunk k+1, and pass 1 of the chunks already on the device runs on
// the SMs (every chunk's blocks draw from one ticket: the last to finish combines them all).
// Pass 2 waits for every chunk's pass 1 (join), then the pipeline runs in the other direction,
// each chunk normalised in place in front of its copy back. The device holds one array.
#include "gpu/check.h"
#include "gpu/resources.h"
#include "gpu/tuning_dispatch.h"
#include "kernel.h"
#include "program/staging.h"
#include "solve.h"
#include "tuning.h"

#include <algorithm>
#include <cstddef>

namespace {

class HostPipeline {
public:
  HostPipeline()
      : transfer_(kit::gpu::with_tuning<softmax::SoftmaxTuning>([](auto tuning) {
          using Tuning = decltype(tuning);
          return kit::gpu::StagedTransfer<float>(Tuning::kSolveChunkItems, Tuning::kSolveSlots);
        })) {}

  void run(const float *input, float *output, std::size_t n) {
    if (n > device_.size())
      device_ = kit::gpu::DeviceArray<float>(n);
    float *device = device_.get();
    if (n <= transfer_.chunk_items()) {
      // Pageable copies are staged by the runtime; a single chunk has nothing to overlap.
      cudaStream_t stream = single_chunk_stream_.get();
      GPU_CHECK(cudaMemcpyAsync(device, input, n * sizeof(float), cudaMemcpyHostToDevice, stream));
      engine_.run(device, device, n, stream);
      GPU_CHECK(cudaMemcpyAsync(output, device, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
      GPU_CHECK(cudaStreamSynchronize(stream));
      return;
    }
    const std::size_t chunk = transfer_.chunk_items();
    auto chunk_size = [&](std::size_t k) { return std::min(chunk, n - k * chunk); };
    unsigned total_partials = 0;
    for (std::size_t k = 0; k < transfer_.chunk_count(n); ++k)
      total_partials += engine_.reduce_blocks(chunk_size(k));
    engine_.reserve_partials(total_partials);

    unsigned first_partial = 0;
    transfer_.upload(input, device, n,
                     [&](std::size_t, float *part, std::size_t count, cudaStream_t stream) {
                       engine_.reduce_part(part, count, first_partial, total_partials, stream);
                       first_partial += engine_.reduce_blocks(count);
                     });
    transfer_.join(); // pass 2 of any chunk needs the statistics of all of them
    transfer_.download(device, output, n,
                       [&](std::size_t k, const float *, std::size_t count, cudaStream_t stream) {
                         float *part = device + k * chunk;
                         engine_.normalize_part(part, part, count, stream);
                       });
  }

private:
  softmax::Engine engine_;
  kit::gpu::StagedTransfer<float> transfer_;
  kit::gpu::Stream single_chunk_stream_;
  kit::gpu::DeviceArray<float> device_;
};

// Created on first use and deliberately never destroyed: its device resources go away with the
// process, and destructors running after the runtime's own teardown would report errors.
HostPipeline &pipeline() {
  static HostPipeline *instance = new HostPipeline;
  return *instance;
}

} // namespace

// Creating the pipeline loads every kernel's code: the engine asks the occupancy of each.
void preload_gpu_code() { (void)pipeline(); }

extern "C" void solve(const float *input, float *output, int N) {
  if (N <= 0)
    return;
  pipeline().run(input, output, static_cast<std::size_t>(N));
}
