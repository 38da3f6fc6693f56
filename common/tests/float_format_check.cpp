// format_float_g6 against printf("%g") of the promoted double (what `std::cout << float` prints),
// over float bit patterns: every pattern whose index is a multiple of STRIDE (default 1: all 2^32
// of them, about 10 minutes on 2 cores, 1 minute on 16), on every available core.
//   float_format_check [STRIDE]   exit 0 all equal, 1 a difference (printed), 2 bad argument
#include "io/text_format.h"
#include "io/threads.h"

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

int main(int argc, char **argv) {
  std::uint64_t stride = 1;
  if (argc > 2 || (argc == 2 && (stride = std::strtoull(argv[1], nullptr, 10)) == 0)) {
    std::fprintf(stderr, "Usage: %s [STRIDE >= 1]\n", argv[0]);
    return 2;
  }
  constexpr std::uint64_t kPatterns = std::uint64_t{1} << 32;
  const std::uint64_t samples = (kPatterns + stride - 1) / stride;
  constexpr std::uint64_t kTaskSamples = std::uint64_t{1} << 20;
  const std::uint64_t tasks = (samples + kTaskSamples - 1) / kTaskSamples;

  std::atomic<std::uint64_t> checked{0}, differences{0};
  std::mutex report;
  const auto start = std::chrono::steady_clock::now();
  kit::ThreadPool pool(kit::available_threads());
  pool.run(tasks, [&](std::size_t task) {
    std::uint64_t local = 0;
    const std::uint64_t first = task * kTaskSamples;
    const std::uint64_t last = std::min(samples, first + kTaskSamples);
    for (std::uint64_t i = first; i < last; ++i) {
      const auto bits = static_cast<std::uint32_t>(i * stride);
      float value;
      std::memcpy(&value, &bits, sizeof value);
      if (!std::isfinite(value))
        continue;
      char fast[32], exact[64];
      const int fast_length = static_cast<int>(kit::io::format_float_g6(fast, value) - fast);
      const int exact_length = std::snprintf(exact, sizeof exact, "%g", static_cast<double>(value));
      ++local;
      if (fast_length != exact_length || std::memcmp(fast, exact, exact_length) != 0) {
        if (differences++ < 20) {
          std::lock_guard<std::mutex> lock(report);
          std::printf("bits 0x%08" PRIx32 ": format_float_g6 '%.*s', printf '%s'\n", bits,
                      fast_length, fast, exact);
        }
      }
    }
    checked += local;
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%" PRIu64 " finite floats checked (stride %" PRIu64 ", %d threads, %.1f s): %" PRIu64
              " differences\n",
              checked.load(), stride, pool.size(), seconds, differences.load());
  return differences.load() == 0 ? 0 : 1;
}
