// Which inputs a GPU build answers with the CPU reference instead of the GPU kernels.
//
// Three modes, chosen at build time (CMake option KIT_SMALL_INPUT, default `contest`) and
// overridable at run time (environment variable KIT_SMALL_INPUT, the same three words):
//   contest  the GPU computes every answer except tiny inputs, whose whole answer on the CPU takes
//            about 1% of the GPU runtime's start-up (README "Small inputs": the rule and the
//            measurement behind each problem's limit). The contest requires GPU code and its
//            judges read it, so mid-size cases must not be answered on the CPU by default.
//   fastest  the measured cross-over: every input the CPU answers faster than the GPU runtime can
//            start (up to N = 2e7 for prefix_sum). An explicit choice of the user.
//   off      the GPU computes every answer. KIT_FORCE_GPU set to anything but "" or "0" does the
//            same whatever the mode (the self-test uses it to prove the kernels on every case).
// KIT_SMALL_INPUT_MAX=<size> replaces the mode's limit (0: never). The CPU backend has no GPU: the
// policy never applies there. An environment value that is not one of these is an error
// (SettingError): a misspelt setting must not silently change which path answers.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace kit::io {

enum class SmallInputMode { off, contest, fastest };

// A problem's limits (N for prefix_sum and softmax, V for apsp), one per mode that has one.
struct SmallInputLimits {
  std::uint64_t contest = 0; // tiny inputs: the CPU answer costs about 1% of the GPU start-up
  std::uint64_t fastest = 0; // the measured cross-over of the CPU path and the GPU path
};

// A malformed KIT_SMALL_INPUT or KIT_SMALL_INPUT_MAX; what() names the variable, its value and
// what is accepted. The programs report it on stderr and exit with status 2.
class SettingError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Everything the decision depends on besides the input size, gathered so that tests can give
// each combination explicitly.
struct SmallInputSettings {
  bool gpu_build = false;                              // built for CUDA or HIP
  SmallInputMode build_mode = SmallInputMode::contest; // the KIT_SMALL_INPUT CMake option
  const char *mode = nullptr;                          // $KIT_SMALL_INPUT, null when unset
  const char *force_gpu = nullptr;                     // $KIT_FORCE_GPU, null when unset
  const char *small_input_max = nullptr;               // $KIT_SMALL_INPUT_MAX, null when unset
};

// The settings of this process: build and environment.
SmallInputSettings current_small_input_settings();

// The largest size answered on the CPU under `settings`; empty when the GPU answers every input.
// Throws SettingError for a malformed environment value.
std::optional<std::uint64_t> small_input_limit(const SmallInputLimits &limits,
                                               const SmallInputSettings &settings);

// Whether an input of `size` is answered by the CPU reference under `settings`.
bool decide_small_input(std::uint64_t size, const SmallInputLimits &limits,
                        const SmallInputSettings &settings);

// decide_small_input with current_small_input_settings().
bool answer_small_input_on_cpu(std::uint64_t size, const SmallInputLimits &limits);

// "contest", "fastest" or "off".
const char *mode_name(SmallInputMode mode);

} // namespace kit::io
