#include "small_input.h"

#include "gpu_warmup.h"

#include <cstdio>
#include <cstdlib>

// Set by common/CMakeLists.txt from the CMake option of the same name (1 or 0).
#ifndef KIT_SMALL_INPUT_CPU
#define KIT_SMALL_INPUT_CPU 1
#endif

namespace kit::io {

SmallInputSettings current_small_input_settings() {
  SmallInputSettings settings;
  settings.gpu_build = built_for_gpu();
  settings.enabled_at_build = KIT_SMALL_INPUT_CPU != 0;
  settings.force_gpu = std::getenv("KIT_FORCE_GPU");
  settings.small_input_max = std::getenv("KIT_SMALL_INPUT_MAX");
  return settings;
}

SmallInputDecision decide_small_input(std::uint64_t size, std::uint64_t default_max,
                                      const SmallInputSettings &settings) {
  SmallInputDecision decision;
  if (!settings.gpu_build || !settings.enabled_at_build)
    return decision;
  const char *force = settings.force_gpu;
  if (force && *force && !(force[0] == '0' && force[1] == '\0'))
    return decision;
  std::uint64_t max = default_max;
  if (const char *text = settings.small_input_max) {
    char *end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 10);
    const bool digits_only = *text >= '0' && *text <= '9' && end && *end == '\0';
    if (digits_only && value != ~0ull) {
      max = value;
    } else {
      decision.warning = "warning: KIT_SMALL_INPUT_MAX='" + std::string(text) +
                         "' is not a size (a decimal integer); using " +
                         std::to_string(default_max);
    }
  }
  decision.on_cpu = size <= max;
  return decision;
}

bool answer_small_input_on_cpu(std::uint64_t size, std::uint64_t default_max) {
  const SmallInputDecision decision =
      decide_small_input(size, default_max, current_small_input_settings());
  if (!decision.warning.empty())
    std::fprintf(stderr, "%s\n", decision.warning.c_str());
  return decision.on_cpu;
}

} // namespace kit::io
