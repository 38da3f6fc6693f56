#include "program/small_input.h"

#include "program/gpu_warmup.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

// Set by common/CMakeLists.txt from the CMake option KIT_SMALL_INPUT: 0 off, 1 contest, 2 fastest.
#ifndef KIT_SMALL_INPUT_DEFAULT
#define KIT_SMALL_INPUT_DEFAULT 1
#endif

namespace kit::io {

namespace {

SmallInputMode build_mode() {
  switch (KIT_SMALL_INPUT_DEFAULT) {
  case 0:
    return SmallInputMode::off;
  case 2:
    return SmallInputMode::fastest;
  default:
    return SmallInputMode::contest;
  }
}

bool is_set(const char *flag) { return flag && *flag && std::strcmp(flag, "0") != 0; }

SmallInputMode parse_mode(const char *text) {
  for (SmallInputMode mode :
       {SmallInputMode::contest, SmallInputMode::fastest, SmallInputMode::off})
    if (std::strcmp(text, mode_name(mode)) == 0)
      return mode;
  throw SettingError("KIT_SMALL_INPUT='" + std::string(text) +
                     "': expected contest, fastest or off");
}

std::uint64_t parse_size(const char *text) {
  char *end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  const bool digits_only = *text >= '0' && *text <= '9' && end && *end == '\0';
  if (!digits_only || errno == ERANGE)
    throw SettingError("KIT_SMALL_INPUT_MAX='" + std::string(text) +
                       "': expected a size (a decimal integer, 0 for none)");
  return value;
}

} // namespace

const char *mode_name(SmallInputMode mode) {
  switch (mode) {
  case SmallInputMode::off:
    return "off";
  case SmallInputMode::fastest:
    return "fastest";
  case SmallInputMode::contest:
    break;
  }
  return "contest";
}

SmallInputSettings current_small_input_settings() {
  SmallInputSettings settings;
  settings.gpu_build = built_for_gpu();
  settings.build_mode = build_mode();
  settings.mode = std::getenv("KIT_SMALL_INPUT");
  settings.force_gpu = std::getenv("KIT_FORCE_GPU");
  settings.small_input_max = std::getenv("KIT_SMALL_INPUT_MAX");
  return settings;
}

std::optional<std::uint64_t> small_input_limit(const SmallInputLimits &limits,
                                               const SmallInputSettings &settings) {
  // Every value is checked, on every backend, before anything else decides: a misspelt setting
  // is reported the same way wherever it is used.
  const SmallInputMode mode = settings.mode ? parse_mode(settings.mode) : settings.build_mode;
  const std::optional<std::uint64_t> max_override =
      settings.small_input_max ? std::optional<std::uint64_t>(parse_size(settings.small_input_max))
                               : std::nullopt;
  if (!settings.gpu_build || mode == SmallInputMode::off || is_set(settings.force_gpu))
    return std::nullopt;
  if (max_override)
    return max_override;
  return mode == SmallInputMode::fastest ? limits.fastest : limits.contest;
}

bool decide_small_input(std::uint64_t size, const SmallInputLimits &limits,
                        const SmallInputSettings &settings) {
  const std::optional<std::uint64_t> limit = small_input_limit(limits, settings);
  return limit && size <= *limit;
}

bool answer_small_input_on_cpu(std::uint64_t size, const SmallInputLimits &limits) {
  return decide_small_input(size, limits, current_small_input_settings());
}

} // namespace kit::io
