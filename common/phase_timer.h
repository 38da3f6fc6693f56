// Where a contest program's time goes, on request: with KIT_TIMING set (to anything but "" or
// "0") the program prints one line on stderr when it ends, e.g.
//   kit timing: header 0.0 ms, parse 41.2 ms, GPU start-up wait 151.9 ms, solve 3.1 ms,
//   output 60.3 ms, total 256.6 ms (from main)
// which shows the GPU runtime wait that parsing did not hide and the cost of each phase, e.g. to
// re-measure the small-input limits on the contest machine. Unset, it costs one getenv.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace kit::io {

class PhaseTimer {
public:
  PhaseTimer() : enabled_(requested()), start_(Clock::now()), last_(start_) {}
  PhaseTimer(const PhaseTimer &) = delete;
  PhaseTimer &operator=(const PhaseTimer &) = delete;
  ~PhaseTimer() {
    if (enabled_)
      std::fprintf(stderr, "kit timing:%s total %.1f ms (from main)\n", report_.c_str(),
                   milliseconds(start_, Clock::now()));
  }

  // Ends the current phase and names it.
  void mark(const char *phase) {
    if (!enabled_)
      return;
    const Clock::time_point now = Clock::now();
    char item[128];
    std::snprintf(item, sizeof item, " %s %.1f ms,", phase, milliseconds(last_, now));
    report_ += item;
    last_ = now;
  }

private:
  using Clock = std::chrono::steady_clock;
  static bool requested() {
    const char *value = std::getenv("KIT_TIMING");
    return value && *value && !(value[0] == '0' && value[1] == '\0');
  }
  static double milliseconds(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
  }

  bool enabled_;
  Clock::time_point start_;
  Clock::time_point last_;
  std::string report_;
};

} // namespace kit::io
