// Moving a large array between pageable host memory (the contest's solve() receives plain host
// pointers) and the GPU in chunks, so that the host's copies, both copy engines and the kernels
// work at the same time. A pageable cudaMemcpy is staged by the runtime through a small pinned
// buffer on one thread; here each chunk is copied into a pinned slot by the host thread pool (one
// core cannot keep up with a copy engine), then moved by the copy engine on the slot's stream,
// while the next chunk is being staged.
//
// Three ways through, each taking a callback that enqueues the chunk's GPU work on the chunk's
// stream (chunk k uses slot k % slots):
//   upload      host -> device array, then after(k, device_chunk, count, stream);
//   download    before(k, device_chunk, count, stream), then device array -> host;
//   round_trip  host -> the slot's own device buffer, work(...), -> host: device memory of
//               slots x chunk only, for work that needs each chunk once (a chained scan).
// Work on different slots runs on different streams: callbacks that depend on each other order
// themselves with events, and join() makes every slot's stream wait for all of them (e.g. between
// the statistics and the normalisation of a softmax).
//
// Host code of the contest programs' solve() (prefix_sum, softmax), on the host thread pool
// (io/threads.h) and the runtime's streams: part of the programs' frame, not of the device layer.
#pragma once

#include "gpu/check.h"
#include "gpu/resources.h"
#include "io/threads.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <utility>
#include <vector>

