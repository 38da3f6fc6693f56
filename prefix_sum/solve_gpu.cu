// prefix_sum on the GPU: solve() with host pointers. The scan itself is kit::device_inclusive_scan
// (device_scan.h, one kernel launch) in the shape tuning.h gives the device; this file moves the
// data. Large inputs stream through the GPU in chunks (kit::gpu::StagedTransfer) so that the copy
// in, the scan and the copy out of different chunks overlap; the running total between chunks
// stays on the device.
#include "gpu/check.h"
#include "gpu/launch.h"
#include "gpu/resources.h"
#include "gpu/tuning_dispatch.h"
#include "primitives/device_scan.h"
#include "program/staging.h"
#include "solve.h"
#include "solve_gpu.h"
#include "tuning.h"

#include <algorithm>
#include <chrono>

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

template <class Scan> std::size_t tiles_for(std::size_t n) {
  return (n + Scan::kTileItems - 1) / Scan::kTileItems;
}

template <class Scan>
void scan_in_place(int *data, std::size_t n, kit::ScanWorkspace &workspace, cudaStream_t stream,
                   const int *carry_in = nullptr, int *total_out = nullptr) {
  kit::device_inclusive_scan<Scan>(data, data, n, kit::Plus{}, 0, workspace, stream, carry_in,
                                   total_out);
}

using kit::gpu::device_ms;

template <class Scan>
void run_direct(const int *input, int *output, std::size_t n, PrefixSumTiming *timing) {
  const auto t0 = Clock::now();
  kit::gpu::DeviceArray<int> data(n);
  kit::ScanWorkspace workspace;
  workspace.reserve(tiles_for<Scan>(n));
  const auto t1 = Clock::now();
  GPU_CHECK(cudaMemcpy(data.get(), input, n * sizeof(int), cudaMemcpyHostToDevice));
  const auto t2 = Clock::now();
  const auto scan = [&] { scan_in_place<Scan>(data.get(), n, workspace, 0); };
  double scan_ms = 0;
  if (timing) // waits for the scan, which keeps it out of the copy-out time below
    scan_ms = device_ms(scan);
  else
    scan();
  const auto t3 = Clock::now();
  GPU_CHECK(cudaMemcpy(output, data.get(), n * sizeof(int), cudaMemcpyDeviceToHost));
  if (timing) {
    const auto t4 = Clock::now();
    *timing = PrefixSumTiming{};
    timing->chunks = 1;
    timing->total_ms = ms_between(t0, t4);
    timing->setup_ms = ms_between(t0, t1);
    timing->parts.h2d_ms = ms_between(t1, t2);
    timing->parts.work_ms = scan_ms;
    timing->parts.d2h_ms = ms_between(t3, t4);
  }
}

// Chunk k is scanned in the slot's device buffer after chunk k - 1 (an event orders the scans,
// which run on different streams), reading the running total from carry[k % 2] and writing the new
// one to carry[(k + 1) % 2].
template <class Tuning>
void run_staged(const int *input, int *output, std::size_t n, PrefixSumTiming *timing) {
  using Scan = typename Tuning::Scan;
  const auto t0 = Clock::now();
  const std::size_t chunk_items = std::min(Tuning::kChunkItems, n);
  const std::size_t chunks = (n + chunk_items - 1) / chunk_items;
  kit::gpu::StagedTransfer<int> transfer(
      chunk_items, static_cast<int>(std::min<std::size_t>(Tuning::kSlots, chunks)));
  kit::gpu::DeviceArray<int> carry(2);
  kit::gpu::Event chunk_scanned;
  kit::ScanWorkspace workspace;
  workspace.reserve(tiles_for<Scan>(chunk_items));
  transfer.reserve(true); // the pinned slots, streams and device buffers count as set-up
  kit::gpu::StagingTimes parts;
  transfer.measure(timing ? &parts : nullptr);
  const auto t1 = Clock::now();

  transfer.round_trip(
      input, output, n, [&](std::size_t k, int *chunk, std::size_t count, cudaStream_t stream) {
        if (k > 0)
          GPU_CHECK(cudaStreamWaitEvent(stream, chunk_scanned.get(), 0));
        scan_in_place<Scan>(chunk, count, workspace, stream, k > 0 ? carry.get() + k % 2 : nullptr,
                            carry.get() + (k + 1) % 2);
        GPU_CHECK(cudaEventRecord(chunk_scanned.get(), stream));
      });

  if (timing) {
    *timing = PrefixSumTiming{};
    timing->staged = true;
    timing->chunks = chunks;
    timing->total_ms = ms_between(t0, Clock::now());
    timing->setup_ms = ms_between(t0, t1);
    timing->parts = parts;
  }
}

} // namespace

void prefix_sum_gpu(const int *input, int *output, std::size_t n, PrefixSumPath path,
                    PrefixSumTiming *timing) {
  if (n == 0)
    return;
  kit::gpu::with_tuning<ScanTuning>([&](auto tuning) {
    using Tuning = decltype(tuning);
    if (path == PrefixSumPath::kAuto)
      path = n <= Tuning::kDirectMaxItems ? PrefixSumPath::kDirect : PrefixSumPath::kStaged;
    if (path == PrefixSumPath::kDirect)
      run_direct<typename Tuning::Scan>(input, output, n, timing);
    else
      run_staged<Tuning>(input, output, n, timing);
  });
}

std::size_t prefix_sum_chunk_items() {
  return kit::gpu::with_tuning<ScanTuning>(
      [](auto tuning) { return decltype(tuning)::kChunkItems; });
}

void preload_gpu_code() {
  kit::gpu::with_tuning<ScanTuning>([](auto tuning) {
    using Scan = typename decltype(tuning)::Scan;
    kit::gpu::load_kernel_code(kit::decoupled_lookback_scan_kernel<Scan, int, kit::Plus>);
    (void)kit::scan_cooperative_tiles<Scan, int, kit::Plus>(); // its occupancy query, cached
  });
}

extern "C" void solve(const int *input, int *output, int N) {
  if (N > 0)
    prefix_sum_gpu(input, output, static_cast<std::size_t>(N));
}
