// Small helpers shared by the GPU tests: skipping without a GPU, device buffers with poisoned
// contents, and failure reporting that names what was compared.
#pragma once

#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/resources.h"
#include "gpu/vendor.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace kit::test {

// KIT_TEST_SCALE=small asks the GPU tests for their small cases only (capped at
// kSmallScaleElements elements), which is how the sanitizer runs them
// (common/testing/sanitize.sh). Unset or "full": every case.
constexpr std::size_t kSmallScaleElements = std::size_t{1} << 20;
inline bool small_scale() {
  static const bool small = [] {
    const char *scale = std::getenv("KIT_TEST_SCALE");
    return scale && std::strcmp(scale, "small") == 0;
  }();
  return small;
}
// Whether a case of `elements` elements runs at this scale.
inline bool runs_at_this_scale(std::size_t elements) {
  return !small_scale() || elements <= kSmallScaleElements;
}

// KIT_TEST_SHARD=I/N (0 <= I < N) runs only the cases whose index is I modulo N, so that N
// processes share one long test (the sanitizer script's SANITIZE_SHARDS). Unset: every case. A
// test that splits asks a CaseSelection (testing/case_selection.h) for each case.
struct Shard {
  std::size_t index = 0;
  std::size_t count = 1;
};
inline const Shard &test_shard() {
  static const Shard shard = [] {
    Shard s;
    const char *text = std::getenv("KIT_TEST_SHARD");
    if (!text || !*text)
      return s;
    unsigned long long index = 0, count = 0;
    char tail = 0;
    if (std::sscanf(text, "%llu/%llu%c", &index, &count, &tail) != 2 || count == 0 ||
        index >= count) {
      std::fprintf(stderr, "KIT_TEST_SHARD=%s: expected I/N with 0 <= I < N, e.g. 0/4\n", text);
      std::exit(2);
    }
    s.index = static_cast<std::size_t>(index);
    s.count = static_cast<std::size_t>(count);
    return s;
  }();
  return shard;
}

// The largest block the tests launch: the limit of the GPU the kernels are built for (960 under
// the MI100 persona, gpu/persona.h).
constexpr int kLargestBlock = kit::kMaxBlockThreads;

// CTest's SKIP_RETURN_CODE for GPU tests (see kit_add_gpu_test).
constexpr int kSkipExitCode = 77;

// Whether a GPU test selects its cases by KIT_TEST_CASE and KIT_TEST_SHARD (a CaseSelection,
// testing/case_selection.h).
enum class Cases { Selectable, AllAtOnce };

// The start of every GPU test: stdout line-buffered, so that a run stopped by a time bound
// (CTest's, the sanitizer script's) leaves the cases it finished in its log; then, when no GPU can
// be used, an exit with the skip code that says why. A test whose cases run all at once runs whole
// in shard 0 and skips in the others.
inline void begin_gpu_test(const char *test_name, Cases cases = Cases::AllAtOnce) {
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  const Shard &shard = test_shard();
  const char *pattern = std::getenv("KIT_TEST_CASE");
  if (cases == Cases::AllAtOnce && shard.index != 0) {
    std::printf("SKIP %s: it does not split into shards; shard 0/%zu runs every case\n", test_name,
                shard.count);
    std::exit(kSkipExitCode);
  }
  if (cases == Cases::AllAtOnce && pattern && *pattern)
    std::printf("%s: its cases run all at once: KIT_TEST_CASE does not apply\n", test_name);
  if (cases == Cases::Selectable && shard.count > 1)
    std::printf("%s: shard %zu/%zu (of the cases it runs, those whose index is %zu modulo %zu)\n",
                test_name, shard.index, shard.count, shard.index, shard.count);
  const char *why = nullptr;
  if (!kit::gpu::device_available(&why)) {
    std::printf("SKIP %s: no usable GPU (%s)\n", test_name, why ? why : "unknown reason");
    std::exit(kSkipExitCode);
  }
}

// Device buffer of T (gpu/resources.h) whose contents are poisoned with 0xA5 bytes on creation, so
// that unwritten outputs never look like plausible results.
template <class T> class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t count) : array_(count) { poison(); }

  T *get() const { return array_.get(); }
  size_t size() const { return array_.size(); }
  size_t bytes() const { return array_.bytes(); }
  void poison() { GPU_CHECK(cudaMemset(get(), 0xA5, bytes())); }
  void upload(const std::vector<T> &host) {
    GPU_CHECK(cudaMemcpy(get(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(size());
    GPU_CHECK(cudaMemcpy(host.data(), get(), bytes(), cudaMemcpyDeviceToHost));
    return host;
  }

private:
  kit::gpu::DeviceArray<T> array_;
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
  int failures() const { return failures_; }
  int finish(const char *test_name) const {
    std::printf("%s: %d checks, %d failed\n", test_name, checks_, failures_);
    return failures_ == 0 ? 0 : 1;
  }

private:
  template <class T> static std::string to_text(const T &v) {
    if constexpr (std::is_floating_point_v<T>) {
      return std::to_string(static_cast<double>(v));
    } else if constexpr (std::is_arithmetic_v<T>) {
      return std::to_string(v);
    } else { // a struct: its bytes in hex, in memory order
      std::string text = "0x";
      const unsigned char *bytes = reinterpret_cast<const unsigned char *>(&v);
      for (size_t k = 0; k < sizeof(T); ++k) {
        char pair[3];
        std::snprintf(pair, sizeof pair, "%02x", bytes[k]);
        text += pair;
      }
      return text;
    }
  }
  int checks_ = 0;
  int failures_ = 0;
};

} // namespace kit::test
