// prefix_sum on the GPU: solve() with host pointers. The scan itself is kit::device_inclusive_scan
// (common/device_scan.h, one kernel launch); this file moves the data. Large inputs stream through
// the GPU in chunks so that the copy in, the scan and the copy out of different chunks overlap,
// and the running total between chunks stays on the device.
#include "device_scan.h"
#include "kernel_pipeline.h"
#include "solve.h"
#include "io/threads.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

namespace {

// Up to this size one pageable copy each way beats allocating pinned staging buffers: on the
// H200 machine the staged path costs about 17 ms of set-up and then 0.31 ms per million items,
// the direct one 0.69 ms per million, so they cross near 45 million (README.md).
constexpr std::size_t kDirectMaxItems = std::size_t{3} << 24;
// 8 MiB per chunk: long enough for the copy engines to run at full speed, short enough that
// filling and draining the pipeline costs little and the pinned buffers are cheap to allocate.
constexpr std::size_t kChunkItems = std::size_t{1} << 21;
// Chunks in flight: one being staged by the host, one on each copy engine, one being scanned.
constexpr int kSlots = 4;
// Below this many bytes per thread, splitting a host copy costs more than it saves.
constexpr std::size_t kMinCopyBytesPerThread = std::size_t{1} << 20;

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

template <class T> class DeviceArray {
public:
  explicit DeviceArray(std::size_t count) { GPU_CHECK(cudaMalloc(&ptr_, count * sizeof(T))); }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  ~DeviceArray() { (void)cudaFree(ptr_); }
  T *get() const { return ptr_; }

private:
  T *ptr_ = nullptr;
};

template <class T> class PinnedArray {
public:
  explicit PinnedArray(std::size_t count) { GPU_CHECK(cudaMallocHost(&ptr_, count * sizeof(T))); }
  PinnedArray(const PinnedArray &) = delete;
  PinnedArray &operator=(const PinnedArray &) = delete;
  ~PinnedArray() { (void)cudaFreeHost(ptr_); }
  T *get() const { return ptr_; }

private:
  T *ptr_ = nullptr;
};

class Stream {
public:
  Stream() { GPU_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream() { (void)cudaStreamDestroy(stream_); }
  cudaStream_t get() const { return stream_; }

private:
  cudaStream_t stream_ = nullptr;
};

class Event {
public:
  Event() { GPU_CHECK(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming)); }
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event() { (void)cudaEventDestroy(event_); }
  cudaEvent_t get() const { return event_; }

private:
  cudaEvent_t event_ = nullptr;
};

// Sums the device time of one kind of work (copies in, scans, ...) from event pairs recorded
// around each piece; inert when timing was not asked for, so solve() pays nothing for it.
class DeviceStageClock {
public:
  explicit DeviceStageClock(bool enabled) : enabled_(enabled) {}
  DeviceStageClock(const DeviceStageClock &) = delete;
  DeviceStageClock &operator=(const DeviceStageClock &) = delete;
  ~DeviceStageClock() {
    for (auto &[start, stop] : intervals_) {
      (void)cudaEventDestroy(start);
      (void)cudaEventDestroy(stop);
    }
  }
  void start(cudaStream_t stream) {
    if (!enabled_)
      return;
    intervals_.emplace_back();
    GPU_CHECK(cudaEventCreate(&intervals_.back().first));
    GPU_CHECK(cudaEventCreate(&intervals_.back().second));
    GPU_CHECK(cudaEventRecord(intervals_.back().first, stream));
  }
  void stop(cudaStream_t stream) {
    if (enabled_)
      GPU_CHECK(cudaEventRecord(intervals_.back().second, stream));
  }
  // Call once the recorded work has finished.
  double total_ms() const {
    double total = 0;
    for (const auto &[start, stop] : intervals_) {
      float ms = 0;
      GPU_CHECK(cudaEventElapsedTime(&ms, start, stop));
      total += ms;
    }
    return total;
  }

private:
  bool enabled_;
  std::vector<std::pair<cudaEvent_t, cudaEvent_t>> intervals_;
};

// Host copies to and from pinned staging run on the pool: one thread cannot keep up with the
// copy engines (about 50 GB/s each way on PCIe 5).
void parallel_copy(void *dst, const void *src, std::size_t bytes) {
  kit::ThreadPool &pool = kit::default_pool();
  const std::size_t parts =
      std::max<std::size_t>(1, std::min<std::size_t>(pool.size(), bytes / kMinCopyBytesPerThread));
  pool.run(parts, [&](std::size_t part) {
    const std::size_t first = bytes * part / parts;
    const std::size_t last = bytes * (part + 1) / parts;
    std::memcpy(static_cast<char *>(dst) + first, static_cast<const char *>(src) + first,
                last - first);
  });
}

void scan_in_place(int *data, std::size_t n, kit::ScanWorkspace &workspace, cudaStream_t stream,
                   const int *carry_in = nullptr, int *total_out = nullptr) {
  kit::device_inclusive_scan(data, data, n, kit::Plus{}, 0, workspace, stream, carry_in, total_out);
}

std::size_t tiles_for(std::size_t n) {
  return (n + kit::DefaultScanConfig::kTileItems - 1) / kit::DefaultScanConfig::kTileItems;
}

void run_direct(const int *input, int *output, std::size_t n, PrefixSumTiming *timing) {
  const auto t0 = Clock::now();
  DeviceArray<int> data(n);
  kit::ScanWorkspace workspace;
  workspace.reserve(tiles_for(n));
  const auto t1 = Clock::now();
  GPU_CHECK(cudaMemcpy(data.get(), input, n * sizeof(int), cudaMemcpyHostToDevice));
  const auto t2 = Clock::now();
  DeviceStageClock scan_clock(timing != nullptr);
  scan_clock.start(0);
  scan_in_place(data.get(), n, workspace, 0);
  scan_clock.stop(0);
  if (timing) // keeps the scan out of the copy-out time below
    GPU_CHECK(cudaDeviceSynchronize());
  const auto t3 = Clock::now();
  GPU_CHECK(cudaMemcpy(output, data.get(), n * sizeof(int), cudaMemcpyDeviceToHost));
  if (timing) {
    const auto t4 = Clock::now();
    *timing = PrefixSumTiming{};
    timing->chunks = 1;
    timing->setup_ms = ms_between(t0, t1);
    timing->h2d_ms = ms_between(t1, t2);
    timing->scan_ms = scan_clock.total_ms();
    timing->d2h_ms = ms_between(t3, t4);
    timing->total_ms = ms_between(t0, t4);
  }
}

// One chunk in flight: its device buffer (scanned in place), its pinned staging buffer (input on
// the way in, result on the way out) and the stream that orders copy in, scan and copy out.
struct Slot {
  explicit Slot(std::size_t items) : device(items), staging(items) {}
  DeviceArray<int> device;
  PinnedArray<int> staging;
  Stream stream;
  Event drained_by_device; // result copied into `staging`
};

void run_staged(const int *input, int *output, std::size_t n, PrefixSumTiming *timing) {
  const auto t0 = Clock::now();
  const std::size_t chunk_items = std::min(kChunkItems, n);
  const std::size_t chunks = (n + chunk_items - 1) / chunk_items;
  const std::size_t slot_count = std::min<std::size_t>(kSlots, chunks);
  std::vector<std::unique_ptr<Slot>> slots;
  for (std::size_t s = 0; s < slot_count; ++s)
    slots.push_back(std::make_unique<Slot>(chunk_items));
  // Running totals between chunks, ping-ponged: chunk c reads carry[c % 2], writes the other.
  DeviceArray<int> carry(2);
  Event chunk_scanned; // orders each chunk's scan after the previous one's
  kit::ScanWorkspace workspace;
  workspace.reserve(tiles_for(chunk_items));
  const bool timed = timing != nullptr;
  DeviceStageClock h2d_clock(timed), scan_clock(timed), d2h_clock(timed);
  double stage_in_ms = 0, stage_out_ms = 0;
  const auto t1 = Clock::now();

  auto chunk_first = [&](std::size_t c) { return c * chunk_items; };
  auto chunk_size = [&](std::size_t c) { return std::min(chunk_items, n - chunk_first(c)); };
  auto drain = [&](std::size_t c) {
    Slot &slot = *slots[c % slot_count];
    GPU_CHECK(cudaEventSynchronize(slot.drained_by_device.get()));
    const auto start = Clock::now();
    parallel_copy(output + chunk_first(c), slot.staging.get(), chunk_size(c) * sizeof(int));
    stage_out_ms += ms_between(start, Clock::now());
  };

  for (std::size_t c = 0; c < chunks; ++c) {
    Slot &slot = *slots[c % slot_count];
    const cudaStream_t stream = slot.stream.get();
    const std::size_t bytes = chunk_size(c) * sizeof(int);
    if (c >= slot_count)
      drain(c - slot_count); // frees the slot's staging buffer

    const auto start = Clock::now();
    parallel_copy(slot.staging.get(), input + chunk_first(c), bytes);
    stage_in_ms += ms_between(start, Clock::now());

    h2d_clock.start(stream);
    GPU_CHECK(cudaMemcpyAsync(slot.device.get(), slot.staging.get(), bytes, cudaMemcpyHostToDevice,
                              stream));
    h2d_clock.stop(stream);

    if (c > 0)
      GPU_CHECK(cudaStreamWaitEvent(stream, chunk_scanned.get(), 0));
    scan_clock.start(stream);
    scan_in_place(slot.device.get(), chunk_size(c), workspace, stream,
                  c > 0 ? carry.get() + c % 2 : nullptr, carry.get() + (c + 1) % 2);
    scan_clock.stop(stream);
    GPU_CHECK(cudaEventRecord(chunk_scanned.get(), stream));

    d2h_clock.start(stream);
    GPU_CHECK(cudaMemcpyAsync(slot.staging.get(), slot.device.get(), bytes, cudaMemcpyDeviceToHost,
                              stream));
    d2h_clock.stop(stream);
    GPU_CHECK(cudaEventRecord(slot.drained_by_device.get(), stream));
  }
  for (std::size_t c = chunks - slot_count; c < chunks; ++c)
    drain(c);

  if (timing) {
    *timing = PrefixSumTiming{};
    timing->staged = true;
    timing->chunks = chunks;
    timing->total_ms = ms_between(t0, Clock::now());
    timing->setup_ms = ms_between(t0, t1);
    timing->stage_in_ms = stage_in_ms;
    timing->h2d_ms = h2d_clock.total_ms();
    timing->scan_ms = scan_clock.total_ms();
    timing->d2h_ms = d2h_clock.total_ms();
    timing->stage_out_ms = stage_out_ms;
  }
}

} // namespace

void prefix_sum_gpu(const int *input, int *output, std::size_t n, PrefixSumPath path,
                    PrefixSumTiming *timing) {
  if (n == 0)
    return;
  if (path == PrefixSumPath::kAuto)
    path = n <= kDirectMaxItems ? PrefixSumPath::kDirect : PrefixSumPath::kStaged;
  if (path == PrefixSumPath::kDirect)
    run_direct(input, output, n, timing);
  else
    run_staged(input, output, n, timing);
}

extern "C" void solve(const int *input, int *output, int N) {
  if (N > 0)
    prefix_sum_gpu(input, output, static_cast<std::size_t>(N));
}
