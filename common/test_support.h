// Small helpers shared by the GPU tests: skipping without a GPU, device buffers with poisoned
// contents, and failure reporting that names what was compared.
#pragma once

#include "gpu.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace kit::test {

// CTest's SKIP_RETURN_CODE for GPU tests (see kit_add_gpu_test).
constexpr int kSkipExitCode = 77;

// Exits with the skip code, and says why, when no GPU can be used.
inline void skip_without_gpu(const char *test_name) {
  const char *why = nullptr;
  if (!kit::gpu::device_available(&why)) {
    std::printf("SKIP %s: no usable GPU (%s)\n", test_name, why ? why : "unknown reason");
    std::exit(kSkipExitCode);
  }
}

// Device buffer of T that frees itself; contents are poisoned with 0xA5 bytes on creation so that
// unwritten outputs never look like plausible results.
template <class T> class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t count) : count_(count) {
    GPU_CHECK(cudaMalloc(&ptr_, bytes() ? bytes() : 1));
    poison();
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer() { (void)cudaFree(ptr_); }

  T *get() const { return ptr_; }
  size_t size() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }
  void poison() { GPU_CHECK(cudaMemset(ptr_, 0xA5, bytes())); }
  void upload(const std::vector<T> &host) {
    GPU_CHECK(cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    GPU_CHECK(cudaMemcpy(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }

private:
  T *ptr_ = nullptr;
  size_t count_;
};

// Counts failures and prints the first few with context; main() returns failures() != 0.
class Checker {
public:
  template <class T>
  void expect_equal(const std::vector<T> &got, const std::vector<T> &want, const char *what) {
    ++checks_;
    for (size_t i = 0; i < want.size(); ++i) {
      if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
        if (failures_ < 20)
          std::printf("FAIL %s: first mismatch at index %zu: got %s, expected %s\n", what, i,
                      to_text(got[i]).c_str(), to_text(want[i]).c_str());
        ++failures_;
        return;
      }
    }
  }
  void expect(bool ok, const char *what) {
    ++checks_;
    if (!ok) {
      std::printf("FAIL %s\n", what);
      ++failures_;
    }
  }
  int finish(const char *test_name) const {
    std::printf("%s: %d checks, %d failed\n", test_name, checks_, failures_);
    return failures_ == 0 ? 0 : 1;
  }

private:
  template <class T> static std::string to_text(const T &v) {
    if constexpr (std::is_floating_point_v<T>)
      return std::to_string(static_cast<double>(v));
    else
      return std::to_string(v);
  }
  int checks_ = 0;
  int failures_ = 0;
};

} // namespace kit::test