namespace kit::gpu {

// Where a transfer's time went, on request (StagedTransfer::measure). Host parts are wall time
// of the host copies; device parts are sums of per-chunk event intervals. The parts overlap, so
// they add up to more than the call's wall time.
struct StagingTimes {
  double stage_in_ms = 0;  // host copies from the caller's array into pinned slots
  double h2d_ms = 0;       // host-to-device copies
  double work_ms = 0;      // the callbacks' GPU work
  double d2h_ms = 0;       // device-to-host copies
  double stage_out_ms = 0; // host copies from pinned slots into the caller's array
};

// Copies `bytes` with the host thread pool, in parts of at least 1 MiB.
inline void parallel_host_copy(void *dst, const void *src, std::size_t bytes) {
  constexpr std::size_t kMinPartBytes = std::size_t{1} << 20;
  ThreadPool &pool = default_pool();
  const std::size_t parts =
      std::max<std::size_t>(1, std::min<std::size_t>(pool.size(), bytes / kMinPartBytes));
  if (parts == 1) {
    std::memcpy(dst, src, bytes);
    return;
  }
  pool.run(parts, [&](std::size_t part) {
    const std::size_t first = bytes * part / parts;
    const std::size_t last = bytes * (part + 1) / parts;
    std::memcpy(static_cast<char *>(dst) + first, static_cast<const char *>(src) + first,
                last - first);
  });
}

template <class T> class StagedTransfer {
public:
  // Chunks of `chunk_items` elements through `slots` pinned slots (and streams). Nothing is
  // allocated until the first transfer.
  StagedTransfer(std::size_t chunk_items, int slots) : chunk_(chunk_items), slot_count_(slots) {}

  // Accumulate where the time goes into *times (null: stop measuring). Measuring records events
  // around every chunk's parts and synchronises at the end of each call.
  void measure(StagingTimes *times) { times_ = times; }

  template <class After> void upload(const T *host, T *device, std::size_t n, After &&after) {
    allocate(false);
    const std::size_t chunks = chunk_count(n);
    for (std::size_t k = 0; k < chunks; ++k) {
      Slot &slot = slot_of(k);
      T *chunk = device + k * chunk_;
      GPU_CHECK(cudaEventSynchronize(slot.staging_free.get())); // its last upload has left
      stage_in(slot, host + k * chunk_, size_of(k, n));
      timed(slot, h2d_, [&] {
        GPU_CHECK(cudaMemcpyAsync(chunk, slot.staging.get(), size_of(k, n) * sizeof(T),
                                  cudaMemcpyHostToDevice, slot.stream.get()));
      });
      GPU_CHECK(cudaEventRecord(slot.staging_free.get(), slot.stream.get()));
      timed(slot, work_, [&] { after(k, chunk, size_of(k, n), slot.stream.get()); });
    }
    finish_timing();
  }

  template <class Before> void download(const T *device, T *host, std::size_t n, Before &&before) {
    allocate(false);
    const std::size_t chunks = chunk_count(n);
    auto start = [&](std::size_t k) {
      Slot &slot = slot_of(k);
      const T *chunk = device + k * chunk_;
      timed(slot, work_, [&] { before(k, chunk, size_of(k, n), slot.stream.get()); });
      enqueue_download(slot, chunk, size_of(k, n));
    };
    for (std::size_t k = 0; k < std::min(chunks, slots()); ++k)
      start(k);
    for (std::size_t k = 0; k < chunks; ++k) {
      stage_out(slot_of(k), host + k * chunk_, size_of(k, n));
      if (k + slots() < chunks)
        start(k + slots());
    }
    finish_timing();
  }

  // `in == out` is allowed: a chunk's result is written back only after it has been staged in.
  template <class Work> void round_trip(const T *in, T *out, std::size_t n, Work &&work) {
    allocate(true);
    const std::size_t chunks = chunk_count(n);
    for (std::size_t k = 0; k < chunks; ++k) {
      Slot &slot = slot_of(k);
      if (k >= slots()) // the slot's previous chunk must leave before this one comes in
        stage_out(slot, out + (k - slots()) * chunk_, size_of(k - slots(), n));
      stage_in(slot, in + k * chunk_, size_of(k, n));
      timed(slot, h2d_, [&] {
        GPU_CHECK(cudaMemcpyAsync(slot.device.get(), slot.staging.get(), size_of(k, n) * sizeof(T),
                                  cudaMemcpyHostToDevice, slot.stream.get()));
      });
      timed(slot, work_, [&] { work(k, slot.device.get(), size_of(k, n), slot.stream.get()); });
      enqueue_download(slot, slot.device.get(), size_of(k, n));
    }
    for (std::size_t k = chunks > slots() ? chunks - slots() : 0; k < chunks; ++k)
      stage_out(slot_of(k), out + k * chunk_, size_of(k, n));
    finish_timing();
  }

  // Every slot's stream waits for the work queued so far on all of them.
  void join() {
    allocate(false);
    for (Slot &slot : slots_)
      GPU_CHECK(cudaEventRecord(slot.joined.get(), slot.stream.get()));
    for (Slot &slot : slots_)
      for (Slot &other : slots_)
        if (&other != &slot)
          GPU_CHECK(cudaStreamWaitEvent(slot.stream.get(), other.joined.get(), 0));
  }

  // Allocates the pinned slots (and, for round_trip, their device buffers) now, so that a caller
  // can keep that cost out of the first transfer.
  void reserve(bool with_device_buffers = false) { allocate(with_device_buffers); }

  std::size_t chunk_items() const { return chunk_; }
  std::size_t chunk_count(std::size_t n) const { return (n + chunk_ - 1) / chunk_; }
  // The stream of slot 0, for work that is not split into chunks.
  cudaStream_t first_stream() {
    allocate(false);
    return slots_.front().stream.get();
  }

private:
  struct Slot {
    PinnedArray<T> staging;
    DeviceArray<T> device; // round_trip only
    Stream stream;
    Event staging_free; // the last upload from `staging` has completed
    Event staged_out;   // the last download into `staging` has completed
    Event joined;       // join()'s mark
  };
  // Event pairs around one kind of GPU work, summed when a call ends.
  using Intervals = std::vector<std::pair<cudaEvent_t, cudaEvent_t>>;

  std::size_t slots() const { return slots_.size(); }
  Slot &slot_of(std::size_t k) { return slots_[k % slots_.size()]; }
  std::size_t size_of(std::size_t k, std::size_t n) const {
    return std::min(chunk_, n - k * chunk_);
  }

  void allocate(bool with_device) {
    if (slots_.empty()) {
      slots_.resize(static_cast<std::size_t>(slot_count_));
      for (Slot &slot : slots_)
        slot.staging = PinnedArray<T>(chunk_);
    }
    if (with_device && !slots_.front().device)
      for (Slot &slot : slots_)
        slot.device = DeviceArray<T>(chunk_);
  }

  void stage_in(Slot &slot, const T *host, std::size_t count) {
    const auto start = Clock::now();
    parallel_host_copy(slot.staging.get(), host, count * sizeof(T));
    if (times_)
      times_->stage_in_ms += ms_since(start);
  }
  void enqueue_download(Slot &slot, const T *device, std::size_t count) {
    timed(slot, d2h_, [&] {
      GPU_CHECK(cudaMemcpyAsync(slot.staging.get(), device, count * sizeof(T),
                                cudaMemcpyDeviceToHost, slot.stream.get()));
    });
    GPU_CHECK(cudaEventRecord(slot.staged_out.get(), slot.stream.get()));
  }
  void stage_out(Slot &slot, T *host, std::size_t count) {
    GPU_CHECK(cudaEventSynchronize(slot.staged_out.get()));
    const auto start = Clock::now();
    parallel_host_copy(host, slot.staging.get(), count * sizeof(T));
    if (times_)
      times_->stage_out_ms += ms_since(start);
  }

  // Runs enqueue(), between two timing events on the slot's stream when measuring.
  template <class Enqueue> void timed(Slot &slot, Intervals &intervals, Enqueue &&enqueue) {
    if (!times_) {
      enqueue();
      return;
    }
    cudaEvent_t start, stop;
    GPU_CHECK(cudaEventCreate(&start));
    GPU_CHECK(cudaEventCreate(&stop));
    intervals.emplace_back(start, stop);
    GPU_CHECK(cudaEventRecord(start, slot.stream.get()));
    enqueue();
    GPU_CHECK(cudaEventRecord(stop, slot.stream.get()));
  }
  void finish_timing() {
    if (!times_)
      return;
    for (Slot &slot : slots_)
      GPU_CHECK(cudaStreamSynchronize(slot.stream.get()));
    times_->h2d_ms += drain_intervals(h2d_);
    times_->work_ms += drain_intervals(work_);
    times_->d2h_ms += drain_intervals(d2h_);
  }
  static double drain_intervals(Intervals &intervals) {
    double total = 0;
    for (auto &[start, stop] : intervals) {
      total += elapsed_ms(start, stop);
      (void)cudaEventDestroy(start);
      (void)cudaEventDestroy(stop);
    }
    intervals.clear();
    return total;
  }

  using Clock = std::chrono::steady_clock;
  static double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  }

  std::size_t chunk_;
  int slot_count_;
  std::vector<Slot> slots_;
  StagingTimes *times_ = nullptr;
  Intervals h2d_, work_, d2h_;
};

} // namespace kit::gpu
