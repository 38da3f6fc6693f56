// Where a contest program's time goes, on request: with KIT_TIMING set (to anything but "" or
// "0") the program prints one line on stderr when it ends, e.g.
//   kit timing: gpu path, header 0.0 ms, parse 41.2 ms, GPU start-up 190.4 ms (on its own
//   thread), GPU start-up wait 151.9 ms, solve 3.1 ms, output 60.3 ms, total 256.6 ms (from main)
// which says which path answered (`gpu`: the kernels; `cpu`: the CPU reference, on the CPU backend
// or for a small input), the GPU runtime's start-up and the part of it that parsing did not hide,
// and the cost of each phase, e.g. to re-measure the small-input limits on the contest machine.
// The self-test reads the path from this line. Unset, it costs one getenv.
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

  // Names the path that answers: "gpu" or "cpu". Printed first.
  void path(const char *name) {
    if (enabled_)
      report_ = std::string(" ") + name + " path," + report_;
  }

  // Ends the current phase and names it.
  void mark(const char *phase) {
    if (!enabled_)
      return;
    const Clock::time_point now = Clock::now();
    add(phase, milliseconds(last_, now));
    last_ = now;
  }

  // A duration measured elsewhere (e.g. on another thread), reported in the current position
  // without ending the current phase.
  void add(const char *what, double ms) {
    if (!enabled_)
      return;
    char item[160];
    std::snprintf(item, sizeof item, " %s %.1f ms,", what, ms);
    report_ += item;
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
