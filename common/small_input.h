// The small-input path of the GPU builds: an input below a per-problem size (measured, see each
// problem's README) is answered by the CPU reference without ever initialising the GPU runtime,
// because the runtime's start-up alone (0.1-0.5 s) costs more than the whole CPU answer.
//
// On by default. Switched off at build time with the CMake option -DKIT_SMALL_INPUT_CPU=OFF and at
// run time with KIT_FORCE_GPU=1 (contests that require every case to run on the GPU). The size
// limit can be changed at run time with KIT_SMALL_INPUT_MAX=<size> (0: never), to re-measure the
// crossover on another machine. The CPU backend has no GPU: the policy never applies there.
#pragma once

#include <cstdint>
#include <string>

namespace kit::io {

// Everything the decision depends on besides the input size, gathered so that tests can give
// each combination explicitly.
struct SmallInputSettings {
  bool gpu_build = false;                // built for CUDA or HIP (built_for_gpu())
  bool enabled_at_build = true;          // the KIT_SMALL_INPUT_CPU CMake option
  const char *force_gpu = nullptr;       // $KIT_FORCE_GPU, null when unset
  const char *small_input_max = nullptr; // $KIT_SMALL_INPUT_MAX, null when unset
};

// The settings of this process: build and environment.
SmallInputSettings current_small_input_settings();

struct SmallInputDecision {
  bool on_cpu = false; // answer with the CPU reference, leave the GPU runtime alone
  std::string warning; // non-empty when an environment value was malformed and ignored
};

// Whether an input of `size` (N for prefix_sum and softmax, V for apsp) takes the small-input
// path: only in a GPU build with the path enabled at build time, unless KIT_FORCE_GPU is set to
// anything but "" or "0", and when size <= the limit (`default_max`, or KIT_SMALL_INPUT_MAX when
// that is a decimal integer; a malformed value is ignored with a warning).
SmallInputDecision decide_small_input(std::uint64_t size, std::uint64_t default_max,
                                      const SmallInputSettings &settings);

// decide_small_input with current_small_input_settings(); prints a warning line on stderr, if
// any, and returns on_cpu.
bool answer_small_input_on_cpu(std::uint64_t size, std::uint64_t default_max);

} // namespace kit::io
