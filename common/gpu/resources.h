// Owners of the runtime's resources: device arrays, pinned host arrays, streams and events. Each
// frees what it holds when it goes out of scope; creation failures end the program through
// GPU_CHECK (exit 3, naming the call). Move-only.
#pragma once

#include "gpu/check.h"
#include "gpu/vendor.h"

#include <cstddef>
#include <utility>

namespace kit::gpu {

namespace detail {

// A handle with a release function, empty after a move.
template <class Handle, class Traits> class Owned {
public:
  Owned() = default;
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  Owned(Owned &&other) noexcept : handle_(std::exchange(other.handle_, Handle{})) {}
  Owned &operator=(Owned &&other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, Handle{});
    }
    return *this;
  }
  ~Owned() { reset(); }

  Handle get() const { return handle_; }
  explicit operator bool() const { return handle_ != Handle{}; }
  // Frees the resource now. Errors are ignored: a failed release leaks at worst, and this runs in
  // destructors, possibly after an earlier error has been reported.
  void reset() {
    if (handle_ != Handle{})
      (void)Traits::release(handle_);
    handle_ = Handle{};
  }

protected:
  Handle handle_{};
};

struct DeviceFree {
  static cudaError_t release(void *p) { return cudaFree(p); }
};
struct HostFree {
  static cudaError_t release(void *p) { return cudaFreeHost(p); }
};
struct StreamDestroy {
  static cudaError_t release(cudaStream_t s) { return cudaStreamDestroy(s); }
};
struct EventDestroy {
  static cudaError_t release(cudaEvent_t e) { return cudaEventDestroy(e); }
};

} // namespace detail

// `count` elements of T in device memory, uninitialised.
template <class T> class DeviceArray : public detail::Owned<void *, detail::DeviceFree> {
public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t count) : count_(count) {
    GPU_CHECK(cudaMalloc(&handle_, count ? count * sizeof(T) : 1));
  }
  T *get() const { return static_cast<T *>(handle_); }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

private:
  std::size_t count_ = 0;
};

// `count` elements of T in page-locked host memory (what the copy engines read and write at full
// speed, and what asynchronous copies need), uninitialised.
template <class T> class PinnedArray : public detail::Owned<void *, detail::HostFree> {
public:
  PinnedArray() = default;
  explicit PinnedArray(std::size_t count) : count_(count) {
    GPU_CHECK(cudaMallocHost(&handle_, count ? count * sizeof(T) : 1));
  }
  T *get() const { return static_cast<T *>(handle_); }
  std::size_t size() const { return count_; }

private:
  std::size_t count_ = 0;
};

// A stream that does not synchronise with the legacy default stream.
class Stream : public detail::Owned<cudaStream_t, detail::StreamDestroy> {
public:
  Stream() { GPU_CHECK(cudaStreamCreateWithFlags(&handle_, cudaStreamNonBlocking)); }
};

// An event for ordering only (no timing: cheaper to record and wait on).
class Event : public detail::Owned<cudaEvent_t, detail::EventDestroy> {
public:
  Event() { GPU_CHECK(cudaEventCreateWithFlags(&handle_, cudaEventDisableTiming)); }
};

// Milliseconds between two recorded timing events (cudaEventCreate without DisableTiming), once
// `stop` has completed.
inline double elapsed_ms(cudaEvent_t start, cudaEvent_t stop) {
  float ms = 0;
  GPU_CHECK(cudaEventElapsedTime(&ms, start, stop));
  return ms;
}

// Device time of the work `enqueue` puts on the default stream: timing events around it, and a
// wait for the second.
template <class Enqueue> double device_ms(Enqueue &&enqueue) {
  cudaEvent_t start, stop;
  GPU_CHECK(cudaEventCreate(&start));
  GPU_CHECK(cudaEventCreate(&stop));
  GPU_CHECK(cudaEventRecord(start, 0));
  enqueue();
  GPU_CHECK(cudaEventRecord(stop, 0));
  GPU_CHECK(cudaEventSynchronize(stop));
  const double ms = elapsed_ms(start, stop);
  (void)cudaEventDestroy(start);
  (void)cudaEventDestroy(stop);
  return ms;
}

} // namespace kit::gpu
